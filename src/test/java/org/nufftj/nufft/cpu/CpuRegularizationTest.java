package org.nufftj.nufft.cpu;

import org.nufftj.nufft.Backend;
import org.nufftj.recon.iterative.AbstractRegularizationTest;

/** Regularisers and their solvers (soft thresholding, wavelet, finite differences, FISTA, ADMM) on the CPU backend. */
class CpuRegularizationTest extends AbstractRegularizationTest {

	@Override
	protected Backend open() {
		return new CpuBackend(2);
	}
}
