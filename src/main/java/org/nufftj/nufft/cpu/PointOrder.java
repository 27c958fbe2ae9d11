package org.nufftj.nufft.cpu;

/**
 * Bin-sorted order of the sample positions and their split into slabs along the slowest grid axis, fixed at
 * setPoints.
 * <p>
 * Slabs are {@code h > W} grid rows thick and even in number, so the windows of points in two slabs of the same parity
 * never touch the same grid row (not even across the periodic wrap): spreading runs all even slabs in parallel, then
 * all odd ones, writing straight into the shared grid with no locks and no private copies. Within a slab, points are
 * sorted by small bins so that consecutive points touch cached grid lines.
 * </p>
 */
final class PointOrder {

	/** Fine-grid positions t = k·n per axis, in sorted order. */
	final double[][] t;
	/** perm[s] = original index of the s-th sorted point. */
	final int[] perm;
	/** Sorted points of slab i are [slabStart[i], slabStart[i + 1]). */
	final int[] slabStart;
	final int slabs;
	/** Subproblems, one per non-empty bin: subproblem q holds the sorted points [subStart[q], subStart[q + 1]). */
	final int[] subStart;
	/** Subproblems of slab i are [slabSub[i], slabSub[i + 1]) (bins are sorted by slab first). */
	final int[] slabSub;

	PointOrder(final double[] coords, final int dims, final int[] grid, final int width, final int threads) {
		final int m = coords.length / dims;
		final int last = dims - 1;
		final int nl = grid[last];
		// Even number of slabs, each thicker than the kernel.
		int s = Math.min(8 * threads, nl / (width + 1));
		s -= s % 2;
		if (s < 2 || threads == 1) s = 1;
		slabs = s;
		// Slab i holds u ∈ [i·nl/s, (i+1)·nl/s): at least W + 1 rows thick.
		final double h = (double) nl / s;
		final int bin = dims == 2 ? 16 : 8;
		final int[] nb = new int[dims];
		for (int a = 0; a < last; a++) nb[a] = (grid[a] + bin - 1) / bin + 1;
		final int binsPerRow = product(nb, last);
		final int rowBins = (int) Math.ceil(h / bin) + 1;
		final int keys = s * rowBins * binsPerRow;
		final int[] key = new int[m];
		final int[] count = new int[keys + 1];
		for (int p = 0; p < m; p++) {
			// u ∈ [0, n]: position from the grid's low edge (k = −½ ↦ 0).
			final double ul = coords[dims * p + last] * nl + nl / 2.0;
			final int slab = Math.min(s - 1, (int) (ul * s / nl));
			final int rb = Math.max(0, Math.min(rowBins - 1, (int) ((ul - slab * h) / bin)));
			int bo = 0;
			for (int a = last - 1; a >= 0; a--) {
				final double u = coords[dims * p + a] * grid[a] + grid[a] / 2.0;
				bo = bo * nb[a] + Math.min(nb[a] - 1, (int) (u / bin));
			}
			key[p] = (slab * rowBins + rb) * binsPerRow + bo;
			count[key[p] + 1]++;
		}
		for (int k = 0; k < keys; k++) count[k + 1] += count[k];
		int subs = 0;
		for (int k = 0; k < keys; k++) if (count[k + 1] > count[k]) subs++;
		subStart = new int[subs + 1];
		slabSub = new int[s + 1];
		final int keysPerSlab = rowBins * binsPerRow;
		for (int k = 0, q = 0; k < keys; k++) {
			if (k % keysPerSlab == 0) slabSub[k / keysPerSlab] = q;
			if (count[k + 1] > count[k]) subStart[q++] = count[k];
		}
		subStart[subs] = m;
		slabSub[s] = subs;
		slabStart = new int[s + 1];
		for (int i = 0; i <= s; i++) slabStart[i] = count[i * rowBins * binsPerRow];
		perm = new int[m];
		for (int p = 0; p < m; p++) perm[count[key[p]]++] = p;
		t = new double[dims][m];
		for (int a = 0; a < dims; a++)
			for (int i = 0; i < m; i++) t[a][i] = coords[dims * perm[i] + a] * grid[a];
	}

	int count() { return perm.length; }

	private static int product(final int[] a, final int n) {
		int p = 1;
		for (int i = 0; i < n; i++) p *= a[i];
		return p;
	}
}
