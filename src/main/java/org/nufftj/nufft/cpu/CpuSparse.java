package org.nufftj.nufft.cpu;

import org.nufftj.nufft.AbstractSparseMatrix;
import org.nufftj.nufft.Precision;

/** A sparse matrix of the CPU backend: its ELL tables as Java arrays (weights in double for either precision). */
final class CpuSparse extends AbstractSparseMatrix {

	final CpuBackend backend;
	final int[] index;
	final double[] weights;

	CpuSparse(final CpuBackend backend, final int rows, final int columns, final int k, final int[] index,
		final double[] weights, final Precision precision)
	{
		super(rows, columns, k, precision);
		this.backend = backend;
		this.index = index;
		this.weights = weights;
	}

	@Override
	protected void free() {
		// The tables are garbage once the matrix is unreachable.
	}
}
