package org.nufftj.trajectory;

/**
 * Shared geometry of radial designs. A spoke at angle θ runs along the direction {@code (sin θ, cos θ)}, measured
 * from the k_y axis towards k_x: BART's convention ({@code bart traj -r}, checked against BART 0.8 in the tests), so
 * spoke 0 lies along k_y. Full-diameter sample {@code i} of {@code R} sits at {@code (i − R/2)/R} along the spoke
 * ({@code i = 0 … R−1}, so it starts at −½ and passes through k = 0 at {@code i = R/2}); this is
 * {@code bart traj -r -c -x R} divided by R. Without {@code -c} BART shifts every sample by +½ sample
 * ({@code (i − R/2 + ½)/R}), which {@link Radial#withHalfSampleShift()} reproduces.
 */
final class Spokes {

	private Spokes() {}

	/** The golden ratio φ = (1 + √5)/2. */
	static final double PHI = (1 + Math.sqrt(5)) / 2;

	/** Position along a full-diameter spoke of R samples, in cycles/pixel. */
	static double readoutPosition(final int i, final int r, final boolean halfShift) {
		return (i - r / 2.0 + (halfShift ? 0.5 : 0)) / r;
	}

	/** Writes 2D spokes, one per angle, readout fastest, into {@code c} starting at point {@code first}. */
	static void spokes2d(final double[] angles, final int r, final boolean halfShift, final double[] c, final int dims,
		final int first, final double kz)
	{
		int m = first;
		for (final double theta : angles) {
			final double sx = Math.sin(theta), sy = Math.cos(theta);
			for (int i = 0; i < r; i++) {
				final double p = readoutPosition(i, r, halfShift);
				c[dims * m] = p * sx;
				c[dims * m + 1] = p * sy;
				if (dims == 3) c[dims * m + 2] = kz;
				m++;
			}
		}
	}

	static String degrees(final double radians) {
		return String.format(java.util.Locale.ROOT, "%.3f°", Math.toDegrees(radians));
	}
}
