package org.nufftj.nufft.cpu;

/**
 * The CPU backend's FFT ({@link CpuBackend#fft}) for one size: in place, unnormalised, over every axis of
 * {@code size} (x fastest, no shift) of each complex array held back to back in a buffer,
 * X_k = Σ_n x_n·e^{sign·2πi Σ_a k_a n_a / N_a}. Separable: along each axis in turn, the lines of all arrays are
 * gathered a block at a time into a per-worker {@link LineFft} (in double, from float or double buffers and slices
 * alike), transformed together and scattered back, the blocks shared out among the backend's workers.
 */
final class CpuFft {

	private final int[] n;
	private final int pixels;
	private final Workers workers;
	/** Per worker, per axis: the line FFT and its work arrays (so one per thread). */
	private final LineFft[][] plans;
	/** Per worker: the value offset of element 0 of each line of the block. */
	private final int[][] bases;
	/** Pruned passes' line lists per block size ({@link #outerLines}). */
	private final java.util.Map<String, int[][]> outer = new java.util.HashMap<>();

	CpuFft(final int[] size, final Workers workers) {
		this.n = size.clone();
		int p = 1;
		for (final int s : n) p *= s;
		this.pixels = p;
		this.workers = workers;
		plans = PrunedLines.plans(workers.threads(), n);
		bases = new int[workers.threads()][];
		for (int w = 0; w < workers.threads(); w++) bases[w] = new int[PrunedLines.widestBlock(plans[w])];
	}

	void transform(final CpuBuffer x, final int sign) {
		for (int axis = 0; axis < n.length; axis++) pass(x, sign, axis, null);
	}

	/**
	 * Pruned transform around the centred block {@code block} (pixel i of the block at i + ⌊N/2⌋ − ⌊b/2⌋ per axis):
	 * {@code fromBlock} — x is zero outside the block; axes in order 0, 1, 2, the pass along axis a only over the lines
	 * whose coordinates on the axes after a (not yet transformed) lie in the block, the others being zero. Otherwise
	 * only the block of the result is wanted; axes in order 2, 1, 0, the pass along axis a only over the lines whose
	 * coordinates on the axes after a (already transformed) lie in the block, the others never being read.
	 */
	void transform(final CpuBuffer x, final int sign, final int[] block, final boolean fromBlock) {
		final int[][] outer = outerLines(block);
		for (int step = 0; step < n.length; step++) {
			final int axis = fromBlock ? step : n.length - 1 - step;
			pass(x, sign, axis, outer[axis]);
		}
	}

	/**
	 * The pass along one axis over every array's lines, or only over those whose mixed index over the later axes is
	 * in {@code outer} (null: all).
	 */
	private void pass(final CpuBuffer x, final int sign, final int axis, final int[] outer) {
		final int arrays = x.length / (2 * pixels);
		final int len = n[axis];
		int stride = 1;
		for (int b = 0; b < axis; b++) stride *= n[b];
		final int st = stride, perArray = st * (outer == null ? pixels / (st * len) : outer.length);
		final int total = arrays * perArray;
		final int block = plans[0][axis].block;
		workers.ranges((total + block - 1) / block, (w, from, to) -> {
			final LineFft f = plans[w][axis];
			final int[] base = bases[w];
			for (int task = from; task < to; task++) {
				final int q0 = task * block, bl = Math.min(block, total - q0);
				for (int l = 0; l < bl; l++) {
					// Line q: element i at pixel inner + stride·(i + len·o) of array q / perArray.
					final int q = q0 + l, r = q % perArray, o = outer == null ? r / st : outer[r / st];
					base[l] = x.offset + 2 * ((q / perArray) * pixels + r % st + o * st * len);
				}
				gather(x, f, base, bl, len, 2 * st);
				f.transform(bl, sign);
				scatter(f, x, base, bl, len, 2 * st);
			}
		});
	}

	/** The pruned passes' lines for a centred block ({@link PrunedLines#laterAxes}), made once per block size. */
	private synchronized int[][] outerLines(final int[] block) {
		return outer.computeIfAbsent(java.util.Arrays.toString(block), k -> PrunedLines.laterAxes(n, block, (x, b) -> x +
			n[b] / 2 - block[b] / 2));
	}

	private static void gather(final CpuBuffer x, final LineFft f, final int[] base, final int bl, final int len,
		final int step)
	{
		final double[] re = f.re, im = f.im;
		final int sb = f.stride(bl);
		for (int i = 0; i < len; i++) {
			for (int l = 0; l < bl; l++) {
				final int src = base[l] + step * i;
				if (x.d != null) {
					re[i * sb + l] = x.d[src];
					im[i * sb + l] = x.d[src + 1];
				}
				else {
					re[i * sb + l] = x.f[src];
					im[i * sb + l] = x.f[src + 1];
				}
			}
		}
	}

	private static void scatter(final LineFft f, final CpuBuffer x, final int[] base, final int bl, final int len,
		final int step)
	{
		final double[] re = f.resultRe(), im = f.resultIm();
		final int sb = f.stride(bl);
		for (int i = 0; i < len; i++) {
			for (int l = 0; l < bl; l++) {
				final int dst = base[l] + step * i;
				if (x.d != null) {
					x.d[dst] = re[i * sb + l];
					x.d[dst + 1] = im[i * sb + l];
				}
				else {
					x.f[dst] = (float) re[i * sb + l];
					x.f[dst + 1] = (float) im[i * sb + l];
				}
			}
		}
	}
}
