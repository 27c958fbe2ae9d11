package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.ParameterChoice;

/**
 * The own GPU FFT's plan of passes (host logic, no GPU; the kernels run in GpuOwnFftTest on the device): radices 8
 * first, then 4, 6, 2, 3, 5, 7, whose product is the length; every grid length the parameter choice makes can be
 * planned; other primes are refused naming the length and the factor.
 */
class GpuOwnFftFactorsTest {

	@Test
	void radicesMultiplyToTheLength() {
		assertArrayEquals(new int[] { 8, 8, 6 }, GpuOwnFft.factors(384));
		assertArrayEquals(new int[] { 8, 8, 4, 3 }, GpuOwnFft.factors(768));
		assertArrayEquals(new int[] { 6, 5, 7 }, GpuOwnFft.factors(210));
		assertArrayEquals(new int[] {}, GpuOwnFft.factors(1));
		for (int n = 1; n <= 4096; n++) {
			int m = n;
			for (final int p : new int[] { 2, 3, 5, 7 }) while (m % p == 0) m /= p;
			if (m != 1) continue;
			int prod = 1;
			for (final int r : GpuOwnFft.factors(n)) {
				assertTrue(r == 2 || r == 3 || r == 4 || r == 5 || r == 6 || r == 7 || r == 8, n + ": radix " + r);
				prod *= r;
			}
			assertEquals(n, prod, "product of the radices of " + n);
		}
	}

	@Test
	void everyGridLengthOfTheParameterChoiceIsPlanned() {
		for (int n = 1; n <= 3000; n++) GpuOwnFft.factors(ParameterChoice.nextSmooth(n));
	}

	@Test
	void otherPrimesAreRefused() {
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> GpuOwnFft.factors(2 * 3 * 11));
		assertTrue(e.getMessage().contains("66") && e.getMessage().contains("11"), e.getMessage());
	}

	@Test
	void sharedMemoryBlocksFitAndCoverEveryLine() {
		final int optin = 227 * 1024;
		for (final int bytes : new int[] { 8, 16 }) {
			for (final int n : new int[] { 2, 7, 30, 384, 1000, 1536, 3000, 8192 }) {
				for (final long inner : new long[] { 1, 3, 6, 384, 100000 }) {
					for (final long outer : new long[] { 1, 5, 384 }) {
						final int[] l = GpuOwnFft.sharedLayout(n, GpuOwnFft.factors(ParameterChoice.nextSmooth(n))
							.length, inner, outer, bytes, optin, 132);
						final String what = "n " + n + ", inner " + inner + ", outer " + outer + ", " + bytes + " B";
						if (l == null) {
							// only refused when even the narrowest block does not fit
							final long narrowest = inner == 1 ? 1 : Math.min(inner, 32 / bytes);
							assertTrue((2 * GpuOwnFft.buffer((int) (n * narrowest)) + n) * bytes + (inner == 1 ? 8 : 0) > optin, what +
								" refused although it fits");
							continue;
						}
						final int cols = l[0];
						assertEquals((2L * GpuOwnFft.buffer(n * cols) + n) * bytes + (inner == 1 ? 8L * cols : 0), l[1], what +
							": shared bytes");
						assertTrue(l[1] <= optin, what + ": " + l[1] + " B > opt-in");
						final long lines = inner == 1 ? outer : outer * inner;
						final long covered = inner == 1 ? (long) l[2] * cols : outer * ((inner + cols - 1) / cols) *
							cols;
						assertTrue(covered >= lines && covered - lines < (inner == 1 ? cols : outer * cols), what +
							": blocks cover " + covered + " lines for " + lines);
						if (inner > 1) {
							assertEquals(Integer.bitCount(cols) == 1 || cols == inner, true, what + ": tile " + cols);
							assertTrue(cols * bytes >= 32 || cols == inner, what + ": tile " + cols + " narrower than a sector");
						}
						assertTrue(l[3] >= 64 && l[3] <= (bytes == 16 ? 256 : 512) && l[3] % 32 == 0, what + ": " + l[3] +
							" threads");
						assertTrue((long) n * cols <= Math.max(n * Math.max(1, Math.min(inner, 32 / bytes)), GpuOwnFft
							.SHARED_ELEMENTS * 8 / bytes), what + ": " + cols + " lines exceed the block's aim");
					}
				}
			}
		}
	}

	@Test
	void smallTransformsGetSmallerBlocksForParallelism() {
		// Blocks per SM B = BLOCKS_PER_SM; a block aims at max(n, min(4096, elements / (B · 132))) elements.
		final int aim384 = (int) Math.max(384, Math.min(GpuOwnFft.SHARED_ELEMENTS, 384L * 384 * 8 /
			(GpuOwnFft.BLOCKS_PER_SM * 132L)));
		// 8 images of 384^2 on 132 SMs: aim / 384 contiguous lines (not 10), tiles of at least 4 (32 bytes)
		final long lines = 384L * 8;
		assertEquals(aim384 / 384, GpuOwnFft.sharedLayout(384, 4, 1, lines, 8, 227 * 1024, 132)[0]);
		assertEquals(Math.max(4, Integer.highestOneBit(aim384 / 384)), GpuOwnFft.sharedLayout(384, 4, 384, 8, 8, 227 *
			1024, 132)[0]);
		// a 3D grid: 192³ elements / (B · 132) a block, in whole lines; tiles of the power of two below that many lines
		final int aim192 = (int) Math.min(GpuOwnFft.SHARED_ELEMENTS, 192L * 192 * 192 / (GpuOwnFft.BLOCKS_PER_SM * 132L));
		assertTrue(aim192 / 192 > 1, "a 192³ block holds several lines");
		assertEquals(aim192 / 192, GpuOwnFft.sharedLayout(192, 4, 1, 192L * 192, 8, 227 * 1024, 132)[0]);
		assertEquals(Integer.highestOneBit(aim192 / 192), GpuOwnFft.sharedLayout(192, 4, 192L * 192, 1, 8, 227 * 1024,
			132)[0]);
		// a larger one keeps the full aim of SHARED_ELEMENTS: that many elements in contiguous lines of 256
		assertTrue(256L * 256 * 256 / (GpuOwnFft.BLOCKS_PER_SM * 132L) >= GpuOwnFft.SHARED_ELEMENTS, "256³ fills the aim");
		assertEquals(GpuOwnFft.SHARED_ELEMENTS / 256, GpuOwnFft.sharedLayout(256, 4, 1, 256L * 256, 8, 227 * 1024, 132)[0]);
	}

	/**
	 * The axes GpuOwnFftTest.fixedLengthKernelsMatchTheCpuFft transforms take the kernel compiled for their length
	 * (so that test runs it): every length of {@link GpuOwnFft#FIXED} as contiguous lines and as tiles of 12 or 16
	 * strided lines, float and double; a float tile of 3 lines (not a power of two) and a length without a kernel of its
	 * own take the generic one.
	 */
	@Test
	void theFixedLengthKernelRunsWhereTheTestsExpectIt() {
		for (final int bytes : new int[] { 8, 16 }) {
			for (final int n : GpuOwnFft.FIXED) {
				final int passes = GpuOwnFft.factors(n).length;
				for (final long inner : new long[] { 1, 12, 16 }) {
					final long lines = inner == 1 ? 6 : 3;
					assertTrue(GpuOwnFft.fixedKernel(n, inner, GpuOwnFft.sharedLayout(n, passes, inner, lines, bytes,
						227 * 1024, 132)), n + " at stride " + inner + ", " + bytes + "-byte complex");
				}
				// float tiles are at least 4 lines (32 bytes) wide, so 3 neighbouring lines make a tile of 3 (double: 2)
				assertEquals(bytes == 16, GpuOwnFft.fixedKernel(n, 3, GpuOwnFft.sharedLayout(n, passes, 3, 3, bytes,
					227 * 1024, 132)), n + " at stride 3, " + bytes + "-byte complex");
			}
			assertFalse(GpuOwnFft.fixedKernel(100, 1, GpuOwnFft.sharedLayout(100, 3, 1, 6, bytes, 227 * 1024, 132)),
				"100 has no kernel of its own");
		}
		assertFalse(GpuOwnFft.fixedKernel(384, 1, null), "no shared-memory layout: global passes");
	}
}
