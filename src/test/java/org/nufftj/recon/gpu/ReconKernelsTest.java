package org.nufftj.recon.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Host-side choices of the recon kernels (no GPU): Walsh kernel variant, its shared memory, the coil limits. */
class ReconKernelsTest {

	@Test
	void walshGroupCoversTheCoilsInAPowerOfTwoUpToAWarp() {
		for (int c = 1; c <= ReconKernels.WALSH_REGISTER_COILS; c++) {
			final int g = ReconKernels.groupSize(c);
			assertTrue(g >= c && g >= 4 && g <= 32 && Integer.bitCount(g) == 1, c + " coils -> group " + g);
			assertTrue(g == 4 || g / 2 < c, c + " coils -> group " + g + " is not the smallest");
		}
		assertEquals(0, ReconKernels.groupSize(33), "above a warp: the shared-memory kernel");
		assertEquals(0, ReconKernels.groupSize(128));
	}

	@Test
	void walshSharedMemoryAndLimits() {
		// R: coils x (coils + 1) float2, plus the coil vector and u: coils float2 each.
		assertEquals(8 * (40 * 41 + 80), ReconKernels.walshSharedBytes(40));
		final int h100 = 227 * 1024;
		assertNull(ReconKernels.walshUnsupported(1, 0), "register kernel needs no shared memory");
		assertNull(ReconKernels.walshUnsupported(32, 0));
		assertNull(ReconKernels.walshUnsupported(40, 48 * 1024));
		assertNull(ReconKernels.walshUnsupported(ReconKernels.WALSH_MAX_COILS, h100));
		assertNotNull(ReconKernels.walshUnsupported(ReconKernels.WALSH_MAX_COILS + 1, h100), "above the kernel's rows");
		final String r = ReconKernels.walshUnsupported(100, 48 * 1024);
		assertNotNull(r, "100 coils need 82400 B of shared memory");
		assertTrue(r.contains("100 coils") && r.contains("82400"), r);
	}
}
