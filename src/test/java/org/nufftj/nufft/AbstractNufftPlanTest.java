package org.nufftj.nufft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.kernel.KernelType;
import org.nufftj.trajectory.Trajectory;

/**
 * The one NUFFT test suite, written against {@link NufftPlan} and run for every backend (subclasses say which device).
 * Every check compares with the exact NUDFT or with maths, on fresh random inputs each run (the seed is printed on
 * failure).
 */
public abstract class AbstractNufftPlanTest {

	/** The device the subclass tests. */
	protected abstract DeviceChoice device();

	protected NufftOptions options(final Precision p, final double eps) {
		return NufftOptions.defaults().withDevice(device()).withPrecision(p).withTolerance(eps);
	}

	/** Points per test trajectory: the designs are subsampled to this many so the exact NUDFT stays cheap. */
	protected static final int POINTS = 3000;

	static Stream<Arguments> accuracyCases() {
		final List<Arguments> cases = new ArrayList<>();
		final int[][] sizes = { { 64, 64 }, { 128, 128 }, { 32, 32, 32 } };
		final double[] floats = { 1e-2, 1e-3, 1e-4, 1e-5 };
		final double[] doubles = { 1e-6, 1e-8, 1e-10 };
		for (final int[] size : sizes) {
			for (final String traj : TestTrajectories.names(size.length)) {
				for (final double e : floats) cases.add(Arguments.of(size, traj, Precision.FLOAT, e));
				for (final double e : doubles) cases.add(Arguments.of(size, traj, Precision.DOUBLE, e));
			}
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "{0} {1} {2} eps={3}")
	@MethodSource("accuracyCases")
	void forwardAndAdjointMeetToleranceAgainstExactNudft(final int[] size, final String trajectory,
		final Precision precision, final double eps)
	{
		assertMeetsToleranceAgainstExactNudft(size, trajectory, options(precision, eps));
	}

	/**
	 * Odd image sizes on every axis: pixel x − ⌊N/2⌋ is centred, so the image halves are ⌊N/2⌋ and ⌈N/2⌉ pixels and
	 * the padding and crop must place each at its own end of the grid row (one transform runs them as two runs of
	 * cells, not through a per-pixel table).
	 */
	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("oddSizeCases")
	void oddSizesMeetToleranceAgainstExactNudft(final int[] size, final Precision precision) {
		assertMeetsToleranceAgainstExactNudft(size, "random", options(precision, precision == Precision.FLOAT ? 1e-4 :
			1e-8));
	}

	static Stream<Arguments> oddSizeCases() {
		final List<Arguments> cases = new ArrayList<>();
		for (final int[] size : new int[][] { { 45, 37 }, { 15, 21, 13 } })
			for (final Precision p : Precision.values()) cases.add(Arguments.of(size, p));
		return cases.stream();
	}

	/**
	 * A plan of {@code o} on a fresh trajectory of the named kind, forward and adjoint of fresh Gaussian data, each
	 * within {@code o}'s ε of the exact NUDFT (relative l2); returns the plan's parameters.
	 */
	private NufftParameters assertMeetsToleranceAgainstExactNudft(final int[] size, final String trajectory,
		final NufftOptions o)
	{
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final Trajectory t = TestTrajectories.make(trajectory, size, POINTS, r);
		final int px = (int) Arrays2.pixels(size);
		final double[] image = Arrays2.gaussian(r, 2 * px);
		final double[] samples = Arrays2.gaussian(r, 2 * t.count());
		final double[] exactForward = Nudft.forward(size, t, image, 0);
		final double[] exactAdjoint = Nudft.adjoint(size, t, samples, 0);
		final double eps = o.tolerance();
		try (NufftPlan plan = Nufft.plan(size, o)) {
			plan.setPoints(t);
			final double ef, ea;
			if (o.precision() == Precision.FLOAT) {
				final float[] y = new float[2 * t.count()], x = new float[2 * px];
				plan.forward(Nudft.toFloat(image), y);
				plan.adjoint(Nudft.toFloat(samples), x);
				ef = Arrays2.relativeError(y, exactForward);
				ea = Arrays2.relativeError(x, exactAdjoint);
			}
			else {
				final double[] y = new double[2 * t.count()], x = new double[2 * px];
				plan.forward(image, y);
				plan.adjoint(samples, x);
				ef = Arrays2.relativeError(y, exactForward);
				ea = Arrays2.relativeError(x, exactAdjoint);
			}
			final String what = plan.parameters() + " seed " + seed;
			assertTrue(ef <= eps, "forward error " + ef + " > " + eps + ": " + what);
			assertTrue(ea <= eps, "adjoint error " + ea + " > " + eps + ": " + what);
			return plan.parameters();
		}
	}

	static Stream<Arguments> largeOversamplingCases() {
		final List<Arguments> cases = new ArrayList<>();
		for (final int[] size : new int[][] { { 64, 48 }, { 24, 20, 16 } })
			for (final double sigma : new double[] { 2.25, ParameterChoice.MAX_SIGMA }) {
				cases.add(Arguments.of(size, sigma, Precision.FLOAT, 1e-5));
				cases.add(Arguments.of(size, sigma, Precision.DOUBLE, 1e-9));
			}
		return cases.stream();
	}

	/**
	 * σ above 2 (the tuner times 2.25, where the kernel can be one width narrower than at σ = 2 at small ε; an option
	 * may ask up to {@link ParameterChoice#MAX_SIGMA}): the plan still meets ε against the exact NUDFT, both directions.
	 */
	@ParameterizedTest(name = "{0} sigma={1} {2} eps={3}")
	@MethodSource("largeOversamplingCases")
	void largeOversamplingMeetsTolerance(final int[] size, final double sigma, final Precision precision,
		final double eps)
	{
		final NufftParameters p = assertMeetsToleranceAgainstExactNudft(size, "random",
			options(precision, eps).withOversampling(sigma));
		assertEquals(sigma, p.oversampling(), 0, p.toString());
	}

	static Stream<Arguments> kernels() {
		return Stream.of(KernelType.values()).filter(k -> k != KernelType.AUTO)
			.flatMap(k -> Stream.of(Arguments.of(k, 1e-3, NufftOptions.Evaluation.ONLINE),
				Arguments.of(k, 1e-5, NufftOptions.Evaluation.ONLINE), Arguments.of(k, 1e-5, NufftOptions.Evaluation.LOOKUP),
				Arguments.of(k, 1e-5, NufftOptions.Evaluation.MATRIX)));
	}

	@ParameterizedTest(name = "{0} eps={1} {2}")
	@MethodSource("kernels")
	void everyKernelMeetsTolerance(final KernelType kernel, final double eps, final NufftOptions.Evaluation eval) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = { 48, 40 };
		final Trajectory t = TestTrajectories.make("radial", size, POINTS, r);
		final double[] image = Arrays2.gaussian(r, 2 * 48 * 40);
		final double[] exact = Nudft.forward(size, t, image, 0);
		try (NufftPlan plan = Nufft.plan(size, options(Precision.DOUBLE, eps).withKernel(kernel).withEvaluation(eval))) {
			plan.setPoints(t);
			final double[] y = new double[2 * t.count()];
			plan.forward(image, y);
			final double e = Arrays2.relativeError(y, exact);
			assertTrue(e <= eps, kernel + " error " + e + " > " + eps + " with " + plan.parameters() + " seed " + seed);
		}
	}

	/**
	 * The precomputed-matrix plan ({@link NufftOptions.Evaluation#MATRIX}) equals the online plan, forward and adjoint
	 * of T = 2: float at ε = 1e-5 within 1e-6 relative (the online kernel is within ε/100 of the exact one the matrix
	 * holds), double at ε = 1e-9 within 1e-9.
	 */
	@ParameterizedTest(name = "{0}D {1}")
	@MethodSource("adjointCases")
	void matrixPlanEqualsTheOnlinePlan(final int dims, final Precision precision) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = dims == 2 ? new int[] { 50, 64 } : new int[] { 20, 16, 24 };
		final Trajectory t = TestTrajectories.make("random", size, 4000, r);
		final int px = (int) Arrays2.pixels(size), m = t.count();
		final double eps = precision == Precision.FLOAT ? 1e-5 : 1e-9, tol = precision == Precision.FLOAT ? 1e-6 : 1e-9;
		final double[] x = Arrays2.gaussian(r, 2 * px * 2), y = Arrays2.gaussian(r, 2 * m * 2);
		try (NufftPlan online = Nufft.plan(size, options(precision, eps));
			NufftPlan matrix = Nufft.plan(size, options(precision, eps).withEvaluation(NufftOptions.Evaluation.MATRIX)))
		{
			assertTrue(matrix.backend().contains("matrix"), matrix.backend());
			online.setPoints(t);
			matrix.setPoints(t);
			final double[] f1 = new double[2 * m * 2], f2 = new double[2 * m * 2];
			final double[] a1 = new double[2 * px * 2], a2 = new double[2 * px * 2];
			online.forward(x, f1);
			matrix.forward(x, f2);
			online.adjoint(y, a1);
			matrix.adjoint(y, a2);
			final String s = " (" + dims + "D " + precision + ", seed " + seed + ")";
			final double ef = Arrays2.relativeError(f2, f1), ea = Arrays2.relativeError(a2, a1);
			assertTrue(ef <= tol, "matrix vs online forward: " + ef + s);
			assertTrue(ea <= tol, "matrix vs online adjoint: " + ea + s);
		}
	}

	@ParameterizedTest(name = "{0}D {1}")
	@MethodSource("adjointCases")
	void adjointIsTheConjugateTranspose(final int dims, final Precision precision) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = dims == 2 ? new int[] { 50, 64 } : new int[] { 20, 16, 24 };
		final Trajectory t = TestTrajectories.make("random", size, 5000, r);
		final int px = (int) Arrays2.pixels(size);
		final double tol = precision == Precision.FLOAT ? 1e-5 : 1e-12;
		try (NufftPlan plan = Nufft.plan(size, options(precision, precision == Precision.FLOAT ? 1e-4 : 1e-9))) {
			plan.setPoints(t);
			final double[] x, y, ax, ahy;
			if (precision == Precision.FLOAT) {
				final float[] xf = Arrays2.gaussianFloat(r, 2 * px), yf = Arrays2.gaussianFloat(r, 2 * t.count());
				final float[] axf = new float[yf.length], ahyf = new float[xf.length];
				plan.forward(xf, axf);
				plan.adjoint(yf, ahyf);
				x = Nudft.toDouble(xf);
				y = Nudft.toDouble(yf);
				ax = Nudft.toDouble(axf);
				ahy = Nudft.toDouble(ahyf);
			}
			else {
				x = Arrays2.gaussian(r, 2 * px);
				y = Arrays2.gaussian(r, 2 * t.count());
				ax = new double[y.length];
				ahy = new double[x.length];
				plan.forward(x, ax);
				plan.adjoint(y, ahy);
			}
			final double[] lhs = Arrays2.dot(ax, y), rhs = Arrays2.dot(x, ahy);
			final double diff = Math.hypot(lhs[0] - rhs[0], lhs[1] - rhs[1]);
			final double scale = Arrays2.norm(ax) * Arrays2.norm(y);
			assertTrue(diff <= tol * scale, "|<Ax,y> - <x,A^H y>| = " + diff + " > " + tol + " * " + scale + " seed " + seed);
		}
	}

	static Stream<Arguments> adjointCases() {
		return Stream.of(Arguments.of(2, Precision.FLOAT), Arguments.of(2, Precision.DOUBLE),
			Arguments.of(3, Precision.FLOAT), Arguments.of(3, Precision.DOUBLE));
	}

	@Test
	void batchedTransformsEqualSeparateOnes() {
		final Random r = new Random();
		final int[] size = { 40, 36 };
		final int batch = 19; // more than one group of the CPU plan's grid (16) and not a multiple of it
		final Trajectory t = TestTrajectories.make("golden angle", size, 2000, r);
		final int px = 40 * 36, m = t.count();
		final float[] images = Arrays2.gaussianFloat(r, 2 * px * batch);
		final float[] samples = Arrays2.gaussianFloat(r, 2 * m * batch);
		try (NufftPlan plan = Nufft.plan(size, options(Precision.FLOAT, 1e-5))) {
			plan.setPoints(t);
			final float[] yAll = new float[2 * m * batch], xAll = new float[2 * px * batch];
			plan.forward(images, yAll);
			plan.adjoint(samples, xAll);
			for (int b = 0; b < batch; b++) {
				final float[] y = new float[2 * m], x = new float[2 * px];
				plan.forward(java.util.Arrays.copyOfRange(images, 2 * px * b, 2 * px * (b + 1)), y);
				plan.adjoint(java.util.Arrays.copyOfRange(samples, 2 * m * b, 2 * m * (b + 1)), x);
				assertTrue(maxDiff(y, yAll, 2 * m * b) <= 1e-6 * maxAbs(y), "forward transform " + b);
				assertTrue(maxDiff(x, xAll, 2 * px * b) <= 1e-6 * maxAbs(x), "adjoint transform " + b);
			}
		}
	}

	@Test
	void pointsCanBeReplacedAndReused() {
		final Random r = new Random();
		final int[] size = { 32, 32 };
		final Trajectory a = TestTrajectories.make("random", size, 1500, r);
		final Trajectory b = TestTrajectories.make("radial", size, 1200, r);
		final double[] image = Arrays2.gaussian(r, 2 * 32 * 32);
		try (NufftPlan plan = Nufft.plan(size, options(Precision.DOUBLE, 1e-8))) {
			for (final Trajectory t : new Trajectory[] { a, b, a }) {
				plan.setPoints(t);
				assertEquals(t.count(), plan.points());
				final double[] y = new double[2 * t.count()];
				plan.forward(image, y);
				assertTrue(Arrays2.relativeError(y, Nudft.forward(size, t, image, 0)) <= 1e-8);
			}
		}
	}

	@Test
	void mismatchedArraysAreRejectedWithSizes() {
		final int[] size = { 16, 16 };
		try (NufftPlan plan = Nufft.plan(size, options(Precision.FLOAT, 1e-3))) {
			plan.setPoints(TestTrajectories.make("random", size, 100, new Random()));
			final InvalidInputException e = assertThrows(InvalidInputException.class,
				() -> plan.forward(new float[2 * 256], new float[2 * 99]));
			assertTrue(e.getMessage().contains("512") && e.getMessage().contains("198"), e.getMessage());
		}
	}

	@Test
	void useBeforeSetPointsOrAfterCloseFails() {
		final NufftPlan plan = Nufft.plan(new int[] { 8, 8 }, options(Precision.FLOAT, 1e-3));
		assertThrows(IllegalStateException.class, () -> plan.forward(new float[128], new float[2]));
		plan.close();
		assertThrows(IllegalStateException.class,
			() -> plan.setPoints(TestTrajectories.make("random", new int[] { 8, 8 }, 10, new Random())));
		plan.close(); // idempotent
	}

	private static double maxDiff(final float[] a, final float[] all, final int off) {
		double m = 0;
		for (int i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - all[off + i]));
		return m;
	}

	private static double maxAbs(final float[] a) {
		double m = 0;
		for (final float v : a) m = Math.max(m, Math.abs(v));
		return m;
	}
}
