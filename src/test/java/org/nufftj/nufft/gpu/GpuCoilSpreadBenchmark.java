package org.nufftj.nufft.gpu;

import java.util.Locale;
import java.util.Random;

import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.trajectory.Trajectory;

/**
 * 2D shared-memory spreading of several transforms: spread_coils_2d_* (point-serial per warp, kernel values once per
 * point for the whole batch) against spread_tiles_2d_* per transform ({@code nufftj.spreadCoils=false}), side by side
 * in one process on the radial 512² row of GpuBenchmark (1024 golden-angle spokes × 1024 samples, float, σ = 2,
 * Kaiser–Bessel) at explicit widths and batches: the device-resident adjoint (CUDA events, median of 30 after 5
 * warm-ups, 3 rotating input sets) and its spread stage, two rounds alternating the variants (the mean of the
 * two rounds), and the relative l2 difference of the two adjoints. Decides GpuHeuristics.coilSpread's width range. Run by
 * GpuSuite ({@code run REPORT.md coils}).
 */
final class GpuCoilSpreadBenchmark {

	private GpuCoilSpreadBenchmark() {}

	static String report() {
		final StringBuilder md = new StringBuilder("\n## 2D spreading of a batch: spread_coils_2d against spread_tiles_2d ")
			.append("per transform\n\nRadial 512², 1024 golden-angle spokes × 1024 samples, float, σ = 2, Kaiser–Bessel at ")
			.append("the width given; device-resident adjoint of the batch (CUDA events, median of 30 after 5 warm-ups), ")
			.append("two rounds alternating the variants, the mean of the two rounds; spread = the spread stage of the last ")
			.append("execute; coils = spread_coils_2d_* (the default for batches where it is chosen), tiles = ")
			.append("spread_tiles_2d_* per transform (nufftj.spreadCoils=false); difference = relative l2 between the two ")
			.append("adjoints.\n\n| W | batch | tiles adjoint ms | coils adjoint ms | coils / tiles | tiles spread ms | ")
			.append("coils spread ms | difference |\n|---|---|---|---|---|---|---|---|\n");
		final String before = System.getProperty("nufftj.spreadCoils");
		try (GpuBackend b = GpuBackend.open(0)) {
			final GpuBenchmark.Row row = GpuBenchmark.publishedRows().stream().filter(r -> r.traj.equals("radial") &&
				r.size[0] == 512 && r.transforms == 1).findFirst().orElseThrow();
			final Random r = new Random(System.nanoTime());
			final Trajectory t = GpuBenchmark.trajectory(row, r);
			for (final int w : new int[] { 3, 4, 5, 6, 7, 8, 10, 12 }) {
				for (final int batch : new int[] { 2, 8, 16 }) {
					try {
						md.append(line(b, t, row.size, w, batch, r)).append('\n');
					}
					catch (final RuntimeException e) {
						md.append("| ").append(w).append(" | ").append(batch).append(" | failed: ")
							.append(Cuda.brief(e).replace('|', '/')).append(" |||||\n");
						e.printStackTrace(System.out);
					}
				}
			}
		}
		finally {
			if (before == null) System.clearProperty("nufftj.spreadCoils");
			else System.setProperty("nufftj.spreadCoils", before);
		}
		return md.toString();
	}

	private static String line(final GpuBackend b, final Trajectory t, final int[] size, final int w, final int batch,
		final Random r)
	{
		final int m = t.count(), px = size[0] * size[1];
		final NufftOptions o = NufftOptions.defaults().withWidth(w).withOversampling(2).withKernel(KernelType
			.KAISER_BESSEL).withSpreadMethod(SpreadMethod.SHARED);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final GpuNufftPlan[] plans = new GpuNufftPlan[2]; // 0: tiles, 1: coils
		final DeviceArray[] in = new DeviceArray[3];
		final DeviceArray[] out = new DeviceArray[2];
		try {
			for (int v = 0; v < 2; v++) {
				System.setProperty("nufftj.spreadCoils", String.valueOf(v == 1));
				plans[v] = new GpuNufftPlan(b, p, o);
				plans[v].setPoints(t);
				plans[v].reserve(batch);
				out[v] = new DeviceArray(8L * px * batch, "coil bench out " + v);
			}
			if (plans[0].coilWarps(batch) != 0 || plans[1].coilWarps(batch) == 0) {
				return "| " + w + " | " + batch + " | not compared: spread_coils_2d not chosen as asked (" + plans[1]
					.coilWarps(batch) + " warps) |||||";
			}
			for (int s = 0; s < in.length; s++) {
				in[s] = DeviceArray.of(GpuBenchmark.gaussian(r, 2 * m * batch), "coil bench in " + s);
			}
			final double[][] ms = new double[2][2];
			final double[] spread = new double[2];
			for (int round = 0; round < 2; round++) {
				for (int v = 0; v < 2; v++) {
					final GpuNufftPlan plan = plans[v];
					final DeviceArray o1 = out[v];
					ms[v][round] = CudaEvents.medianMs(plan.stream(), 5, 30, i -> plan.adjointDevice(in[i % in.length]
						.pointer(), o1.pointer(), batch));
					plan.synchronize();
					spread[v] = plan.elapsed(0, 1);
				}
			}
			for (int v = 0; v < 2; v++) plans[v].adjointDevice(in[0].pointer(), out[v].pointer(), batch);
			final float[][] res = new float[2][2 * px * batch];
			for (int v = 0; v < 2; v++) {
				plans[v].synchronize();
				out[v].download(jcuda.Pointer.to(res[v]), 4L * res[v].length, "coil bench result");
			}
			final double tiles = (ms[0][0] + ms[0][1]) / 2, coils = (ms[1][0] + ms[1][1]) / 2;
			final String line = String.format(Locale.ROOT, "| %d | %d | %.3f | %.3f | %.2f | %.3f | %.3f | %.1e |", w, batch,
				tiles, coils, coils / tiles, spread[0], spread[1], Arrays2.relativeError(res[1], Nudft.toDouble(res[0])));
			System.out.println("COILS " + line);
			return line;
		}
		finally {
			for (final GpuNufftPlan plan : plans) if (plan != null) plan.close();
			for (final DeviceArray a : in) if (a != null) a.close();
			for (final DeviceArray a : out) if (a != null) a.close();
		}
	}
}
