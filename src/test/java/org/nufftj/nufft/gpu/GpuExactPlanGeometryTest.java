package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The exact plan's launch geometry (host logic, no GPU; the kernels themselves run in GpuIterativeTest on the
 * device): transforms split into kernel batches of 8, 4, 2, 1 without remainder; the summed dimension split into
 * chunks only when the grid is too small to fill the device, never into more chunks than tiles; the voxels per thread
 * the Java side assumes are the kernel's UNROLL(TB).
 */
class GpuExactPlanGeometryTest {

	@Test
	void batchesCoverEveryTransformOnce() {
		for (int t = 1; t <= 40; t++) {
			int done = 0, launches = 0;
			while (done < t) {
				final int b = GpuExactPlan.batch(t - done);
				assertTrue(b == 1 || b == 2 || b == 4 || b == 8, "batch " + b);
				assertTrue(b <= t - done, t + " transforms: batch " + b + " after " + done);
				done += b;
				launches++;
			}
			assertEquals(t, done);
			assertEquals(t / 8 + Integer.bitCount(t % 8), launches, t + " transforms");
		}
	}

	@Test
	void chunksOnlyWhereTheGridIsSmall() {
		final int sms = 132;
		assertEquals(1, GpuExactPlan.chunks(8 * sms, 1_000_000, sms), "a full grid is one chunk");
		assertEquals(1, GpuExactPlan.chunks(5_000, 10, sms), "a full grid is one chunk");
		assertEquals(1, GpuExactPlan.chunks(1, 200, sms), "one tile cannot be split");
		assertEquals(4, GpuExactPlan.chunks(1, 4 * GpuExactPlan.TILE, sms), "no more chunks than tiles");
		final int c = GpuExactPlan.chunks(10, 1 << 20, sms);
		assertTrue(c * 10 >= 8 * sms && c <= (1 << 20) / GpuExactPlan.TILE, c + " chunks for 10 blocks");
	}

	@Test
	void unrollMirrorsTheKernel() throws Exception {
		final String cu = Files.readString(Path.of("kernels/exact.cu"));
		final Matcher m = Pattern.compile("#define UNROLL\\(TB\\) \\(\\(TB\\) <= (\\d+) \\? (\\d+) : (\\d+)\\)").matcher(cu);
		assertTrue(m.find(), "UNROLL(TB) in kernels/exact.cu");
		for (final int tb : new int[] { 1, 2, 4, 8 }) {
			final int expected = tb <= Integer.parseInt(m.group(1)) ? Integer.parseInt(m.group(2)) : Integer.parseInt(m
				.group(3));
			assertEquals(expected, GpuExactPlan.unroll(tb), "TB " + tb);
		}
		assertTrue(cu.contains("#define TILE " + GpuExactPlan.TILE) && cu.contains("#define BLOCK " + GpuExactPlan.BLOCK),
			"TILE and BLOCK");
	}
}
