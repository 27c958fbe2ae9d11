package org.nufftj.trajectory;

import org.nufftj.InvalidInputException;

/**
 * Uniform 2D radial sampling: {@code S} full-diameter spokes of {@code R} samples, spoke {@code s} at angle
 * {@code θ_s = π·s/S} (180° span, the default) or {@code 2π·s/S} (360°, every spoke direction distinct also
 * for even S). Sample {@code i} of a spoke is at {@code (i − R/2)/R} along the direction {@code (sin θ, cos θ)}
 * ({@link Spokes}), so {@code |k| ≤ ½}; with {@code R = 2N} the readout is oversampled twice for an N-pixel image.
 * <p>
 * Relation to BART 0.8 (checked in the tests): {@code bart traj -r -c -x R -y S} is this design in cycles per FOV
 * of an R-pixel field of view, i.e. BART's coordinates divided by R ({@code -D} for the 360° span). For an image of N
 * pixels and R = 2N BART users scale by ½ ({@code bart scale 0.5}) and read the result in cycles per FOV of N;
 * {@link Trajectory#fromCyclesPerFov} with image size N then gives this design. Without {@code -c} BART samples
 * {@code (i − R/2 + ½)/R} (no sample at k = 0), reproduced by {@link #withHalfSampleShift()}.
 * </p>
 */
public final class Radial implements TrajectoryDesign {

	private final int readout;
	private final int spokes;
	private final boolean fullCircle;
	private final boolean halfShift;

	public Radial(final int readout, final int spokes, final boolean fullCircle) {
		this(readout, spokes, fullCircle, false);
	}

	private Radial(final int readout, final int spokes, final boolean fullCircle, final boolean halfShift) {
		InvalidInputException.require(readout >= 2, "radial trajectory: readout must be >= 2 samples, found " + readout);
		InvalidInputException.require(spokes >= 1, "radial trajectory: spokes must be >= 1, found " + spokes);
		InvalidInputException.require((long) readout * spokes <= Integer.MAX_VALUE / 3,
			"radial trajectory: " + (long) readout * spokes + " points is too many");
		this.readout = readout;
		this.spokes = spokes;
		this.fullCircle = fullCircle;
		this.halfShift = halfShift;
	}

	/** The same design with BART's default sample positions {@code (i − R/2 + ½)/R} (no sample at k = 0). */
	public Radial withHalfSampleShift() {
		return new Radial(readout, spokes, fullCircle, true);
	}

	// -- public API --

	public int readout() { return readout; }

	public int spokes() { return spokes; }

	public boolean fullCircle() { return fullCircle; }

	/** Angle of spoke {@code s} in radians. */
	public double angle(final int s) {
		return (fullCircle ? 2 * Math.PI : Math.PI) * s / spokes;
	}

	@Override
	public Trajectory build() {
		final double[] angles = new double[spokes];
		for (int s = 0; s < spokes; s++) angles[s] = angle(s);
		final double[] c = new double[2 * readout * spokes];
		Spokes.spokes2d(angles, readout, halfShift, c, 2, 0, 0);
		return new Trajectory(2, c, readout, spokes, "radial");
	}

	@Override
	public String describe() {
		return "radial, " + readout + " samples x " + spokes + " spokes over " + (fullCircle ? "360°" : "180°") +
			(halfShift ? ", half-sample shifted readout" : "");
	}
}
