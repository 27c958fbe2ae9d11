package org.nufftj.kernel;

/** Builds a kernel of a family for a width and an oversampling ratio, with each family's published shape rule. */
public final class Kernels {

	private Kernels() {}

	public static Kernel create(final KernelType type, final int width, final double sigma) {
		switch (type) {
			case AUTO:
			case EXP_SEMICIRCLE: return ExpSemicircle.forOversampling(width, sigma);
			case KAISER_BESSEL: return KaiserBessel.forOversampling(width, sigma);
			case GAUSSIAN: return Gaussian.forOversampling(width, sigma);
			default: throw new IllegalArgumentException(type.toString());
		}
	}

	/**
	 * The exact Fourier transform of the truncated kernel (quadrature), independent of any closed form: used by the
	 * error model to measure what a closed-form deapodization leaves out.
	 */
	public static double truncatedFourier(final Kernel k, final double u) {
		return GaussLegendre.evenFourier(k, quadrature(k.width()), u);
	}

	/**
	 * {@link #truncatedFourier(Kernel, double)} as a function of u, with the kernel's values at the quadrature nodes
	 * computed once (for the many u the error model needs).
	 */
	public static java.util.function.DoubleUnaryOperator truncatedFourier(final Kernel k) {
		final GaussLegendre q = quadrature(k.width());
		final double[] c = GaussLegendre.weighted(k, q);
		return u -> GaussLegendre.evenFourier(c, q, u);
	}

	private static final java.util.Map<Integer, GaussLegendre> RULES = new java.util.concurrent.ConcurrentHashMap<>();

	private static GaussLegendre quadrature(final int width) {
		return RULES.computeIfAbsent(width, w -> new GaussLegendre(Math.max(64, 12 * w + 32), 0, w / 2.0));
	}

	/**
	 * Deapodization factors for one axis: 1/ψ̂((i − N/2)/n) for image index i of an image of {@code n0} pixels on a
	 * grid of {@code n} points.
	 */
	public static double[] deapodization(final Kernel k, final int n0, final int n) {
		final double[] d = new double[n0];
		for (int i = 0; i < n0; i++) d[i] = 1 / k.fourier((double) (i - n0 / 2) / n);
		return d;
	}
}
