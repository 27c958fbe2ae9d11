package org.nufftj.nufft.cpu;

import org.jtransforms.fft.DoubleFFT_1D;

/**
 * The CPU backend's FFT ({@link CpuBackend#fft}) for one size: in place, unnormalised, over every axis of
 * {@code size} (x fastest, no shift) of each complex array held back to back in a buffer,
 * X_k = Σ_n x_n·e^{sign·2πi Σ_a k_a n_a / N_a}. Separable: JTransforms 1D transforms along each axis in turn, the
 * lines shared out among the backend's workers, each line gathered into a per-worker double scratch (so float and
 * double buffers and slices take one path).
 */
final class CpuFft {

	private final int[] n;
	private final int pixels;
	private final Workers workers;
	/** Per worker, per axis (a 1D plan keeps work arrays, so one per thread). */
	private final DoubleFFT_1D[][] plans;
	private final double[][] scratch;

	CpuFft(final int[] size, final Workers workers) {
		this.n = size.clone();
		int p = 1, longest = 0;
		for (final int s : n) {
			p *= s;
			longest = Math.max(longest, s);
		}
		this.pixels = p;
		this.workers = workers;
		plans = new DoubleFFT_1D[workers.threads()][n.length];
		scratch = new double[workers.threads()][2 * longest];
		for (int w = 0; w < workers.threads(); w++)
			for (int a = 0; a < n.length; a++) plans[w][a] = new DoubleFFT_1D(n[a]);
	}

	void transform(final CpuBuffer x, final int sign) {
		final int arrays = x.length / (2 * pixels);
		for (int axis = 0; axis < n.length; axis++) {
			final int ax = axis, len = n[axis];
			int stride = 1;
			for (int b = 0; b < axis; b++) stride *= n[b];
			final int st = stride, perArray = pixels / len;
			workers.ranges(arrays * perArray, (w, from, to) -> {
				final DoubleFFT_1D p = plans[w][ax];
				final double[] s = scratch[w];
				for (int line = from; line < to; line++) {
					final int r = line % perArray;
					// Element i of this line: pixel base + i·stride of array line / perArray.
					final int base = (line / perArray) * pixels + r % st + (r / st) * st * len;
					for (int i = 0; i < len; i++) {
						s[2 * i] = x.get(2 * (base + i * st));
						s[2 * i + 1] = x.get(2 * (base + i * st) + 1);
					}
					if (sign < 0) p.complexForward(s);
					else p.complexInverse(s, false);
					for (int i = 0; i < len; i++) {
						x.set(2 * (base + i * st), s[2 * i]);
						x.set(2 * (base + i * st) + 1, s[2 * i + 1]);
					}
				}
			});
		}
	}
}
