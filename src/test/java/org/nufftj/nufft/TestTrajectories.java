package org.nufftj.nufft;

import java.util.Random;

import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * Trajectories for the engine tests: every design type, subsampled at random to a given number of points so that the
 * exact NUDFT stays cheap while the point distribution (dense radial centre, Cartesian lines at k = −½ …) is kept.
 */
public final class TestTrajectories {

	private TestTrajectories() {}

	/** Every design type of the given dimensionality (TrajectoryKind names), plus uniform random points. */
	public static String[] names(final int dims) {
		return dims == 2 ? new String[] { "random", "cartesian", "radial", "golden angle", "tiny golden", "spiral",
			"propeller" } : new String[] { "random", "cartesian", "stack of stars", "3d radial" };
	}

	public static Trajectory make(final String name, final int[] size, final int points, final Random r) {
		if (name.equals("random")) {
			final int d = size.length;
			final double[] c = new double[points * d];
			for (int i = 0; i < c.length; i++) c[i] = r.nextDouble() - 0.5;
			return new Trajectory(d, c, "random");
		}
		return subsample(TrajectoryKind.parse(name).fullySampled(size).build(), points, r);
	}

	static Trajectory subsample(final Trajectory t, final int points, final Random r) {
		if (t.count() <= points) return t;
		final int[] idx = new int[t.count()];
		for (int i = 0; i < idx.length; i++) idx[i] = i;
		for (int i = 0; i < points; i++) {
			final int j = i + r.nextInt(idx.length - i);
			final int tmp = idx[i];
			idx[i] = idx[j];
			idx[j] = tmp;
		}
		return t.select(java.util.Arrays.copyOf(idx, points), t.name());
	}
}
