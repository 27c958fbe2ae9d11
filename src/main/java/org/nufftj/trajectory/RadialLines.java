package org.nufftj.trajectory;

import java.util.Locale;
import java.util.Optional;

/**
 * A 2D trajectory recognised as radial lines: readout {@code R} × shots {@code S} (readout fastest), every shot's
 * samples on a line through k = 0, uniformly spaced: {@code k(s, i) = (i − c_s)·Δ_s·u_s}, {@code i = 0 … R−1},
 * with a unit direction {@code u_s}, a spacing {@code Δ_s > 0} (cycles/pixel) and a centre index {@code c_s} (any
 * real: R/2 for full spokes, R/2 − ½ with BART's half-sample shift, 0 for centre-out). Radial and golden-angle
 * designs, tiny golden angles, any spoke order and radial data read from files qualify; spirals, PROPELLER,
 * Cartesian grids, random points and 3D trajectories do not.
 * <p>
 * This is the structure the GPU's output-driven spreader needs (TRON, Smith et al. 2019, Algorithm G: the samples
 * near a grid point follow from the spoke angles and the readout positions), found from the coordinates so that no
 * design object has to travel with the trajectory.
 * </p>
 * <p>
 * Fit per shot: least squares {@code k(i) ≈ a + i·v}, then the line is forced through the origin
 * ({@code c = −a·v/|v|²}) and every sample must lie within {@link #TOLERANCE} × max(Δ, largest |k| of the shot)
 * of {@code (i − c)·v} on each axis. The second term is what float coordinates need: a float keeps 2⁻²⁴ of its
 * magnitude, at the spoke's end 2⁻²⁵·R spacings; sample-data/bart/radial_traj (R = 128) deviates by 2.3·10⁻⁶ Δ,
 * a float golden-angle trajectory with R = 1024 by 1.7·10⁻⁵ Δ, both beyond 10⁻⁶ Δ. A spiral, a PROPELLER blade
 * (offset by ≥ 1/N from the origin) or random points miss the line by far more.
 * </p>
 */
public final class RadialLines {

	/** Allowed deviation from the fitted line, relative to max(spacing, largest |k| of the shot). */
	public static final double TOLERANCE = 1e-6;

	private final int readout;
	private final int shots;
	private final double[] ux, uy, centre, spacing;

	private RadialLines(final int readout, final int shots) {
		this.readout = readout;
		this.shots = shots;
		ux = new double[shots];
		uy = new double[shots];
		centre = new double[shots];
		spacing = new double[shots];
	}

	// -- public API --

	/** The radial-line structure of {@code t}, or empty when {@code t} is not 2D radial lines ({@link #mismatch}). */
	public static Optional<RadialLines> detect(final Trajectory t) {
		final Object r = analyse(t);
		return r instanceof RadialLines ? Optional.of((RadialLines) r) : Optional.empty();
	}

	/** Why {@code t} is not radial lines (one phrase naming the first shot and sample that fail), or null when it is. */
	public static String mismatch(final Trajectory t) {
		final Object r = analyse(t);
		return r instanceof String ? (String) r : null;
	}

	public int readout() { return readout; }

	public int shots() { return shots; }

	/** Unit direction of shot {@code s}, axis 0 (k_x). */
	public double directionX(final int s) { return ux[s]; }

	/** Unit direction of shot {@code s}, axis 1 (k_y). */
	public double directionY(final int s) { return uy[s]; }

	/** c_s: the (fractional) sample index at which shot {@code s} passes through k = 0. */
	public double centre(final int s) { return centre[s]; }

	/** Δ_s > 0: the distance between consecutive samples of shot {@code s}, cycles/pixel. */
	public double spacing(final int s) { return spacing[s]; }

	/** Sample {@code i} of shot {@code s} on the fitted line, axis {@code a}: (i − c_s)·Δ_s·u_s. */
	public double k(final int s, final int i, final int a) {
		return (i - centre[s]) * spacing[s] * (a == 0 ? ux[s] : uy[s]);
	}

	/** Angle of shot {@code s}'s line in [0, π), measured from k_x towards k_y (a line, so modulo π). */
	public double lineAngle(final int s) {
		double a = Math.atan2(uy[s], ux[s]);
		if (a < 0) a += Math.PI;
		return a >= Math.PI ? a - Math.PI : a;
	}

	@Override
	public String toString() {
		return "radial lines, " + readout + " samples x " + shots + " shots";
	}

	// -- helpers --

	/** The lines, or a String saying why not. */
	private static Object analyse(final Trajectory t) {
		if (t.dimensions() != 2) return "it is " + t.dimensions() + "D, radial lines are 2D";
		final int r = t.readout(), s = t.shots();
		if (r < 2) return "its readout has " + r + " sample(s) per shot, radial lines need >= 2";
		final double[] k = t.coords();
		final RadialLines lines = new RadialLines(r, s);
		final double mean = (r - 1) / 2.0;
		final double sii = r * ((double) r * r - 1) / 12; // Σ (i − mean)²
		for (int shot = 0; shot < s; shot++) {
			final int p0 = shot * r;
			double mx = 0, my = 0, kmax = 0;
			for (int i = 0; i < r; i++) {
				final double x = k[2 * (p0 + i)], y = k[2 * (p0 + i) + 1];
				mx += x;
				my += y;
				kmax = Math.max(kmax, Math.max(Math.abs(x), Math.abs(y)));
			}
			mx /= r;
			my /= r;
			double vx = 0, vy = 0;
			for (int i = 0; i < r; i++) {
				vx += (i - mean) * (k[2 * (p0 + i)] - mx);
				vy += (i - mean) * (k[2 * (p0 + i) + 1] - my);
			}
			vx /= sii;
			vy /= sii;
			final double v2 = vx * vx + vy * vy, delta = Math.sqrt(v2);
			if (!(delta > TOLERANCE * kmax) || delta == 0) {
				return "shot " + shot + " does not advance along a line (sample spacing " + fmt(delta) + ")";
			}
			// k(i) ≈ a + i·v with a = mean point − mean·v; through the origin: a = −c·v.
			final double ax = mx - mean * vx, ay = my - mean * vy;
			final double c = -(ax * vx + ay * vy) / v2;
			final double tol = TOLERANCE * Math.max(delta, kmax);
			double worst = 0;
			int at = 0;
			for (int i = 0; i < r; i++) {
				final double ex = k[2 * (p0 + i)] - (i - c) * vx, ey = k[2 * (p0 + i) + 1] - (i - c) * vy;
				final double e = Math.max(Math.abs(ex), Math.abs(ey));
				if (e > worst) {
					worst = e;
					at = i;
				}
			}
			if (!(worst <= tol)) {
				return "shot " + shot + " sample " + at + " is " + fmt(worst) + " cycles/pixel off the line through " +
					"k = 0 with uniform spacing " + fmt(delta) + " (allowed " + fmt(tol) + ")";
			}
			lines.ux[shot] = vx / delta;
			lines.uy[shot] = vy / delta;
			lines.centre[shot] = c;
			lines.spacing[shot] = delta;
		}
		return lines;
	}

	private static String fmt(final double v) {
		return String.format(Locale.ROOT, "%.3g", v);
	}
}
