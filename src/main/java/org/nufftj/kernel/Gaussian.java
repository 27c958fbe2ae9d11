package org.nufftj.kernel;

/**
 * Truncated Gaussian, ψ(x) = exp(−x²/(2s²)) for |x| &lt; W/2. The standard deviation s balances truncation
 * (exp(−W²/(8s²))) against the first alias (exp(−2π²s²(1 − 1/σ))), giving s² = W / (4π·√(1 − 1/σ)) (the same balance
 * as Greengard &amp; Lee, SIAM Rev. 2004). Deapodization uses the closed form of the untruncated Gaussian,
 * ψ̂(u) = s√(2π)·exp(−2π²s²u²); the difference from the truncated kernel is part of the error model.
 */
public final class Gaussian implements Kernel {

	private final int width;
	private final double s;

	public Gaussian(final int width, final double sd) {
		this.width = width;
		this.s = sd;
	}

	public static Gaussian forOversampling(final int width, final double sigma) {
		return new Gaussian(width, Math.sqrt(width / (4 * Math.PI * Math.sqrt(1 - 1 / sigma))));
	}

	@Override
	public KernelType type() { return KernelType.GAUSSIAN; }

	@Override
	public int width() { return width; }

	@Override
	public double shape() { return s; }

	@Override
	public double value(final double x) {
		return Math.abs(x) < width / 2.0 ? Math.exp(-x * x / (2 * s * s)) : 0;
	}

	@Override
	public double fourier(final double u) {
		return s * Math.sqrt(2 * Math.PI) * Math.exp(-2 * Math.PI * Math.PI * s * s * u * u);
	}
}
