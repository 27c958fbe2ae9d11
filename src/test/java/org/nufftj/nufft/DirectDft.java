package org.nufftj.nufft;

/** The discrete Fourier transform written out (O(N²), double): the reference for FFT tests on every backend. */
public final class DirectDft {

	private DirectDft() {}

	/**
	 * X_k = Σ_n x_n e^{sign·2πi Σ_a k_a n_a / N_a} for each of the batch's interleaved complex arrays of {@code size}
	 * (first axis fastest), unnormalised, indices from 0.
	 */
	public static double[] dft(final double[] x, final int[] size, final int batch, final int sign) {
		return transform(x, size, batch, sign, false);
	}

	/**
	 * The centred unitary transform: (F f)(k) = N^{−1/2} Σ_x f(x) e^{sign·2πi Σ_a k_a x_a / N_a}, x_a and k_a =
	 * index − ⌊N_a/2⌋.
	 */
	public static double[] centred(final double[] x, final int[] size, final int batch, final int sign) {
		return transform(x, size, batch, sign, true);
	}

	// -- helpers --

	private static double[] transform(final double[] x, final int[] size, final int batch, final int sign,
		final boolean centred)
	{
		int px = 1;
		for (final int n : size) px *= n;
		final double scale = centred ? 1 / Math.sqrt(px) : 1;
		final double[] out = new double[x.length];
		for (int b = 0; b < batch; b++) {
			for (int k = 0; k < px; k++) {
				double re = 0, im = 0;
				for (int j = 0; j < px; j++) {
					double phase = 0;
					for (int a = 0, rk = k, rj = j; a < size.length; a++) {
						final int c = centred ? size[a] / 2 : 0;
						phase += (double) (rk % size[a] - c) * (rj % size[a] - c) / size[a];
						rk /= size[a];
						rj /= size[a];
					}
					final double co = Math.cos(sign * 2 * Math.PI * phase), si = Math.sin(sign * 2 * Math.PI * phase);
					final double xr = x[2 * (b * px + j)], xi = x[2 * (b * px + j) + 1];
					re += xr * co - xi * si;
					im += xr * si + xi * co;
				}
				out[2 * (b * px + k)] = re * scale;
				out[2 * (b * px + k) + 1] = im * scale;
			}
		}
		return out;
	}
}
