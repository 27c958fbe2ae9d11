package org.nufftj.nufft.gpu;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.nufftj.nufft.AbstractNufftPlanTest;
import org.nufftj.nufft.DeviceChoice;

/**
 * The shared NUFFT suite (accuracy against the exact NUDFT for every trajectory type, ε = 1e-2…1e-5 float and
 * 1e-6…1e-10 double, every kernel, adjointness, batches, point replacement, errors) on GPU 0 with the automatic
 * spreading method. Skipped, with the reason, without a usable GPU.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuNufftPlanTest extends AbstractNufftPlanTest {

	@BeforeAll
	static void requireGpu() {
		GpuTests.assumeGpu();
	}

	@Override
	protected DeviceChoice device() {
		return DeviceChoice.gpu(0);
	}
}
