package org.nufftj.kernel;

/**
 * Kaiser–Bessel, ψ(x) = I₀(β√(1 − (2x/W)²)) / I₀(β) for |x| ≤ W/2 (Jackson et al., IEEE TMI 1991), with the closed-form
 * Fourier transform ψ̂(u) = W·sinh(√(β² − (πWu)²)) / (I₀(β)·√(β² − (πWu)²)) (sin for imaginary roots).
 */
public final class KaiserBessel implements Kernel {

	private final int width;
	private final double beta;
	private final double i0beta;

	public KaiserBessel(final int width, final double beta) {
		this.width = width;
		this.beta = beta;
		this.i0beta = besselI0(beta);
	}

	/** Beatty, Nishimura &amp; Pauly, IEEE TMI 2005, eq. 5: β = π·√((W/σ)²(σ − ½)² − 0.8). */
	public static KaiserBessel forOversampling(final int width, final double sigma) {
		final double a = (width / sigma) * (sigma - 0.5);
		return new KaiserBessel(width, Math.PI * Math.sqrt(Math.max(a * a - 0.8, 1e-6)));
	}

	@Override
	public KernelType type() { return KernelType.KAISER_BESSEL; }

	@Override
	public int width() { return width; }

	@Override
	public double shape() { return beta; }

	@Override
	public double value(final double x) {
		final double z = 2 * x / width;
		final double q = 1 - z * z;
		return q >= 0 ? besselI0(beta * Math.sqrt(q)) / i0beta : 0;
	}

	@Override
	public double fourier(final double u) {
		final double a = Math.PI * width * u;
		final double d = beta * beta - a * a;
		final double r;
		if (d > 1e-12) {
			final double s = Math.sqrt(d);
			r = Math.sinh(s) / s;
		}
		else if (d < -1e-12) {
			final double s = Math.sqrt(-d);
			r = Math.sin(s) / s;
		}
		else {
			r = 1;
		}
		return width * r / i0beta;
	}

	/** Modified Bessel function of the first kind, order 0, by its power series (converges for all real x). */
	public static double besselI0(final double x) {
		final double q = x * x / 4;
		double term = 1, sum = 1;
		for (int k = 1; k < 500; k++) {
			term *= q / ((double) k * k);
			sum += term;
			if (term < sum * 1e-17) break;
		}
		return sum;
	}
}
