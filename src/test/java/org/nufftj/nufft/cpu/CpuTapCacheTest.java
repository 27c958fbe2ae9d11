package org.nufftj.nufft.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * The CPU plan's tap cache (built by the first stage call) and its serial path for small stage calls change no
 * number: forward and adjoint give bit-identical results before and after a stage call, for one and several
 * transforms, in 2D and 3D, on one thread and on several; stage calls repeat bit-identically.
 */
class CpuTapCacheTest {

	@ParameterizedTest
	@CsvSource({ "2, 1, 1", "2, 3, 2", "3, 1, 2", "3, 2, 1", "2, 1, 4" })
	void transformsAreTheSameBeforeAndAfterTheCacheIsBuilt(final int dims, final int transforms, final int threads) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = dims == 2 ? new int[] { 24, 20 } : new int[] { 12, 10, 8 };
		final Trajectory t = TestTrajectories.make("random", size, 700, r);
		long pixels = 1;
		for (final int n : size) pixels *= n;
		final double[] y = gaussian(r, 2 * t.count() * transforms), x = gaussian(r, (int) (2 * pixels * transforms));
		try (CpuBackend cpu = new CpuBackend(threads);
			NufftPlan plan = cpu.plan(size, NufftOptions.defaults().withPrecision(Precision.DOUBLE).withTolerance(1e-9)))
		{
			plan.setPoints(t);
			final double[] adj0 = new double[x.length], fwd0 = new double[y.length];
			plan.adjoint(y, adj0);
			plan.forward(x, fwd0);
			final long grid = 2L * plan.parameters().gridPoints() * transforms;
			final double[] g1 = new double[(int) grid], g2 = new double[(int) grid];
			final double[] s1 = new double[y.length], s2 = new double[y.length];
			try (Buffer yb = cpu.wrap(y); Buffer gb = cpu.allocate(grid, Precision.DOUBLE);
				Buffer sb = cpu.allocate(y.length, Precision.DOUBLE))
			{
				plan.spread(yb, gb); // builds the cache
				cpu.read(gb, g1, 0);
				plan.interpolate(gb, sb);
				cpu.read(sb, s1, 0);
				plan.spread(yb, gb);
				cpu.read(gb, g2, 0);
				plan.interpolate(gb, sb);
				cpu.read(sb, s2, 0);
			}
			assertArrayEquals(g1, g2, "spread repeated, seed " + seed);
			assertArrayEquals(s1, s2, "interpolate repeated, seed " + seed);
			assertTrue(norm(g1) > 0 && norm(s1) > 0, "stages produced values, seed " + seed);
			final double[] adj1 = new double[x.length], fwd1 = new double[y.length];
			plan.adjoint(y, adj1);
			plan.forward(x, fwd1);
			assertArrayEquals(adj0, adj1, "adjoint before / after the cache, seed " + seed);
			assertArrayEquals(fwd0, fwd1, "forward before / after the cache, seed " + seed);
		}
	}

	private static double[] gaussian(final Random r, final int n) {
		final double[] a = new double[n];
		for (int i = 0; i < n; i++) a[i] = r.nextGaussian();
		return a;
	}

	private static double norm(final double[] a) {
		double s = 0;
		for (final double v : a) s += v * v;
		return Math.sqrt(s);
	}
}
