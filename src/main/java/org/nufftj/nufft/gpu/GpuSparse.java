package org.nufftj.nufft.gpu;

import org.nufftj.nufft.AbstractSparseMatrix;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SparseMatrix;

/**
 * A sparse matrix of the GPU backend: its ELL tables in device memory, transposed to [entry][row]
 * (kernels/vector.cu, vec_sparse_apply), weights in the matrix's precision. Freed by {@link #close()} or with its
 * backend.
 */
final class GpuSparse extends AbstractSparseMatrix {

	final GpuBackend backend;
	final DeviceArray index, weights;

	GpuSparse(final GpuBackend backend, final int rows, final int columns, final int k, final DeviceArray index,
		final DeviceArray weights, final Precision precision)
	{
		super(rows, columns, k, precision);
		this.backend = backend;
		this.index = index;
		this.weights = weights;
	}

	@Override
	protected void free() {
		backend.free("sparse matrix " + SparseMatrix.describe(this), index);
		backend.free("sparse matrix " + SparseMatrix.describe(this), weights);
	}
}
