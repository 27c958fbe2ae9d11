package org.nufftj.app;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

import org.nufftj.data.KSpace;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * Issue 12's multi-GPU benchmark: a golden-angle radial series (default 512², 32 coils, 100 frames of 32 spokes × 1024
 * samples, ε = 1e-3, Pipe–Menon DCF, SoS), reconstructed end to end (from host arrays to combined images) on each
 * device list given, median of {@code repeats} runs after one warm-up, with the speed-up over the first list and the
 * per-device shares. Usage (the GPU pack's classpath, see scripts/gpu-suite.sh):
 * {@code java -cp … org.nufftj.app.MultiDeviceBenchmark gpu:0 gpu:all [frames] [coils] [repeats]}.
 */
public final class MultiDeviceBenchmark {

	private MultiDeviceBenchmark() {}

	public static void main(final String[] args) {
		final String[] specs = Arrays.stream(args).filter(a -> !a.matches("\\d+")).toArray(String[]::new);
		final int[] nums = Arrays.stream(args).filter(a -> a.matches("\\d+")).mapToInt(Integer::parseInt).toArray();
		final int frames = nums.length > 0 ? nums[0] : 100, coils = nums.length > 1 ? nums[1] : 32;
		final int repeats = nums.length > 2 ? nums[2] : 3;
		final int n = 512, spokes = 32, readout = 2 * n;
		final int[] matrix = { n, n };
		final Trajectory t = TrajectoryKind.GOLDEN_ANGLE.designFor(matrix, readout, spokes).build();
		final Random r = new Random(1);
		final float[] d = new float[2 * t.count() * coils * frames];
		for (int i = 0; i < d.length; i++) d[i] = (float) r.nextGaussian();
		final Scan scan = Scan.of("series", t, new KSpace(d, t.count(), coils, frames), matrix);
		final ReconOptions o = ReconOptions.defaults().withNufft(NufftOptions.defaults().withTolerance(1e-3))
			.withDcf(Options.dcf("pipe-menon", false));
		System.out.printf(Locale.ROOT, "series %d² golden-angle radial, %d spokes x %d samples per frame, %d coils, " +
			"%d frames, eps 1e-3, pipe-menon, sos; median of %d%n", n, spokes, readout, coils, frames, repeats);
		double first = 0;
		try (Session session = new Session()) {
			for (final String spec : specs) {
				Reconstruction.run(scan, o, null, session, Devices.parse(spec)); // warm-up: devices opened, modules loaded
				final double[] ms = new double[repeats];
				Reconstruction last = null;
				for (int i = 0; i < repeats; i++) {
					last = Reconstruction.run(scan, o, null, session, Devices.parse(spec));
					ms[i] = last.millis();
				}
				Arrays.sort(ms);
				final double med = ms[repeats / 2];
				if (first == 0) first = med;
				System.out.printf(Locale.ROOT, "| %s | %.0f ms | %.1f frames/s | speed-up %.2f | %s |%n", spec, med,
					frames / (med / 1e3), first / med, last.shares());
			}
		}
	}
}
