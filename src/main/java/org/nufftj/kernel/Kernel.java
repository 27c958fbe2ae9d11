package org.nufftj.kernel;

/**
 * A symmetric, compactly supported 1D interpolation kernel ψ on the oversampled grid, used separably in 2D/3D.
 * <p>
 * {@code x} is measured in fine-grid cells from the kernel centre; ψ(x) = 0 for |x| ≥ W/2. The Fourier transform
 * used for deapodization is ψ̂(u) = ∫ ψ(x)·e^{2πixu} dx with u in cycles per grid cell (real, since ψ is even).
 * </p>
 */
public interface Kernel {

	KernelType type();

	/** Width W in grid cells (the number of grid points each sample touches per axis). */
	int width();

	/** The kernel's shape parameter (β for KB and ES, the standard deviation in cells for the Gaussian). */
	double shape();

	/** ψ(x); zero outside (−W/2, W/2). */
	double value(double x);

	/**
	 * ψ̂(u), analytic where a closed form exists, otherwise by Gauss–Legendre quadrature of the truncated kernel
	 * (exact to double rounding).
	 */
	double fourier(double u);
}
