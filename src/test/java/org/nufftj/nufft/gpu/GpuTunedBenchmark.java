package org.nufftj.nufft.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.nufftj.app.tune.TuneDirection;
import org.nufftj.app.tune.TunedParameters;
import org.nufftj.app.tune.Tuner;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.TuneMode;
import org.nufftj.trajectory.Trajectory;

/**
 * Issue 9's "tuned vs default speed-up per row", device-resident, beside the reference measured in the same call
 * (property nufftj.ref): per benchmark row and direction, a quick tuning run ({@link Tuner}, no wisdom, the row's
 * trajectory, batch and ε), then the heuristic's plan and the winner (each made once) timed as the benchmark table
 * times them (CUDA-event median of 30 after 5 warm-ups, 3 rotating input sets) in two alternating rounds, each plan's
 * best round kept, and the winner's achieved error against the exact NUDFT on 100 random outputs.
 */
final class GpuTunedBenchmark {

	/** Seconds a row's tuning run may take per direction (a started candidate is finished). */
	static final double BUDGET_S = 20;

	private GpuTunedBenchmark() {}

	/** The section for the rows {@code rowSel} ("all" or indices, comma separated). */
	static String report(final String rowSel) {
		final List<GpuBenchmark.Row> rows = GpuBenchmark.rows();
		final List<Integer> pick = new ArrayList<>();
		if (rowSel.equals("all")) for (int i = 0; i < rows.size(); i++) pick.add(i);
		else for (final String s : rowSel.split(",")) pick.add(Integer.parseInt(s.trim()));
		final MeasuredReference ref = MeasuredReference.fromProperty();
		final StringBuilder md = new StringBuilder("## Tuned against default (device-resident)\n\n");
		md.append("Per row and direction: `Tuner` in quick mode (").append((int) BUDGET_S).append(" s budget, no ")
			.append("wisdom, the row's own points, so a kernel one width narrower is a candidate where the model on ")
			.append("these points meets ε: ParameterChoice.expectedError), candidates timed on device buffers; then the ")
			.append("heuristic's plan (default) and the winner (tuned) timed as in the benchmark table, two alternating ")
			.append("rounds, each one's best round. error = the tuned plan's relative l2 against the exact NUDFT on 100 ")
			.append("random outputs; model = the error model on the row's points. ")
			.append(ref == null ? "No reference measured in this call (NUFFTJ_REF unset): ratios to the reference are "
				+ "left out.\n\n" : "ref = " + ref.source() + ", its fastest method; ratio = tuned / ref.\n\n")
			.append("| case | ε | dir | default | default ms | tuned | tuned ms | tuned / default | error | model | ")
			.append("ref ms | ref error | ratio | candidates | tune s |\n")
			.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		try (GpuBackend backend = GpuBackend.open(0)) {
			for (final int i : pick) {
				final GpuBenchmark.Row row = rows.get(i);
				final Trajectory t = GpuBenchmark.trajectory(row, new Random(row.hashCode() ^ System.nanoTime()));
				final NufftOptions base = NufftOptions.defaults().withTolerance(row.eps).withDevice(backend.device());
				for (final boolean adjoint : new boolean[] { true, false }) {
					final String dir = adjoint ? "adjoint" : "forward";
					try {
						md.append(row(backend, row, i, t, base, adjoint, ref));
					}
					catch (final RuntimeException e) {
						System.out.println("TUNED FAILED " + row.name + " " + dir + ": " + e);
						e.printStackTrace(System.out);
						md.append(String.format("| %s | %.0e | %s | FAILED: %s |%n", row.name, row.eps, dir,
							Cuda.brief(e)));
					}
				}
			}
		}
		return md.append('\n').toString();
	}

	private static String row(final GpuBackend backend, final GpuBenchmark.Row row, final int index,
		final Trajectory t, final NufftOptions base, final boolean adjoint, final MeasuredReference ref)
	{
		final long start = System.nanoTime();
		final Tuner.Report report = new Tuner(null, null).tune(backend, t, row.size, row.transforms, base,
			adjoint ? TuneDirection.ADJOINT : TuneDirection.FORWARD, TuneMode.QUICK, BUDGET_S, false);
		final double tuneS = (System.nanoTime() - start) / 1e9;
		final TunedParameters winner = report.winner();
		final String[] params = new String[2];
		final double model, error;
		double def = Double.POSITIVE_INFINITY, tun = Double.POSITIVE_INFINITY;
		final Random r = new Random(row.hashCode() ^ System.nanoTime());
		final long px = Arrays2.pixels(row.size);
		final int m = t.count(), tr = row.transforms, sets = 3;
		// Both plans made once; the inputs once (3 rotating sets, as the benchmark table), for both plans and rounds.
		final DeviceArray[] in = new DeviceArray[sets];
		try (GpuNufftPlan plain = backend.gpuPlan(row.size, base);
			GpuNufftPlan best = backend.gpuPlan(row.size, winner.apply(base));
			DeviceArray out = new DeviceArray(adjoint ? 8 * px * tr : 8L * m * tr, "tuned bench out"))
		{
			for (final GpuNufftPlan plan : new GpuNufftPlan[] { plain, best }) {
				plan.setPoints(t);
				plan.reserve(tr);
			}
			for (int s = 0; s < sets; s++) {
				in[s] = DeviceArray.of(GpuBenchmark.gaussian(r, (int) (adjoint ? 2L * m * tr : 2 * px * tr)),
					"tuned bench in " + s);
			}
			for (int round = 0; round < 2; round++) {
				def = Math.min(def, GpuBenchmark.timeDevice(plain, !adjoint, in, out, tr));
				tun = Math.min(tun, GpuBenchmark.timeDevice(best, !adjoint, in, out, tr));
			}
			params[0] = describe(plain);
			params[1] = describe(best);
			model = ParameterChoice.expectedError(best.parameters(), t);
			error = error(best, row, t, adjoint, r);
		}
		finally {
			for (final DeviceArray a : in) if (a != null) a.close();
		}
		final MeasuredReference.Figures f = ref == null ? null : ref.row(index, adjoint);
		final String line = String.format(Locale.ROOT,
			"| %s | %.0e | %s | %s | %.3f | %s | %.3f | %.2f | %.1e | %.1e | %s | %s | %s | %d | %.1f |%n", row.name,
			row.eps, adjoint ? "adjoint" : "forward", params[0], def, params[1], tun, tun / def, error, model,
			f == null ? "—" : String.format(Locale.ROOT, "%.3f (%s)", f.execute, f.methodName()),
			f == null ? "—" : String.format(Locale.ROOT, "%.1e", f.error),
			f == null ? "—" : String.format(Locale.ROOT, "%.2f", tun / f.execute), report.timed(), tuneS);
		System.out.print("TUNED " + line);
		return line;
	}

	private static String describe(final GpuNufftPlan plan) {
		final NufftParameters p = plan.parameters();
		return p.kernel().type().key() + " W=" + p.width() + " σ=" + p.oversampling() + " " +
			plan.spreadMethod().name().toLowerCase(Locale.ROOT);
	}

	/** The plan's achieved error in one direction, first transform, against the exact NUDFT on 100 outputs. */
	private static double error(final GpuNufftPlan plan, final GpuBenchmark.Row row, final Trajectory t,
		final boolean adjoint, final Random r)
	{
		final long px = Arrays2.pixels(row.size);
		final int tr = row.transforms;
		if (adjoint) {
			final float[] smp = GpuBenchmark.gaussian(r, 2 * t.count() * tr), out = new float[(int) (2 * px * tr)];
			plan.adjoint(smp, out);
			return GpuBenchmark.adjointError(t, row.size, smp, out, 100, r);
		}
		final float[] img = GpuBenchmark.gaussian(r, (int) (2 * px * tr)), out = new float[2 * t.count() * tr];
		plan.forward(img, out);
		return GpuBenchmark.forwardError(t, row.size, img, out, 100, r);
	}
}
