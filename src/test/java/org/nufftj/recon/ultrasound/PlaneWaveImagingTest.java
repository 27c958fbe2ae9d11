package org.nufftj.recon.ultrasound;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
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
		final int elements = 128, up = 4;
		final double pitch = 0.15e-3, fs = 40e6, c = 1540, f0 = 5e6, t0 = 2e-6;
		final int samples = (int) Math.ceil((2 * 32e-3 / c - t0) * fs);
		final PlaneWave p = new PlaneWave(elements, samples, pitch, fs, c, f0, t0);
		final double dx = pitch / up;
		// Targets on the lateral grid (x_0 + j·dx) at depths off the depth grid.
		final double[][] targets = { { p.x(0) + 256 * dx, 10.013e-3, 1 }, { p.x(0) + 192 * dx, 18.507e-3, 1 },
			{ p.x(0) + 340 * dx, 26.031e-3, 1 } };
		final float[] ch = EchoSimulator.echoes(p, targets, 0.6);
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null)) {
			final float[] fk = PlaneWaveImaging.fk(cpu, p, ch, up);
			final float[] das = PlaneWaveImaging.delayAndSum(cpu, p, ch, up, 1);
			final int width = elements * up;
			final double quarter = p.wavelength() / 4;
			for (final double[] q : targets) {
				final double[] a = peak(fk, width, samples, p, up, q), b = peak(das, width, samples, p, up, q);
				for (final double[] r : new double[][] { a, b }) {
					assertTrue(Math.abs(r[0] - q[0]) <= quarter && Math.abs(r[1] - q[1]) <= quarter, (r == a ? "f-k" :
						"DAS") + " peak at (" + r[0] * 1e3 + ", " + r[1] * 1e3 + ") mm, target (" + q[0] * 1e3 + ", " +
						q[1] * 1e3 + ") mm");
				}
				final double lat = a[2] / b[2], ax = a[3] / b[3];
				assertTrue(Math.abs(lat - 1) <= 0.2 && Math.abs(ax - 1) <= 0.2, "-6 dB widths f-k / DAS at z = " + q[1] *
					1e3 + " mm: lateral " + a[2] * 1e3 + " / " + b[2] * 1e3 + " mm, axial " + a[3] * 1e3 + " / " + b[3] *
					1e3 + " mm");
			}
		}
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
		// Sub-sample depth by a parabola through the maximum and its neighbours.
		final double zm = m * dz + dz * parabola(img[(m - 1) * width + j], v, img[(m + 1) * width + j]);
		final double lat = width(img, best, 1, j, width - 1 - j, half) * dx;
		final double ax = width(img, best, width, m, rows - 1 - m, half) * dz;
		return new double[] { p.x(0) + j * dx, zm, lat, ax };
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
