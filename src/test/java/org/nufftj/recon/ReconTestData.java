package org.nufftj.recon;

import org.nufftj.trajectory.Trajectory;

/** Small trajectories for the recon tests (maths-defined, no dependency on the trajectory designs). */
final class ReconTestData {

	private ReconTestData() {}

	/** BART {@code traj -r}: full spokes over 180°, k = (i − R/2)/R cycles/pixel (2× readout oversampling for N = R/2). */
	static Trajectory radial(final int spokes, final int readout, final double angleOffset) {
		final double[] c = new double[2 * spokes * readout];
		for (int s = 0; s < spokes; s++) {
			final double a = Math.PI * s / spokes + angleOffset;
			for (int i = 0; i < readout; i++) {
				final double r = (i - readout / 2.0) / readout;
				c[2 * (s * readout + i)] = r * Math.cos(a);
				c[2 * (s * readout + i) + 1] = r * Math.sin(a);
			}
		}
		return new Trajectory(2, c, readout, spokes, "radial");
	}

	/** A centred disc of radius {@code r} pixels, value 1 (complex interleaved, x = index − N/2). */
	static float[] disc(final int n, final double r) {
		final float[] img = new float[2 * n * n];
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++)
				if (Math.hypot(x - n / 2, y - n / 2) <= r) img[2 * (x + n * y)] = 1;
		return img;
	}
}
