package org.nufftj.recon.iterative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.Adjointness;
import org.nufftj.operator.FiniteDifference;
import org.nufftj.operator.AbstractBackendFixture;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.NufftOperator;
import org.nufftj.operator.Operators;
import org.nufftj.operator.UndecimatedWavelet;

/**
 * Regularised reconstruction, written once against {@link Backend} and run for every backend (subclasses open it):
 * the backend's soft thresholding against its formula, adjointness of the wavelet and finite-difference operators,
 * the finite differences against the periodic stencil written out, the wavelet's tight-frame identity WᴴW = I,
 * FISTA's optimality (fixed point of the proximal-gradient map) and MFISTA's monotone objective, and ADMM total
 * variation against an independent solver in double (Chambolle's projected gradient on the dual of TV denoising).
 * Fresh random inputs; the seed is in every message.
 */
public abstract class AbstractRegularizationTest extends AbstractBackendFixture {

	// -- backend: soft thresholding --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void softThresholdIsTheComplexShrinkage(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-6 : 1e-14;
		final double[] x = gaussian(2 * 3000);
		final double tau = 0.5 + random.nextDouble();
		final double[] expected = new double[x.length];
		int zeros = 0;
		for (int i = 0; i < x.length / 2; i++) {
			final double m = Math.hypot(x[2 * i], x[2 * i + 1]);
			final double s = m > tau ? (m - tau) / m : 0;
			if (s == 0) zeros++;
			expected[2 * i] = s * x[2 * i];
			expected[2 * i + 1] = s * x[2 * i + 1];
		}
		assertTrue(zeros > 100 && zeros < 2900, "the test covers both branches");
		try (Buffer bx = upload(x, p); Buffer out = backend.allocate(x.length, p)) {
			backend.softThreshold(bx, tau, out);
			check(expected, download(out), bound, "softThreshold out of place");
			backend.softThreshold(bx, tau, bx);
			check(expected, download(bx), bound, "softThreshold in place");
			backend.softThreshold(out, 0, out);
			check(expected, download(out), bound, "tau 0 is the identity");
			assertThrows(InvalidInputException.class, () -> backend.softThreshold(bx, -1, out));
		}
	}

	// -- operators --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void waveletAndFiniteDifferencesAreAdjoint(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-5 : 1e-11;
		final LinearOperator[] ops = { keep(new FiniteDifference(backend, p, new int[] { 12, 10 }, 1, 3)),
			keep(new FiniteDifference(backend, p, new int[] { 6, 5, 4 }, 1, 7)),
			keep(new FiniteDifference(backend, p, new int[] { 8, 6 }, 3, 3 | 1 << FiniteDifference.TIME_BIT)),
			keep(new FiniteDifference(backend, p, new int[] { 8, 6 }, 4, 1 << FiniteDifference.TIME_BIT)),
			keep(new UndecimatedWavelet(backend, p, new int[] { 32, 20 }, 1, 3)),
			keep(new UndecimatedWavelet(backend, p, new int[] { 64, 64 }, 2, 7)),
			keep(new UndecimatedWavelet(backend, p, new int[] { 16, 12, 10 }, 1, 7)) };
		for (final LinearOperator op : ops) {
			for (int trial = 0; trial < 2; trial++) {
				final double e = Adjointness.mismatch(op, random);
				assertTrue(e <= bound, op + ": adjoint mismatch " + e + " > " + bound + ", seed " + seed);
			}
		}
	}

	/** D_a x = x(n) − x(n − e_a) periodic, per axis and over frames, against the stencil written out. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void finiteDifferencesAreThePeriodicStencil(final Precision p) {
		final double bound = p == Precision.FLOAT ? 2e-6 : 1e-12;
		final int[] size = { 7, 6, 5 };
		final int frames = 2, px = 210;
		final FiniteDifference d = keep(new FiniteDifference(backend, p, size, frames, 5 | 1 << FiniteDifference.TIME_BIT));
		assertEquals(3, d.directions());
		final double[] x = gaussian(2 * px * frames);
		final double[] expected = new double[(int) d.rangeLength()];
		final int[][] shifts = { { 1, 0, 0 }, { 0, 0, 1 } };
		for (int t = 0; t < frames; t++) {
			for (int z = 0; z < 5; z++) for (int yy = 0; yy < 6; yy++) for (int xx = 0; xx < 7; xx++) {
				final int i = t * px + (z * 6 + yy) * 7 + xx;
				for (int dir = 0; dir < 2; dir++) {
					final int xs = (xx - shifts[dir][0] + 7) % 7, zs = (z - shifts[dir][2] + 5) % 5;
					final int j = t * px + (zs * 6 + yy) * 7 + xs;
					for (int c = 0; c < 2; c++) expected[2 * (dir * px * frames + i) + c] = x[2 * i + c] - x[2 * j + c];
				}
				final int j = (t + frames - 1) % frames * px + (z * 6 + yy) * 7 + xx;
				for (int c = 0; c < 2; c++) expected[2 * (2 * px * frames + i) + c] = x[2 * i + c] - x[2 * j + c];
			}
		}
		check(expected, apply(d, x), bound, "finite differences");
	}

	/** WᴴW x = x (Parseval tight frame); a constant image has no detail coefficients. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void waveletIsATightFrame(final Precision p) {
		final double bound = p == Precision.FLOAT ? 2e-6 : 1e-12;
		final UndecimatedWavelet w = keep(new UndecimatedWavelet(backend, p, new int[] { 80, 64 }, 2, 3));
		assertEquals(2, w.levels(), "levels keep the coarse scale >= 16 on the smaller axis: 64 -> 32 -> 16");
		assertEquals(7, w.bands());
		final double[] x = gaussian((int) w.domainLength());
		final double[] c = apply(w, x);
		double energy = 0, input = 0;
		for (final double v : c) energy += v * v;
		for (final double v : x) input += v * v;
		assertEquals(input, energy, bound * 10 * input, "Parseval, seed " + seed);
		try (Buffer bc = upload(c, p); Buffer back = backend.allocate(w.domainLength(), p)) {
			w.applyAdjoint(bc, back);
			check(x, download(back), bound, "W^H W x = x");
		}
		final double[] flat = new double[x.length];
		for (int i = 0; i < flat.length; i += 2) flat[i] = 1.5;
		final double[] cf = apply(w, flat);
		for (int i = (int) w.bandLength(); i < cf.length; i++) {
			assertEquals(0, cf[i], 1e-5, "a constant image has zero detail at " + i);
		}
	}

	// -- FISTA --

	/** MFISTA never raises the objective; a long run is a fixed point of the proximal-gradient map (optimality). */
	@Test
	void fistaIsMonotoneAndReachesAFixedPoint() {
		final Precision p = Precision.DOUBLE;
		final int[] size = { 32, 32 };
		final int px = 1024;
		final NufftPlan plan = plan(size, p, 700);
		final NufftOperator a = keep(NufftOperator.bart(backend, plan));
		final LinearOperator n = keep(a.normal());
		final double[] y = gaussian((int) a.rangeLength());
		final double lambda = 0.05;
		final L1Penalty r = keep(L1Penalty.wavelet(backend, p, size, 1, 3, lambda));
		final double step = 0.95 / PowerIteration.largestEigenvalue(n, 40, seed);
		final Buffer by = keep(upload(y, p)), b = keep(backend.allocate(2 * px, p));
		a.applyAdjoint(by, b);
		final double yy = backend.norm(by) * backend.norm(by);
		final List<Double> objective = new ArrayList<>();
		final Buffer x = keep(backend.allocate(2 * px, p));
		try (Fista f = new Fista(n, r, step, 60, 0, true)) {
			f.solve(b, x, yy, (k, res, obj) -> objective.add(obj));
		}
		assertEquals(60, objective.size());
		for (int k = 1; k < objective.size(); k++) {
			assertTrue(objective.get(k) <= objective.get(k - 1) * (1 + 1e-12), "objective rose at iteration " + (k + 1) +
				": " + objective.get(k - 1) + " -> " + objective.get(k) + ", seed " + seed);
		}
		assertTrue(objective.get(59) < 0.9 * objective.get(0), "the objective decreased: " + objective + ", seed " +
			seed);
		// plain FISTA, long: x* = prox(x* − t(N x* − b)), to a small fraction of ‖x*‖.
		final Buffer xs = keep(backend.allocate(2 * px, p));
		try (Fista f = new Fista(n, r, step, 400, 0, false)) {
			f.solve(b, xs, yy, null);
		}
		final double[] star = download(xs);
		try (Fista one = new Fista(n, r, step, 1, 0, false)) {
			one.solve(b, xs, yy, null); // one step from x*: FISTA's first step is the proximal-gradient map
		}
		final double e = relative(star, download(xs));
		assertTrue(e <= 1e-4, "fixed point: ‖T(x*) − x*‖/‖x*‖ = " + e + ", seed " + seed);
		assertTrue(relative(star, new double[star.length]) > 0.5, "x* is not zero");
	}

	// -- ADMM --

	/**
	 * TV denoising (N = I, b = y): ADMM reaches the minimiser of ½‖x − y‖² + λ·TV(x) computed independently in double
	 * by Chambolle's projected gradient on the dual (x = y − Dᴴp, |p| ≤ λ), isotropic and anisotropic.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void admmTotalVariationMatchesTheDualSolution(final Precision p) {
		final int iterations = 1500;
		final double bound = p == Precision.FLOAT ? 3e-4 : 1e-4; // both solvers stopped at a finite count
		final int[] size = { 12, 10 };
		final int px = 120;
		final double[] y = new double[2 * px];
		for (int i = 0; i < px; i++) { // piecewise constant plus noise
			final int xx = i % 12, yy = i / 12;
			y[2 * i] = (xx > 4 && yy > 3 ? 1 : 0) + 0.2 * random.nextGaussian();
			y[2 * i + 1] = (xx < 8 ? 0.5 : 0) + 0.2 * random.nextGaussian();
		}
		final double lambda = 0.15;
		for (final boolean isotropic : new boolean[] { true, false }) {
			final double[] expected = tvDenoiseByDual(y, 12, 10, lambda, isotropic);
			final L1Penalty r = keep(L1Penalty.totalVariation(backend, p, size, 1, 3, lambda, isotropic));
			final LinearOperator id = keep(Operators.identity(backend, p, 2 * px));
			final Buffer b = keep(upload(y, p)), x = keep(backend.allocate(2 * px, p));
			final List<Double> primal = new ArrayList<>();
			// 1500 iterations: with 400, ADMM was still 1.6e-4 away on some draws (seed 172724315704, anisotropic)
			try (Admm admm = new Admm(id, r, 1.0, iterations, 10, 0)) {
				admm.solve(b, x, 0, IterationListener.residualsOnly((k, res, obj) -> primal.add(res)));
			}
			final double e = relative(expected, download(x));
			assertTrue(e <= bound, (isotropic ? "isotropic" : "anisotropic") + " TV: ADMM vs dual solution " + e +
				" > " + bound + ", seed " + seed);
			assertTrue(relative(y, expected) > 0.05, "the regulariser is active");
			assertTrue(primal.get(iterations - 1) < 1e-4, "primal residual " + primal.get(iterations - 1));
		}
	}

	/**
	 * A sum of penalties (BART's repeated {@code -R}): ADMM with TV(λ₁) + TV(λ₂) as two splits reaches the dual
	 * solution for TV(λ₁ + λ₂), the same minimiser; and a sum's proximal map and value are its terms' on their parts
	 * of the stacked coefficients (wavelet + TV).
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void penaltySumIsItsTerms(final Precision p) {
		final double bound = p == Precision.FLOAT ? 3e-4 : 1e-4;
		final int[] size = { 12, 10 };
		final int px = 120;
		final double[] y = new double[2 * px];
		for (int i = 0; i < px; i++) {
			final int xx = i % 12, yy = i / 12;
			y[2 * i] = (xx > 4 && yy > 3 ? 1 : 0) + 0.2 * random.nextGaussian();
			y[2 * i + 1] = (xx < 8 ? 0.5 : 0) + 0.2 * random.nextGaussian();
		}
		final double[] expected = tvDenoiseByDual(y, 12, 10, 0.15, true);
		final PenaltySum sum = keep(new PenaltySum(L1Penalty.totalVariation(backend, p, size, 1, 3, 0.06, true),
			L1Penalty.totalVariation(backend, p, size, 1, 3, 0.09, true)));
		final LinearOperator id = keep(Operators.identity(backend, p, 2 * px));
		final Buffer b = keep(upload(y, p)), x = keep(backend.allocate(2 * px, p));
		try (Admm admm = new Admm(id, sum, 1.0, 400, 10, 0)) {
			admm.solve(b, x, 0, null);
		}
		final double e = relative(expected, download(x));
		assertTrue(e <= bound, "TV(0.06) + TV(0.09) by ADMM vs the dual solution of TV(0.15): " + e + " > " + bound +
			", seed " + seed);

		final L1Penalty w = L1Penalty.wavelet(backend, p, size, 1, 3, 0.2), t = L1Penalty.totalVariation(backend, p,
			size, 1, 3, 0.3, true);
		final PenaltySum wt = keep(new PenaltySum(w, t));
		final long lw = w.transform().rangeLength(), lt = t.transform().rangeLength();
		assertEquals(lw + lt, wt.transform().rangeLength(), "stacked coefficients");
		final double[] c = gaussian((int) (lw + lt));
		final double[] cw = java.util.Arrays.copyOf(c, (int) lw), ct = java.util.Arrays.copyOfRange(c, (int) lw, c.length);
		try (Buffer bc = upload(c, p); Buffer bw = upload(cw, p); Buffer bt = upload(ct, p)) {
			final double value = wt.value(bc), parts = w.value(bw) + t.value(bt);
			assertEquals(parts, value, 1e-6 * Math.abs(parts), "value of the sum");
			wt.shrink(bc, 0.7);
			w.shrink(bw, 0.7);
			t.shrink(bt, 0.7);
			final double[] joined = new double[c.length];
			System.arraycopy(download(bw), 0, joined, 0, (int) lw);
			System.arraycopy(download(bt), 0, joined, (int) lw, (int) lt);
			assertTrue(relative(joined, download(bc)) <= 1e-12, "shrink of the sum, seed " + seed);
			assertTrue(relative(c, joined) > 1e-3, "the shrink is active");
		}
		assertThrows(InvalidInputException.class, () -> new PenaltySum(w));
	}

	@Test
	void badSettingsAreRefused() {
		final Precision p = Precision.FLOAT;
		final int[] size = { 16, 16 };
		assertThrows(InvalidInputException.class, () -> L1Penalty.wavelet(backend, p, size, 1, 3, -1));
		assertThrows(InvalidInputException.class, () -> L1Penalty.totalVariation(backend, p, size, 1, 8, 1, true));
		assertThrows(InvalidInputException.class, () -> new FiniteDifference(backend, p, new int[] { 16, 1 }, 1, 2));
		final L1Penalty r = keep(L1Penalty.wavelet(backend, p, size, 1, 3, 0.1));
		final LinearOperator id = keep(Operators.identity(backend, p, 512));
		assertThrows(InvalidInputException.class, () -> new Fista(id, r, 0, 10, 0, false));
		assertThrows(InvalidInputException.class, () -> new Fista(id, r, 1, 0, 0, false));
		assertThrows(InvalidInputException.class, () -> new Admm(id, r, -1, 10, 5, 0));
		final LinearOperator small = keep(Operators.identity(backend, p, 500));
		assertThrows(InvalidInputException.class, () -> new Fista(small, r, 1, 10, 0, false));
	}

	// -- the oracle --

	/**
	 * argmin ½‖x − y‖² + λ Σ_p ‖(D x)_p‖ (isotropic: the two directions jointly; anisotropic: each complex entry) with
	 * D the periodic forward differences in x and y, by projected gradient on the dual: p ← Π_{|p|≤λ}(p + τ D(y − Dᴴp)),
	 * τ = 1/8 ≤ 1/‖D‖², x = y − Dᴴp; in double, to convergence.
	 */
	private static double[] tvDenoiseByDual(final double[] y, final int nx, final int ny, final double lambda,
		final boolean isotropic)
	{
		final int px = nx * ny;
		final double[] p = new double[4 * px], x = new double[2 * px];
		for (int it = 0; it < 20000; it++) {
			// x = y − Dᴴp; (Dᴴp)(n) = p(n) − p(n + e)
			for (int i = 0; i < px; i++) {
				final int xx = i % nx, yy = i / nx;
				final int ix = yy * nx + (xx + 1) % nx, iy = (yy + 1) % ny * nx + xx;
				for (int c = 0; c < 2; c++) {
					x[2 * i + c] = y[2 * i + c] - (p[2 * i + c] - p[2 * ix + c]) - (p[2 * (px + i) + c] - p[2 * (px + iy) +
						c]);
				}
			}
			for (int i = 0; i < px; i++) {
				final int xx = i % nx, yy = i / nx;
				final int jx = yy * nx + (xx + nx - 1) % nx, jy = (yy + ny - 1) % ny * nx + xx;
				for (int c = 0; c < 2; c++) {
					p[2 * i + c] += (x[2 * i + c] - x[2 * jx + c]) / 8;
					p[2 * (px + i) + c] += (x[2 * i + c] - x[2 * jy + c]) / 8;
				}
				if (isotropic) {
					final double m = Math.sqrt(sq(p[2 * i]) + sq(p[2 * i + 1]) + sq(p[2 * (px + i)]) + sq(p[2 * (px + i) +
						1]));
					if (m > lambda) for (final int k : new int[] { 2 * i, 2 * i + 1, 2 * (px + i), 2 * (px + i) + 1 }) {
						p[k] *= lambda / m;
					}
				}
				else {
					for (final int k : new int[] { 2 * i, 2 * (px + i) }) {
						final double m = Math.hypot(p[k], p[k + 1]);
						if (m > lambda) {
							p[k] *= lambda / m;
							p[k + 1] *= lambda / m;
						}
					}
				}
			}
		}
		return x;
	}

	// -- helpers --



	private static double sq(final double v) {
		return v * v;
	}
}
