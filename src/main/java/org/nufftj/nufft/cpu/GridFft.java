package org.nufftj.nufft.cpu;

import org.jtransforms.fft.DoubleFFT_1D;

/**
 * In-place unnormalised complex FFT of a batch of T oversampled grids stored transform-innermost: element (cell j,
 * transform t) at {@code 2·(j·T + t)}, cells x fastest. Separable: 1D JTransforms FFTs along each axis in turn, all lines
 * of the batch shared out among the plan's workers. Lines that lie side by side in memory are gathered
 * {@value #BLOCK} at a time so that memory is read in whole cache lines.
 * sign −1: Σ_j g_j e^{−2πi jl/n} (forward); sign +1: Σ_j g_j e^{+2πi jl/n} (adjoint, no 1/n).
 * <p>
 * Pruned: in the forward direction only the image region of the grid is non-zero, and in the adjoint only the image
 * region of the result is kept. Transforming the axes in order 0, 1, 2 (forward) or 2, 1, 0 (adjoint), the pass along
 * axis a then only needs the lines whose coordinates on the axes after a lie in the image region: the other lines
 * are zero (forward) or never read (adjoint). This saves (1 − 1/σ)/2 of the work in 2D and about 40% in 3D at σ = 2.
 * </p>
 */
final class GridFft {

	private static final int BLOCK = 8;

	private final int[] n;
	private final Workers workers;
	/** Per worker, per axis: JTransforms 1D plans (one per thread: a plan keeps work arrays). */
	private final DoubleFFT_1D[][] plans;
	private final double[][] scratch;

	/** For each axis a: the values of the mixed-radix index over the axes after a that lie in the image region. */
	private final int[][] kept;

	GridFft(final int[] gridSize, final int[] imageSize, final Workers workers) {
		this.n = gridSize.clone();
		this.kept = new int[n.length][];
		for (int a = 0; a < n.length; a++) {
			int count = 1;
			for (int b = a + 1; b < n.length; b++) count *= imageSize[b];
			final int[] k = new int[count];
			for (int i = 0; i < count; i++) {
				// i enumerates image coordinates on axes a+1 … (axis a+1 fastest); map each to its grid index.
				int rest = i, o = 0, radix = 1;
				for (int b = a + 1; b < n.length; b++) {
					final int x = rest % imageSize[b];
					rest /= imageSize[b];
					o += radix * Math.floorMod(x - imageSize[b] / 2, n[b]);
					radix *= n[b];
				}
				k[i] = o;
			}
			kept[a] = k;
		}
		this.workers = workers;
		plans = new DoubleFFT_1D[workers.threads()][n.length];
		scratch = new double[workers.threads()][];
		int longest = 0;
		for (final int s : n) longest = Math.max(longest, s);
		for (int w = 0; w < workers.threads(); w++) {
			for (int a = 0; a < n.length; a++) plans[w][a] = new DoubleFFT_1D(n[a]);
			scratch[w] = new double[2 * longest * BLOCK];
		}
	}

	void transform(final double[] g, final int transforms, final int sign) {
		final int d = n.length;
		for (int step = 0; step < d; step++) {
			final int axis = sign < 0 ? step : d - 1 - step;
			int run = transforms; // lines of this axis that sit side by side: T × the sizes of earlier axes
			for (int b = 0; b < axis; b++) run *= n[b];
			final int len = n[axis];
			final int[] others = kept[axis];
			if (run == 1) {
				// Axis 0 of a single grid: contiguous lines, transformed in place.
				workers.ranges(others.length, (w, from, to) -> {
					final DoubleFFT_1D p = plans[w][0];
					for (int i = from; i < to; i++) {
						if (sign < 0) p.complexForward(g, 2 * len * others[i]);
						else p.complexInverse(g, 2 * len * others[i], false);
					}
				});
			}
			else {
				gathered(g, axis, run, len, others, sign);
			}
		}
	}

	/**
	 * Lines along one axis: element i of line (v, o) at complex offset v + run·(i + len·o), v ∈ [0, run),
	 * o ∈ others.
	 */
	private void gathered(final double[] g, final int axis, final int run, final int len, final int[] others,
		final int sign)
	{
		final int blocks = (run + BLOCK - 1) / BLOCK;
		workers.ranges(blocks * others.length, (w, from, to) -> {
			final DoubleFFT_1D p = plans[w][axis];
			final double[] s = scratch[w];
			for (int task = from; task < to; task++) {
				final int v0 = (task % blocks) * BLOCK;
				final int o = others[task / blocks];
				final int bw = Math.min(BLOCK, run - v0);
				final long base = v0 + (long) run * len * o;
				for (int i = 0; i < len; i++) {
					final int src = (int) (2 * (base + (long) run * i));
					for (int b = 0; b < bw; b++) {
						s[2 * (b * len + i)] = g[src + 2 * b];
						s[2 * (b * len + i) + 1] = g[src + 2 * b + 1];
					}
				}
				for (int b = 0; b < bw; b++) {
					if (sign < 0) p.complexForward(s, 2 * b * len);
					else p.complexInverse(s, 2 * b * len, false);
				}
				for (int i = 0; i < len; i++) {
					final int dst = (int) (2 * (base + (long) run * i));
					for (int b = 0; b < bw; b++) {
						g[dst + 2 * b] = s[2 * (b * len + i)];
						g[dst + 2 * b + 1] = s[2 * (b * len + i) + 1];
					}
				}
			}
		});
	}
}
