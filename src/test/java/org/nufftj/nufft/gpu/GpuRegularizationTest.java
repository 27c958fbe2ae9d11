package org.nufftj.nufft.gpu;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.iterative.AbstractRegularizationTest;

/** Regularisers and their solvers (soft-threshold kernel, wavelet, finite differences, FISTA, ADMM) on GPU 0. */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuRegularizationTest extends AbstractRegularizationTest {

	@Override
	protected Backend open() {
		return Backends.open(DeviceChoice.gpu(0), 0, null);
	}
}
