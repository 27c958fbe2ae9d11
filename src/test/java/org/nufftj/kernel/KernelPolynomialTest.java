package org.nufftj.kernel;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.TestSeeds;

/** The piecewise-polynomial Kaiser–Bessel against the formula at fresh random offsets. */
class KernelPolynomialTest {

	@Test
	void weightsMatchTheKernelAtRandomOffsets() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		for (final double sigma : new double[] { 1.25, 1.5, 2.0 }) {
			for (int w = 2; w <= 16; w++) {
				final Kernel k = Kernels.create(KernelType.KAISER_BESSEL, w, sigma);
				final KernelPolynomial p = KernelPolynomial.fit(k, 2e-14, 8, 24);
				assertNotNull(p, "no double-accurate fit for W=" + w + " σ=" + sigma);
				final double[] out = new double[w];
				for (int i = 0; i < 200; i++) {
					final double off = -w / 2.0 + r.nextDouble();
					p.weights(off, out, 0);
					for (int j = 0; j < w; j++) {
						final double e = Math.abs(out[j] - k.value(off + j));
						assertTrue(e <= 4e-14, "W=" + w + " σ=" + sigma + " cell " + j + " off " + off + ": error " + e +
							" (seed " + seed + ")");
					}
				}
			}
		}
	}

	@Test
	void degreeNineIsFloatAccurateAndTheFitReportsItsError() {
		for (int w = 2; w <= 16; w++) {
			final KernelPolynomial p = KernelPolynomial.ofDegree(Kernels.create(KernelType.KAISER_BESSEL, w, 2.0), 9);
			assertTrue(p.maxError() < 2e-8, "W=" + w + ": " + p.maxError());
			// A low degree is measurably worse: the reported error is a measurement, not a constant.
			assertTrue(KernelPolynomial.ofDegree(Kernels.create(KernelType.KAISER_BESSEL, w, 2.0), 3).maxError() > 1e-5);
		}
	}

	@Test
	void kernelsWithASingularEdgeAreNotFittedToDoubleAccuracy() {
		assertNull(KernelPolynomial.fit(Kernels.create(KernelType.EXP_SEMICIRCLE, 6, 2.0), 1e-7, 8, 24));
		assertNull(KernelPolynomial.fit(Kernels.create(KernelType.GAUSSIAN, 6, 2.0), 1e-7, 8, 24));
	}

	/**
	 * The CPU engine's fits for a plan's tolerance (ε/100): every kernel type that fits is within that at fresh random
	 * offsets, and a looser ε takes a lower degree.
	 */
	@Test
	void fitsForAToleranceHoldItAtRandomOffsets() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		for (final KernelType type : KernelType.values()) {
			for (final int w : new int[] { 4, 6, 8, 12 }) {
				final Kernel k = Kernels.create(type, w, 1.5);
				int lastDegree = Integer.MAX_VALUE;
				for (final double eps : new double[] { 1e-6, 1e-4, 1e-2 }) {
					final double tol = KernelPolynomial.toleranceFor(eps);
					final KernelPolynomial p = KernelPolynomial.fit(k, tol, 2, 24);
					if (p == null) continue;
					assertTrue(p.degree() <= lastDegree, type + " W=" + w + ": degree " + p.degree() + " at ε=" + eps);
					lastDegree = p.degree();
					final double[] out = new double[w];
					for (int i = 0; i < 200; i++) {
						final double off = -w / 2.0 + r.nextDouble();
						p.weights(off, out, 0);
						for (int j = 0; j < w; j++) {
							final double e = Math.abs(out[j] - k.value(off + j)) / Math.abs(k.value(0));
							assertTrue(e <= tol * 1.5, type + " W=" + w + " ε=" + eps + " cell " + j + ": error " + e +
								" > " + tol + " (seed " + seed + ")");
						}
					}
				}
			}
		}
		// Kaiser–Bessel and the exponential of semicircle fit at float tolerances, at a lower degree than to rounding.
		final Kernel kb = Kernels.create(KernelType.KAISER_BESSEL, 5, 1.5);
		assertTrue(KernelPolynomial.fit(kb, KernelPolynomial.toleranceFor(1e-3), 2, 24).degree() < KernelPolynomial.fit(
			kb, KernelPolynomial.DOUBLE_ROUNDING, 2, 24).degree());
		assertNotNull(KernelPolynomial.fit(Kernels.create(KernelType.EXP_SEMICIRCLE, 6, 1.5), KernelPolynomial
			.toleranceFor(1e-3), 2, 24));
	}

	/**
	 * Where the fit stalls (ES's square-root edge), {@link KernelPolynomial#best} takes the cheapest degree at the
	 * stall; its kernel view evaluates the polynomials (what the engine spreads with) and keeps the exact transform.
	 */
	@Test
	void theBestFitAtTheStallAndItsKernelView() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final Kernel es = Kernels.create(KernelType.EXP_SEMICIRCLE, 6, 1.5);
		final KernelPolynomial best = KernelPolynomial.best(es, 2, 24);
		double least = Double.POSITIVE_INFINITY;
		for (int d = 2; d <= 24; d++) least = Math.min(least, KernelPolynomial.ofDegree(es, d).maxError());
		assertTrue(best.maxError() <= 1.25 * least, best.maxError() + " vs least " + least);
		assertTrue(best.degree() == 2 || KernelPolynomial.ofDegree(es, best.degree() - 1).maxError() > 1.25 * least,
			"degree " + best.degree() + " is not the cheapest at the stall");
		assertTrue(best.maxError() > 1e-6, "ES W=6 was expected to stall above 1e-6: " + best.maxError());
		final Kernel view = best.asKernel(es);
		final double[] out = new double[6];
		for (int i = 0; i < 200; i++) {
			final double off = -3 + r.nextDouble();
			best.weights(off, out, 0);
			for (int j = 0; j < 6; j++)
				assertTrue(Math.abs(view.value(off + j) - out[j]) <= 1e-15, "cell " + j + " off " + off + " seed " + seed);
			final double u = r.nextDouble() - 0.5;
			assertTrue(view.fourier(u) == es.fourier(u));
		}
		assertTrue(view.value(-3.0001) == 0 && view.value(3) == 0 && view.value(Double.NaN) == 0);
	}
}
