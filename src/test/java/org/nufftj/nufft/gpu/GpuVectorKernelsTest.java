package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Host-side choices of the vector kernels (no GPU): Walsh kernel variant, its shared memory, the coil limits, grids. */
class GpuVectorKernelsTest {

	@Test
	void walshGroupCoversTheCoilsInAPowerOfTwoUpToAWarp() {
		for (int c = 1; c <= GpuVectorKernels.WALSH_REGISTER_COILS; c++) {
			final int g = GpuVectorKernels.groupSize(c);
			assertTrue(g >= c && g >= 4 && g <= 32 && Integer.bitCount(g) == 1, c + " coils -> group " + g);
			assertTrue(g == 4 || g / 2 < c, c + " coils -> group " + g + " is not the smallest");
		}
		assertEquals(0, GpuVectorKernels.groupSize(33), "above a warp: the shared-memory kernel");
		assertEquals(0, GpuVectorKernels.groupSize(128));
	}

	@Test
	void walshSharedMemoryAndLimits() {
		// R: coils x (coils + 1) complex, plus the coil vector and u: coils complex each (8 B float, 16 B double).
		assertEquals(8 * (40 * 41 + 80), GpuVectorKernels.walshSharedBytes(40, false));
		assertEquals(16 * (40 * 41 + 80), GpuVectorKernels.walshSharedBytes(40, true));
		final int h100 = 227 * 1024;
		assertNull(GpuVectorKernels.walshUnsupported(1, false, 0), "register kernel needs no shared memory");
		assertNull(GpuVectorKernels.walshUnsupported(32, true, 0));
		assertNull(GpuVectorKernels.walshUnsupported(40, false, 48 * 1024));
		assertNull(GpuVectorKernels.walshUnsupported(GpuVectorKernels.WALSH_MAX_COILS, false, h100));
		assertNull(GpuVectorKernels.walshUnsupported(90, true, h100), "double: 133920 B");
		final String d128 = GpuVectorKernels.walshUnsupported(GpuVectorKernels.WALSH_MAX_COILS, true, h100);
		assertTrue(d128 != null && d128.contains("double") && d128.contains("268288"), "double 128 coils: " + d128);
		assertNotNull(GpuVectorKernels.walshUnsupported(GpuVectorKernels.WALSH_MAX_COILS + 1, false, h100),
			"above the kernel's rows");
		final String r = GpuVectorKernels.walshUnsupported(100, false, 48 * 1024);
		assertNotNull(r, "100 coils need 82400 B of shared memory");
		assertTrue(r.contains("100 coils") && r.contains("82400"), r);
		final String d = GpuVectorKernels.walshUnsupported(100, true, 96 * 1024);
		assertTrue(d != null && d.contains("double") && d.contains("164800"), d);
	}

	@Test
	void gridStrideLaunchesAreBoundedAndNeverEmpty() {
		assertEquals(1, GpuVectorKernels.blocks(0));
		assertEquals(1, GpuVectorKernels.blocks(1));
		assertEquals(2, GpuVectorKernels.blocks(GpuVectorKernels.BLOCK + 1));
		assertEquals(GpuVectorKernels.MAX_BLOCKS, GpuVectorKernels.blocks(1L << 40));
		assertEquals(GpuVectorKernels.REDUCTION_BLOCKS, GpuVectorKernels.reductionBlocks(1L << 40));
	}
}
