package org.nufftj.trajectory;

import org.nufftj.InvalidInputException;

/**
 * 3D radial ("kooshball") sampling: {@code S} spokes through (full diameter) or from (centre out) the k-space centre,
 * in acquisition order.
 * <ul>
 * <li>{@link Ordering#GOLDEN_MEANS}: Chan, Ramsay, Cunningham, Plewes, MRM 61:354 (2009). The 2D golden means
 * φ₁ = 1/λ² ≈ 0.4656 and φ₂ = 1/λ ≈ 0.6823, λ the real root of λ³ = λ² + 1; spoke m has
 * {@code z = frac(m·φ₁)} (hemisphere, full-diameter spokes) or {@code 2·frac(m·φ₁) − 1} (sphere, centre-out) and
 * azimuth {@code 2π·frac(m·φ₂)}.</li>
 * <li>{@link Ordering#SPIRAL_PHYLLOTAXIS}: Piccini, Littmann, Nielles-Vallespin, Zenge, MRM 66:1049 (2011). Spoke n
 * has azimuth {@code n·Φ_gold} (Φ_gold = π(3 − √5) ≈ 137.51°) and polar angle {@code (π/2)·√(n/S)} on the hemisphere
 * (full-diameter spokes); centre-out spokes cover the sphere with {@code cos θ = 1 − (2n + 1)/S} (the Fibonacci
 * sphere form of the same phyllotaxis). Spokes are in the order n = 0 … S−1 (one continuous spiral; Piccini's
 * regrouping into interleaves is a reordering of the same set).</li>
 * </ul>
 * Full-diameter spoke samples are {@code (i − R/2)/R} along the direction, as {@link Radial}; centre-out samples are
 * {@code i/(2R)}, i.e. the same spacing from the centre to just under ½.
 */
public final class Radial3D implements TrajectoryDesign {

	/** Spoke ordering on the sphere. */
	public enum Ordering {
		GOLDEN_MEANS, SPIRAL_PHYLLOTAXIS
	}

	/** λ: the real root of λ³ = λ² + 1 (Chan et al. 2009), by Newton's method. */
	static final double LAMBDA;
	static {
		double x = 1.5;
		for (int i = 0; i < 60; i++) x -= (x * x * x - x * x - 1) / (3 * x * x - 2 * x);
		LAMBDA = x;
	}

	/** First 2D golden mean, 1/λ² ≈ 0.4656. */
	public static final double GOLDEN_MEAN_1 = 1 / (LAMBDA * LAMBDA);
	/** Second 2D golden mean, 1/λ ≈ 0.6823. */
	public static final double GOLDEN_MEAN_2 = 1 / LAMBDA;
	/** The golden angle of phyllotaxis, π(3 − √5) ≈ 137.508°. */
	public static final double GOLDEN_ANGLE_PHYLLOTAXIS = Math.PI * (3 - Math.sqrt(5));

	private final int readout;
	private final int spokes;
	private final Ordering ordering;
	private final boolean centreOut;

	public Radial3D(final int readout, final int spokes, final Ordering ordering, final boolean centreOut) {
		InvalidInputException.require(readout >= 2, "3D radial: readout must be >= 2 samples, found " + readout);
		InvalidInputException.require(spokes >= 1, "3D radial: spokes must be >= 1, found " + spokes);
		InvalidInputException.require(ordering != null, "3D radial: ordering must be given");
		InvalidInputException.require((long) readout * spokes <= Integer.MAX_VALUE / 3,
			"3D radial: " + (long) readout * spokes + " points is too many");
		this.readout = readout;
		this.spokes = spokes;
		this.ordering = ordering;
		this.centreOut = centreOut;
	}

	// -- public API --

	public int readout() { return readout; }

	public int spokes() { return spokes; }

	public Ordering ordering() { return ordering; }

	public boolean centreOut() { return centreOut; }

	/** Unit direction of spoke {@code s}. */
	public double[] direction(final int s) {
		final double z, azimuth;
		if (ordering == Ordering.GOLDEN_MEANS) {
			final double f1 = frac(s * GOLDEN_MEAN_1), f2 = frac(s * GOLDEN_MEAN_2);
			z = centreOut ? 2 * f1 - 1 : f1;
			azimuth = 2 * Math.PI * f2;
		}
		else {
			z = centreOut ? 1 - (2.0 * s + 1) / spokes : Math.cos(0.5 * Math.PI * Math.sqrt(s / (double) spokes));
			azimuth = frac(s * GOLDEN_ANGLE_PHYLLOTAXIS / (2 * Math.PI)) * 2 * Math.PI;
		}
		final double rho = Math.sqrt(Math.max(0, 1 - z * z));
		return new double[] { rho * Math.cos(azimuth), rho * Math.sin(azimuth), z };
	}

	@Override
	public Trajectory build() {
		final double[] c = new double[3 * readout * spokes];
		int m = 0;
		for (int s = 0; s < spokes; s++) {
			final double[] d = direction(s);
			for (int i = 0; i < readout; i++) {
				final double p = centreOut ? i / (2.0 * readout) : Spokes.readoutPosition(i, readout, false);
				c[3 * m] = p * d[0];
				c[3 * m + 1] = p * d[1];
				c[3 * m + 2] = p * d[2];
				m++;
			}
		}
		return new Trajectory(3, c, readout, spokes, "3D radial");
	}

	@Override
	public String describe() {
		return "3D radial, " + readout + " samples x " + spokes + (centreOut ? " centre-out" : " full-diameter") +
			" spokes, " + (ordering == Ordering.GOLDEN_MEANS ? "golden means" : "spiral phyllotaxis") + " ordering";
	}

	// -- helpers --

	private static double frac(final double x) {
		return x - Math.floor(x);
	}
}
