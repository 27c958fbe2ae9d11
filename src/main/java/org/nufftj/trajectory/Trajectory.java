package org.nufftj.trajectory;

import org.nufftj.InvalidInputException;

/**
 * Sample positions in k-space: {@code count()} points in {@code dimensions()} (2 or 3) axes.
 * <p>
 * Units (docs/conventions.md): normalised spatial frequency in cycles per pixel, {@code k ∈ [−½, ½]} per axis, so
 * that a point at {@code k} samples {@code Σ_x f(x)·e^{−2πi k·x}} with {@code x} the centred pixel index. BART files
 * store cycles per field of view ({@code k·N}); {@link #fromCyclesPerFov} converts. The transform is 1-periodic in k,
 * so +½ and −½ are the same frequency; points beyond ±½ (plus a rounding allowance of {@value #RANGE_SLACK}) are an
 * error, never silently wrapped.
 * </p>
 * <p>
 * Coordinates are interleaved per point: {@code coords[d * m + a]} is axis {@code a} of point {@code m}. The optional
 * {@code readout} and {@code shots} say how the points were acquired (samples per readout × readouts, acquisition
 * order, readout fastest); when unknown, {@code readout == count()} and {@code shots == 1}.
 * </p>
 */
public final class Trajectory {

	/** Allowed overshoot beyond ±½ for float rounding of coordinates read from files. */
	public static final double RANGE_SLACK = 1e-5;

	private final int dimensions;
	private final double[] coords;
	private final int readout;
	private final int shots;
	private final String name;

	public Trajectory(final int dimensions, final double[] coords, final int readout, final int shots,
		final String name)
	{
		InvalidInputException.require(dimensions == 2 || dimensions == 3,
			"trajectory " + name + ": expected 2 or 3 dimensions, found " + dimensions);
		InvalidInputException.require(coords.length > 0 && coords.length % dimensions == 0,
			"trajectory " + name + ": coordinate array length " + coords.length + " is not a positive multiple of " +
				dimensions);
		final int count = coords.length / dimensions;
		InvalidInputException.require(readout > 0 && shots > 0 && (long) readout * shots == count,
			"trajectory " + name + ": readout " + readout + " x shots " + shots + " != " + count + " points");
		this.dimensions = dimensions;
		this.coords = coords;
		this.readout = readout;
		this.shots = shots;
		this.name = name;
		validate();
	}

	public Trajectory(final int dimensions, final double[] coords, final String name) {
		this(dimensions, coords, coords.length / Math.max(1, dimensions), 1, name);
	}

	/** Converts BART-style coordinates (cycles per field of view, k·N per axis) to normalised ones. */
	public static Trajectory fromCyclesPerFov(final int dimensions, final double[] cyclesPerFov, final int[] imageSize,
		final int readout, final int shots, final String name)
	{
		final double[] k = new double[cyclesPerFov.length];
		for (int i = 0; i < k.length; i++) {
			final int a = i % dimensions;
			k[i] = cyclesPerFov[i] / imageSize[a];
		}
		return new Trajectory(dimensions, k, readout, shots, name);
	}

	// -- public API --

	public int dimensions() { return dimensions; }

	public int count() { return coords.length / dimensions; }

	/** The coordinate array (not a copy; do not modify). */
	public double[] coords() { return coords; }

	public double k(final int point, final int axis) { return coords[dimensions * point + axis]; }

	public int readout() { return readout; }

	public int shots() { return shots; }

	public String name() { return name; }

	/** Coordinates in cycles per field of view (BART units) for an image of the given size. */
	public double[] toCyclesPerFov(final int[] imageSize) {
		final double[] out = new double[coords.length];
		for (int i = 0; i < out.length; i++) out[i] = coords[i] * imageSize[i % dimensions];
		return out;
	}

	/** The same points with a new shape (readout × shots). */
	public Trajectory reshape(final int newReadout, final int newShots) {
		return new Trajectory(dimensions, coords, newReadout, newShots, name);
	}

	/** The same points with the k components of axes 0 and 1 exchanged (an ISMRMRD [x, y] scan in array order). */
	public Trajectory withFirstAxesSwapped() {
		final double[] c = coords.clone();
		for (int i = 0; i < c.length; i += dimensions) {
			c[i] = coords[i + 1];
			c[i + 1] = coords[i];
		}
		return new Trajectory(dimensions, c, readout, shots, name);
	}

	/** A subset of the points, in the given order. */
	public Trajectory select(final int[] points, final String newName) {
		final double[] c = new double[points.length * dimensions];
		for (int i = 0; i < points.length; i++)
			System.arraycopy(coords, points[i] * dimensions, c, i * dimensions, dimensions);
		return new Trajectory(dimensions, c, newName);
	}

	@Override
	public String toString() {
		return name + " (" + dimensions + "D, " + count() + " points = " + readout + " x " + shots + ")";
	}

	// -- helpers --

	private void validate() {
		for (int i = 0; i < coords.length; i++) {
			final double v = coords[i];
			if (!Double.isFinite(v)) throw new InvalidInputException("trajectory " + name + ": point " + i / dimensions +
				" axis " + i % dimensions + " is " + v + ", expected a finite number");
			if (Math.abs(v) > 0.5 + RANGE_SLACK) throw new InvalidInputException("trajectory " + name + ": point " +
				i / dimensions + " axis " + i % dimensions + " is k=" + v + " cycles/pixel, outside [-0.5, 0.5]" +
				" (in cycles/FOV: outside [-N/2, N/2])");
		}
	}
}
