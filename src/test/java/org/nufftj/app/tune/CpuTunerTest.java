package org.nufftj.app.tune;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.cpu.CpuBackend;

/** The tuner suite on the CPU backend (2 worker threads). */
class CpuTunerTest extends AbstractTunerTest {

	@Override
	protected Backend open() {
		return new CpuBackend(2);
	}
}
