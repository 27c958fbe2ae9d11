package org.nufftj.recon.ultrasound;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;

/**
 * Simulated point targets (analytic echoes, {@link EchoSimulator}; 128 elements at λ/2 pitch, 5 MHz) imaged by f-k migration and by delay-and-sum: each
 * envelope peak within a quarter wavelength of the target (depth and lateral), and the f-k peak's −6 dB widths
 * (lateral and axial) within 20% of those of delay-and-sum with a receive f-number of 1 (measured when this was
 * written: lateral ratios 1.14, 1.01, 1.01 at 10, 18.5, 26 mm; axial 0.98–1.02; full-aperture delay-and-sum is
 * narrower near the array, 0.23 against 0.45 mm at 10 mm: the plane-wave f-k's exploding-reflector model holds to
 * second order in the lateral offset, which limits the angles it focuses); bad parameters named.
 */
class PlaneWaveImagingTest {

	@Test
	void pointTargetsAtTheirPositionsWithWidthsLikeDelayAndSum() {
		pointTargets(0, new int[] { 256, 192, 340 });
	}

	/**
	 * Steered transmits of both signs (Garcia's ERM speed and steering compensation) on both methods, targets below
	 * the array's centre at three depths. The ERM holds to second order in the lateral offset: at ±5° the centred targets'
	 * f-k peaks are within λ/4 (an off-centre one, x = −2.3 mm at 18.5 mm, is 0.096 mm off); at ±10° the f-k peak of a centred target is 0.11 mm off laterally at 16–24 mm and an
	 * off-centre target (x = 3.2 mm, 26 mm) 0.18 mm (measured when this was written; docs/ultrasound.md), more than λ/4
	 * = 0.077 mm: delay-and-sum stays exact there.
	 */
	@ParameterizedTest
	@ValueSource(doubles = { -5, 5 })
	void steeredPointTargetsAtTheirPositionsWithWidthsLikeDelayAndSum(final double degrees) {
		pointTargets(degrees, new int[] { 256, 256, 256 });
	}

	private static void pointTargets(final double degrees, final int[] columns) {
		final int elements = 128, up = 4;
		final double pitch = 0.15e-3, fs = 40e6, c = 1540, f0 = 5e6, t0 = 2e-6;
		final int samples = (int) Math.ceil((2 * 32e-3 / c - t0) * fs);
		final PlaneWave p = new PlaneWave(elements, samples, pitch, fs, c, f0, t0);
		final double angle = PlaneWave.anglesFromDegrees(degrees)[0];
		final double dx = pitch / up;
		// Targets on the lateral grid (x_0 + j·dx) at depths off the depth grid.
		final double[][] targets = { { p.x(0) + columns[0] * dx, 10.013e-3, 1 }, { p.x(0) + columns[1] * dx, 18.507e-3,
			1 }, { p.x(0) + columns[2] * dx, 26.031e-3, 1 } };
		final float[] ch = EchoSimulator.echoes(p, angle, targets, 0.6);
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null)) {
			final float[] fk = PlaneWaveImaging.fk(cpu, p, angle, ch, up);
			final float[] das = PlaneWaveImaging.delayAndSum(cpu, p, angle, ch, up, 1);
			final int width = elements * up;
			final double quarter = p.wavelength() / 4;
			for (final double[] q : targets) {
				final double[] a = peak(fk, width, samples, p, up, q), b = peak(das, width, samples, p, up, q);
				final double lat = a[2] / b[2], ax = a[3] / b[3];
				System.out.printf("%s deg, z = %.1f mm: f-k / DAS -6 dB widths lateral %.3f / %.3f mm, axial %.3f / %.3f mm"
					+ "; peak error f-k (%.3f, %.3f), DAS (%.3f, %.3f) mm%n", degrees, q[1] * 1e3, a[2] * 1e3, b[2] * 1e3, a[3] *
						1e3, b[3] * 1e3, (a[0] - q[0]) * 1e3, (a[1] - q[1]) * 1e3, (b[0] - q[0]) * 1e3, (b[1] - q[1]) * 1e3);
				for (final double[] r : new double[][] { a, b }) {
					assertTrue(Math.abs(r[0] - q[0]) <= quarter && Math.abs(r[1] - q[1]) <= quarter, (r == a ? "f-k" :
						"DAS") + " at " + degrees + " deg: peak at (" + r[0] * 1e3 + ", " + r[1] * 1e3 + ") mm, target (" +
						q[0] * 1e3 + ", " + q[1] * 1e3 + ") mm");
				}
				assertTrue(Math.abs(lat - 1) <= 0.2 && Math.abs(ax - 1) <= 0.2, "-6 dB widths f-k / DAS at " + degrees +
					" deg, z = " + q[1] * 1e3 + " mm: lateral " + a[2] * 1e3 + " / " + b[2] * 1e3 + " mm, axial " + a[3] *
						1e3 + " / " + b[3] * 1e3 + " mm");
			}
		}
	}

	/**
	 * A seeded speckle phantom with an anechoic cyst: coherent compounding over −10…10° (5 angles) raises the contrast
	 * ratio CR = 20·log10(mean envelope of the background ring / mean envelope inside the cyst) over the 0° image, for
	 * f-k and for delay-and-sum (the CRs are printed; docs/ultrasound.md lists them).
	 */
	@Test
	void compoundingImprovesCystContrast() {
		final int elements = 96, up = 2;
		final double pitch = 0.15e-3, fs = 40e6, c = 1540, f0 = 5e6, r = 3e-3, zc = 15e-3;
		final int samples = (int) Math.ceil(2 * 24e-3 / c * fs);
		final PlaneWave p = new PlaneWave(elements, samples, pitch, fs, c, f0, 0);
		final double[][] speckle = EchoSimulator.speckle(20261124L, -6e-3, 6e-3, 8e-3, 22e-3, 4000, new double[][] { {
			0, zc, r } });
		final double[] all = PlaneWave.anglesFromDegrees(-10, -5, 0, 5, 10);
		final float[][] ch = new float[all.length][];
		for (int a = 0; a < all.length; a++) ch[a] = EchoSimulator.echoes(p, all[a], speckle, 0.6);
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null)) {
			for (final PlaneWaveImaging.Method m : PlaneWaveImaging.Method.values()) {
				final float[] single = PlaneWaveImaging.image(cpu, p, new double[] { 0 }, new float[][] { ch[2] }, m, up, 1);
				final float[] compound = PlaneWaveImaging.image(cpu, p, all, ch, m, up, 1);
				final double cr1 = contrastRatio(single, p, up, zc, r), cr5 = contrastRatio(compound, p, up, zc, r);
				System.out.printf("cyst contrast ratio, %s: 0 deg %.2f dB, 5 angles (-10..10 deg) %.2f dB%n", m.key(), cr1,
					cr5);
				assertTrue(cr5 > cr1 + 1, m.key() + ": compound CR " + cr5 + " dB, single 0 deg CR " + cr1 + " dB");
			}
		}
	}

	/** Bad input: one clear error each, naming what is wrong. */
	/**
	 * Many frames through one FkMigration (tables once, batches of frames, the modulus on the backend) equal the
	 * one-frame f-k of each, steered and upsampled; more frames than a batch holds.
	 */
	@Test
	void framesInBatchesEqualOneFrameAtATime() {
		final PlaneWave p = new PlaneWave(16, 300, 0.3e-3, 40e6, 1540, 5e6, 0);
		final java.util.Random r = new java.util.Random(org.nufftj.TestSeeds.fresh());
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null);
			FkMigration fk = new FkMigration(cpu, p, Math.toRadians(6), 2, 3 * 2 * 300 * 64))
		{
			assertTrue(fk.batch() == 3, "batch " + fk.batch());
			final float[][] frames = new float[fk.batch() + 2][];
			for (int f = 0; f < frames.length; f++) {
				frames[f] = new float[fk.frameValues()];
				for (int i = 0; i < frames[f].length; i++) frames[f][i] = (float) r.nextGaussian();
			}
			final float[][] env = fk.envelopes(frames);
			for (final int f : new int[] { 0, fk.batch() - 1, frames.length - 1 }) {
				final float[] one = PlaneWaveImaging.fk(cpu, p, Math.toRadians(6), frames[f], 2);
				org.junit.jupiter.api.Assertions.assertArrayEquals(one, env[f], 1e-6f * max(one), "frame " + f);
			}
			final float[][] wrong = { new float[3] };
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> fk.envelopes(wrong));
			assertTrue(e.getMessage().contains("frame 0") && e.getMessage().contains("found 3"), e.getMessage());
		}
	}

	private static float max(final float[] a) {
		float m = 0;
		for (final float v : a) m = Math.max(m, Math.abs(v));
		return m;
	}

	@Test
	void badInputIsNamed() {
		final PlaneWave p = new PlaneWave(8, 50, 0.3e-3, 40e6, 1540, 5e6, 0);
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 1, null)) {
			final float[][] one = { new float[400] };
			assertTrue(assertThrows(InvalidInputException.class, () -> PlaneWaveImaging.image(cpu, p, new double[0],
				new float[0][], PlaneWaveImaging.Method.FK, 1, 1)).getMessage().contains("at least one angle"));
			assertTrue(assertThrows(InvalidInputException.class, () -> PlaneWave.anglesFromDegrees(5, 50)).getMessage()
				.contains("transmit angle 1"));
			assertTrue(assertThrows(InvalidInputException.class, () -> PlaneWaveImaging.image(cpu, p, new double[] { 0,
				0.1 }, one, PlaneWaveImaging.Method.DAS, 1, 1)).getMessage().contains("one frame per angle (2), found 1"));
			assertTrue(assertThrows(InvalidInputException.class, () -> PlaneWaveImaging.image(cpu, p, new double[] { 0 },
				new float[][] { new float[399] }, PlaneWaveImaging.Method.FK, 1, 1)).getMessage().contains("frame 0"));
			assertTrue(assertThrows(InvalidInputException.class, () -> PlaneWaveImaging.Method.parse("stolt"))
				.getMessage().contains("fk or das"));
		}
	}

	private static double contrastRatio(final float[] img, final PlaneWave p, final int up, final double zc,
		final double r)
	{
		final int width = p.elements() * up;
		double in = 0, out = 0;
		int nin = 0, nout = 0;
		for (int m = 0; m < p.samples(); m++)
			for (int j = 0; j < width; j++) {
				final double x = p.x(0) + j * p.pitch() / up, z = m * p.dz(), d = Math.hypot(x, z - zc);
				if (d < 0.7 * r) {
					in += img[m * width + j];
					nin++;
				}
				else if (d > 1.3 * r && d < 2 * r && Math.abs(x) < 5e-3) {
					out += img[m * width + j];
					nout++;
				}
			}
		return 20 * Math.log10((out / nout) / (in / nin));
	}

	@Test
	void badParametersAreNamed() {
		assertThrows(InvalidInputException.class, () -> new PlaneWave(64, 100, 0.3e-3, 40e6, -1540, 5e6, 0));
		assertThrows(InvalidInputException.class, () -> new PlaneWave(64, 100, 0.3e-3, 40e6, 1540, 30e6, 0));
		final PlaneWave p = new PlaneWave(8, 50, 0.3e-3, 40e6, 1540, 5e6, 0);
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 1, null)) {
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> PlaneWaveImaging.fk(cpu, p,
				new float[7 * 50], 1));
			assertTrue(e.getMessage().contains("8 elements") && e.getMessage().contains("350"), e.getMessage());
		}
	}

	/**
	 * The envelope maximum within 2 wavelengths of target q: {x, z, lateral −6 dB width, axial −6 dB width} (m; widths by
	 * linear interpolation along the row and the column through the maximum).
	 */
	private static double[] peak(final float[] img, final int width, final int rows, final PlaneWave p, final int up,
		final double[] q)
	{
		final double dx = p.pitch() / up, dz = p.dz(), reach = 2 * p.wavelength();
		int best = -1;
		for (int m = 0; m < rows; m++) {
			final double z = m * dz;
			if (Math.abs(z - q[1]) > reach) continue;
			for (int j = 0; j < width; j++) {
				final double x = p.x(0) + j * dx;
				if (Math.abs(x - q[0]) > reach) continue;
				if (best < 0 || img[m * width + j] > img[best]) best = m * width + j;
			}
		}
		final int m = best / width, j = best % width;
		final double v = img[best], half = v / 2;
		// Sub-sample position by a parabola through the maximum and its neighbours (depth and lateral).
		final double zm = m * dz + dz * parabola(img[(m - 1) * width + j], v, img[(m + 1) * width + j]);
		final double lat = width(img, best, 1, j, width - 1 - j, half) * dx;
		final double ax = width(img, best, width, m, rows - 1 - m, half) * dz;
		final double xm = p.x(0) + j * dx + dx * parabola(img[best - 1], v, img[best + 1]);
		return new double[] { xm, zm, lat, ax };
	}

	private static double parabola(final double a, final double b, final double c) {
		final double d = a - 2 * b + c;
		return d == 0 ? 0 : 0.5 * (a - c) / d;
	}

	/** Width (in samples) of the run above {@code half} through {@code at}, stepping {@code step} (at most lo / hi). */
	private static double width(final float[] img, final int at, final int step, final int lo, final int hi,
		final double half)
	{
		double w = 0;
		for (final int dir : new int[] { -1, 1 }) {
			int k = 1;
			final int limit = dir < 0 ? lo : hi;
			while (k <= limit && img[at + dir * k * step] > half) k++;
			if (k > limit) return Double.NaN;
			final double inside = img[at + dir * (k - 1) * step], outside = img[at + dir * k * step];
			w += k - 1 + (inside - half) / (inside - outside);
		}
		return w;
	}
}
