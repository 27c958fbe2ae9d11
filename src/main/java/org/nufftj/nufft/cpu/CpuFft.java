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

	CpuFft(final int[] size, final Workers workers) {
		this.n = size.clone();
		int p = 1;
		for (final int s : n) p *= s;
		this.pixels = p;
		this.workers = workers;
		plans = new LineFft[workers.threads()][n.length];
		bases = new int[workers.threads()][];
		for (int w = 0; w < workers.threads(); w++) {
			int widest = 1;
			for (int a = 0; a < n.length; a++) {
				plans[w][a] = new LineFft(n[a]);
				widest = Math.max(widest, plans[w][a].block);
			}
			bases[w] = new int[widest];
		}
	}

	void transform(final CpuBuffer x, final int sign) {
		final int arrays = x.length / (2 * pixels);
		for (int axis = 0; axis < n.length; axis++) {
			final int ax = axis, len = n[axis];
			int stride = 1;
			for (int b = 0; b < axis; b++) stride *= n[b];
			final int st = stride, perArray = pixels / len, total = arrays * perArray;
			final int block = plans[0][ax].block;
			workers.ranges((total + block - 1) / block, (w, from, to) -> {
				final LineFft f = plans[w][ax];
				final int[] base = bases[w];
				for (int task = from; task < to; task++) {
					final int q0 = task * block, bl = Math.min(block, total - q0);
					for (int l = 0; l < bl; l++) {
						// Line q: element i at pixel base + i·stride of array q / perArray.
						final int q = q0 + l, r = q % perArray;
						base[l] = x.offset + 2 * ((q / perArray) * pixels + r % st + (r / st) * st * len);
					}
					gather(x, f, base, bl, len, 2 * st);
					f.transform(bl, sign);
					scatter(f, x, base, bl, len, 2 * st);
				}
			});
		}
	}

	private static void gather(final CpuBuffer x, final LineFft f, final int[] base, final int bl, final int len,
		final int step)
	{
		final double[] re = f.re, im = f.im;
		for (int i = 0; i < len; i++) {
			for (int l = 0; l < bl; l++) {
				final int src = base[l] + step * i;
				if (x.d != null) {
					re[i * bl + l] = x.d[src];
					im[i * bl + l] = x.d[src + 1];
				}
				else {
					re[i * bl + l] = x.f[src];
					im[i * bl + l] = x.f[src + 1];
				}
			}
		}
	}

	private static void scatter(final LineFft f, final CpuBuffer x, final int[] base, final int bl, final int len,
		final int step)
	{
		final double[] re = f.resultRe(), im = f.resultIm();
		for (int i = 0; i < len; i++) {
			for (int l = 0; l < bl; l++) {
				final int dst = base[l] + step * i;
				if (x.d != null) {
					x.d[dst] = re[i * bl + l];
					x.d[dst + 1] = im[i * bl + l];
				}
				else {
					x.f[dst] = (float) re[i * bl + l];
					x.f[dst + 1] = (float) im[i * bl + l];
				}
			}
		}
	}
}
