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
	 * The first grid cell a sample at fine-grid position {@code t} (t = k·n) touches with a kernel of {@code width}
	 * cells: l₀ = ⌈t − W/2⌉; it touches l₀ … l₀ + W − 1 with weights ψ(l₀ + j − t) (docs/conventions.md). Every engine
	 * and gridder uses this one rule, so their stencils agree sample for sample.
	 */
	public static int stencilStart(final double t, final int width) {
		return (int) Math.ceil(t - width / 2.0);
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
