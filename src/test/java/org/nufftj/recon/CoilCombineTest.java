package org.nufftj.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.TestSeeds;

/** Coil combination on synthetic coil images x_c = s_c·ρ with known smooth sensitivities. */
class CoilCombineTest {

	private final Random random = new Random();

	/** Smooth complex sensitivities; coil 0 real, positive and strongest (it becomes Walsh's phase reference). */
	private double[][] sensitivities(final int n, final int coils) {
		final double[][] s = new double[coils][2 * n * n];
		final double[] phase = new double[coils], cx = new double[coils], cy = new double[coils];
		for (int c = 0; c < coils; c++) {
			phase[c] = 2 * Math.PI * random.nextDouble();
			cx[c] = n * random.nextDouble();
			cy[c] = n * random.nextDouble();
		}
		for (int c = 0; c < coils; c++)
			for (int y = 0; y < n; y++)
				for (int x = 0; x < n; x++) {
					final double d2 = ((x - cx[c]) * (x - cx[c]) + (y - cy[c]) * (y - cy[c])) / (n * n);
					final double mag = (c == 0 ? 3 : 1) * Math.exp(-d2);
					final double ph = c == 0 ? 0 : phase[c] + 0.2 * x / n;
					s[c][2 * (x + n * y)] = mag * Math.cos(ph);
					s[c][2 * (x + n * y) + 1] = mag * Math.sin(ph);
				}
		return s;
	}

	@Test
	void sumOfSquaresAndWalshRecoverMagnitudeAndPhase() {
		final int n = 32, coils = 6;
		final double[][] s = sensitivities(n, coils);
		final double[] rho = new double[2 * n * n];
		for (int p = 0; p < n * n; p++) {
			final double mag = 1 + 0.5 * Math.sin(p * 0.01), ph = 0.3 * Math.cos(p * 0.002);
			rho[2 * p] = mag * Math.cos(ph);
			rho[2 * p + 1] = mag * Math.sin(ph);
		}
		final float[] img = new float[2 * n * n * coils];
		for (int c = 0; c < coils; c++)
			for (int p = 0; p < n * n; p++) {
				final double sr = s[c][2 * p], si = s[c][2 * p + 1], rr = rho[2 * p], ri = rho[2 * p + 1];
				img[2 * (p + n * n * c)] = (float) (sr * rr - si * ri);
				img[2 * (p + n * n * c) + 1] = (float) (sr * ri + si * rr);
			}
		final float[] sos = CoilCombine.sumOfSquares(img, 0, n * n, coils);
		final float[] walsh = CoilCombine.walsh(img, 0, new int[] { n, n }, coils);
		double worstMag = 0, worstPhase = 0;
		for (int p = 0; p < n * n; p++) {
			double norm = 0;
			for (int c = 0; c < coils; c++) norm += s[c][2 * p] * s[c][2 * p] + s[c][2 * p + 1] * s[c][2 * p + 1];
			final double expected = Math.sqrt(norm) * Math.hypot(rho[2 * p], rho[2 * p + 1]);
			assertEquals(expected, sos[2 * p], 1e-5 * expected, "SoS at " + p);
			assertEquals(0, sos[2 * p + 1], 0);
			worstMag = Math.max(worstMag, Math.abs(Math.hypot(walsh[2 * p], walsh[2 * p + 1]) - expected) / expected);
			// Phase: the object's phase (coil 0, the reference, has zero phase).
			final double dphi = Math.atan2(walsh[2 * p + 1], walsh[2 * p]) - Math.atan2(rho[2 * p + 1], rho[2 * p]);
			worstPhase = Math.max(worstPhase, Math.abs(Math.atan2(Math.sin(dphi), Math.cos(dphi))));
		}
		// Over a 7x7 window smooth sensitivities are almost rank one: eigenvector ≈ s/‖s‖ at the centre.
		assertTrue(worstMag < 1e-2, "Walsh magnitude vs ‖s‖·|ρ|: worst relative error " + worstMag);
		assertTrue(worstPhase < 1e-2, "Walsh phase vs object phase: worst error " + worstPhase + " rad");
	}

	/**
	 * Walsh's maps where the coil sensitivities are one constant complex vector s over the image: the windowed
	 * covariance is (Σ|ρ|²)·s sᴴ, rank one, so each pixel's map is s/‖s‖ with the phase of the largest-energy coil
	 * removed (the reference); and combining with them is what {@link CoilCombine#walsh} returns.
	 */
	@Test
	void walshMapsOfConstantSensitivitiesAreTheNormalisedVector() {
		final long seed = TestSeeds.fresh();
		final Random random = new Random(seed);
		final int[] size = { 20, 14 };
		final int pixels = 280, coils = 4;
		final double[] s = new double[2 * coils];
		for (int i = 0; i < s.length; i++) s[i] = random.nextGaussian();
		int ref = 0;
		for (int c = 1; c < coils; c++) {
			if (Math.hypot(s[2 * c], s[2 * c + 1]) > Math.hypot(s[2 * ref], s[2 * ref + 1])) ref = c;
		}
		double norm = 0;
		for (final double v : s) norm += v * v;
		norm = Math.sqrt(norm);
		final double phr = s[2 * ref] / Math.hypot(s[2 * ref], s[2 * ref + 1]);
		final double phi = -s[2 * ref + 1] / Math.hypot(s[2 * ref], s[2 * ref + 1]); // e^{-i arg s_ref}
		final float[] images = new float[2 * pixels * coils];
		for (int p = 0; p < pixels; p++) {
			final double rr = 0.5 + random.nextDouble(), ri = random.nextGaussian() * 0.3;
			for (int c = 0; c < coils; c++) {
				images[2 * (c * pixels + p)] = (float) (s[2 * c] * rr - s[2 * c + 1] * ri);
				images[2 * (c * pixels + p) + 1] = (float) (s[2 * c] * ri + s[2 * c + 1] * rr);
			}
		}
		final float[] maps = CoilCombine.walshMaps(images, 0, size, coils);
		final float[] combined = CoilCombine.walsh(images, 0, size, coils);
		for (int p = 0; p < pixels; p++) {
			double cr = 0, ci = 0;
			for (int c = 0; c < coils; c++) {
				final double er = (s[2 * c] * phr - s[2 * c + 1] * phi) / norm;
				final double ei = (s[2 * c] * phi + s[2 * c + 1] * phr) / norm;
				final float mr = maps[2 * (c * pixels + p)], mi = maps[2 * (c * pixels + p) + 1];
				assertEquals(er, mr, 1e-5, "pixel " + p + " coil " + c + " (re), seed " + seed);
				assertEquals(ei, mi, 1e-5, "pixel " + p + " coil " + c + " (im), seed " + seed);
				final float xr = images[2 * (c * pixels + p)], xi = images[2 * (c * pixels + p) + 1];
				cr += mr * xr + mi * xi;
				ci += mr * xi - mi * xr;
			}
			assertEquals(combined[2 * p], cr, 1e-4 * (1 + Math.abs(cr)), "combination, seed " + seed);
			assertEquals(combined[2 * p + 1], ci, 1e-4 * (1 + Math.abs(ci)), "combination, seed " + seed);
		}
	}
}
