package org.nufftj.recon;

import java.util.Random;

import org.nufftj.nufft.Nudft;
import org.nufftj.trajectory.Trajectory;

/** Small trajectories for the recon tests (maths-defined, no dependency on the trajectory designs). */
public final class ReconTestData {

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

	/**
	 * Multi-coil k-space of an object, as a scanner sees it: an ellipse (random axes within the field of view) seen by
	 * {@code coils} smooth sensitivities (magnitude 1 + 0.4 cos, a random linear phase per coil), sampled exactly
	 * (NUDFT) on t, plus complex Gaussian noise of 1% of the RMS sample ([coil][sample] complex interleaved).
	 */
	public static float[] coilObject(final int[] size, final int coils, final Trajectory t, final Random random) {
		final int nx = size[0], ny = size[1], m = t.count();
		final double ax = nx * (0.25 + 0.15 * random.nextDouble()), ay = ny * (0.25 + 0.15 * random.nextDouble());
		final float[] y = new float[2 * m * coils];
		for (int c = 0; c < coils; c++) {
			final double phase = 2 * Math.PI * random.nextDouble(), gx = random.nextGaussian() * 0.1, gy = random
				.nextGaussian() * 0.1, cx = random.nextGaussian(), cy = random.nextGaussian();
			final double[] img = new double[2 * nx * ny];
			for (int j = 0; j < ny; j++) {
				for (int i = 0; i < nx; i++) {
					final double x = i - nx / 2, yy = j - ny / 2;
					if ((x * x) / (ax * ax) + (yy * yy) / (ay * ay) > 1) continue;
					final double mag = 1 + 0.4 * Math.cos(cx * x / nx + cy * yy / ny + c);
					final double ph = phase + gx * x + gy * yy;
					img[2 * (i + nx * j)] = mag * Math.cos(ph);
					img[2 * (i + nx * j) + 1] = mag * Math.sin(ph);
				}
			}
			final double[] k = Nudft.forward(size, t, img, 1);
			double rms = 0;
			for (final double v : k) rms += v * v;
			rms = Math.sqrt(rms / k.length);
			for (int i = 0; i < k.length; i++) y[2 * m * c + i] = (float) (k[i] + 0.01 * rms * random.nextGaussian());
		}
		return y;
	}
}
