package org.nufftj.nufft.gpu;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.AbstractReconTest;

/** Gridding reconstruction and Pipe–Menon on GPU 0, each compared with the CPU backend (≤ 1e-5). */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuReconTest extends AbstractReconTest {

	@Override
	protected Backend open() {
		return Backends.open(DeviceChoice.gpu(0), 0, null);
	}
}
