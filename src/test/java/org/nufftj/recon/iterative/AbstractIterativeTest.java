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
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.Adjointness;
import org.nufftj.operator.AbstractBackendFixture;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.NufftOperator;
import org.nufftj.trajectory.Trajectory;

/**
 * The iterative layer, written once against {@link Backend} and run for every backend (subclasses open it):
 * conjugate gradients against a dense least-squares solve in double (a hand Cholesky of AᴴA + λI, A written out from
 * the exact NUDFT), the SENSE operator against its maths, the Toeplitz normal operator against the exact s²·FᴴWF
 * (NUDFT in double) and against forward·adjoint, adjointness of every new operator, bad input refused. Fresh random
 * inputs; the seed is in every message.
 */
public abstract class AbstractIterativeTest extends AbstractBackendFixture {

	// -- conjugate gradients --

	/**
	 * CG-SENSE with Tikhonov λ on a small problem reaches the dense solution of (AᴴA + λI) x = Aᴴy, with A the exact
	 * SENSE matrix (NUDFT, maps, weights, scale) written out in double: 1e-6 in double, 1e-4 in float.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void conjugateGradientsReachTheDenseLeastSquaresSolution(final Precision p) {
		final boolean dbl = p == Precision.DOUBLE;
		final int[] size = { 6, 5 };
		final int px = 30, coils = 2, m = 40;
		final double lambda = 0.02, scale = 1 / Math.sqrt(px);
		final NufftPlan plan = plan(size, p, m);
		final double[] maps = gaussian(2 * px * coils), y = gaussian(2 * m * coils);
		final float[] w = weights(m);
		final Buffer bmaps = keep(upload(maps, p));
		final SenseOperator a = keep(new SenseOperator(backend, plan, bmaps, coils, scale, w));
		// Dense A [coil·m][px] and the normal equations in double.
		final double[][] re = new double[coils * m][px], im = new double[coils * m][px];
		for (int c = 0; c < coils; c++) {
			for (int j = 0; j < m; j++) {
				final double sw = scale * Math.sqrt(w[j]);
				for (int n = 0; n < px; n++) {
					final double ph = -2 * Math.PI * (trajectory.k(j, 0) * (n % 6 - 3) + trajectory.k(j, 1) * (n / 6 - 2));
					final double er = Math.cos(ph), ei = Math.sin(ph);
					final double sr = maps[2 * (c * px + n)], si = maps[2 * (c * px + n) + 1];
					re[c * m + j][n] = sw * (er * sr - ei * si);
					im[c * m + j][n] = sw * (er * si + ei * sr);
				}
			}
		}
		final double[] solution = denseSolve(re, im, y, lambda);
		try (Buffer by = upload(y, p); Buffer b = backend.allocate(2 * px, p); Buffer x = backend.allocate(2 * px, p);
			LinearOperator normal = a.normal(); ConjugateGradient cg = new ConjugateGradient(normal, lambda, 500,
				dbl ? 1e-12 : 1e-6))
		{
			a.applyAdjoint(by, b);
			final List<Double> residuals = new ArrayList<>();
			final ConjugateGradient.Result r = cg.solve(b, x, (k, rel) -> {
				assertEquals(residuals.size() + 1, k, "iterations numbered from 1");
				residuals.add(rel);
			});
			assertEquals(r.iterations(), residuals.size(), "one report per iteration");
			assertEquals(r.relativeResidual(), residuals.get(residuals.size() - 1), 0.0);
			final double e = relative(solution, download(x));
			assertTrue(e <= (dbl ? 1e-6 : 1e-4), p + ": CG vs dense solve " + e + " after " + r + ", seed " + seed);
			// Warm start from the solution: nothing (or next to nothing) left to do.
			final ConjugateGradient.Result again = cg.solve(b, x, null);
			assertTrue(again.iterations() <= r.iterations() / 2, "warm start took " + again + " vs " + r + ", seed " +
				seed);
			assertTrue(relative(solution, download(x)) <= (dbl ? 1e-6 : 1e-4), "warm start result, seed " + seed);
		}
	}

	/** The iteration count stops it; b = 0 gives x = 0 at once. */
	@Test
	void iterationLimitAndZeroRightHandSide() {
		final NufftPlan plan = plan(new int[] { 8, 8 }, Precision.DOUBLE, 60);
		final NufftOperator a = keep(NufftOperator.bart(backend, plan));
		try (LinearOperator n = a.normal(); ConjugateGradient cg = new ConjugateGradient(n, 0, 3, 0);
			Buffer b = upload(gaussian(128), Precision.DOUBLE); Buffer x = backend.allocate(128, Precision.DOUBLE);
			Buffer zero = backend.allocate(128, Precision.DOUBLE))
		{
			final ConjugateGradient.Result r = cg.solve(b, x, null);
			assertEquals(3, r.iterations());
			assertTrue(!r.converged() && r.relativeResidual() > 0 && Double.isFinite(r.relativeResidual()), r + ", seed " + seed);
			final ConjugateGradient.Result z = cg.solve(zero, x, null);
			assertEquals(0, z.iterations());
			assertEquals(0, backend.norm(x), 0.0);
		}
	}

	// -- SENSE operator --

	/** y_c = s·√w ⊙ NUDFT(S_c ⊙ x), and its adjoint, against the exact transform in double. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void senseOperatorIsItsMaths(final Precision p) {
		final double eps = p == Precision.FLOAT ? 1e-5 : 1e-9;
		final int[] size = { 10, 8 };
		final int px = 80, coils = 3, m = 150;
		final NufftPlan plan = plan(size, p, m);
		final double[] maps = gaussian(2 * px * coils), x = gaussian(2 * px), y = gaussian(2 * m * coils);
		final float[] w = weights(m);
		final double s = 0.7;
		final SenseOperator a = keep(new SenseOperator(backend, plan, keep(upload(maps, p)), coils, s, w));
		final double[] sx = new double[2 * px * coils];
		for (int c = 0; c < coils; c++) for (int n = 0; n < px; n++) {
			final int i = 2 * (c * px + n);
			sx[i] = x[2 * n] * maps[i] - x[2 * n + 1] * maps[i + 1];
			sx[i + 1] = x[2 * n] * maps[i + 1] + x[2 * n + 1] * maps[i];
		}
		final double[] ref = Nudft.forward(size, trajectory, sx, 2);
		final double[] wy = y.clone();
		for (int i = 0; i < ref.length; i++) {
			final double f = s * Math.sqrt(w[(i / 2) % m]);
			ref[i] *= f;
			wy[i] *= f;
		}
		final double[] coilImages = Nudft.adjoint(size, trajectory, wy, 2), adj = new double[2 * px];
		for (int c = 0; c < coils; c++) for (int n = 0; n < px; n++) {
			final int i = 2 * (c * px + n);
			adj[2 * n] += coilImages[i] * maps[i] + coilImages[i + 1] * maps[i + 1];
			adj[2 * n + 1] += coilImages[i + 1] * maps[i] - coilImages[i] * maps[i + 1];
		}
		try (Buffer bx = upload(x, p); Buffer by = upload(y, p); Buffer ax = backend.allocate(a.rangeLength(), p);
			Buffer ahy = backend.allocate(a.domainLength(), p))
		{
			a.apply(bx, ax);
			a.applyAdjoint(by, ahy);
			assertTrue(relative(ref, download(ax)) <= eps, "forward " + relative(ref, download(ax)) + ", seed " + seed);
			assertTrue(relative(adj, download(ahy)) <= eps, "adjoint " + relative(adj, download(ahy)) + ", seed " + seed);
		}
	}

	// -- Toeplitz normal operator --

	/**
	 * s²·FᴴWF x by Toeplitz embedding against the exact NUDFT (double) and against forward·adjoint of the NUFFT
	 * operator, on random 2D and 3D trajectories, odd and even sizes, 1 and 2 transforms, to the plan's ε.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void toeplitzNormalIsForwardThenAdjointToEpsilon(final Precision p) {
		final double eps = p == Precision.FLOAT ? 1e-5 : 1e-10;
		final double bound = eps; // the requested ε (measured on the CPU: ~1.5e-6 in float, ~3e-12 in double)
		for (final int[] size : new int[][] { { 12, 10 }, { 9, 11 }, { 6, 5, 4 }, { 5, 6, 7 } }) {
			for (final int t : new int[] { 1, 2 }) {
				final int m = 400;
				final NufftPlan plan = plan(size, p, m, eps);
				long px = 1;
				for (final int n : size) px *= n;
				final double s = 1 / Math.sqrt(px);
				final float[] w = weights(m);
				final NufftOperator a = keep(new NufftOperator(backend, plan, s, w, t));
				final ToeplitzNormal toeplitz = keep(new ToeplitzNormal(backend, trajectory, size, NufftOptions.defaults()
					.withPrecision(p).withTolerance(eps), s, w, t));
				final LinearOperator exact = keep(a.normal());
				final double[] x = gaussian((int) (2 * px * t));
				final double[] fx = Nudft.forward(size, trajectory, x, 2);
				for (int i = 0; i < fx.length; i++) fx[i] *= s * s * w[(i / 2) % m];
				final double[] ref = Nudft.adjoint(size, trajectory, fx, 2);
				try (Buffer bx = upload(x, p); Buffer out = backend.allocate(toeplitz.rangeLength(), p);
					Buffer out2 = backend.allocate(toeplitz.rangeLength(), p))
				{
					toeplitz.apply(bx, out);
					final double e = relative(ref, download(out));
					assertTrue(e <= bound, java.util.Arrays.toString(size) + " x " + t + " " + p + ": Toeplitz vs exact " + e +
						", seed " + seed);
					exact.apply(bx, out2);
					final double e2 = relative(download(out2), download(out));
					assertTrue(e2 <= 2 * bound, java.util.Arrays.toString(size) + ": Toeplitz vs forward-adjoint " + e2 +
						", seed " + seed);
					toeplitz.apply(bx, out2); // the zero border survives an application
					assertTrue(relative(download(out), download(out2)) <= 1e-12, "repeatable, seed " + seed);
					// on the operator's own plan (what pics does): the same point-spread function, within round-off
					keep(ToeplitzNormal.onPlan(backend, plan, trajectory, size, s, w, t)).apply(bx, out2);
					final double e3 = relative(download(out), download(out2));
					assertTrue(e3 <= (p == Precision.FLOAT ? 1e-6 : 1e-12), java.util.Arrays.toString(size) + " x " + t +
						" " + p + ": onPlan vs own plan " + e3 + ", seed " + seed);
				}
			}
		}
	}

	// -- exact plan and exact normal operator (Stone et al. 2008) --

	/**
	 * The backend's exact plan (direct sums) against the NUDFT in double, forward and adjoint, on random points:
	 * odd and even 2D and 3D sizes; 1, 3 and 9 transforms (kernel batches 8 + 1 on a GPU); few pixels with many points
	 * and many pixels with few points (a GPU splits the summed dimension over chunks in the first; in the last, 96² ×
	 * 64 × 9, the batch of 8 is one chunk and the batch of 1 is chunked). Float: the sums' round-off (1e-5); double
	 * 1e-12.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void exactPlanIsTheNudft(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-5 : 1e-12;
		final Object[][] cases = { { new int[] { 12, 10 }, 300, 1 }, { new int[] { 9, 11 }, 257, 3 }, { new int[] { 6, 5,
			4 }, 500, 9 }, { new int[] { 5, 6, 7 }, 100, 2 }, { new int[] { 8, 8 }, 140_000, 1 }, { new int[] { 96, 96, 64 },
				64, 9 } };
		for (final Object[] c : cases) {
			final int[] size = (int[]) c[0];
			final int m = (int) c[1], t = (int) c[2];
			long px = 1;
			for (final int n : size) px *= n;
			final Trajectory tr = randomTrajectory(size.length, m);
			final NufftPlan exact = keep(backend.exactPlan(size, p));
			exact.setPoints(tr);
			assertTrue(exact.parameters().exact(), exact.parameters().toString());
			final String what = java.util.Arrays.toString(size) + ", " + m + " points x " + t + " " + p;
			final double[] x = gaussian((int) (2 * px * t)), y = gaussian(2 * m * t);
			try (Buffer bx = upload(x, p); Buffer by = upload(y, p); Buffer fx = backend.allocate(2L * m * t, p);
				Buffer ay = backend.allocate(2 * px * t, p))
			{
				exact.forward(bx, fx);
				exact.adjoint(by, ay);
				check(Nudft.forward(size, tr, x, 2), download(fx), bound, what + ": exact forward vs NUDFT");
				check(Nudft.adjoint(size, tr, y, 2), download(ay), bound, what + ": exact adjoint vs NUDFT");
			}
		}
	}

	/**
	 * The exact normal operator (Toeplitz with the PSF by direct sums) against s²·FᴴWF x by the NUDFT in double, and
	 * against forward·adjoint of the exact plan: to the precision's round-off (float 1e-5: the float FFTs of the
	 * embedding; double 1e-11), with no ε of a kernel.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void exactNormalIsTheNudftNormal(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-5 : 1e-11;
		for (final int[] size : new int[][] { { 12, 10 }, { 9, 11 }, { 6, 5, 4 } }) {
			final int m = 400, t = 2;
			long px = 1;
			for (final int n : size) px *= n;
			final Trajectory tr = randomTrajectory(size.length, m);
			final double s = 1 / Math.sqrt(px);
			final float[] w = weights(m);
			final NufftPlan plan = keep(backend.exactPlan(size, p));
			plan.setPoints(tr);
			final ToeplitzNormal normal = keep(ToeplitzNormal.exact(backend, tr, size, p, s, w, t));
			final LinearOperator direct = keep(keep(new NufftOperator(backend, plan, s, w, t)).normal());
			final double[] x = gaussian((int) (2 * px * t));
			final double[] fx = Nudft.forward(size, tr, x, 2);
			for (int i = 0; i < fx.length; i++) fx[i] *= s * s * w[(i / 2) % m];
			final double[] ref = Nudft.adjoint(size, tr, fx, 2);
			final String what = java.util.Arrays.toString(size) + " x " + t + " " + p;
			check(ref, apply(normal, x), bound, what + ": " + normal + " vs NUDFT");
			check(ref, apply(direct, x), bound, what + ": exact forward-adjoint vs NUDFT");
			assertTrue(normal.toString().startsWith("exact"), normal.toString());
		}
	}

	// -- adjointness --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void everyNewOperatorIsAdjoint(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-5 : 1e-11;
		final int[] size = { 10, 9 };
		final int px = 90, coils = 3, m = 200;
		final NufftPlan plan = plan(size, p, m);
		final float[] w = weights(m);
		final Buffer maps = keep(Adjointness.gaussian(backend, p, 2L * px * coils, random));
		final SenseOperator sense = keep(new SenseOperator(backend, plan, maps, coils, 0.3, w));
		final SenseOperator bart = keep(SenseOperator.bart(backend, plan, maps, coils));
		final ToeplitzNormal toeplitz = keep(new ToeplitzNormal(backend, trajectory, size, NufftOptions.defaults()
			.withPrecision(p).withTolerance(p == Precision.FLOAT ? 1e-6 : 1e-11), 0.3, w, coils));
		final NufftPlan exactPlan = keep(backend.exactPlan(size, p));
		exactPlan.setPoints(trajectory);
		final ToeplitzNormal exact = keep(ToeplitzNormal.exact(backend, trajectory, size, p, 0.3, w, coils));
		final LinearOperator[] ops = { sense, bart, toeplitz, keep(sense.normal()), keep(sense.normal(toeplitz)),
			sense.adjoint(), keep(new SenseOperator(backend, exactPlan, maps, coils, 0.3, w)), exact, keep(sense.normal(
				exact)) };
		for (final LinearOperator op : ops) {
			final double e = Adjointness.mismatch(op, random);
			assertTrue(e <= bound, op + ": adjoint mismatch " + e + " > " + bound + ", seed " + seed);
		}
	}

	// -- bad input --

	@Test
	void badInputIsRefusedNamingTheValue() {
		final NufftPlan plan = plan(new int[] { 8, 6 }, Precision.FLOAT, 50);
		final NufftOperator a = keep(NufftOperator.bart(backend, plan));
		final LinearOperator n = keep(a.normal());
		expect(() -> new ConjugateGradient(n, -0.5, 10, 0), "lambda", "-0.5");
		expect(() -> new ConjugateGradient(n, 0, 0, 0), "iterations", "0");
		expect(() -> new ConjugateGradient(n, 0, -3, 0), "iterations", "-3");
		expect(() -> new ConjugateGradient(n, Double.NaN, 3, 0), "lambda", "NaN");
		expect(() -> new ConjugateGradient(a, 0, 3, 0), "square", "96");
		final Buffer maps = keep(backend.allocate(2 * 48 * 2 - 2, Precision.FLOAT));
		expect(() -> new SenseOperator(backend, plan, maps, 2, 1, null), "maps", "95");
		final Buffer good = keep(backend.allocate(2 * 48 * 2, Precision.FLOAT));
		expect(() -> new SenseOperator(backend, plan, good, 0, 1, null), "coils", "0");
		expect(() -> new ToeplitzNormal(backend, trajectory, new int[] { 8, 6, 4 }, NufftOptions.defaults(), 1, null, 1),
			"2D", "[8, 6, 4]");
		expect(() -> new ToeplitzNormal(backend, trajectory, new int[] { 8, 6 }, NufftOptions.defaults(), 1,
			new float[49], 1), "49", "50");
		expect(() -> backend.exactPlan(new int[] { 8 }, Precision.FLOAT), "2 or 3 axes", "1");
		expect(() -> backend.exactPlan(new int[] { 8, 0 }, Precision.FLOAT), "[8, 0]");
		final NufftPlan exact = keep(backend.exactPlan(new int[] { 8, 6, 4 }, Precision.FLOAT));
		expect(() -> exact.setPoints(trajectory), "2D", "[8, 6, 4]");
		final NufftPlan exact2 = keep(backend.exactPlan(new int[] { 8, 6 }, Precision.FLOAT));
		exact2.setPoints(trajectory);
		expect(() -> exact2.spread(good, good), "gridding");
		expect(() -> exact2.forward(new float[2 * 48], new float[2 * 49]), "98 values", "50 points");
	}

	// -- helpers --


	private void expect(final org.junit.jupiter.api.function.Executable e, final String... words) {
		final InvalidInputException x = assertThrows(InvalidInputException.class, e);
		for (final String s : words) assertTrue(x.getMessage().contains(s), "'" + x.getMessage() + "' names " + s);
	}



	private float[] weights(final int m) {
		final float[] w = new float[m];
		for (int i = 0; i < m; i++) w[i] = 0.2f + random.nextFloat() * 3;
		return w;
	}

	/**
	 * x solving (AᴴA + λI) x = Aᴴy for the complex A = re + i·im, by a Cholesky factorisation of the Hermitian
	 * positive-definite matrix (Golub &amp; Van Loan, Algorithm 4.2.1), in double; x interleaved.
	 */
	static double[] denseSolve(final double[][] re, final double[][] im, final double[] y, final double lambda) {
		final int rows = re.length, n = re[0].length;
		final double[][] mr = new double[n][n], mi = new double[n][n];
		final double[] br = new double[n], bi = new double[n];
		for (int i = 0; i < n; i++) {
			for (int j = 0; j < n; j++) {
				double sr = 0, si = 0;
				for (int k = 0; k < rows; k++) { // conj(A_ki)·A_kj
					sr += re[k][i] * re[k][j] + im[k][i] * im[k][j];
					si += re[k][i] * im[k][j] - im[k][i] * re[k][j];
				}
				mr[i][j] = sr + (i == j ? lambda : 0);
				mi[i][j] = si;
			}
			for (int k = 0; k < rows; k++) {
				br[i] += re[k][i] * y[2 * k] + im[k][i] * y[2 * k + 1];
				bi[i] += re[k][i] * y[2 * k + 1] - im[k][i] * y[2 * k];
			}
		}
		// M = L Lᴴ, L lower triangular with a real diagonal.
		final double[][] lr = new double[n][n], li = new double[n][n];
		for (int j = 0; j < n; j++) {
			double d = mr[j][j];
			for (int k = 0; k < j; k++) d -= lr[j][k] * lr[j][k] + li[j][k] * li[j][k];
			if (!(d > 0)) throw new AssertionError("dense normal matrix is not positive definite");
			lr[j][j] = Math.sqrt(d);
			for (int i = j + 1; i < n; i++) {
				double sr = mr[i][j], si = mi[i][j];
				for (int k = 0; k < j; k++) { // − L_ik·conj(L_jk)
					sr -= lr[i][k] * lr[j][k] + li[i][k] * li[j][k];
					si -= li[i][k] * lr[j][k] - lr[i][k] * li[j][k];
				}
				lr[i][j] = sr / lr[j][j];
				li[i][j] = si / lr[j][j];
			}
		}
		// L z = b, then Lᴴ x = z.
		final double[] zr = new double[n], zi = new double[n];
		for (int i = 0; i < n; i++) {
			double sr = br[i], si = bi[i];
			for (int k = 0; k < i; k++) {
				sr -= lr[i][k] * zr[k] - li[i][k] * zi[k];
				si -= lr[i][k] * zi[k] + li[i][k] * zr[k];
			}
			zr[i] = sr / lr[i][i];
			zi[i] = si / lr[i][i];
		}
		final double[] x = new double[2 * n];
		for (int i = n - 1; i >= 0; i--) {
			double sr = zr[i], si = zi[i];
			for (int k = i + 1; k < n; k++) { // − conj(L_ki)·x_k
				sr -= lr[k][i] * x[2 * k] + li[k][i] * x[2 * k + 1];
				si -= lr[k][i] * x[2 * k + 1] - li[k][i] * x[2 * k];
			}
			x[2 * i] = sr / lr[i][i];
			x[2 * i + 1] = si / lr[i][i];
		}
		return x;
	}
}
