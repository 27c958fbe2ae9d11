package org.nufftj.nufft;

import org.nufftj.InvalidInputException;

/**
 * A complex sparse matrix held by a {@link Backend} in ELL form: R rows of K entries each, entry k of row r a column
 * index {@code index[r·K + k]} (−1: no entry) and a complex weight {@code weights[2(r·K + k)], [2(r·K + k) + 1]}.
 * Made once by {@link Backend#sparse} (the tables copied to the backend) and applied to batches of vectors by
 * {@link Backend#apply}: gathers with interpolation weights, permutations with phase factors, crops and zero-padding
 * (f-k migration's Stolt mapping and transposes), a precomputed interpolation matrix. Owned by its maker, who closes
 * it before the backend.
 */
public interface SparseMatrix extends AutoCloseable {

	/** Rows R (complex elements of each output vector). */
	int rows();

	/** Columns C (complex elements of each input vector). */
	int columns();

	/** Entries per row K. */
	int entriesPerRow();

	/** Float or double (of the weights, and of the buffers it applies to). */
	Precision precision();

	/** Frees the tables; idempotent. */
	@Override
	void close();

	/**
	 * Checks the tables of a matrix of {@code rows} × {@code columns} with {@code k} entries per row: the lengths,
	 * and every index in [−1, columns); the message names the first bad entry.
	 */
	static void check(final int rows, final int columns, final int k, final int[] index, final double[] weights) {
		InvalidInputException.require(rows >= 1 && columns >= 1 && k >= 1, "sparse matrix: expected rows, columns and " +
			"entries per row >= 1, found " + rows + ", " + columns + ", " + k);
		final long n = (long) rows * k;
		InvalidInputException.require(index != null && index.length == n, "sparse matrix: expected " + n +
			" indices (" + rows + " rows x " + k + " entries), found " + (index == null ? 0 : index.length));
		InvalidInputException.require(weights != null && weights.length == 2 * n, "sparse matrix: expected " + 2 * n +
			" weight values (complex, " + rows + " rows x " + k + " entries), found " + (weights == null ? 0 :
				weights.length));
		for (int i = 0; i < index.length; i++) {
			if (index[i] < -1 || index[i] >= columns) {
				throw new InvalidInputException("sparse matrix: index " + index[i] + " of row " + i / k + ", entry " +
					i % k + " outside [-1, " + columns + ")");
			}
		}
		for (int i = 0; i < weights.length; i++) {
			if (!Double.isFinite(weights[i])) {
				throw new InvalidInputException("sparse matrix: weight of row " + i / 2 / k + ", entry " + i / 2 % k +
					" is " + weights[i] + " (" + (i % 2 == 0 ? "real" : "imaginary") + " part)");
			}
		}
	}

	/**
	 * The batch T of {@code a} applied to {@code x} into {@code y}: x holds T vectors of 2·C values, y T of 2·R;
	 * else an error naming the lengths.
	 */
	static int batch(final SparseMatrix a, final Buffer x, final Buffer y) {
		final long in = 2L * a.columns(), out = 2L * a.rows();
		if (x.length() == 0 || x.length() % in != 0 || y.length() != x.length() / in * out) {
			throw new InvalidInputException("apply sparse matrix " + a.rows() + " x " + a.columns() + ": input of " +
				x.length() + " values (2 x " + a.columns() + " x T) and output of " + y.length() + " values (2 x " +
				a.rows() + " x T) do not hold the same number T >= 1 of vectors");
		}
		final long t = x.length() / in;
		InvalidInputException.require(t <= Integer.MAX_VALUE, "apply sparse matrix: " + t + " vectors");
		return (int) t;
	}

	/** A short description for messages: "R x C, K per row (precision)". */
	static String describe(final SparseMatrix a) {
		return a.rows() + " x " + a.columns() + ", " + a.entriesPerRow() + " per row (" +
			a.precision().name().toLowerCase(java.util.Locale.ROOT) + ")";
	}
}
