package org.nufftj.kernel;

/**
 * Exponential of semicircle, ψ(x) = exp(β(√(1 − (2x/W)²) − 1)) for |x| &lt; W/2 (Barnett, Magland &amp; af Klinteberg,
 * SIAM J. Sci. Comput. 2019, eq. 1.8). Its Fourier transform has no closed form: {@link #fourier} integrates the
 * truncated kernel by Gauss–Legendre quadrature with enough nodes for the oscillation, exact to double rounding.
 */
public final class ExpSemicircle implements Kernel {

	private final int width;
	private final double beta;
	private final GaussLegendre quadrature;
	private final double[] weighted;

	public ExpSemicircle(final int width, final double beta) {
		this.width = width;
		this.beta = beta;
		this.quadrature = new GaussLegendre(Math.max(64, 12 * width + 32), 0, width / 2.0);
		this.weighted = GaussLegendre.weighted(this, quadrature);
	}

	/** β = γ·π·W·(1 − 1/(2σ)) with γ = 0.97 (Barnett et al. 2019, §4; the FINUFFT choice). */
	public static ExpSemicircle forOversampling(final int width, final double sigma) {
		return new ExpSemicircle(width, 0.97 * Math.PI * width * (1 - 1 / (2 * sigma)));
	}

	@Override
	public KernelType type() { return KernelType.EXP_SEMICIRCLE; }

	@Override
	public int width() { return width; }

	@Override
	public double shape() { return beta; }

	@Override
	public double value(final double x) {
		final double z = 2 * x / width;
		final double q = 1 - z * z;
		return q > 0 ? Math.exp(beta * (Math.sqrt(q) - 1)) : 0;
	}

	@Override
	public double fourier(final double u) {
		return GaussLegendre.evenFourier(weighted, quadrature, u);
	}
}
