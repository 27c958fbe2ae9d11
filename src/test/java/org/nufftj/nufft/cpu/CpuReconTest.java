package org.nufftj.nufft.cpu;

import org.nufftj.nufft.Backend;
import org.nufftj.recon.AbstractReconTest;

/** Gridding reconstruction and Pipe–Menon on the CPU backend. */
class CpuReconTest extends AbstractReconTest {

	@Override
	protected Backend open() {
		return new CpuBackend(2);
	}
}
