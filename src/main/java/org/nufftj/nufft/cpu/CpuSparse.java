package org.nufftj.nufft.cpu;

import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SparseMatrix;

/** A {@link SparseMatrix} of the CPU backend: its ELL tables as Java arrays (weights in double for either precision). */
final class CpuSparse implements SparseMatrix {

	final CpuBackend backend;
	final int rows, columns, k;
	final int[] index;
	final double[] weights;
	private final Precision precision;
	private boolean closed;

	CpuSparse(final CpuBackend backend, final int rows, final int columns, final int k, final int[] index,
		final double[] weights, final Precision precision)
	{
		this.backend = backend;
		this.rows = rows;
		this.columns = columns;
		this.k = k;
		this.index = index;
		this.weights = weights;
		this.precision = precision;
	}

	@Override
	public int rows() { return rows; }

	@Override
	public int columns() { return columns; }

	@Override
	public int entriesPerRow() { return k; }

	@Override
	public Precision precision() { return precision; }

	void ensureOpen() {
		if (closed) throw new IllegalStateException("sparse matrix " + SparseMatrix.describe(this) + " is closed");
	}

	@Override
	public void close() {
		closed = true;
	}
}
