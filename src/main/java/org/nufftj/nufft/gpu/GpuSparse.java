package org.nufftj.nufft.gpu;

import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SparseMatrix;

/**
 * A {@link SparseMatrix} of the GPU backend: its ELL tables in device memory, transposed to [entry][row]
 * (kernels/vector.cu, vec_sparse_apply), weights in the matrix's precision. Freed by {@link #close()} or with its backend.
 */
final class GpuSparse implements SparseMatrix {

	final GpuBackend backend;
	final DeviceArray index, weights;
	private final int rows, columns, k;
	private final Precision precision;
	private boolean closed;

	GpuSparse(final GpuBackend backend, final int rows, final int columns, final int k, final DeviceArray index,
		final DeviceArray weights, final Precision precision)
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
		if (closed) return;
		closed = true;
		backend.free("sparse matrix " + SparseMatrix.describe(this), index);
		backend.free("sparse matrix " + SparseMatrix.describe(this), weights);
	}
}
