package org.nufftj.app;

import java.nio.file.Path;
import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.trajectory.Trajectory;

/**
 * The rules both front ends apply to trajectories given in cycles per field of view (BART units, k·N per axis):
 * <ul>
 * <li><b>kz is zero</b> when |kz| ≤ {@value #KZ_ZERO} cycles/FOV on every point (far below one k-space cell; BART
 * writes exact zeros, other tools float noise): the scan is 2D.</li>
 * <li><b>Range</b>: on an axis of N pixels every |k| must be ≤ N/2·(1 + {@link Trajectory#RANGE_SLACK}) (the slack
 * covers float rounding in files); anything beyond is an error naming the point, never wrapped.</li>
 * <li><b>Matrix</b> (when none is given): per axis the smallest even size N that the range check accepts, i.e.
 * N = 2·⌈max|k| / (1 + RANGE_SLACK)⌉ (at least 2), and 1 on an axis where kz is zero. This is bart 0.8's
 * 2·⌈max|k|⌉ per axis except within the rounding slack, where a file written with |k| = N/2 plus float noise
 * keeps its N (and not N + 2).</li>
 * </ul>
 */
public final class KSpaceRules {

	/** The largest image size on one axis (as every matrix option allows). */
	public static final int MAX_SIZE = 65536;

	/** Largest |kz| (cycles/FOV) that counts as zero: the scan is then 2D. */
	public static final double KZ_ZERO = 1e-4;

	private KSpaceRules() {}

	// -- public API --

	/** True when every |kz| ≤ {@link #KZ_ZERO}. */
	public static boolean kzIsZero(final double maxAbsKz) {
		return maxAbsKz <= KZ_ZERO;
	}

	/**
	 * The image matrix for a trajectory whose largest |k| per axis (cycles/FOV, 3 axes) is {@code maxAbs}: 2 sizes
	 * when kz is zero, else 3.
	 */
	public static int[] estimateMatrix(final double[] maxAbs, final String source) {
		final int d = kzIsZero(maxAbs[2]) ? 2 : 3;
		final int[] m = new int[d];
		if (maxAbs[0] == 0 || maxAbs[1] == 0) throw new InvalidInputException(source + ": cannot estimate the image " +
			"matrix from the trajectory (max |k| per axis " + Arrays.toString(maxAbs) + " cycles/FOV); give the matrix");
		// In double, then checked: a kz of 3e9 once overflowed int into "an image of -2 pixels".
		final double[] estimate = new double[d];
		for (int a = 0; a < d; a++) estimate[a] = Math.max(2, 2 * Math.ceil(maxAbs[a] / (1 + Trajectory.RANGE_SLACK)));
		for (int a = 0; a < d; a++)
			if (estimate[a] > MAX_SIZE) throw new InvalidInputException(source + ": the trajectory reaches " + maxAbs[a] +
				" cycles/FOV on axis " + a + ", which needs an image of " + String.format(java.util.Locale.ROOT, "%.0f",
					estimate[a]) + " pixels on that axis (at most " + MAX_SIZE + "); check the coordinates (cycles/FOV " +
				"expected) or give the matrix (-d X:Y:Z, matrix=)");
		for (int a = 0; a < d; a++) m[a] = (int) estimate[a];
		long pixels = 1;
		for (final int s : m) pixels *= s;
		if (pixels > Memory.MAX_ARRAY / 2) throw new InvalidInputException(source + ": the estimated image " +
			Options.describeMatrix(m) + " has " + pixels + " pixels, more than one array holds (" + Memory.MAX_ARRAY / 2 +
			" complex values); check the coordinates or give the matrix (-d X:Y:Z, matrix=)");
		return m;
	}

	/** Points from which {@link #requireNoOutlier} judges (fewer: too few to call one point an outlier). */
	public static final int OUTLIER_MIN_POINTS = 100;

	/**
	 * Refuses an estimated matrix that one stray coordinate decided: on an axis, a largest |k| more than twice the
	 * 99th percentile of |k| (+1 cycle/FOV) means that fewer than 1% of the points set the size (one corrupt kx = 1000
	 * once made a 2000 × 128 image). Every design in the tree (radial, spiral, Cartesian, PROPELLER, stack of stars, 3D
	 * radial) has its 99th percentile within a few percent of its maximum. {@code interleaved}: BART's complex
	 * [3, points] floats (real parts used), cycles/FOV.
	 */
	public static void requireNoOutlier(final float[] interleaved, final int points, final double[] maxAbs,
		final int[] estimate, final String source)
	{
		if (points < OUTLIER_MIN_POINTS) return;
		final double[] abs = new double[points];
		for (int a = 0; a < estimate.length; a++) {
			for (int p = 0; p < points; p++) abs[p] = Math.abs(interleaved[2 * (3 * p + a)]);
			Arrays.sort(abs);
			final double p99 = abs[(int) Math.floor(0.99 * (points - 1))];
			if (maxAbs[a] > 2 * p99 + 1) throw new InvalidInputException(source + ": the estimated image matrix " +
				Options.describeMatrix(estimate) + " comes from a few outlying coordinates: on axis " + a +
				" the largest |k| is " + maxAbs[a] + " cycles/FOV but 99% of the points lie within " + p99 + " (a corrupt " +
				"coordinate?); check the trajectory, or give the matrix (-d X:Y:Z, matrix=NxM)");
		}
	}

	/** Fails unless |k| ≤ N/2·(1 + RANGE_SLACK) ({@code k} in cycles/FOV on an axis of {@code n} pixels). */
	public static void checkRange(final double k, final int n, final int point, final int axis, final Path source) {
		final double half = n / 2.0;
		if (!(Math.abs(k) <= half * (1 + Trajectory.RANGE_SLACK))) throw new InvalidInputException(source +
			": trajectory point " + point + " axis " + axis + " is " + k + " cycles/FOV, outside [-" + half + ", " + half +
			"] for an image of " + n + " pixels on that axis (wrong matrix, or coordinates not in cycles/FOV?)");
	}
}
