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
	/** Per worker: the value offset of element 0 of each line of the block, in x and in a kernel ({@link #convolve}). */
	private final int[][] bases, kbases;
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
		kbases = new int[workers.threads()][];
		for (int w = 0; w < workers.threads(); w++) {
			bases[w] = new int[PrunedLines.widestBlock(plans[w])];
			kbases[w] = new int[bases[w].length];
		}
	}

	void transform(final CpuBuffer x, final int sign) {
		for (int axis = 0; axis < n.length; axis++) pass(x, sign, axis, null, null);
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
			pass(x, sign, axis, outer[axis], null);
		}
	}

	/**
	 * x ← FFT⁺¹(K ⊙ FFT⁻¹(x)) with x zero outside the centred block and only the block of the result wanted
	 * (Toeplitz embedding; {@link org.nufftj.nufft.Backend#convolveBlock}): the forward passes pruned as
	 * {@code transform(x, −1, block, true)}'s, the inverse ones as {@code transform(x, +1, block, false)}'s, and along
	 * the last axis, which both pass over in full, one pass: each block of lines gathered once, transformed, multiplied
	 * by K's values on those lines (one array of {@code size}, the same for every array of x), transformed back and
	 * scattered once.
	 */
	void convolve(final CpuBuffer x, final int[] block, final CpuBuffer kernel) {
		final int[][] outer = outerLines(block);
		final int last = n.length - 1;
		for (int axis = 0; axis < last; axis++) pass(x, -1, axis, outer[axis], null);
		pass(x, -1, last, outer[last], kernel);
		for (int axis = last - 1; axis >= 0; axis--) pass(x, +1, axis, outer[axis], null);
	}

	/**
	 * The pass along one axis over every array's lines, or only over those whose mixed index over the later axes is
	 * in {@code outer} (null: all); with a {@code kernel}, each block of lines is transformed with {@code sign},
	 * multiplied by the kernel's values on its lines and transformed back with −sign ({@link #convolve}).
	 */
	private void pass(final CpuBuffer x, final int sign, final int axis, final int[] outer, final CpuBuffer kernel) {
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
				if (kernel != null) {
					final int[] kb = kbases[w];
					for (int l = 0; l < bl; l++) kb[l] = kernel.offset + (base[l] - x.offset) % (2 * pixels);
					multiplyLines(f, kernel, kb, bl, len, 2 * st);
					f.transform(bl, -sign);
				}
				scatter(f, x, base, bl, len, 2 * st);
			}
		});
	}

	/**
	 * f's result times the kernel's values on the block's lines (line l's element i at k's value offset
	 * kbase[l] + i·step), written to f's input arrays for the next transform; a row of the block at a time (the
	 * last axis's lines lie side by side, and so do their kernel values).
	 */
	private static void multiplyLines(final LineFft f, final CpuBuffer k, final int[] kbase, final int bl,
		final int len, final int step)
	{
		final double[] xr = f.resultRe(), xi = f.resultIm(), yr = f.re, yi = f.im;
		final int sb = f.stride(bl);
		for (int i = 0; i < len; i++) {
			final int o = i * sb, d = i * step;
			for (int l = 0; l < bl; l++) {
				final int s = kbase[l] + d;
				final double br = k.f != null ? k.f[s] : k.d[s], bi = k.f != null ? k.f[s + 1] : k.d[s + 1];
				final double ar = xr[o + l], ai = xi[o + l];
				yr[o + l] = ar * br - ai * bi;
				yi[o + l] = ar * bi + ai * br;
			}
		}
	}

	/** The pruned passes' lines for a centred block ({@link PrunedLines#laterAxes}), made once per block size. */
	private synchronized int[][] outerLines(final int[] block) {
		return outer.computeIfAbsent(java.util.Arrays.toString(block), k -> PrunedLines.laterAxes(n, block, (x, b) -> x +
			n[b] / 2 - block[b] / 2));
	}

	/**
	 * Copies the block's lines into f's work arrays (element i of line l at [i·stride + l]): where the lines lie side by
	 * side (line l + 1's elements right after line l's), a row of the block at a time from one run of memory; else
	 * line by line, each read in order.
	 */
	private static void gather(final CpuBuffer x, final LineFft f, final int[] base, final int bl, final int len,
		final int step)
	{
		final double[] re = f.re, im = f.im;
		final int sb = f.stride(bl);
		final boolean adjacent = adjacent(base, bl);
		if (x.d != null) {
			final double[] d = x.d;
			if (adjacent) {
				for (int i = 0, s = base[0]; i < len; i++, s += step) {
					for (int l = 0, o = i * sb; l < bl; l++) {
						re[o + l] = d[s + 2 * l];
						im[o + l] = d[s + 2 * l + 1];
					}
				}
			}
			else {
				for (int l = 0; l < bl; l++) {
					for (int i = 0, s = base[l], o = l; i < len; i++, s += step, o += sb) {
						re[o] = d[s];
						im[o] = d[s + 1];
					}
				}
			}
		}
		else {
			final float[] v = x.f;
			if (adjacent) {
				for (int i = 0, s = base[0]; i < len; i++, s += step) {
					for (int l = 0, o = i * sb; l < bl; l++) {
						re[o + l] = v[s + 2 * l];
						im[o + l] = v[s + 2 * l + 1];
					}
				}
			}
			else {
				for (int l = 0; l < bl; l++) {
					for (int i = 0, s = base[l], o = l; i < len; i++, s += step, o += sb) {
						re[o] = v[s];
						im[o] = v[s + 1];
					}
				}
			}
		}
	}

	/** The inverse of {@link #gather}: f's result back into the buffer (rounded to float for a float buffer). */
	private static void scatter(final LineFft f, final CpuBuffer x, final int[] base, final int bl, final int len,
		final int step)
	{
		final double[] re = f.resultRe(), im = f.resultIm();
		final int sb = f.stride(bl);
		final boolean adjacent = adjacent(base, bl);
		if (x.d != null) {
			final double[] d = x.d;
			if (adjacent) {
				for (int i = 0, s = base[0]; i < len; i++, s += step) {
					for (int l = 0, o = i * sb; l < bl; l++) {
						d[s + 2 * l] = re[o + l];
						d[s + 2 * l + 1] = im[o + l];
					}
				}
			}
			else {
				for (int l = 0; l < bl; l++) {
					for (int i = 0, s = base[l], o = l; i < len; i++, s += step, o += sb) {
						d[s] = re[o];
						d[s + 1] = im[o];
					}
				}
			}
		}
		else {
			final float[] v = x.f;
			if (adjacent) {
				for (int i = 0, s = base[0]; i < len; i++, s += step) {
					for (int l = 0, o = i * sb; l < bl; l++) {
						v[s + 2 * l] = (float) re[o + l];
						v[s + 2 * l + 1] = (float) im[o + l];
					}
				}
			}
			else {
				for (int l = 0; l < bl; l++) {
					for (int i = 0, s = base[l], o = l; i < len; i++, s += step, o += sb) {
						v[s] = (float) re[o];
						v[s + 1] = (float) im[o];
					}
				}
			}
		}
	}

	/** Whether line l + 1 starts one complex value after line l, for every l of the block. */
	static boolean adjacent(final int[] base, final int bl) {
		for (int l = 1; l < bl; l++) if (base[l] != base[l - 1] + 2) return false;
		return true;
	}
}
