package org.nufftj.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.trajectory.Trajectory;

/** Density compensation against geometry (cell areas) and the normalisation's defining identity. */
class DensityCompensationTest {

	private final Random random = new Random();

	@Test
	void voronoiOfACartesianGridIsThePixelArea() {
		final int n = 16;
		final double[] c = new double[2 * n * n];
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				c[2 * (x + n * y)] = (x - n / 2) / (double) n;
				c[2 * (x + n * y) + 1] = (y - n / 2) / (double) n;
			}
		final float[] w = DensityCompensation.voronoi(new Trajectory(2, c, "cartesian"));
		for (int y = 1; y < n - 1; y++)
			for (int x = 1; x < n - 1; x++)
				assertEquals(1.0 / (n * n), w[x + n * y], 1e-9, "interior cell " + x + "," + y);
	}

	@Test
	void voronoiCellsTileTheRegion() {
		// Random points in the square, its 4 corners and duplicates: the clip region is then the square
		// [-1/2, 1/2]^2 (the disc around max|k| = sqrt(2)/2 contains it), so the areas must add up to 1.
		final int m = 3000;
		final double[] c = new double[2 * m];
		for (int i = 0; i < 2 * m; i++) c[i] = 0.9 * (random.nextDouble() - 0.5);
		for (int i = 0; i < 4; i++) {
			c[2 * i] = i % 2 == 0 ? -0.5 : 0.5;
			c[2 * i + 1] = i / 2 == 0 ? -0.5 : 0.5;
		}
		System.arraycopy(c, 20, c, 2 * (m - 10), 20); // 10 coincident pairs
		final float[] w = DensityCompensation.voronoi(new Trajectory(2, c, "random square"));
		double sum = 0;
		for (int i = 0; i < m; i++) {
			assertTrue(w[i] > 0, "area of point " + i);
			sum += w[i];
		}
		for (int i = 0; i < 10; i++) assertEquals(w[10 + i], w[m - 10 + i], 1e-12, "coincident points share a cell");
		assertEquals(1, sum, 1e-6);
	}

	@Test
	void voronoiAndRampAgreeOnRadialAwayFromCentreAndEdge() {
		final int spokes = 64, readout = 64;
		final Trajectory t = ReconTestData.radial(spokes, readout, random.nextDouble());
		final float[] v = DensityCompensation.normalise(DensityCompensation.voronoi(t), t, new int[] { 32, 32 });
		final float[] r = DensityCompensation.normalise(DensityCompensation.ramp(t), t, new int[] { 32, 32 });
		// Analytic area of a sample at radius k on full spokes: π·k·Δk / S (Δk = 1/readout).
		for (int s = 0; s < spokes; s++)
			for (int i = readout / 2 + 4; i < readout - 4; i++) {
				final int m = s * readout + i;
				final double k = Math.hypot(t.k(m, 0), t.k(m, 1));
				final double area = Math.PI * k / readout / spokes;
				assertEquals(area, v[m], 0.03 * area, "Voronoi vs analytic area at k=" + k);
				assertEquals(area, r[m], 0.03 * area, "ramp vs analytic area at k=" + k);
			}
	}

	@Test
	void pipeMenonIsProportionalToRadiusOnRadial() {
		final int spokes = 96, readout = 64;
		final Trajectory t = ReconTestData.radial(spokes, readout, random.nextDouble());
		final int[] size = { 32, 32 };
		final float[] w = DensityCompensation.normalise(DensityCompensation.pipeMenon(t, size, 30), t, size);
		for (int s = 0; s < spokes; s++)
			for (int i = readout / 2 + 3; i < readout - 6; i++) {
				final int m = s * readout + i;
				final double k = Math.hypot(t.k(m, 0), t.k(m, 1));
				final double area = Math.PI * k / readout / spokes;
				assertEquals(area, w[m], 0.1 * area, "Pipe-Menon vs analytic area at k=" + k);
			}
	}

	@Test
	void normalisedWeightsReconstructAGaussianAtItsTrueValue() {
		// Σ w_m ĝ(k_m) = g(0) = 1 for g(x) = exp(-π|x|²/s²), ĝ(k) = s² exp(-π s²|k|²), s = min(N)/8.
		final Trajectory t = ReconTestData.radial(20, 40, random.nextDouble());
		final int[] size = { 24, 32 };
		final float[] w = new float[t.count()];
		for (int i = 0; i < w.length; i++) w[i] = random.nextFloat() + 0.1f;
		DensityCompensation.normalise(w, t, size);
		double gain = 0;
		for (int m = 0; m < w.length; m++) {
			final double k2 = t.k(m, 0) * t.k(m, 0) + t.k(m, 1) * t.k(m, 1);
			gain += w[m] * 9 * Math.exp(-Math.PI * 9 * k2);
		}
		assertEquals(1, gain, 1e-5);
	}

	@Test
	void voronoiAreasAreAlreadyNormalised() {
		// True areas are a quadrature of ∫ĝ = 1: normalising changes them by little.
		final Trajectory t = ReconTestData.radial(100, 128, random.nextDouble());
		final float[] v = DensityCompensation.voronoi(t);
		final float[] n = DensityCompensation.normalise(v.clone(), t, new int[] { 64, 64 });
		assertEquals(1, n[1000] / v[1000], 0.01);
	}

	@Test
	void badWeightsAndDimensionsAreRejected() {
		final Trajectory t = ReconTestData.radial(4, 8, 0);
		final float[] w = new float[t.count()];
		w[3] = -1;
		assertThrows(InvalidInputException.class, () -> DensityCompensation.normalise(w, t, new int[] { 8, 8 }));
		assertThrows(InvalidInputException.class, () -> DensityCompensation.normalise(new float[t.count()], t,
			new int[] { 8, 8 }), "all-zero weights have no gain");
		final double[] c3 = new double[30];
		assertThrows(InvalidInputException.class, () -> DensityCompensation.voronoi(new Trajectory(3, c3, "3d")));
		assertEquals(DcfMethod.PIPE_MENON, DcfMethod.parse("iterative"));
		assertEquals(DcfMethod.VORONOI, DcfMethod.parse(" Voronoi"));
		assertThrows(InvalidInputException.class, () -> DcfMethod.parse("magic"));
	}
}
