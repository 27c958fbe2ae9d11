package org.nufftj.trajectory;

import java.util.Random;

import org.nufftj.InvalidInputException;

/**
 * Points drawn independently and uniformly from {@code [−½, ½)^d} (d = 2 or 3): the worst case for locality in a
 * NUFFT and the standard test input (Barnett et al. 2019). Reproducible from the seed; shaped as one readout unless
 * {@link #shaped} gives readout × shots.
 */
public final class UniformRandom implements TrajectoryDesign {

	private final int count;
	private final int dimensions;
	private final long seed;
	private final int readout;

	public UniformRandom(final int count, final int dimensions, final long seed) {
		this(count, dimensions, seed, count);
	}

	private UniformRandom(final int count, final int dimensions, final long seed, final int readout) {
		InvalidInputException.require(count >= 1, "random trajectory: count must be >= 1, found " + count);
		InvalidInputException.require(dimensions == 2 || dimensions == 3,
			"random trajectory: dimensions must be 2 or 3, found " + dimensions);
		InvalidInputException.require((long) count * dimensions <= Integer.MAX_VALUE - 8,
			"random trajectory: " + count + " points is too many");
		InvalidInputException.require(readout >= 1 && count % readout == 0,
			"random trajectory: readout " + readout + " does not divide " + count + " points");
		this.count = count;
		this.dimensions = dimensions;
		this.seed = seed;
		this.readout = readout;
	}

	/** The same points reported as {@code readout} × {@code count/readout}. */
	public UniformRandom shaped(final int newReadout) {
		return new UniformRandom(count, dimensions, seed, newReadout);
	}

	// -- public API --

	public int count() { return count; }

	public int dimensions() { return dimensions; }

	public long seed() { return seed; }

	/** Draws the points from {@code random} (not reproducible from {@link #seed}). */
	public static Trajectory draw(final int count, final int dimensions, final Random random) {
		InvalidInputException.require(count >= 1 && (dimensions == 2 || dimensions == 3),
			"random trajectory: need count >= 1 and 2 or 3 dimensions, found " + count + ", " + dimensions);
		final double[] c = new double[count * dimensions];
		for (int i = 0; i < c.length; i++) c[i] = random.nextDouble() - 0.5;
		return new Trajectory(dimensions, c, "uniform random");
	}

	@Override
	public Trajectory build() {
		return draw(count, dimensions, new Random(seed)).reshape(readout, count / readout);
	}

	@Override
	public String describe() {
		return "uniform random, " + count + " points in " + dimensions + "D, seed " + seed;
	}
}
