package org.nufftj.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Trajectory;

/** The NUFFT operator against the exact NUDFT, and the generic dot-product adjoint test. */
class NufftOperatorTest {

	private final Random random = new Random();

	private Trajectory randomTrajectory(final int d, final int m) {
		final double[] c = new double[d * m];
		for (int i = 0; i < c.length; i++) c[i] = random.nextDouble() - 0.5;
		return new Trajectory(d, c, "random");
	}

	private float[] randomVector(final int n) {
		final float[] a = new float[n];
		for (int i = 0; i < n; i++) a[i] = (float) random.nextGaussian();
		return a;
	}

	private static double relativeError(final float[] test, final double[] ref) {
		double num = 0, den = 0;
		for (int i = 0; i < ref.length; i++) {
			num += (test[i] - ref[i]) * (test[i] - ref[i]);
			den += ref[i] * ref[i];
		}
		return Math.sqrt(num / den);
	}

	@Test
	void bartScalingIsOneOverSqrtPixelsOfTheExactTransform() {
		final int[] size = { 24, 20 };
		final Trajectory t = randomTrajectory(2, 500);
		final double eps = 1e-5;
		try (NufftPlan plan = Nufft.plan(size, NufftOptions.defaults().withTolerance(eps))) {
			plan.setPoints(t);
			final NufftOperator op = NufftOperator.bart(plan);
			assertEquals(1 / Math.sqrt(24 * 20), op.scale(), 1e-15);
			final float[] x = randomVector(2 * 24 * 20 * 2), y = randomVector(2 * 500 * 2);
			final float[] ax = new float[y.length], ahy = new float[x.length];
			op.forward(x, ax);
			op.adjoint(y, ahy);
			final double[] fx = Nudft.forward(size, t, Nudft.toDouble(x), 2);
			final double[] fy = Nudft.adjoint(size, t, Nudft.toDouble(y), 2);
			for (int i = 0; i < fx.length; i++) fx[i] /= Math.sqrt(480);
			for (int i = 0; i < fy.length; i++) fy[i] /= Math.sqrt(480);
			assertTrue(relativeError(ax, fx) <= eps, "forward error " + relativeError(ax, fx));
			assertTrue(relativeError(ahy, fy) <= eps, "adjoint error " + relativeError(ahy, fy));
		}
	}

	@Test
	void weightedOperatorIsSqrtWeightsTimesForward() {
		final int[] size = { 16, 16 };
		final Trajectory t = randomTrajectory(2, 300);
		final float[] w = new float[300];
		for (int i = 0; i < w.length; i++) w[i] = random.nextFloat() * 3;
		try (NufftPlan plan = Nufft.plan(size, NufftOptions.defaults().withTolerance(1e-5))) {
			plan.setPoints(t);
			final NufftOperator op = new NufftOperator(plan, 0.5, w);
			final float[] x = randomVector(2 * 256);
			final float[] ax = new float[600];
			op.forward(x, ax);
			final double[] ref = Nudft.forward(size, t, Nudft.toDouble(x), 2);
			for (int i = 0; i < ref.length; i++) ref[i] *= 0.5 * Math.sqrt(w[i / 2]);
			assertTrue(relativeError(ax, ref) <= 1e-5, "weighted forward error " + relativeError(ax, ref));
		}
	}

	@Test
	void dotProductTestFloat() {
		for (final int d : new int[] { 2, 3 }) {
			final int[] size = d == 2 ? new int[] { 32, 28 } : new int[] { 12, 10, 8 };
			final Trajectory t = randomTrajectory(d, 700);
			final float[] w = new float[700];
			for (int i = 0; i < w.length; i++) w[i] = random.nextFloat();
			try (NufftPlan plan = Nufft.plan(size, NufftOptions.defaults().withTolerance(1e-4))) {
				plan.setPoints(t);
				for (final LinearOperator op : new LinearOperator[] { NufftOperator.unscaled(plan), NufftOperator.bart(plan),
					new NufftOperator(plan, 2.5, w) })
				{
					final double mismatch = Adjointness.mismatch(op, 3, random);
					assertTrue(mismatch <= 1e-5, d + "D adjoint mismatch " + mismatch);
				}
			}
		}
	}

	@Test
	void dotProductTestDetectsAWrongAdjoint() {
		final int[] size = { 16, 16 };
		final Trajectory t = randomTrajectory(2, 200);
		try (NufftPlan plan = Nufft.plan(size, NufftOptions.defaults().withPrecision(Precision.DOUBLE).withTolerance(1e-8))) {
			plan.setPoints(t);
			final NufftOperator good = NufftOperator.unscaled(plan);
			final LinearOperator wrong = new LinearOperator() {
				@Override public long domainLength() { return good.domainLength(); }
				@Override public long rangeLength() { return good.rangeLength(); }
				@Override public void forward(final float[] x, final float[] y) { good.forward(x, y); }
				@Override public void adjoint(final float[] y, final float[] x) {
					good.adjoint(y, x);
					for (int i = 1; i < x.length; i += 2) x[i] = -x[i]; // conjugated: not the adjoint
				}
			};
			assertTrue(Adjointness.mismatch(good, 1, random) <= 1e-6);
			assertTrue(Adjointness.mismatch(wrong, 1, random) > 1e-2);
		}
	}

	@Test
	void normalIsAdjointOfForward() {
		final int[] size = { 16, 12 };
		final Trajectory t = randomTrajectory(2, 250);
		try (NufftPlan plan = Nufft.plan(size, NufftOptions.defaults().withTolerance(1e-5))) {
			plan.setPoints(t);
			final NufftOperator op = NufftOperator.bart(plan);
			final float[] x = randomVector(2 * 192);
			final float[] n = new float[x.length];
			op.normal(x, n);
			final double[] ref = Nudft.adjoint(size, t, Nudft.forward(size, t, Nudft.toDouble(x), 2), 2);
			for (int i = 0; i < ref.length; i++) ref[i] /= 192;
			assertTrue(relativeError(n, ref) <= 2e-5, "normal error " + relativeError(n, ref));
		}
	}

	@Test
	void badWeightsAreRejected() {
		try (NufftPlan plan = Nufft.plan(new int[] { 8, 8 }, NufftOptions.defaults())) {
			plan.setPoints(randomTrajectory(2, 10));
			assertThrows(InvalidInputException.class, () -> new NufftOperator(plan, 1, new float[9]));
			final float[] w = new float[10];
			w[3] = Float.NaN;
			assertThrows(InvalidInputException.class, () -> new NufftOperator(plan, 1, w));
			assertThrows(InvalidInputException.class, () -> new NufftOperator(plan, 0, null));
		}
	}
}
