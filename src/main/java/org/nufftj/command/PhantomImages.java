package org.nufftj.command;

import org.nufftj.phantom.AnalyticPhantom;

/**
 * Pixel phantoms and coil maps for Simulate k-space. Phantoms come from the values layer's {@link AnalyticPhantom}
 * (Shepp–Logan with BART's orientation and intensities, 2D or 3D; or a disc of radius 0.6), averaged over 2^d
 * sub-samples per pixel.
 */
final class PhantomImages {

	static final String[] NAMES = { "shepp-logan", "disc" };

	private PhantomImages() {}

	/** Real image, x fastest, then y, then z. */
	static float[] make(final String name, final int[] matrix) {
		final String n = Options.choice("phantom", name, NAMES);
		final int d = matrix.length;
		final AnalyticPhantom p = n.equals("disc") ? AnalyticPhantom.disc(d, 0.6, 1) : d == 3 ? AnalyticPhantom
			.sheppLogan3d() : AnalyticPhantom.sheppLogan2d();
		final float[] c = p.image(matrix, 2).data();
		final float[] out = new float[c.length / 2];
		for (int i = 0; i < out.length; i++) out[i] = c[2 * i];
		return out;
	}

	/**
	 * Smooth complex coil sensitivities (same model as the fixture writer): coil c is
	 * e^{iφ_c}(0.6 + 0.4 cos(2π q_c·x + β_c)), |q_c| = 1/(2N) cycles/pixel at angle 2πc/8.
	 */
	static float[] sensitivities(final int[] matrix, final int coils) {
		final int nx = matrix[0], ny = matrix[1], nz = matrix.length > 2 ? matrix[2] : 1;
		final int n = Math.max(nx, ny);
		final int pixels = nx * ny * nz;
		final float[] s = new float[2 * pixels * coils];
		for (int c = 0; c < coils; c++) {
			final double a = 2 * Math.PI * c / 8, beta = 0.9 * c, phi = 0.7 * c;
			final double qx = Math.cos(a) / (2.0 * n), qy = Math.sin(a) / (2.0 * n);
			for (int z = 0; z < nz; z++) {
				for (int y = 0; y < ny; y++) {
					for (int x = 0; x < nx; x++) {
						final double amp = coils == 1 ? 1 : 0.6 + 0.4 * Math.cos(2 * Math.PI * (qx * (x - nx / 2) + qy * (y -
							ny / 2)) + beta);
						final int i = 2 * (c * pixels + x + nx * (y + ny * z));
						s[i] = (float) (amp * Math.cos(coils == 1 ? 0 : phi));
						s[i + 1] = (float) (amp * Math.sin(coils == 1 ? 0 : phi));
					}
				}
			}
		}
		return s;
	}
}
