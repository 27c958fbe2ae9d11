package org.nufftj.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Benchmark;
import org.nufftj.app.Memory;
import org.nufftj.app.Options;
import org.nufftj.app.Session;
import org.nufftj.app.tune.TuneDirection;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.TuneMode;
import org.nufftj.trajectory.Trajectory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nufft-j bench}: in-process timings of the NUFFT on a radial workload. */
@Command(name = "bench", mixinStandardHelpOptions = true,
	description = { "Time adjoint and forward NUFFTs of random data on a 2D radial trajectory.",
		"Spokes x readout samples over 180 degrees, k in [-1/2, 1/2) cycles/pixel), per tolerance and coil count: warm-up runs, then the",
		"median of repeats; per-stage times from the plan (last run); points/s = points x coils / median time.",
		"Default: the issue's workload, 402 x 512 onto 256^2, 8 and 32 coils, eps 1e-3 and 1e-4.",
		"--tune quick|exhaustive adds, per row, the default and the tuned plan timed alternately, with their ratio." })
final class BenchCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Mixin
	TuneArgs tuning;

	@Option(names = "--size", defaultValue = "256", description = "Image size N (N x N) (default: ${DEFAULT-VALUE}).")
	int size;

	@Option(names = "--spokes", defaultValue = "402", description = "Spokes (default: ${DEFAULT-VALUE}).")
	int spokes;

	@Option(names = "--readout", defaultValue = "512", description = "Samples per spoke (default: ${DEFAULT-VALUE}).")
	int readout;

	@Option(names = "--coils", split = ",", defaultValue = "8,32", description = "Coil counts (default: ${DEFAULT-VALUE}).")
	List<Integer> coils;

	@Option(names = "--tolerances", split = ",", defaultValue = "1e-3,1e-4",
		description = "Tolerances (default: ${DEFAULT-VALUE}); overrides --tolerance.")
	List<Double> tolerances;

	@Option(names = "--direction", defaultValue = "both", description = "adjoint, forward or both (default: ${DEFAULT-VALUE}).")
	String direction;

	@Option(names = "--warmup", defaultValue = "2", description = "Warm-up runs (default: ${DEFAULT-VALUE}).")
	int warmup;

	@Option(names = "--repeats", defaultValue = "5", description = "Timed runs (default: ${DEFAULT-VALUE}).")
	int repeats;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() {
		final PrintWriter out = spec.commandLine().getOut();
		InvalidInputException.require(size >= 2 && spokes >= 1 && readout >= 2, "bench: --size, --spokes, --readout " +
			"must be positive (size, readout >= 2)");
		InvalidInputException.require(warmup >= 0 && repeats >= 1, "bench: --warmup >= 0 and --repeats >= 1 required");
		InvalidInputException.require(nufft.dims == null, "bench: -d " + nufft.dims + " is not used here; the image " +
			"is --size N (N x N)");
		// -e comes with the shared NUFFT options but bench times the list --tolerances: refused, not ignored.
		InvalidInputException.require(!spec.commandLine().getParseResult().hasMatchedOption("--tolerance"), "bench: -e " +
			"is not used here; give the tolerances to time as --tolerances a,b");
		for (final int c : coils) InvalidInputException.require(c >= 1, "--coils: expected >= 1, found " + c);
		final int maxCoils = coils.stream().mapToInt(Integer::intValue).max().orElse(1);
		// Sizes in long: --size 100000 once overflowed int into a NegativeArraySizeException.
		final String job = "bench: a " + size + "x" + size + " image with " + maxCoils + " coils";
		Memory.length(job, 2, size, size, maxCoils);
		Memory.length("bench: " + spokes + " spokes x " + readout + " samples with " + maxCoils + " coils", 2, spokes,
			readout, maxCoils);
		// Image and samples (float pairs), an oversampled grid per thread-free plan (sigma <= 2: 4x the image, complex
		// float), the trajectory in double: a lower bound, checked before the first allocation.
		Memory.require(job, 8 * (Memory.product(job, size, size, maxCoils) + Memory.product(job, spokes, readout,
			maxCoils) + 4 * Memory.product(job, size, size)) + 24 * Memory.product(job, spokes, readout));
		final boolean adj = !direction.equals("forward"), fwd = !direction.equals("adjoint");
		InvalidInputException.require(direction.equals("both") || direction.equals("adjoint") ||
			direction.equals("forward"), "--direction: expected adjoint, forward or both, found '" + direction + "'");
		final Trajectory t = Benchmark.radial(spokes, readout);
		final int m = t.count();
		final int[] img = { size, size };
		out.printf("radial %d spokes x %d samples = %d points onto %dx%d; %d warm-up, median of %d; %d threads%n",
			spokes, readout, m, size, size, warmup, repeats, nufft.options().resolvedThreads());
		out.printf("%-7s %5s %-8s %10s %10s %12s  %s%n", "eps", "coils", "dir", "median ms", "min ms", "Mpoints/s",
			"stages (ms, last run) | plan");
		out.flush();
		final Random random = new Random();
		final TuneMode tune = Options.tune(tuning.tune);
		try (Session session = new Session()) {
		for (final double eps : tolerances) {
			final NufftOptions o = nufft.options().withTolerance(eps);
			final long p0 = System.nanoTime();
			try (NufftPlan plan = session.plan(img, o)) {
				final double planMs = (System.nanoTime() - p0) / 1e6;
				final long s0 = System.nanoTime();
				plan.setPoints(t);
				final double pointsMs = (System.nanoTime() - s0) / 1e6;
				for (final int c : coils) {
					final float[] samples = Benchmark.random(2 * m * c, random);
					final float[] image = Benchmark.random(2 * size * size * c, random);
					if (adj) row(out, eps, c, "adjoint", plan, () -> plan.adjoint(samples, image), m,
						plan.parameters() + String.format(", on these points %.3g, plan %.1f ms, setPoints %.1f ms",
							ParameterChoice.expectedError(plan.parameters(), t), planMs, pointsMs));
					if (fwd) row(out, eps, c, "forward", plan, () -> plan.forward(image, samples), m, "");
					if (tune != TuneMode.OFF) tunedRows(out, session, t, img, c, o.withTuning(tune, tuning.budget), eps,
						samples, image, adj, fwd, plan);
				}
				out.println("  engine: " + plan.backend());
			}
		}
		}
		out.printf("peak heap: %.0f MiB%n", peakHeap() / 1048576.0);
		out.flush();
		return Main.OK;
	}

	/**
	 * --tune: the default plan and the tuned one (the wisdom's winner, or a tuning run's for the direction(s) benched),
	 * timed side by side: after the warm-up runs of both, {@code repeats} rounds each timing one run of the default
	 * then one of the tuned plan, so that both see the same JIT state and machine load; medians and their ratio.
	 */
	private void tunedRows(final PrintWriter out, final Session session, final Trajectory t, final int[] img,
		final int c, final NufftOptions o, final double eps, final float[] samples, final float[] image,
		final boolean adj, final boolean fwd, final NufftPlan plan)
	{
		final TuneDirection d = adj && fwd ? TuneDirection.BOTH : adj ? TuneDirection.ADJOINT : TuneDirection.FORWARD;
		final NufftOptions tuned = session.tuned(t, img, c, o, d);
		try (NufftPlan tp = session.plan(img, tuned)) {
			tp.setPoints(t);
			final String what = tp.parameters() + " spread=" + tuned.spreadMethod().name().toLowerCase() +
				(tuned.bins() == null ? "" : " bins=" + java.util.Arrays.toString(tuned.bins())) + " " +
				tuned.evaluation().name().toLowerCase();
			if (adj) pair(out, eps, c, "adjoint", () -> plan.adjoint(samples, image), () -> tp.adjoint(samples, image),
				what);
			if (fwd) pair(out, eps, c, "forward", () -> plan.forward(image, samples), () -> tp.forward(image, samples),
				adj ? "" : what);
		}
	}

	/** One row of default vs tuned medians, timed alternately. */
	private void pair(final PrintWriter out, final double eps, final int c, final String dir, final Runnable def,
		final Runnable tuned, final String what)
	{
		for (int i = 0; i < warmup; i++) {
			def.run();
			tuned.run();
		}
		final double[] a = new double[repeats], b = new double[repeats];
		for (int i = 0; i < repeats; i++) {
			a[i] = Benchmark.times(def, 0, 1)[0];
			b[i] = Benchmark.times(tuned, 0, 1)[0];
		}
		java.util.Arrays.sort(a);
		java.util.Arrays.sort(b);
		final double ma = Benchmark.median(a), mb = Benchmark.median(b);
		out.printf("%-7.0e %5d %-8s default %9.1f ms  tuned %9.1f ms  tuned/default %.3f%s%n", eps, c, dir, ma, mb,
			mb / ma, what.isEmpty() ? "" : " | tuned: " + what);
		out.flush();
	}

	private void row(final PrintWriter out, final double eps, final int c, final String dir, final NufftPlan plan,
		final Runnable run, final int m, final String note)
	{
		final double[] ms = Benchmark.times(run, warmup, repeats);
		final double median = Benchmark.median(ms);
		final Map<String, Double> st = new LinkedHashMap<>(plan.times().snapshot());
		final StringBuilder s = new StringBuilder();
		st.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append(String.format(" %.1f", v)));
		out.printf("%-7.0e %5d %-8s %10.1f %10.1f %12.1f  %s%s%n", eps, c, dir, median, ms[0],
			(double) m * c / (median / 1e3) / 1e6, s, note.isEmpty() ? "" : " | " + note);
		out.flush();
	}

	private static long peakHeap() {
		long s = 0;
		for (final MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
			if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) s += p.getPeakUsage().getUsed();
		return s;
	}
}
