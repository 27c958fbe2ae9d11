package org.nufftj.command;

import java.util.Locale;

import org.nufftj.InvalidInputException;

/**
 * Pixel phantoms for Simulate k-space: Toft's modified Shepp–Logan (the same ellipse table as the ISMRMRD fixture
 * writer in src/test/c) and a centred disc, point-sampled on the pixel centres (x = index − N/2), repeated along z
 * for 3D matrices. Kept here until the values layer's org.nufftj.phantom is merged (then this delegates to it).
 */
final class PhantomImages {

	static final String[] NAMES = { "shepp-logan", "disc" };

	/** intensity, semi-axes a, b, centre x, y, angle (degrees), unit-disc coordinates, +y up. */
	private static final double[][] SHEPP_LOGAN = { { 1.0, 0.69, 0.92, 0, 0, 0 }, { -0.8, 0.6624, 0.874, 0, -0.0184, 0 },
		{ -0.2, 0.11, 0.31, 0.22, 0, -18 }, { -0.2, 0.16, 0.41, -0.22, 0, 18 }, { 0.1, 0.21, 0.25, 0, 0.35, 0 },
		{ 0.1, 0.046, 0.046, 0, 0.1, 0 }, { 0.1, 0.046, 0.046, 0, -0.1, 0 }, { 0.1, 0.046, 0.023, -0.08, -0.605, 0 },
		{ 0.1, 0.023, 0.023, 0, -0.606, 0 }, { 0.1, 0.023, 0.046, 0.06, -0.605, 0 } };

	private PhantomImages() {}

	/** Real image, x fastest, then y, then z. */
	static float[] make(final String name, final int[] matrix) {
		final String n = Options.choice("phantom", name, NAMES).toLowerCase(Locale.ROOT);
		final int nx = matrix[0], ny = matrix[1], nz = matrix.length > 2 ? matrix[2] : 1;
		final float[] out = new float[nx * ny * nz];
		final double half = Math.min(nx, ny) / 2.0;
		for (int y = 0; y < ny; y++) {
			for (int x = 0; x < nx; x++) {
				final double u = (x - nx / 2) / half, v = -(y - ny / 2) / half;
				double val = 0;
				if (n.equals("disc")) val = u * u + v * v <= 0.6 * 0.6 ? 1 : 0;
				else {
					for (final double[] e : SHEPP_LOGAN) {
						final double th = Math.toRadians(e[5]);
						final double du = u - e[3], dv = v - e[4];
						final double r = du * Math.cos(th) + dv * Math.sin(th), s = -du * Math.sin(th) + dv * Math.cos(th);
						if (r * r / (e[1] * e[1]) + s * s / (e[2] * e[2]) <= 1) val += e[0];
					}
				}
				for (int z = 0; z < nz; z++) out[x + nx * (y + ny * z)] = (float) val;
			}
		}
		InvalidInputException.require(out.length > 0, "phantom: empty matrix");
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
