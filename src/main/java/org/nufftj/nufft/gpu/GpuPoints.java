package org.nufftj.nufft.gpu;

import org.nufftj.kernel.Kernels;
import org.nufftj.trajectory.Trajectory;

/**
 * Host-side preparation of sample positions for the kernels: each point's W-wide stencil (first cell per axis and the
 * kernel argument of that cell, computed in double) and a counting sort of the points by bin, plus the subproblems
 * (≤ {@code maxSub} points of one bin) the shared-memory spreader runs as blocks.
 * <p>
 * For axis a with grid size n and t = k·n: first cell i0 = ⌈t − W/2⌉, kernel argument of cell i0 + j is
 * (i0 − t) + j. i0 is moved by ±n so that c = i0 + ⌊W/2⌋ lies in [0, n) (the grid is periodic), and the point's bin
 * on that axis is ⌊c / binSize⌋: so every stencil of a bin starts inside the bin's tile, by construction.
 * </p>
 * <p>
 * The host oracle of the device sort: plans sort on the device ({@link GpuSetpts}, kernels/setpts.cu, the same
 * arithmetic), and GpuSetPointsTest compares its bins, stencils, offsets and subproblems with these; GpuBenchmark
 * times this host sort (O(M), two passes) beside the device one. Within a bin the order here is the input order.
 * </p>
 */
final class GpuPoints {

	final int count;
	final int[] perm;
	final int[][] first;
	final double[][] offset;
	final int[] binsPerAxis;
	final int[] subBin, subStart, subCount;
	final int maxBinCount;

	GpuPoints(final Trajectory t, final int[] grid, final int width, final int[] binSize, final int maxSub) {
		final int d = grid.length;
		count = t.count();
		final double[] k = t.coords();
		binsPerAxis = new int[d];
		int bins = 1;
		for (int a = 0; a < d; a++) {
			binsPerAxis[a] = (grid[a] + binSize[a] - 1) / binSize[a];
			bins *= binsPerAxis[a];
		}
		final int hw = width / 2;
		final int[][] firstU = new int[d][count];
		final double[][] offU = new double[d][count];
		final int[] bin = new int[count];
		final int[] histogram = new int[bins + 1];
		for (int m = 0; m < count; m++) {
			int b = 0, stride = 1;
			for (int a = 0; a < d; a++) {
				final int n = grid[a];
				final double tt = k[d * m + a] * n;
				int i0 = Kernels.stencilStart(tt, width);
				offU[a][m] = i0 - tt;
				final int c = Math.floorMod(i0 + hw, n);
				i0 = c - hw;
				firstU[a][m] = i0;
				b += stride * Math.min(c / binSize[a], binsPerAxis[a] - 1);
				stride *= binsPerAxis[a];
			}
			bin[m] = b;
			histogram[b + 1]++;
		}
		int maxCount = 0;
		for (int b = 0; b < bins; b++) maxCount = Math.max(maxCount, histogram[b + 1]);
		maxBinCount = maxCount;
		int subs = 0;
		for (int b = 0; b < bins; b++) subs += (histogram[b + 1] + maxSub - 1) / maxSub;
		subBin = new int[subs];
		subStart = new int[subs];
		subCount = new int[subs];
		int s = 0;
		for (int b = 0; b < bins; b++) {
			final int c = histogram[b + 1];
			final int start = histogram[b];
			for (int o = 0; o < c; o += maxSub) {
				subBin[s] = b;
				subStart[s] = start + o;
				subCount[s] = Math.min(maxSub, c - o);
				s++;
			}
			histogram[b + 1] += histogram[b];
		}
		// histogram[b] is now the start of bin b; scatter (stable).
		perm = new int[count];
		final int[] next = new int[bins];
		System.arraycopy(histogram, 0, next, 0, bins);
		for (int m = 0; m < count; m++) perm[next[bin[m]]++] = m;
		first = new int[d][count];
		offset = new double[d][count];
		for (int i = 0; i < count; i++) {
			final int m = perm[i];
			for (int a = 0; a < d; a++) {
				first[a][i] = firstU[a][m];
				offset[a][i] = offU[a][m];
			}
		}
	}
}
