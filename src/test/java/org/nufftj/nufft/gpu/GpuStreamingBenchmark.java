package org.nufftj.nufft.gpu;

import java.util.Locale;
import java.util.Random;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.SlidingWindowRecon;

/**
 * Real-time sliding-window golden-angle radial reconstruction (issue 9, item 6): {@link SlidingWindowRecon} on the GPU
 * and on the CPU backend, 8 coils, ε = 1e-3, readout 2N, a window of 32 spokes moved by 8 spokes per frame. Latency =
 * wall clock of one push (the new spokes' upload, setPoints of the window, weighting, 8-coil adjoint, root sum of
 * squares, the image back), median of 200 frames after 40 warm-up frames (GPU; CPU 20 after 5); frames/s = 1000 /
 * the mean. Run by GpuSuite ({@code run REPORT.md stream}).
 */
final class GpuStreamingBenchmark {

	private GpuStreamingBenchmark() {}

	static String report() {
		final StringBuilder md = new StringBuilder("\n## Real-time sliding-window reconstruction (issue 9, item 6)\n\n")
			.append("Golden-angle radial, 8 coils, readout 2N, window 32 spokes, 8 new spokes per frame, ε = 1e-3, ")
			.append("float; one push = upload of the new spokes, setPoints of the window, ramp weighting, 8-coil ")
			.append("adjoint, root sum of squares, image back to Java (SlidingWindowRecon).\n\n")
			.append("| device | image | latency median ms | p95 ms | frames/s |\n|---|---|---|---|---|\n");
		for (final String device : new String[] { "gpu", "cpu" }) {
			for (final int n : new int[] { 256, 512 }) {
				try (Backend b = Backends.open(DeviceChoice.parse(device), 0, null)) {
					run(b, device, n, md);
				}
				catch (final RuntimeException e) {
					md.append("| ").append(device).append(" | ").append(n).append("² | failed: ")
						.append(Cuda.brief(e).replace('|', '/')).append(" |||\n");
					e.printStackTrace(System.out);
				}
			}
		}
		return md.toString();
	}

	private static void run(final Backend b, final String device, final int n, final StringBuilder md) {
		final int coils = 8, samples = 2 * n, window = 32, advance = 8;
		final boolean gpu = device.equals("gpu");
		final int warm = gpu ? 40 : 5, reps = gpu ? 200 : 20;
		final Random r = new Random(n);
		final float[][] data = new float[16][2 * coils * advance * samples];
		for (final float[] d : data) for (int i = 0; i < d.length; i++) d[i] = (float) r.nextGaussian();
		try (SlidingWindowRecon sw = new SlidingWindowRecon(b, n, coils, samples, window, advance,
			NufftOptions.defaults().withTolerance(1e-3)))
		{
			for (int i = 0; i < warm; i++) sw.push(data[i % data.length]);
			final double[] ms = new double[reps];
			double sum = 0;
			for (int i = 0; i < reps; i++) {
				final long s = System.nanoTime();
				sw.push(data[i % data.length]);
				ms[i] = (System.nanoTime() - s) / 1e6;
				sum += ms[i];
			}
			final double[] sorted = ms.clone();
			java.util.Arrays.sort(sorted);
			md.append(String.format(Locale.ROOT, "| %s | %d² | %.3f | %.3f | %,.0f |%n", b.name(), n,
				GpuBenchmark.median(ms), sorted[(int) (0.95 * (reps - 1))], reps * 1000 / sum));
		}
	}
}
