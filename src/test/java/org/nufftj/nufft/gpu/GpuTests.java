package org.nufftj.nufft.gpu;

import org.junit.jupiter.api.Assumptions;

/** Shared set-up of the GPU tests (this package's and other layers'): skip, with the reason, where no usable GPU exists. */
public final class GpuTests {

	private GpuTests() {}

	/** Skips the calling test class unless GPU 0, its driver, cuFFT and the kernel modules all work. */
	public static void assumeGpu() {
		final String reason = GpuInfo.unusableReason(0);
		Assumptions.assumeTrue(reason == null, "no usable GPU: " + reason);
	}
}
