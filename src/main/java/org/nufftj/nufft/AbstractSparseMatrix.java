package org.nufftj.nufft;

/**
 * What the backends' {@link SparseMatrix} tables share: the shape, the precision and the closed state. A subclass
 * holds the tables and frees them in {@link #free()}.
 */
public abstract class AbstractSparseMatrix implements SparseMatrix {

	private final int rows, columns, k;
	private final Precision precision;
	private boolean closed;

	protected AbstractSparseMatrix(final int rows, final int columns, final int k, final Precision precision) {
		this.rows = rows;
		this.columns = columns;
		this.k = k;
		this.precision = precision;
	}

	@Override
	public final int rows() { return rows; }

	@Override
	public final int columns() { return columns; }

	@Override
	public final int entriesPerRow() { return k; }

	@Override
	public final Precision precision() { return precision; }

	/** Fails naming the matrix when it is closed. */
	public final void ensureOpen() {
		if (closed) throw new IllegalStateException("sparse matrix " + SparseMatrix.describe(this) + " is closed");
	}

	/** Frees the tables (once). */
	protected abstract void free();

	@Override
	public final void close() {
		if (closed) return;
		closed = true;
		free();
	}
}
