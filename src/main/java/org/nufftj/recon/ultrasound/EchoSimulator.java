package org.nufftj.recon.ultrasound;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.nufftj.InvalidInputException;

/**
 * Analytic echoes of point scatterers for a plane wave steered by θ ({@link PlaneWave}): scatterer (x_s, z_s, a)
 * returns to element i after τ_i = (x_s·sin θ + z_s·cos θ + √((x_i − x_s)² + z_s²))/c (transmit front, then the
 * spherical echo), as a·g(t − τ_i) with the Gaussian-modulated pulse g(t) = e^{−t²/(2σ²)}·cos(2π f0 t),
 * σ = 1/(π·bw·f0) (bw the fractional bandwidth); channel data [sample][element], element fastest. No attenuation, no
 * directivity, no multiple scattering. {@link #speckle} makes seeded speckle phantoms with anechoic cysts.
 */
public final class EchoSimulator {

	private EchoSimulator() {}

	// -- public API --

	/** Channel data of scatterers {@code points} ({x, z, amplitude} triples, m) for a 0° plane wave. */
	public static float[] echoes(final PlaneWave p, final double[][] points, final double bw) {
		return echoes(p, 0, points, bw);
	}

	/**
	 * Channel data of scatterers {@code points} ({x, z, amplitude} triples, m) with fractional bandwidth {@code bw}
	 * for a plane wave steered by {@code angle} (radians).
	 */
	public static float[] echoes(final PlaneWave p, final double angle, final double[][] points, final double bw) {
		PlaneWave.checkAngles(angle);
		InvalidInputException.require(bw > 0 && bw <= 2, "fractional bandwidth: expected 0 < bw <= 2, found " + bw);
		final int n = p.elements(), t = p.samples();
		final float[] s = new float[n * t];
		final double sigma = 1 / (Math.PI * bw * p.f0()), reach = 5 * sigma;
		for (final double[] q : points) {
			final double tx = p.transmitTime(angle, q[0], q[1]);
			for (int i = 0; i < n; i++) {
				final double dx = p.x(i) - q[0];
				final double tau = tx + Math.sqrt(dx * dx + q[1] * q[1]) / p.c();
				final int k0 = Math.max(0, (int) Math.floor((tau - reach - p.t0()) * p.fs()));
				final int k1 = Math.min(t - 1, (int) Math.ceil((tau + reach - p.t0()) * p.fs()));
				for (int k = k0; k <= k1; k++) {
					final double u = p.t0() + k / p.fs() - tau;
					s[k * n + i] += (float) (q[2] * Math.exp(-u * u / (2 * sigma * sigma)) * Math.cos(2 * Math.PI *
						p.f0() * u));
				}
			}
		}
		return s;
	}

	/**
	 * A speckle phantom: {@code count} scatterers uniformly in [x0, x1] × [z0, z1] (m) with Gaussian amplitudes
	 * (mean 0, deviation 1), none inside the anechoic cysts {@code cysts} ({x, z, radius} triples, m); reproducible for
	 * a given {@code seed}. Returns {x, z, amplitude} triples for {@link #echoes}.
	 */
	public static double[][] speckle(final long seed, final double x0, final double x1, final double z0,
		final double z1, final int count, final double[][] cysts)
	{
		InvalidInputException.require(x1 > x0 && z1 > z0 && z0 >= 0, "speckle region: expected x0 < x1 and 0 <= z0 < z1, found x " +
			x0 + " to " + x1 + ", z " + z0 + " to " + z1 + " m");
		InvalidInputException.require(count >= 1, "speckle scatterers: expected >= 1, found " + count);
		final Random r = new Random(seed);
		final List<double[]> out = new ArrayList<>(count);
		while (out.size() < count) {
			final double x = x0 + (x1 - x0) * r.nextDouble(), z = z0 + (z1 - z0) * r.nextDouble();
			final double a = r.nextGaussian();
			if (!inside(cysts, x, z)) out.add(new double[] { x, z, a });
		}
		return out.toArray(new double[0][]);
	}

	// -- helpers --

	private static boolean inside(final double[][] cysts, final double x, final double z) {
		if (cysts == null) return false;
		for (final double[] c : cysts) {
			final double dx = x - c[0], dz = z - c[1];
			if (dx * dx + dz * dz < c[2] * c[2]) return true;
		}
		return false;
	}
}
