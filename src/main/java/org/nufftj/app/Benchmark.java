package org.nufftj.app;

import java.util.Arrays;
import java.util.Random;

import org.nufftj.data.KSpace;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.Trajectory;

/**
 * Timing helpers of {@code nufft-j bench} and Fiji's Benchmark: warm-up runs then the median of repeats (never a
 * timed assertion), the radial workload, and random k-space (timing does not depend on the values).
 */
public final class Benchmark {

	private Benchmark() {}

	// -- public API --

	/** Wall times (ms) of {@code repeats} runs of {@code run} after {@code warmup} untimed ones, ascending. */
	public static double[] times(final Runnable run, final int warmup, final int repeats) {
		for (int i = 0; i < warmup; i++) run.run();
		final double[] ms = new double[repeats];
		for (int i = 0; i < repeats; i++) {
			final long t0 = System.nanoTime();
			run.run();
			ms[i] = (System.nanoTime() - t0) / 1e6;
		}
		Arrays.sort(ms);
		return ms;
	}

	/** The median of ascending times. */
	public static double median(final double[] sorted) {
		final int n = sorted.length;
		return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	/** Median time (ms) of a gridding reconstruction of {@code scan}: one warm-up, then {@code repeats} runs. */
	public static double reconMillis(final Scan scan, final ReconOptions options, final int repeats,
		final Session session)
	{
		return median(times(() -> Reconstruction.run(scan, options, null, session), 1, repeats));
	}

	/** Spokes over 180° (angle π·s/S), readout k = (i − R/2)/R cycles/pixel: BART's {@code traj -r} / N. */
	public static Trajectory radial(final int spokes, final int readout) {
		final double[] c = new double[2 * spokes * readout];
		for (int s = 0; s < spokes; s++) {
			final double a = Math.PI * s / spokes, cs = Math.cos(a), sn = Math.sin(a);
			for (int i = 0; i < readout; i++) {
				final double r = (i - readout / 2.0) / readout;
				c[2 * (s * readout + i)] = r * cs;
				c[2 * (s * readout + i) + 1] = r * sn;
			}
		}
		return new Trajectory(2, c, readout, spokes, "radial " + spokes + "x" + readout);
	}

	/** Gaussian random values (re, im each N(0, 1)). */
	public static float[] random(final int n, final Random r) {
		final float[] a = new float[n];
		for (int i = 0; i < n; i++) a[i] = (float) r.nextGaussian();
		return a;
	}

	/** A scan of random k-space along {@code t} for an image of {@code matrix}. */
	public static Scan randomScan(final Trajectory t, final int coils, final int[] matrix, final long seed) {
		final float[] data = random(2 * t.count() * coils, new Random(seed));
		return Scan.of("benchmark", t, new KSpace(data, t.count(), coils, 1), matrix);
	}
}
