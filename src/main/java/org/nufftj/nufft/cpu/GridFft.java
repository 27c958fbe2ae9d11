package org.nufftj.nufft.cpu;

import org.jtransforms.fft.DoubleFFT_1D;

/**
 * In-place unnormalised complex FFT of a batch of T oversampled grids stored transform-innermost: element (cell j,
 * transform t) at {@code 2·(j·T + t)}, cells x fastest. Separable: 1D JTransforms FFTs along each axis in turn, all lines
 * of the batch shared out among the plan's workers. Lines that lie side by side in memory are gathered
 * {@value #BLOCK} at a time so that memory is read in whole cache lines.
 * sign −1: Σ_j g_j e^{−2πi jl/n} (forward); sign +1: Σ_j g_j e^{+2πi jl/n} (adjoint, no 1/n).
 */
final class GridFft {

	private static final int BLOCK = 8;

	private final int[] n;
	private final Workers workers;
	/** Per worker, per axis: JTransforms 1D plans (one per thread: a plan keeps work arrays). */
	private final DoubleFFT_1D[][] plans;
	private final double[][] scratch;

	GridFft(final int[] gridSize, final Workers workers) {
		this.n = gridSize.clone();
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
		int cells = 1;
		for (final int s : n) cells *= s;
		int run = transforms; // lines of axis a that sit side by side: product of earlier axes × T
		for (int axis = 0; axis < n.length; axis++) {
			final int len = n[axis];
			if (run == 1) {
				// Axis 0 of a single grid: contiguous lines, transformed in place.
				final int lines = cells / len;
				workers.ranges(lines, (w, from, to) -> {
					final DoubleFFT_1D p = plans[w][0];
					for (int i = from; i < to; i++) {
						if (sign < 0) p.complexForward(g, 2 * len * i);
						else p.complexInverse(g, 2 * len * i, false);
					}
				});
			}
			else {
				gathered(g, axis, run, len, cells * transforms / (run * len), sign);
			}
			run *= len;
		}
	}

	/**
	 * Lines along one axis: element i of line (v, o) at complex offset v + run·(i + len·o), v ∈ [0, run),
	 * o ∈ [0, others).
	 */
	private void gathered(final double[] g, final int axis, final int run, final int len, final int others,
		final int sign)
	{
		final int blocks = (run + BLOCK - 1) / BLOCK;
		workers.ranges(blocks * others, (w, from, to) -> {
			final DoubleFFT_1D p = plans[w][axis];
			final double[] s = scratch[w];
			for (int task = from; task < to; task++) {
				final int v0 = (task % blocks) * BLOCK;
				final int o = task / blocks;
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
