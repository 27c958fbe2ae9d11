package org.nufftj.nufft;

import java.util.Random;

import org.nufftj.trajectory.Trajectory;

/**
 * Trajectories for the engine tests: every design type, subsampled at random to a given number of points so that the
 * exact NUDFT stays cheap while the point distribution (dense radial centre, Cartesian lines at k = −½ …) is kept.
 */
public final class TestTrajectories {

	private TestTrajectories() {}

	public static String[] names(final int dims) {
		return dims == 2 ? new String[] { "random", "cartesian", "radial", "golden" }
			: new String[] { "random", "cartesian", "radial" };
	}

	public static Trajectory make(final String name, final int[] size, final int points, final Random r) {
		final int d = size.length;
		final Trajectory full;
		switch (name) {
			case "random": {
				final double[] c = new double[points * d];
				for (int i = 0; i < c.length; i++) c[i] = r.nextDouble() - 0.5;
				return new Trajectory(d, c, "random");
			}
			case "cartesian": {
				int n = 1;
				for (final int s : size) n *= s;
				final double[] c = new double[n * d];
				for (int p = 0; p < n; p++) {
					int rest = p;
					for (int a = 0; a < d; a++) {
						c[d * p + a] = (double) (rest % size[a] - size[a] / 2) / size[a];
						rest /= size[a];
					}
				}
				full = new Trajectory(d, c, "cartesian");
				break;
			}
			case "radial":
			case "golden": {
				final int readout = 2 * size[0];
				final int spokes = Math.max(8, points / readout * 2);
				final double[] c = new double[readout * spokes * d];
				final double phi = (1 + Math.sqrt(5)) / 2;
				for (int s = 0; s < spokes; s++) {
					final double th = name.equals("golden") ? s * Math.PI / phi : s * Math.PI / spokes;
					final double polar = d == 3 ? Math.acos(1 - 2 * ((s + 0.5) / spokes)) : Math.PI / 2;
					for (int i = 0; i < readout; i++) {
						final double k = (i - readout / 2.0) / readout;
						final int p = s * readout + i;
						c[d * p] = k * Math.cos(th) * Math.sin(polar);
						c[d * p + 1] = k * Math.sin(th) * Math.sin(polar);
						if (d == 3) c[d * p + 2] = k * Math.cos(polar);
					}
				}
				full = new Trajectory(d, c, name);
				break;
			}
			default:
				throw new IllegalArgumentException(name);
		}
		return subsample(full, points, r);
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
