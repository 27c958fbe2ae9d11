package org.nufftj.trajectory;

import org.nufftj.InvalidInputException;

/**
 * PROPELLER (Pipe, MRM 42:963, 1999): {@code B} blades of {@code L} parallel lines of {@code R} samples, blade
 * {@code b} rotated by {@code π·b/B}. In blade coordinates line {@code l} is at {@code v = (l − L/2)/R} and sample
 * {@code i} at {@code u = s·(i − R/2)/R}, rotated like a {@link Radial} spoke (readout along
 * {@code (sin θ, cos θ)}, lines stepped along {@code (cos θ, −sin θ)}). A blade is a rectangle, so its corners
 * reach radius {@code √((s/2)² + (L/2R)²)}; the readout scale {@code s = √(1 − (L/R)²)} keeps every corner on the
 * disc |k| ≤ ½ so that no rotation leaves the range (the readout is slightly denser than 1/R; s = 1 when L ≪ R).
 * Order: readout fastest, then line, then blade (shots = L × B).
 */
public final class Propeller implements TrajectoryDesign {

	private final int readout;
	private final int lines;
	private final int blades;

	public Propeller(final int readout, final int lines, final int blades) {
		InvalidInputException.require(readout >= 2, "PROPELLER: readout must be >= 2 samples, found " + readout);
		InvalidInputException.require(lines >= 1 && lines < readout,
			"PROPELLER: lines per blade must be 1 to readout-1 (" + (readout - 1) + "), found " + lines);
		InvalidInputException.require(blades >= 1, "PROPELLER: blades must be >= 1, found " + blades);
		InvalidInputException.require((long) readout * lines * blades <= Integer.MAX_VALUE / 3,
			"PROPELLER: " + (long) readout * lines * blades + " points is too many");
		this.readout = readout;
		this.lines = lines;
		this.blades = blades;
	}

	// -- public API --

	public int readout() { return readout; }

	public int lines() { return lines; }

	public int blades() { return blades; }

	/** The readout scale s that keeps blade corners inside |k| ≤ ½. */
	public double readoutScale() {
		final double w = lines / (double) readout;
		return Math.sqrt(1 - w * w);
	}

	@Override
	public Trajectory build() {
		final double scale = readoutScale();
		final double[] c = new double[2 * readout * lines * blades];
		int m = 0;
		for (int b = 0; b < blades; b++) {
			final double theta = Math.PI * b / blades;
			final double ux = Math.sin(theta), uy = Math.cos(theta); // readout direction
			final double vx = Math.cos(theta), vy = -Math.sin(theta); // line (phase-encode) direction
			for (int l = 0; l < lines; l++) {
				final double v = (l - lines / 2.0) / readout;
				for (int i = 0; i < readout; i++) {
					final double u = scale * Spokes.readoutPosition(i, readout, false);
					c[2 * m] = u * ux + v * vx;
					c[2 * m + 1] = u * uy + v * vy;
					m++;
				}
			}
		}
		return new Trajectory(2, c, readout, lines * blades, "PROPELLER");
	}

	@Override
	public String describe() {
		return "PROPELLER, " + blades + " blades x " + lines + " lines x " + readout + " samples";
	}
}
