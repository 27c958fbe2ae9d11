package org.nufftj.operator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestBuffers;
import org.nufftj.trajectory.Trajectory;

/**
 * What the suites written once for every backend (operators, iterative solvers, regularisers) share: the backend
 * under test opened before and closed after each test with everything {@link #keep kept} on it, a fresh seed (in
 * every message), and host ↔ buffer helpers in double.
 */
public abstract class AbstractBackendFixture {

	/** Opens the backend under test (closed after each test). */
	protected abstract Backend open();

	protected Backend backend;
	protected long seed;
	protected Random random;
	private final List<AutoCloseable> toClose = new ArrayList<>();

	@BeforeEach
	protected void openBackend() {
		backend = open();
		seed = TestSeeds.fresh();
		random = new Random(seed);
	}

	@AfterEach
	protected void closeAll() throws Exception {
		for (int i = toClose.size() - 1; i >= 0; i--) toClose.get(i).close();
		toClose.clear();
		backend.close();
	}

	// -- helpers --

	/** {@code c}, closed after the test (in reverse order of keeping, before the backend). */
	protected <T extends AutoCloseable> T keep(final T c) {
		toClose.add(c);
		return c;
	}

	/** The points of the last {@link #plan}. */
	protected Trajectory trajectory;

	/** m points drawn uniformly in [−½, ½)^d (cycles per pixel). */
	protected Trajectory randomTrajectory(final int dimensions, final int m) {
		final double[] c = new double[dimensions * m];
		for (int i = 0; i < c.length; i++) c[i] = random.nextDouble() - 0.5;
		return new Trajectory(dimensions, c, "random");
	}

	/** A kept plan on {@link #randomTrajectory} points (set as {@link #trajectory}), ε 1e-6 in float, 1e-11 double. */
	protected NufftPlan plan(final int[] size, final Precision p, final int m) {
		return plan(size, p, m, p == Precision.FLOAT ? 1e-6 : 1e-11);
	}

	/** As {@link #plan(int[], Precision, int)} with tolerance {@code eps}. */
	protected NufftPlan plan(final int[] size, final Precision p, final int m, final double eps) {
		trajectory = randomTrajectory(size.length, m);
		final NufftPlan plan = keep(backend.plan(size, NufftOptions.defaults().withPrecision(p).withTolerance(eps)));
		plan.setPoints(trajectory);
		return plan;
	}

	protected double[] gaussian(final int n) {
		final double[] a = new double[n];
		for (int i = 0; i < n; i++) a[i] = random.nextGaussian();
		return a;
	}

	/** op(x), through buffers of the operator's precision. */
	protected double[] apply(final LinearOperator op, final double[] x) {
		try (Buffer bx = upload(x, op.precision()); Buffer y = backend.allocate(op.rangeLength(), op.precision())) {
			op.apply(bx, y);
			return download(y);
		}
	}

	/** A new buffer of precision {@code p} holding {@code v} (rounded to float for FLOAT); the caller closes it. */
	protected Buffer upload(final double[] v, final Precision p) {
		return TestBuffers.upload(backend, v, p);
	}

	protected double[] download(final Buffer b) {
		return TestBuffers.download(backend, b);
	}

	protected void check(final double[] expected, final double[] actual, final double bound, final String what) {
		final double e = relative(expected, actual);
		assertTrue(e <= bound, what + ": relative error " + e + " > " + bound + ", seed " + seed);
	}

	/** ‖actual − expected‖ / ‖expected‖. */
	protected static double relative(final double[] expected, final double[] actual) {
		double d = 0, n = 0;
		for (int i = 0; i < expected.length; i++) {
			d += (expected[i] - actual[i]) * (expected[i] - actual[i]);
			n += expected[i] * expected[i];
		}
		return Math.sqrt(d / Math.max(n, Double.MIN_NORMAL));
	}
}
