package org.nufftj.nufft.cpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.nufftj.TestSeeds;

/**
 * The Stockham line FFT against the DFT summed directly in double, for every length 1 … 130 (powers of two, every
 * radix mix, primes up to and above {@link LineFft#MAX_PRIME}, the JTransforms fallback) and the engine's grid sides,
 * both signs, blocks of one, several and the most lines; fresh random inputs, seed in the messages.
 */
class LineFftTest {

	private final long seed = TestSeeds.fresh();
	private final Random random = new Random(seed);

	@Test
	void everyLengthMatchesTheDirectDft() {
		everyLength(null);
	}

	@Test
	void everyLengthMatchesTheDirectDftOnTheVectorPasses() {
		final String why = VectorSupport.unavailableReason();
		Assumptions.assumeTrue(why == null, "no Vector API passes in this JVM: " + why);
		everyLength(VectorSupport.availablePasses());
	}

	private void everyLength(final LinePasses passes) {
		for (int n = 1; n <= 130; n++) check(n, passes);
		for (final int n : new int[] { 192, 256, 320, 384, 400, 480, 500, 512, 640, 768, 1000, 1024, 31 * 4, 37 * 2,
			1009 })
			check(n, passes);
	}

	@Test
	void largePrimesGoToTheFallbackAndSmoothLengthsDoNot() {
		assertTrue(LineFft.stockham(384) && LineFft.stockham(31 * 8) && LineFft.stockham(7 * 11 * 13));
		assertFalse(LineFft.stockham(37) || LineFft.stockham(2 * 1009));
	}

	private void check(final int n, final LinePasses passes) {
		final LineFft fft = new LineFft(n, passes);
		for (final int lines : new int[] { 1, Math.min(3, fft.block), Math.max(1, fft.block - 1), fft.block }) {
			final int b = fft.stride(lines);
			for (final int sign : new int[] { -1, 1 }) {
				final double[][] x = new double[lines][2 * n];
				for (int l = 0; l < lines; l++) {
					for (int i = 0; i < 2 * n; i++) x[l][i] = random.nextGaussian();
					for (int i = 0; i < n; i++) {
						fft.re[i * b + l] = x[l][2 * i];
						fft.im[i * b + l] = x[l][2 * i + 1];
					}
				}
				fft.transform(lines, sign);
				final double[] cos = new double[n], sin = new double[n];
				for (int q = 0; q < n; q++) {
					cos[q] = Math.cos(sign * 2 * Math.PI * q / n);
					sin[q] = Math.sin(sign * 2 * Math.PI * q / n);
				}
				for (int l = 0; l < lines; l++) {
					double err = 0, norm = 0;
					for (int k = 0; k < n; k++) {
						double sr = 0, si = 0;
						for (int j = 0; j < n; j++) {
							final int q = (int) ((long) j * k % n);
							final double c = cos[q], s = sin[q];
							sr += x[l][2 * j] * c - x[l][2 * j + 1] * s;
							si += x[l][2 * j] * s + x[l][2 * j + 1] * c;
						}
						final double dr = fft.resultRe()[k * b + l] - sr, di = fft.resultIm()[k * b + l] - si;
						err += dr * dr + di * di;
						norm += sr * sr + si * si;
					}
					final double rel = Math.sqrt(err / norm);
					assertTrue(rel <= 1e-13 * Math.max(1, Math.log(n)), "n " + n + ", line " + l + " of " + lines +
						", sign " + sign + (passes == null ? ", scalar" : ", vector") + ": relative error " + rel +
						", seed " + seed);
				}
			}
		}
	}
}
