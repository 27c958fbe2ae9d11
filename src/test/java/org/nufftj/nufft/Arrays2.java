package org.nufftj.nufft;

import java.util.Random;

/** Small numeric helpers for the NUFFT tests. */
public final class Arrays2 {

	private Arrays2() {}

	public static double relativeError(final double[] test, final double[] reference) {
		double e = 0, n = 0;
		for (int i = 0; i < test.length; i++) {
			final double d = test[i] - reference[i];
			e += d * d;
			n += reference[i] * reference[i];
		}
		return Math.sqrt(e / n);
	}

	public static double relativeError(final float[] test, final double[] reference) {
		return relativeError(Nudft.toDouble(test), reference);
	}

	public static double[] gaussian(final Random r, final int n) {
		final double[] a = new double[n];
		for (int i = 0; i < n; i++) a[i] = r.nextGaussian();
		return a;
	}

	public static float[] gaussianFloat(final Random r, final int n) {
		final float[] a = new float[n];
		for (int i = 0; i < n; i++) a[i] = (float) r.nextGaussian();
		return a;
	}

	/** Re⟨a, b⟩ = Σ Re(a_i · conj(b_i)) for interleaved complex vectors; returns {re, im}. */
	public static double[] dot(final double[] a, final double[] b) {
		double re = 0, im = 0;
		for (int i = 0; i < a.length; i += 2) {
			re += a[i] * b[i] + a[i + 1] * b[i + 1];
			im += a[i + 1] * b[i] - a[i] * b[i + 1];
		}
		return new double[] { re, im };
	}

	public static double norm(final double[] a) {
		double s = 0;
		for (final double v : a) s += v * v;
		return Math.sqrt(s);
	}

	public static long pixels(final int[] size) {
		long p = 1;
		for (final int n : size) p *= n;
		return p;
	}
}
