package org.nufftj.operator;

import java.util.Random;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * The dot-product test of adjointness for any {@link LinearOperator} on any backend (BART src/linops/lintest.c, sigpy
 * tests/test_linop.py): for random x, y, an exact adjoint satisfies yᴴ(A x) = (Aᴴ y)ᴴ x. The returned mismatch
 * |yᴴ(Ax) − (Aᴴy)ᴴx| / (‖Ax‖·‖y‖) is scale-free; float operators reach ~1e-6, exact double ones ~1e-15.
 */
public final class Adjointness {

	private Adjointness() {}

	/** Mismatch for one pair of fresh Gaussian random vectors x (domain), y (range) drawn from {@code random}. */
	public static double mismatch(final LinearOperator a, final Random random) {
		final Backend b = a.backend();
		final Precision p = a.precision();
		try (Buffer x = gaussian(b, p, a.domainLength(), random); Buffer y = gaussian(b, p, a.rangeLength(), random);
			Buffer ax = b.allocate(a.rangeLength(), p); Buffer ahy = b.allocate(a.domainLength(), p))
		{
			a.apply(x, ax);
			a.applyAdjoint(y, ahy);
			final double[] lhs = b.dot(y, ax), rhs = b.dot(ahy, x);
			final double diff = Math.hypot(lhs[0] - rhs[0], lhs[1] - rhs[1]);
			return diff / (b.norm(ax) * b.norm(y));
		}
	}

	/** A buffer of {@code n} standard Gaussian values on the backend. */
	public static Buffer gaussian(final Backend b, final Precision p, final long n, final Random random) {
		final Buffer buf = b.allocate(n, p);
		if (p == Precision.DOUBLE) {
			final double[] v = new double[(int) n];
			for (int i = 0; i < v.length; i++) v[i] = random.nextGaussian();
			b.write(v, 0, buf);
		}
		else {
			final float[] v = new float[(int) n];
			for (int i = 0; i < v.length; i++) v[i] = (float) random.nextGaussian();
			b.write(v, 0, buf);
		}
		return buf;
	}
}
