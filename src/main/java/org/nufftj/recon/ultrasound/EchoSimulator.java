package org.nufftj.recon.ultrasound;

/**
 * Analytic echoes of point scatterers for a 0° plane wave: scatterer (x_s, z_s, a) returns to element i after the
 * two-way time τ_i = (z_s + √((x_i − x_s)² + z_s²))/c, as a·g(t − τ_i) with the Gaussian-modulated pulse
 * g(t) = e^{−t²/(2σ²)}·cos(2π f0 t), σ = 1/(π·bw·f0) (bw the fractional bandwidth); channel data [sample][element],
 * element fastest. No attenuation, no directivity, no multiple scattering.
 */
public final class EchoSimulator {

	private EchoSimulator() {}

	// -- public API --

	/**
	 * Channel data of scatterers {@code points} ({x, z, amplitude} triples, m) with fractional bandwidth {@code bw}.
	 */
	public static float[] echoes(final PlaneWave p, final double[][] points, final double bw) {
		final int n = p.elements(), t = p.samples();
		final float[] s = new float[n * t];
		final double sigma = 1 / (Math.PI * bw * p.f0()), reach = 5 * sigma;
		for (final double[] q : points) {
			for (int i = 0; i < n; i++) {
				final double dx = p.x(i) - q[0];
				final double tau = (q[1] + Math.sqrt(dx * dx + q[1] * q[1])) / p.c();
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
}
