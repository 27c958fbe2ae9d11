package org.nufftj.nufft.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * The CPU engine's two tap-loop paths ({@link TapLoops}): the Vector API's (the test JVM has the module: surefire adds
 * it, as does {@code NUFFTJ_VECTOR=1 nufft-j}) and the scalar one ({@code -Dnufftj.vector=false}, read per plan) give
 * the same transforms — within 1e-6 in float and 1e-12 in double, relative — on 2D and 3D random points, for batches
 * that exercise full vectors, vector plus scalar tails and several grid groups, forward and adjoint; and the vector
 * path meets the exact NUDFT. The surefire execution "scalar-path" (pom) also runs the whole CPU accuracy suite with
 * the scalar loops. Fresh random inputs; seed in the messages.
 */
class VectorScalarParityTest {

	private final long seed = TestSeeds.fresh();
	private final Random random = new Random(seed);

	/** The property as the JVM was started (the pom's "scalar-path" execution sets it): restored after each test. */
	private final String started = System.getProperty("nufftj.vector");

	@AfterEach
	void restore() {
		if (started == null) System.clearProperty("nufftj.vector");
		else System.setProperty("nufftj.vector", started);
	}

	@Test
	void theTestJvmHasTheVectorPathAndThePropertyTurnsItOff() {
		System.clearProperty("nufftj.vector");
		assertNotNull(TapLoops.vector(), "the Vector API loops did not load: is surefire's argLine missing " +
			"--add-modules jdk.incubator.vector?");
		System.setProperty("nufftj.vector", "false");
		assertNull(TapLoops.vector());
	}

	@Test
	void vectorAndScalarLoopsGiveTheSameTransforms() {
		for (final int[] size : new int[][] { { 24, 20 }, { 10, 12, 8 } }) {
			for (final Precision p : Precision.values()) {
				for (final int batch : new int[] { 2, 3, 8, 11 }) {
					final double eps = p == Precision.FLOAT ? 1e-4 : 1e-9;
					final Trajectory t = TestTrajectories.make("random", size, 400, random);
					final int px = (int) Arrays2.pixels(size), m = t.count();
					final double[] image = Arrays2.gaussian(random, 2 * px * batch);
					final double[] samples = Arrays2.gaussian(random, 2 * m * batch);
					final double[][] vec = run(size, p, eps, t, image, samples, true);
					final double[][] scalar = run(size, p, eps, t, image, samples, false);
					final String what = java.util.Arrays.toString(size) + " " + p + " batch " + batch + ", seed " + seed;
					final double bound = p == Precision.FLOAT ? 1e-6 : 1e-12;
					for (int d = 0; d < 2; d++) {
						final double e = Arrays2.relativeError(vec[d], scalar[d]);
						assertTrue(e <= bound, (d == 0 ? "forward " : "adjoint ") + what + ": vector vs scalar " + e);
					}
					final double f = Arrays2.relativeError(vec[0], Nudft.forward(size, t, image, 2));
					assertTrue(f <= 2 * eps, "forward " + what + ": vector path vs NUDFT " + f);
				}
			}
		}
	}

	/** {forward samples, adjoint image} of one plan made with the vector loops on or off. */
	private static double[][] run(final int[] size, final Precision p, final double eps, final Trajectory t,
		final double[] image, final double[] samples, final boolean vector)
	{
		System.setProperty("nufftj.vector", Boolean.toString(vector));
		try (CpuNufftPlan plan = new CpuNufftPlan(org.nufftj.nufft.ParameterChoice.choose(size, NufftOptions.defaults()
			.withPrecision(p).withTolerance(eps)), NufftOptions.defaults().withThreads(2)))
		{
			assertEquals(vector, plan.vectorLoops(), "plan made with nufftj.vector=" + vector);
			plan.setPoints(t);
			final double[] y = new double[samples.length], x = new double[image.length];
			plan.forward(image, y);
			plan.adjoint(samples, x);
			return new double[][] { y, x };
		}
	}
}
