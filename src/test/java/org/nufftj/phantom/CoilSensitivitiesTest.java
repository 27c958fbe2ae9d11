package org.nufftj.phantom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.nufft.Nudft;
import org.nufftj.trajectory.Trajectory;

/** The synthetic coil model: its closed form, its maps against its own k-space terms, and the one-coil case. */
class CoilSensitivitiesTest {

	private final Random random = new Random();

	/**
	 * The 2D model is, term for term, the ISMRMRD fixture writer's (src/test/c/ismrmrd_noncart_fixture.c,
	 * coil_ft): e^{iφ_c}(0.6 + 0.4 cos(2π q_c·x + β_c)), φ_c = 0.7c, β_c = 0.9c, q_c = (cos 2πc/8, sin 2πc/8)/(2n).
	 */
	@Test
	void twoDimensionalModelIsTheFixtureWritersClosedForm() {
		final int nx = 20 + 2 * random.nextInt(20), ny = 20 + 2 * random.nextInt(20), coils = 2 + random.nextInt(14);
		final int n = Math.max(nx, ny);
		final CoilSensitivities s = CoilSensitivities.synthetic(coils, new int[] { nx, ny });
		for (int c = 0; c < coils; c++) {
			final double alpha = 2 * Math.PI * c / 8, beta = 0.9 * c, phi = 0.7 * c;
			for (int i = 0; i < 20; i++) {
				final double x = (random.nextDouble() - 0.5) * nx, y = (random.nextDouble() - 0.5) * ny;
				final double amp = 0.6 + 0.4 * Math.cos(2 * Math.PI * (Math.cos(alpha) * x + Math.sin(alpha) * y) /
					(2.0 * n) + beta);
				final double[] v = s.value(c, new double[] { x, y });
				assertEquals(amp * Math.cos(phi), v[0], 1e-12, "coil " + c + " at " + x + "," + y);
				assertEquals(amp * Math.sin(phi), v[1], 1e-12, "coil " + c + " at " + x + "," + y);
			}
		}
		// The maps are the values at the pixel centres x = index - N/2.
		final ComplexImage maps = s.maps();
		assertEquals(coils, maps.channels());
		for (int i = 0; i < 50; i++) {
			final int c = random.nextInt(coils), x = random.nextInt(nx), y = random.nextInt(ny);
			final double[] v = s.value(c, new double[] { x - nx / 2, y - ny / 2 });
			final int o = maps.offset(c, 0) + 2 * (x + nx * y);
			assertEquals(v[0], maps.data()[o], 1e-6);
			assertEquals(v[1], maps.data()[o + 1], 1e-6);
		}
	}

	/**
	 * The maps' pixel image and the k-space model are the same function: the exact DFT of the map image at random k
	 * equals Σ_j a_j·D(k − q_j), D the DFT of an image of ones (a product of Dirichlet kernels), to 1e-10.
	 */
	@ParameterizedTest
	@ValueSource(ints = { 2, 3 })
	void mapImageTransformsToItsKSpaceTerms(final int d) {
		final int[] size = new int[d];
		for (int a = 0; a < d; a++) size[a] = (d == 2 ? 12 : 6) + random.nextInt(7);
		final int coils = 2 + random.nextInt(9);
		final CoilSensitivities s = CoilSensitivities.synthetic(coils, size);
		final int pixels = size[0] * size[1] * (d == 3 ? size[2] : 1);
		final double[] img = new double[2 * pixels * coils];
		for (int c = 0; c < coils; c++)
			for (int i = 0; i < pixels; i++) {
				final double[] x = { i % size[0] - size[0] / 2, (i / size[0]) % size[1] - size[1] / 2, 0 };
				if (d == 3) x[2] = i / (size[0] * size[1]) - size[2] / 2;
				final double[] v = s.value(c, java.util.Arrays.copyOf(x, d));
				img[2 * (pixels * c + i)] = v[0];
				img[2 * (pixels * c + i) + 1] = v[1];
			}
		final int m = 30;
		final double[] k = new double[d * m];
		for (int i = 0; i < k.length; i++) k[i] = random.nextDouble() - 0.5;
		final Trajectory t = new Trajectory(d, k, "random");
		final double[] dft = Nudft.forward(size, t, img, 2);
		for (int c = 0; c < coils; c++) {
			for (int p = 0; p < m; p++) {
				double yr = 0, yi = 0;
				for (int j = 0; j < s.terms(c); j++) {
					final double[] a = s.amplitude(c, j), q = s.frequency(c, j);
					double dr = 1, di = 0;
					for (int ax = 0; ax < d; ax++) {
						final double[] dk = dirichlet(k[d * p + ax] - q[ax], size[ax]);
						final double r = dr * dk[0] - di * dk[1];
						di = dr * dk[1] + di * dk[0];
						dr = r;
					}
					yr += a[0] * dr - a[1] * di;
					yi += a[0] * di + a[1] * dr;
				}
				final double er = dft[2 * (m * c + p)] - yr, ei = dft[2 * (m * c + p) + 1] - yi;
				assertTrue(Math.hypot(er, ei) <= 1e-10 * pixels, "coil " + c + " point " + p + ": DFT of the map (" +
					dft[2 * (m * c + p)] + ", " + dft[2 * (m * c + p) + 1] + ") vs terms (" + yr + ", " + yi + ")");
			}
		}
	}

	/** Σ_{x = −⌊N/2⌋}^{N−1−⌊N/2⌋} e^{−2πiκx}, summed directly. */
	private static double[] dirichlet(final double kappa, final int n) {
		double r = 0, i = 0;
		for (int x = -(n / 2); x < n - n / 2; x++) {
			r += Math.cos(2 * Math.PI * kappa * x);
			i -= Math.sin(2 * Math.PI * kappa * x);
		}
		return new double[] { r, i };
	}

	@Test
	void oneCoilIsAUnitSensitivity() {
		for (final int[] size : new int[][] { { 16, 12 }, { 8, 8, 6 } }) {
			final CoilSensitivities s = CoilSensitivities.synthetic(1, size);
			assertEquals(1, s.coils());
			final float[] maps = s.maps().data();
			for (int i = 0; i < maps.length; i += 2) {
				assertEquals(1f, maps[i]);
				assertEquals(0f, maps[i + 1]);
			}
			final AnalyticPhantom p = PhantomKind.SHEPP_LOGAN.phantom(size.length);
			final double[] k = new double[size.length];
			for (int i = 0; i < 10; i++) {
				for (int a = 0; a < k.length; a++) k[a] = random.nextDouble() - 0.5;
				final double[] y = s.kspace(p, 0, k), f = p.kspace(k, size);
				assertEquals(f[0], y[0], 0);
				assertEquals(f[1], y[1], 0);
			}
		}
	}

	@Test
	void badInputNamesTheProblem() {
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> CoilSensitivities.synthetic(0,
			new int[] { 8, 8 }));
		assertTrue(e.getMessage().contains("coils"), e.getMessage());
		assertThrows(InvalidInputException.class, () -> CoilSensitivities.synthetic(2, new int[] { 8 }));
		assertThrows(InvalidInputException.class, () -> new CoilSensitivities(new int[] { 8, 8 }, new double[][] { { 1 } },
			new double[][] { { 0 } }, new double[][][] { { { 0, 0, 0 } } }));
		final CoilSensitivities s3 = CoilSensitivities.synthetic(2, new int[] { 8, 8, 8 });
		assertThrows(InvalidInputException.class, () -> s3.kspace(AnalyticPhantom.sheppLogan2d(), 0, new double[2]));
	}
}
