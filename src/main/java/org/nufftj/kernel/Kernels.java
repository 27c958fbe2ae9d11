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
	 * Deapodization factors for one axis: 1/ψ̂((i − N/2)/n) for image index i of an image of {@code n0} pixels on a
	 * grid of {@code n} points.
	 */
	public static double[] deapodization(final Kernel k, final int n0, final int n) {
		final double[] d = new double[n0];
		for (int i = 0; i < n0; i++) d[i] = 1 / k.fourier((double) (i - n0 / 2) / n);
		return d;
	}
}
