package org.nufftj.nufft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.jtransforms.fft.DoubleFFT_2D;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nufftj.trajectory.Trajectory;

/**
 * On the Cartesian grid k = (i − N/2)/N the forward NUFFT is the centred DFT: y(k_i) = Σ_x f(x)·e^{−2πi k_i x} with
 * x = j − N/2, which equals (−1)^{i+j}-shifted FFT of f. Checked against JTransforms' 2D FFT, independently of the
 * NUDFT.
 */
class CartesianFftTest {

	@ParameterizedTest
	@ValueSource(doubles = { 1e-3, 1e-5 })
	void cartesianForwardIsTheCentredFft(final double eps) {
		final int nx = 64, ny = 48;
		final Random r = new Random();
		final double[] image = Arrays2.gaussian(r, 2 * nx * ny);
		// Reference: fftshift(FFT(ifftshift(f))) — for even N both shifts are a roll by N/2.
		final double[][] a = new double[ny][2 * nx];
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				final int sy = (y + ny / 2) % ny, sx = (x + nx / 2) % nx;
				a[sy][2 * sx] = image[2 * (x + nx * y)];
				a[sy][2 * sx + 1] = image[2 * (x + nx * y) + 1];
			}
		new DoubleFFT_2D(ny, nx).complexForward(a);
		final double[] reference = new double[2 * nx * ny];
		final double[] coords = new double[2 * nx * ny];
		for (int iy = 0; iy < ny; iy++)
			for (int ix = 0; ix < nx; ix++) {
				final int p = ix + nx * iy;
				coords[2 * p] = (double) (ix - nx / 2) / nx;
				coords[2 * p + 1] = (double) (iy - ny / 2) / ny;
				final int fy = (iy + ny / 2) % ny, fx = (ix + nx / 2) % nx;
				reference[2 * p] = a[fy][2 * fx];
				reference[2 * p + 1] = a[fy][2 * fx + 1];
			}
		try (NufftPlan plan = Nufft.plan(new int[] { nx, ny }, NufftOptions.defaults().withTolerance(eps))) {
			plan.setPoints(new Trajectory(2, coords, "cartesian"));
			final double[] y = new double[2 * nx * ny];
			plan.forward(image, y);
			final double e = Arrays2.relativeError(y, reference);
			assertTrue(e <= eps, "Cartesian NUFFT vs FFT: " + e + " > " + eps);
		}
	}
}
