package org.nufftj.nufft.gpu;

import java.util.Locale;
import java.util.Random;

import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.MatrixNufftPlan;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.trajectory.Trajectory;

/**
 * The fully precomputed level (issue 9, item 4): {@link MatrixNufftPlan} (interpolation as a sparse matrix product,
 * spreading as its atomic transpose, placement and deapodization as one-entry-per-row matrices) against the online GPU
 * plan (shared spreading) on the rows of GpuBenchmark, float, device-resident from backend buffers: wall clock of the
 * call to the stream's end, median of 10 after 3 warm-ups, same data; the matrix's build time (setPoints: host
 * tables, copy to the device) and size; the relative difference of the two results. Rows whose matrix exceeds
 * MatrixNufftPlan's entry limit are listed as refused. Run by GpuSuite ({@code run REPORT.md matrix}).
 */
final class GpuMatrixBenchmark {

	private GpuMatrixBenchmark() {}

	static String report() {
		final StringBuilder md = new StringBuilder("\n## Precomputed interpolation matrix against online kernels (issue 9, ")
			.append("item 4)\n\nFloat, device-resident from backend buffers, wall clock to the stream's end, median of 10 ")
			.append("after 3 warm-ups; online = GpuNufftPlan with shared spreading; matrix = MatrixNufftPlan (forward: ")
			.append("placement matrix, FFT, interpolation matrix; adjoint: transpose with atomics, FFT, crop matrix); ")
			.append("build = its setPoints (host tables in parallel, copy to the device); difference = relative l2 ")
			.append("between the two results.\n\n| case | ε | params | entries | build ms | adjoint online / matrix ms | ")
			.append("ratio | forward online / matrix ms | ratio | difference adj / fwd |\n")
			.append("|---|---|---|---|---|---|---|---|---|---|\n");
		try (GpuBackend b = GpuBackend.open(0)) {
			for (final GpuBenchmark.Row row : GpuBenchmark.rows()) {
				final int before = md.length();
				try {
					row(b, row, md);
				}
				catch (final RuntimeException e) {
					md.append("| ").append(row.name).append(" | ").append(row.eps).append(" | | | failed: ")
						.append(Cuda.brief(e).replace('|', '/')).append(" ||||||\n");
					e.printStackTrace(System.out);
				}
				System.out.print(md.substring(before)); // a run cut by its time limit keeps the rows done
			}
		}
		return md.toString();
	}

	private static void row(final GpuBackend b, final GpuBenchmark.Row row, final StringBuilder md) {
		final Random r = new Random(row.hashCode() ^ System.nanoTime());
		final Trajectory t = GpuBenchmark.trajectory(row, r);
		final int m = t.count(), tr = row.transforms;
		long px = 1;
		for (final int n : row.size) px *= n;
		final NufftOptions o = NufftOptions.defaults().withTolerance(row.eps).withSpreadMethod(SpreadMethod.SHARED);
		final float[] img = GpuBenchmark.gaussian(r, (int) (2 * px * tr)), smp = GpuBenchmark.gaussian(r, 2 * m * tr);
		try (GpuNufftPlan online = b.gpuPlan(row.size, o)) {
			final long entries = (long) m * (long) Math.pow(online.parameters().width(), row.size.length);
			final String params = online.parameters().kernel().type().key() + " W=" + online.parameters().width() +
				" σ=" + online.parameters().oversampling();
			if (entries > MatrixNufftPlan.MAX_ENTRIES) {
				md.append(String.format(Locale.ROOT, "| %s | %.0e | %s | %,d | refused: more than %,d entries |||||%n",
					row.name, row.eps, params, entries, MatrixNufftPlan.MAX_ENTRIES));
				return;
			}
			online.setPoints(t);
			try (NufftPlan matrix = b.plan(row.size, o.withEvaluation(NufftOptions.Evaluation.MATRIX));
				Buffer bi = b.allocate(img.length, Precision.FLOAT); Buffer bs = b.allocate(smp.length, Precision.FLOAT);
				Buffer oi = b.allocate(img.length, Precision.FLOAT); Buffer os = b.allocate(smp.length, Precision.FLOAT);
				Buffer mi = b.allocate(img.length, Precision.FLOAT); Buffer ms = b.allocate(smp.length, Precision.FLOAT))
			{
				matrix.setPoints(t);
				final double build = ((MatrixNufftPlan) matrix).buildMillis();
				b.write(img, 0, bi);
				b.write(smp, 0, bs);
				final double onA = wall(b, () -> online.adjoint(bs, oi)), maA = wall(b, () -> matrix.adjoint(bs, mi));
				final double onF = wall(b, () -> online.forward(bi, os)), maF = wall(b, () -> matrix.forward(bi, ms));
				final double dA = difference(b, oi, mi), dF = difference(b, os, ms);
				md.append(String.format(Locale.ROOT, "| %s | %.0e | %s | %,d | %.0f | %.3f / %.3f | %.2f | %.3f / %.3f | " +
					"%.2f | %.1e / %.1e |%n", row.name, row.eps, params, entries, build, onA, maA, maA / onA, onF, maF,
					maF / onF, dA, dF));
			}
		}
	}

	/** Median wall ms of 10 calls after 3, each to the end of the backend's stream. */
	private static double wall(final GpuBackend b, final Runnable call) {
		return GpuBenchmark.wallMs(3, 10, () -> {
			call.run();
			b.synchronize();
		});
	}

	private static double difference(final GpuBackend b, final Buffer x, final Buffer y) {
		final float[] u = new float[(int) x.length()], v = new float[(int) y.length()];
		b.read(x, u, 0);
		b.read(y, v, 0);
		double d = 0, s = 0;
		for (int i = 0; i < u.length; i++) {
			d += (u[i] - v[i]) * (double) (u[i] - v[i]);
			s += u[i] * (double) u[i];
		}
		return Math.sqrt(d / s);
	}
}
