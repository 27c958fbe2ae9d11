package org.nufftj.trajectory;

import java.util.Arrays;
import java.util.Locale;

import org.nufftj.InvalidInputException;

/**
 * The kinds of trajectory a user can choose by name (menus, macros, CLI), with factories for data stored without
 * coordinates ({@link #designFor}) and for a Nyquist-sampled default ({@link #fullySampled}).
 */
public enum TrajectoryKind {

	CARTESIAN("Cartesian"), RADIAL("radial"), GOLDEN_ANGLE("golden angle"), TINY_GOLDEN("tiny golden"),
	SPIRAL("spiral"), STACK_OF_STARS("stack of stars"), RADIAL_3D("3D radial"), PROPELLER("PROPELLER"),
	RANDOM("random"), FILE("from file");

	/** The tiny golden angle used by {@link #TINY_GOLDEN}: n = 7, ψ₇ = π/(φ + 6) ≈ 23.628° (Wundrak et al. 2016). */
	public static final int DEFAULT_TINY_GOLDEN = 7;

	private final String label;

	TrajectoryKind(final String label) {
		this.label = label;
	}

	/** The menu word, e.g. "golden angle". */
	public String label() { return label; }

	@Override
	public String toString() { return label; }

	// -- public API --

	/**
	 * Reads a kind from a menu word or enum name, ignoring case, spaces, '-' and '_': "golden angle", "GOLDEN_ANGLE",
	 * "golden-angle", "tiny golden", "stack of stars", "3D radial", "kooshball", "PROPELLER", "Cartesian", "file",
	 * "from file", "random".
	 */
	public static TrajectoryKind parse(final String text) {
		if (text == null) throw new InvalidInputException("trajectory kind: missing, expected one of " + choices());
		final String t = text.toLowerCase(Locale.ROOT).replaceAll("[\\s_\\-]+", "");
		switch (t) {
			case "cartesian": return CARTESIAN;
			case "radial": case "radial2d": case "2dradial": return RADIAL;
			case "goldenangle": case "golden": case "goldenangleradial": return GOLDEN_ANGLE;
			case "tinygolden": case "tinygoldenangle": case "tinygoldenangleradial": return TINY_GOLDEN;
			case "spiral": return SPIRAL;
			case "stackofstars": case "sos": return STACK_OF_STARS;
			case "3dradial": case "radial3d": case "kooshball": return RADIAL_3D;
			case "propeller": return PROPELLER;
			case "random": case "uniformrandom": return RANDOM;
			case "file": case "fromfile": return FILE;
			default:
				throw new InvalidInputException("trajectory kind: unknown '" + text + "', expected one of " + choices());
		}
	}

	/** The menu words, for messages and choice lists. */
	public static String choices() {
		return Arrays.toString(Arrays.stream(values()).map(TrajectoryKind::label).toArray());
	}

	/**
	 * A design of this kind where {@code readout} and {@code shots} ≤ 0 mean "as {@link #fullySampled}": both ≤ 0
	 * gives the fully sampled default, one of them ≤ 0 takes that one from it and the other as given
	 * ({@link #designFor}).
	 */
	public TrajectoryDesign design(final int[] matrix, final int readout, final int shots) {
		if (readout <= 0 && shots <= 0) return fullySampled(matrix);
		final Trajectory full = fullySampled(matrix).build();
		return designFor(matrix, readout > 0 ? readout : full.readout(), shots > 0 ? shots : full.shots());
	}

	/**
	 * A design of this kind with exactly {@code readout × shots} points, for k-space stored without coordinates.
	 * <ul>
	 * <li>CARTESIAN: readout = os·N_x (os ≥ 1 an integer), shots = N_y (2D) or N_y·N_z (3D).</li>
	 * <li>RADIAL, GOLDEN_ANGLE, TINY_GOLDEN (2D): {@code shots} spokes of {@code readout} samples (uniform over 180°,
	 * golden angle, tiny golden angle n = {@value #DEFAULT_TINY_GOLDEN}).</li>
	 * <li>SPIRAL (2D): {@code shots} interleaves of the default spiral for the matrix (FOV = N mm, 1 mm pixels,
	 * 40 mT/m, 150 T/m/s, uniform density) resampled to {@code readout} samples.</li>
	 * <li>STACK_OF_STARS (3D): N_z partitions of {@code shots/N_z} uniform spokes.</li>
	 * <li>RADIAL_3D (3D): {@code shots} full-diameter golden-means spokes.</li>
	 * <li>PROPELLER (2D): readout samples per line; shots split into blades × lines with lines per blade the divisor
	 * of {@code shots} nearest √shots (shots must not be prime).</li>
	 * <li>RANDOM: readout × shots uniform random points (seed 0).</li>
	 * </ul>
	 * @throws InvalidInputException when the shape cannot fit this kind, or for FILE
	 */
	public TrajectoryDesign designFor(final int[] matrix, final int readout, final int shots) {
		checkMatrix(matrix);
		InvalidInputException.require(readout >= 1 && shots >= 1,
			label + " trajectory: readout and shots must be >= 1, found " + readout + " x " + shots);
		final int d = matrix.length;
		switch (this) {
			case CARTESIAN: {
				final int lines = d == 3 ? matrix[1] * matrix[2] : matrix[1];
				InvalidInputException.require(readout % matrix[0] == 0 && shots == lines, "Cartesian trajectory for " +
					Arrays.toString(matrix) + ": expected readout a multiple of " + matrix[0] + " and " + lines +
					" lines, found " + readout + " x " + shots);
				return new Cartesian(matrix, readout / matrix[0]);
			}
			case RADIAL:
				require2d(matrix);
				return new Radial(readout, shots, false);
			case GOLDEN_ANGLE:
				require2d(matrix);
				return new GoldenAngleRadial(readout, shots, 1);
			case TINY_GOLDEN:
				require2d(matrix);
				return new GoldenAngleRadial(readout, shots, DEFAULT_TINY_GOLDEN);
			case SPIRAL:
				require2d(matrix);
				InvalidInputException.require(readout >= 2, "spiral trajectory: readout must be >= 2, found " + readout);
				return new Spiral(max(matrix), max(matrix), shots).withReadoutSamples(readout);
			case STACK_OF_STARS:
				InvalidInputException.require(d == 3, "stack of stars: needs a 3D matrix, found " + Arrays.toString(matrix));
				InvalidInputException.require(shots % matrix[2] == 0, "stack of stars for " + Arrays.toString(matrix) +
					": shots " + shots + " is not a multiple of the " + matrix[2] + " partitions");
				return new StackOfStars(readout, shots / matrix[2], matrix[2], 0);
			case RADIAL_3D:
				InvalidInputException.require(d == 3, "3D radial: needs a 3D matrix, found " + Arrays.toString(matrix));
				return new Radial3D(readout, shots, Radial3D.Ordering.GOLDEN_MEANS, false);
			case PROPELLER: {
				require2d(matrix);
				final int lines = nearestDivisor(shots, Math.sqrt(shots));
				InvalidInputException.require(lines >= 2 && lines < shots && lines < readout, "PROPELLER for " + readout +
					" x " + shots + ": cannot split " + shots + " shots into blades of 2 or more lines (fewer than " +
					"the readout)");
				return new Propeller(readout, lines, shots / lines);
			}
			case RANDOM:
				return new UniformRandom(readout * shots, d, 0).shaped(readout);
			case FILE:
			default:
				throw new InvalidInputException("trajectory 'from file': needs a trajectory file, none given");
		}
	}

	/**
	 * A Nyquist-sampled default for the matrix (N = the largest in-plane size):
	 * Cartesian grid; radial kinds 2N samples × ⌈πN/2⌉ spokes; spiral with FOV N mm, N/16 interleaves (at least 1);
	 * stack of stars 2N × ⌈πN/2⌉ × N_z; 3D radial 2N × ⌈πN²/2⌉ full-diameter spokes; PROPELLER N samples, blades of
	 * max(8, N/8) lines, ⌈(π/2)·N/lines⌉ blades; random: as many points as pixels.
	 */
	public TrajectoryDesign fullySampled(final int[] matrix) {
		checkMatrix(matrix);
		final int d = matrix.length;
		final int n = d == 3 && this == RADIAL_3D ? max(matrix) : Math.max(matrix[0], matrix[1]);
		final int spokes = (int) Math.ceil(Math.PI / 2 * n);
		switch (this) {
			case CARTESIAN:
				return new Cartesian(matrix, 1);
			case RADIAL:
				require2d(matrix);
				return new Radial(2 * n, spokes, false);
			case GOLDEN_ANGLE:
				require2d(matrix);
				return new GoldenAngleRadial(2 * n, spokes, 1);
			case TINY_GOLDEN:
				require2d(matrix);
				return new GoldenAngleRadial(2 * n, spokes, DEFAULT_TINY_GOLDEN);
			case SPIRAL:
				require2d(matrix);
				return new Spiral(n, n, Math.max(1, n / 16));
			case STACK_OF_STARS:
				InvalidInputException.require(d == 3, "stack of stars: needs a 3D matrix, found " + Arrays.toString(matrix));
				return new StackOfStars(2 * n, spokes, matrix[2], 0);
			case RADIAL_3D:
				InvalidInputException.require(d == 3, "3D radial: needs a 3D matrix, found " + Arrays.toString(matrix));
				return new Radial3D(2 * n, (int) Math.ceil(Math.PI / 2 * n * n), Radial3D.Ordering.GOLDEN_MEANS, false);
			case PROPELLER: {
				require2d(matrix);
				final int lines = Math.min(n - 1, Math.max(8, n / 8));
				return new Propeller(n, lines, (int) Math.ceil(Math.PI / 2 * n / lines));
			}
			case RANDOM: {
				int pixels = 1;
				for (final int s : matrix) pixels *= s;
				return new UniformRandom(pixels, d, 0).shaped(matrix[0]);
			}
			case FILE:
			default:
				throw new InvalidInputException("trajectory 'from file': needs a trajectory file, none given");
		}
	}

	// -- helpers --

	private void checkMatrix(final int[] matrix) {
		InvalidInputException.require(matrix != null && (matrix.length == 2 || matrix.length == 3),
			label + " trajectory: expected a 2D or 3D matrix, found " + Arrays.toString(matrix));
		for (final int s : matrix)
			InvalidInputException.require(s >= 1 && s <= 65536, label + " trajectory: matrix sizes must be 1 to 65536, " +
				"found " + Arrays.toString(matrix));
		InvalidInputException.require(matrix.length == 2 || matrix[2] >= 1, "bad matrix");
	}

	private void require2d(final int[] matrix) {
		InvalidInputException.require(matrix.length == 2 || matrix[2] == 1, label + " trajectory: is 2D, found a 3D " +
			"matrix " + Arrays.toString(matrix) + " (use stack of stars or 3D radial)");
	}

	private static int max(final int[] m) {
		int x = 0;
		for (final int v : m) x = Math.max(x, v);
		return x;
	}

	private static int nearestDivisor(final int n, final double target) {
		int best = 1;
		for (int q = 1; q <= n; q++)
			if (n % q == 0 && Math.abs(q - target) < Math.abs(best - target)) best = q;
		return best;
	}
}
