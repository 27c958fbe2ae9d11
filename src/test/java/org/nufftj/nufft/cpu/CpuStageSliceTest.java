package org.nufftj.nufft.cpu;

import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.KernelSums;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * The CPU plan's stage calls on slices of larger buffers (non-zero offsets), for one transform (the copy-through path)
 * and several (the transposed path), against the direct kernel sums g_b[l] = Σ_m s_b[m]·ψ(l − t_m) on the periodic
 * grid and their transpose; values of the larger buffers outside the slices stay untouched.
 */
class CpuStageSliceTest {

	@ParameterizedTest
	@CsvSource({ "2, 1, FLOAT", "2, 1, DOUBLE", "2, 3, FLOAT", "3, 1, DOUBLE", "3, 2, FLOAT", "2, 3, DOUBLE" })
	void stagesOnSlicesMatchTheDirectSums(final int dims, final int transforms, final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = dims == 2 ? new int[] { 14, 12 } : new int[] { 8, 10, 6 };
		final Trajectory t = TestTrajectories.make("random", size, 300, r);
		final int m = t.count(), off = 6;
		try (CpuBackend cpu = new CpuBackend(2);
			NufftPlan plan = cpu.plan(size, NufftOptions.defaults().withPrecision(p).withTolerance(
				p == Precision.FLOAT ? 1e-4 : 1e-9)))
		{
			plan.setPoints(t);
			final NufftParameters params = plan.parameters();
			final int gp = (int) params.gridPoints(), gl = 2 * gp * transforms, sl = 2 * m * transforms;
			final KernelSums sums = new KernelSums(params, t);
			final double tol = p == Precision.FLOAT ? 2e-6 : 1e-12;
			for (int round = 0; round < 2; round++) { // the second round runs from the tap cache
				final double[] samples = gaussian(r, sl + 2 * off), grid = gaussian(r, gl + 2 * off);
				try (Buffer sb = upload(cpu, samples, p); Buffer gb = upload(cpu, grid, p)) {
					plan.spread(sb.slice(off, sl), gb.slice(off, gl));
					final double[][] e = sums.spread(samples, off, transforms, off, grid.length);
					keepOutside(e[0], grid, off, gl);
					KernelSums.check(e, download(cpu, gb, grid.length), tol, "spread round " + round + ", seed " + seed);
				}
				try (Buffer sb = upload(cpu, samples, p); Buffer gb = upload(cpu, grid, p)) {
					plan.interpolate(gb.slice(off, gl), sb.slice(off, sl));
					final double[][] e = sums.interpolate(grid, off, transforms, off, samples.length);
					keepOutside(e[0], samples, off, sl);
					KernelSums.check(e, download(cpu, sb, samples.length), tol, "interpolate round " + round + ", seed " +
						seed);
				}
			}
		}
	}

	// -- helpers --

	/** Outside the slice [off, off + len) the buffer keeps its values: the expected ones there are the original's. */
	private static void keepOutside(final double[] expected, final double[] original, final int off, final int len) {
		for (int i = 0; i < expected.length; i++) if (i < off || i >= off + len) expected[i] = original[i];
	}

	private static Buffer upload(final CpuBackend cpu, final double[] x, final Precision p) {
		if (p == Precision.DOUBLE) return cpu.wrap(x.clone());
		final float[] f = new float[x.length];
		for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
		return cpu.wrap(f);
	}

	private static double[] download(final CpuBackend cpu, final Buffer b, final int n) {
		final double[] d = new double[n];
		if (b.precision() == Precision.DOUBLE) cpu.read(b, d, 0);
		else {
			final float[] f = new float[n];
			cpu.read(b, f, 0);
			for (int i = 0; i < n; i++) d[i] = f[i];
		}
		return d;
	}

	private static double[] gaussian(final Random r, final int n) {
		final double[] a = new double[n];
		for (int i = 0; i < n; i++) a[i] = r.nextGaussian();
		return a;
	}
}
