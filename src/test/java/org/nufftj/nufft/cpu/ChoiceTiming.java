package org.nufftj.nufft.cpu;

import java.util.Arrays;
import java.util.Random;

import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Radial3D;
import org.nufftj.trajectory.Trajectory;

/**
 * One row of scripts/choice-ab.sh: forward and adjoint of a CPU plan with the automatic parameter choice, 2 threads,
 * on radial 2D points (round(πN/2) spokes × 2N samples) or a golden-means kooshball (8192 spokes × N); the median of 7
 * pairs after 3 warm-up pairs, and the parameters chosen. Arguments: dims N coils ε precision. The point count is
 * given where the build has {@code NufftOptions.withPointCount} (found by reflection, so that this class also times a
 * build from before it).
 */
public final class ChoiceTiming {

	private ChoiceTiming() {}

	public static void main(final String[] a) throws Exception {
		final int dims = Integer.parseInt(a[0]), n = Integer.parseInt(a[1]), coils = Integer.parseInt(a[2]);
		final double eps = Double.parseDouble(a[3]);
		final Precision precision = Precision.parse(a[4]);
		final Trajectory t = dims == 2 ? org.nufftj.app.Benchmark.radial((int) Math.round(n * Math.PI / 2), 2 * n) :
			new Radial3D(n, 8192, Radial3D.Ordering.GOLDEN_MEANS, false).build();
		final int[] size = new int[dims];
		Arrays.fill(size, n);
		int px = 1;
		for (final int s : size) px *= s;
		NufftOptions o = NufftOptions.defaults().withTolerance(eps).withThreads(2).withPrecision(precision);
		try {
			o = (NufftOptions) NufftOptions.class.getMethod("withPointCount", long.class).invoke(o, (long) t.count());
		}
		catch (final NoSuchMethodException e) {
			// a build from before the point count: its choice guesses 2 x the pixels
		}
		final Random r = new Random(1);
		final float[] image = new float[2 * px * coils], samples = new float[2 * t.count() * coils];
		for (int i = 0; i < image.length; i++) image[i] = (float) r.nextGaussian();
		for (int i = 0; i < samples.length; i++) samples[i] = (float) r.nextGaussian();
		final double[] dimage = new double[image.length], dsamples = new double[samples.length];
		try (NufftPlan plan = Nufft.plan(size, o)) {
			plan.setPoints(t);
			final double[] forward = new double[7], adjoint = new double[7];
			for (int i = -3; i < 7; i++) {
				final long t0 = System.nanoTime();
				if (precision == Precision.FLOAT) plan.forward(image, samples);
				else plan.forward(dimage, dsamples);
				final long t1 = System.nanoTime();
				if (precision == Precision.FLOAT) plan.adjoint(samples, image);
				else plan.adjoint(dsamples, dimage);
				final long t2 = System.nanoTime();
				if (i >= 0) {
					forward[i] = (t1 - t0) / 1e6;
					adjoint[i] = (t2 - t1) / 1e6;
				}
			}
			Arrays.sort(forward);
			Arrays.sort(adjoint);
			System.out.printf("%dD n=%d coils=%d eps=%s M=%d: fwd %.1f adj %.1f ms (median of 7)  %s%n", dims, n, coils,
				eps, t.count(), forward[3], adjoint[3], plan.parameters());
		}
	}
}
