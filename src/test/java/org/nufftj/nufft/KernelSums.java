package org.nufftj.nufft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelPolynomial;
import org.nufftj.kernel.Kernels;
import org.nufftj.trajectory.Trajectory;

/**
 * The direct kernel sums a plan's stages promise, with the exact kernel: spread g_b[l] = Σ_m s_b[m]·ψ(l − t_m) on the
 * periodic grid (t_m = k_m·n) and its transpose, interpolate. Each sum comes with the bound the engines' kernel
 * evaluation may deviate by: a plan of tolerance ε evaluates ψ within {@link KernelPolynomial#toleranceFor}(ε)·ψ(0)
 * per axis, so a tap's weight (a product of d factors) within d·δ·ψ(0)^d (to first order, ×1.01 for the rest), and a
 * sum within that times Σ |term values| over its taps; rounding adds a share of the largest sum.
 */
public final class KernelSums {

	/** Per point: (grid cell, weight) pairs of its W^d taps. */
	private final double[][] taps;
	private final int points, gridPoints;
	private final double perTap;

	public KernelSums(final NufftParameters params, final Trajectory t) {
		final Kernel k = params.kernel();
		final int d = t.dimensions();
		points = t.count();
		gridPoints = (int) params.gridPoints();
		taps = taps(params, t);
		perTap = 1.01 * d * KernelPolynomial.toleranceFor(params.tolerance()) * Math.pow(Math.abs(k.value(0)), d);
	}

	/**
	 * Per point of {@code t}: its W^d taps on the plan's periodic grid as (grid cell, weight) pairs, cell x fastest,
	 * weight Π_a ψ(l_a − t_a) with the exact kernel.
	 */
	public static double[][] taps(final NufftParameters params, final Trajectory t) {
		final Kernel k = params.kernel();
		final int w = k.width(), d = t.dimensions();
		final int[] n = params.gridSize();
		final double[][] out = new double[t.count()][];
		int count = 1;
		for (int a = 0; a < d; a++) count *= w;
		for (int q = 0; q < t.count(); q++) {
			out[q] = new double[2 * count];
			for (int j = 0; j < count; j++) {
				double weight = 1;
				int cell = 0, stride = 1;
				for (int a = 0, rest = j; a < d; a++, rest /= w) {
					final double u = t.k(q, a) * n[a];
					final int l = Kernels.stencilStart(u, w) + rest % w;
					weight *= k.value(l - u);
					cell += stride * Math.floorMod(l, n[a]);
					stride *= n[a];
				}
				out[q][2 * j] = cell;
				out[q][2 * j + 1] = weight;
			}
		}
		return out;
	}

	/**
	 * {expected, bound} of spreading T transforms: samples [T][points] complex at {@code so}, grid [T][grid points] at
	 * {@code go} of arrays of {@code length} values (entries outside the grid: expected 0 and bound 0).
	 */
	public double[][] spread(final double[] samples, final int so, final int transforms, final int go,
		final int length)
	{
		final double[] e = new double[length], bound = new double[length];
		for (int b = 0; b < transforms; b++) for (int q = 0; q < points; q++) for (int j = 0; j < taps[q].length; j += 2) {
			final int l = go + 2 * (gridPoints * b + (int) taps[q][j]), s = so + 2 * (points * b + q);
			final double k = taps[q][j + 1];
			e[l] += k * samples[s];
			e[l + 1] += k * samples[s + 1];
			bound[l] += perTap * Math.abs(samples[s]);
			bound[l + 1] += perTap * Math.abs(samples[s + 1]);
		}
		return new double[][] { e, bound };
	}

	/** {expected, bound} of interpolating T grids: the transpose of {@link #spread}. */
	public double[][] interpolate(final double[] grid, final int go, final int transforms, final int so,
		final int length)
	{
		final double[] e = new double[length], bound = new double[length];
		for (int b = 0; b < transforms; b++) for (int q = 0; q < points; q++) for (int j = 0; j < taps[q].length; j += 2) {
			final int l = go + 2 * (gridPoints * b + (int) taps[q][j]), s = so + 2 * (points * b + q);
			final double k = taps[q][j + 1];
			e[s] += k * grid[l];
			e[s + 1] += k * grid[l + 1];
			bound[s] += perTap * Math.abs(grid[l]);
			bound[s + 1] += perTap * Math.abs(grid[l + 1]);
		}
		return new double[][] { e, bound };
	}

	/** |actual − expected| ≤ rounding · max |expected| + bound, entry by entry. */
	public static void check(final double[][] expectedAndBound, final double[] actual, final double rounding,
		final String what)
	{
		final double[] e = expectedAndBound[0], bound = expectedAndBound[1];
		assertEquals(e.length, actual.length, what + ": length");
		double max = 0;
		for (final double v : e) max = Math.max(max, Math.abs(v));
		for (int i = 0; i < e.length; i++) {
			final double err = Math.abs(actual[i] - e[i]), allowed = rounding * max + bound[i];
			assertTrue(err <= allowed, what + ": entry " + i + " is " + actual[i] + ", expected " + e[i] + " within " +
				allowed + " (rounding " + rounding + " x max " + max + " + kernel bound " + bound[i] + ")");
		}
	}
}
