package org.nufftj.trajectory;

import org.nufftj.InvalidInputException;

/**
 * 2D radial sampling with golden-angle spoke increments, in acquisition order: spoke {@code s} at angle
 * {@code θ_s = s·ψ_n} with {@code ψ_n = π/(φ + n − 1)}, φ the golden ratio. {@code n = 1} is the golden angle
 * π/φ ≈ 111.246° (Winkelmann et al., IEEE TMI 26:68, 2007); {@code n ≥ 2} are the tiny golden angles of Wundrak et
 * al. (MRM 75:2372, 2016): n = 2 → 68.754°, n = 5 → 32.039°, n = 7 → 23.628°. Any run of consecutive spokes then
 * covers k-space nearly uniformly. Angles are not reduced modulo π (each spoke keeps its readout direction, as
 * {@code bart traj -r -G}); samples and the direction convention are those of {@link Radial}.
 */
public final class GoldenAngleRadial implements TrajectoryDesign {

	private final int readout;
	private final int spokes;
	private final int tiny;
	private final int first;

	/**
	 * @param tiny 1 for the golden angle, n ≥ 2 for the n-th tiny golden angle
	 */
	public GoldenAngleRadial(final int readout, final int spokes, final int tiny) {
		this(readout, spokes, tiny, 0);
	}

	/** @param first index of the first spoke (to continue a golden-angle series across frames) */
	public GoldenAngleRadial(final int readout, final int spokes, final int tiny, final int first) {
		InvalidInputException.require(readout >= 2, "golden-angle trajectory: readout must be >= 2 samples, found " +
			readout);
		InvalidInputException.require(spokes >= 1, "golden-angle trajectory: spokes must be >= 1, found " + spokes);
		InvalidInputException.require(tiny >= 1 && tiny <= 100,
			"golden-angle trajectory: tiny golden angle index must be 1 (golden) to 100, found " + tiny);
		InvalidInputException.require(first >= 0, "golden-angle trajectory: first spoke must be >= 0, found " + first);
		InvalidInputException.require((long) readout * spokes <= Integer.MAX_VALUE / 3,
			"golden-angle trajectory: " + (long) readout * spokes + " points is too many");
		this.readout = readout;
		this.spokes = spokes;
		this.tiny = tiny;
		this.first = first;
	}

	public GoldenAngleRadial(final int readout, final int spokes) {
		this(readout, spokes, 1);
	}

	// -- public API --

	/** The angle increment ψ_n = π/(φ + n − 1) in radians. */
	public static double increment(final int n) {
		return Math.PI / (Spokes.PHI + n - 1);
	}

	public double increment() { return increment(tiny); }

	public int readout() { return readout; }

	public int spokes() { return spokes; }

	public int tiny() { return tiny; }

	public double angle(final int s) {
		return (first + (long) s) * increment();
	}

	@Override
	public Trajectory build() {
		final double[] angles = new double[spokes];
		for (int s = 0; s < spokes; s++) angles[s] = angle(s);
		final double[] c = new double[2 * readout * spokes];
		Spokes.spokes2d(angles, readout, false, c, 2, 0, 0);
		return new Trajectory(2, c, readout, spokes, tiny == 1 ? "golden-angle radial" : "tiny-golden-angle radial");
	}

	@Override
	public String describe() {
		return (tiny == 1 ? "golden-angle radial" : "tiny golden angle (n=" + tiny + ") radial") + ", " + readout +
			" samples x " + spokes + " spokes, increment " + Spokes.degrees(increment()) +
			(first > 0 ? ", from spoke " + first : "");
	}
}
