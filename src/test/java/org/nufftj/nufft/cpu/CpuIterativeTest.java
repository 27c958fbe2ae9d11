package org.nufftj.nufft.cpu;

import org.nufftj.nufft.Backend;
import org.nufftj.recon.iterative.AbstractIterativeTest;

/** The iterative layer (CG, SENSE, Toeplitz normal) on the CPU backend. */
class CpuIterativeTest extends AbstractIterativeTest {

	@Override
	protected Backend open() {
		return new CpuBackend(2);
	}
}
