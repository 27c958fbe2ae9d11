package org.nufftj.operator;

import java.util.Random;

/**
 * The dot-product test of adjointness for any {@link LinearOperator} (BART src/linops/lintest.c, sigpy
 * tests/test_linop.py): for random x, y, an exact adjoint satisfies ⟨A x, y⟩ = ⟨x, Aᴴ y⟩. The returned mismatch
 * |⟨Ax,y⟩ − ⟨x,Aᴴy⟩| / (‖Ax‖·‖y‖) is scale-free; float operators reach ~1e-6, exact ones ~1e-15.
 */
public final class Adjointness {

	private Adjointness() {}

	/** Mismatch for one pair of fresh Gaussian random vectors (T vectors each) drawn from {@code random}. */
	public static double mismatch(final LinearOperator a, final int transforms, final Random random) {
		final float[] x = gaussian((int) (a.domainLength() * transforms), random);
		final float[] y = gaussian((int) (a.rangeLength() * transforms), random);
		final float[] ax = new float[y.length];
		final float[] ahy = new float[x.length];
		a.forward(x, ax);
		a.adjoint(y, ahy);
		final double[] lhs = dot(ax, y), rhs = dot(x, ahy);
		final double diff = Math.hypot(lhs[0] - rhs[0], lhs[1] - rhs[1]);
		return diff / (norm(ax) * norm(y));
	}

	/** ⟨a, b⟩ = Σ a_i·conj(b_i) for interleaved complex arrays, in double: {re, im}. */
	public static double[] dot(final float[] a, final float[] b) {
		double re = 0, im = 0;
		for (int i = 0; i < a.length; i += 2) {
			re += (double) a[i] * b[i] + (double) a[i + 1] * b[i + 1];
			im += (double) a[i + 1] * b[i] - (double) a[i] * b[i + 1];
		}
		return new double[] { re, im };
	}

	public static double norm(final float[] a) {
		double s = 0;
		for (final float v : a) s += (double) v * v;
		return Math.sqrt(s);
	}

	private static float[] gaussian(final int n, final Random r) {
		final float[] a = new float[n];
		for (int i = 0; i < n; i++) a[i] = (float) r.nextGaussian();
		return a;
	}
}
