package org.nufftj.trajectory;

import org.nufftj.InvalidInputException;

/**
 * 3D stack of stars: the same 2D radial pattern (uniform over 180°, golden angle or a tiny golden angle) in every
 * Cartesian k_z partition {@code kz = (p − P/2)/P}, {@code p = 0 … P−1}. Order: readout fastest, then spoke, then
 * partition (shots = spokes × partitions); the spoke angles are the same (aligned) in every partition. The in-plane
 * samples and directions are those of {@link Radial} / {@link GoldenAngleRadial}.
 */
public final class StackOfStars implements TrajectoryDesign {

	private final int readout;
	private final int spokes;
	private final int partitions;
	private final int golden;

	/**
	 * @param golden 0 for uniform angles π·s/S, 1 for the golden angle, n ≥ 2 for the n-th tiny golden angle
	 */
	public StackOfStars(final int readout, final int spokes, final int partitions, final int golden) {
		InvalidInputException.require(readout >= 2, "stack of stars: readout must be >= 2 samples, found " + readout);
		InvalidInputException.require(spokes >= 1, "stack of stars: spokes must be >= 1, found " + spokes);
		InvalidInputException.require(partitions >= 1, "stack of stars: partitions must be >= 1, found " + partitions);
		InvalidInputException.require(golden >= 0 && golden <= 100,
			"stack of stars: angle order must be 0 (uniform), 1 (golden) or a tiny golden index 2..100, found " + golden);
		InvalidInputException.require((long) readout * spokes * partitions <= Integer.MAX_VALUE / 3,
			"stack of stars: " + (long) readout * spokes * partitions + " points is too many");
		this.readout = readout;
		this.spokes = spokes;
		this.partitions = partitions;
		this.golden = golden;
	}

	// -- public API --

	public int readout() { return readout; }

	public int spokes() { return spokes; }

	public int partitions() { return partitions; }

	public double angle(final int s) {
		return golden == 0 ? Math.PI * s / spokes : s * GoldenAngleRadial.increment(golden);
	}

	@Override
	public Trajectory build() {
		final double[] angles = new double[spokes];
		for (int s = 0; s < spokes; s++) angles[s] = angle(s);
		final double[] c = new double[3 * readout * spokes * partitions];
		for (int p = 0; p < partitions; p++)
			Spokes.spokes2d(angles, readout, false, c, 3, p * readout * spokes, (p - partitions / 2) / (double) partitions);
		return new Trajectory(3, c, readout, spokes * partitions, "stack of stars");
	}

	@Override
	public String describe() {
		final String order = golden == 0 ? "uniform angles" : golden == 1 ? "golden angle" :
			"tiny golden angle n=" + golden;
		return "stack of stars, " + readout + " samples x " + spokes + " spokes (" + order + ") x " + partitions +
			" partitions";
	}
}
