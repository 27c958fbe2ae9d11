package org.nufftj.spark;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.resource.ResourceInformation;
import org.nufftj.InvalidInputException;
import org.nufftj.app.Batch;
import org.nufftj.app.Options;
import org.nufftj.app.Session;
import org.nufftj.io.AtomicFiles;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.ReconOptions;

import scala.Tuple2;

/**
 * {@code nufft-j batch} on Apache Spark: each scan is one task, reconstructed by the same code as {@code nufft-j
 * recon} ({@link Batch#reconstruct}) on the executor's GPU when Spark assigned the task one (resource {@code gpu},
 * {@code spark.task.resource.gpu.amount}), else on {@code spark.task.cpus} CPU threads; one {@link Session} per
 * partition. Outputs ({@code .cfl/.hdr}) are written to temporary files and moved into place, under a name fixed by
 * the scan, so a retried or speculative task rewrites the same complete files and never leaves a half or second one.
 * A scan that fails for its own reasons (bad file, inconsistent data) is a "failed" row, not a task failure (retrying
 * would fail again); anything else (a lost executor, a device fault outside the reconstruction) fails the task and
 * Spark retries it. The driver collects one summary row per scan, in the order given.
 */
public final class SparkBatch {

	/** What every task needs to know; serialisable, sent with the tasks. */
	public static final class Settings implements Serializable {

		private static final long serialVersionUID = 1L;

		String out = ".";
		String template = "{name}.cfl";
		String dcf = "auto", combine = "sos", precision = "float", kernel = "auto";
		double tolerance = NufftOptions.DEFAULT_TOLERANCE;
		int dcfIterations = ReconOptions.DEFAULT_DCF_ITERATIONS;
		boolean resume;
		/**
		 * Test hook: a scan file name whose first attempt fails after its output was written (retry check), and a file
		 * the failing attempt creates as evidence.
		 */
		String failFirstAttemptOf, failureMarker;

		/** The output folder (created by {@link #run}). */
		public Settings out(final String folder) { out = folder; return this; }

		public Settings template(final String t) { template = t; return this; }

		public Settings dcf(final String d) { dcf = d; return this; }

		public Settings combine(final String c) { combine = c; return this; }

		public Settings tolerance(final double t) { tolerance = t; return this; }

		public Settings resume(final boolean r) { resume = r; return this; }

		public Settings failFirstAttemptOf(final String scanFileName, final String marker) {
			failFirstAttemptOf = scanFileName;
			failureMarker = marker;
			return this;
		}
	}

	private SparkBatch() {}

	// -- public API --

	/**
	 * Reconstructs {@code scans} (paths every executor can read) as one task each; returns the summary rows (CSV, as
	 * {@link Batch#csv}, without the header) in the order of {@code scans}.
	 */
	public static List<String> run(final JavaSparkContext sc, final List<String> scans, final Settings s)
		throws java.io.IOException
	{
		InvalidInputException.require(!scans.isEmpty(), "spark batch: no scans given");
		Options.dcf(s.dcf, false);
		Options.combine(s.combine);
		final List<Path> paths = new ArrayList<>(), outputs = new ArrayList<>();
		for (final String p : scans) {
			paths.add(Path.of(p));
			outputs.add(Batch.output(Path.of(s.out), s.template, Path.of(p)));
		}
		Batch.checkOutputs(paths, outputs);
		Files.createDirectories(Path.of(s.out));
		final List<Tuple2<Integer, String>> indexed = new ArrayList<>();
		for (int i = 0; i < scans.size(); i++) indexed.add(new Tuple2<>(i, scans.get(i)));
		final List<Tuple2<Integer, String>> rows = sc.parallelize(indexed, scans.size())
			.mapPartitions(it -> reconstructAll(it, s)).collect();
		final List<Tuple2<Integer, String>> sorted = new ArrayList<>(rows);
		sorted.sort(Comparator.comparing(Tuple2::_1));
		final List<String> out = new ArrayList<>();
		for (final Tuple2<Integer, String> r : sorted) out.add(r._2());
		return out;
	}

	/**
	 * {@code spark-submit --class org.nufftj.spark.SparkBatch nufft-j-spark.jar --out FOLDER [--name TEMPLATE]
	 * [--dcf …] [--combine …] [--tolerance ε] [--resume] [--summary FILE] SCAN…} (SCAN: files, folders or @lists as
	 * for {@code nufft-j batch}, on storage every executor reads). Exit status 1 when any scan failed.
	 */
	public static void main(final String[] args) throws Exception {
		final Settings s = new Settings();
		String summary = null;
		final List<java.nio.file.Path> inputs = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			final String a = args[i];
			switch (a) {
				case "--out": s.out = value(args, ++i, a); break;
				case "--name": s.template = value(args, ++i, a); break;
				case "--dcf": s.dcf = value(args, ++i, a); break;
				case "--combine": s.combine = value(args, ++i, a); break;
				case "--tolerance": s.tolerance = Double.parseDouble(value(args, ++i, a)); break;
				case "--resume": s.resume = true; break;
				case "--summary": summary = value(args, ++i, a); break;
				default:
					InvalidInputException.require(!a.startsWith("--"), "unknown option " + a);
					inputs.add(Path.of(a));
			}
		}
		final List<String> scans = new ArrayList<>();
		for (final Path p : Batch.scans(inputs)) scans.add(p.toString());
		final List<String> rows;
		try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("nufft-j batch"))) {
			rows = run(sc, scans, s);
		}
		final Path table = Path.of(summary != null ? summary : Path.of(s.out, "summary.csv").toString());
		final byte[] csv = ("scan,output,status,device,ms,error\n" + String.join("\n", rows) + "\n")
			.getBytes(StandardCharsets.UTF_8);
		AtomicFiles.write(table, o -> o.write(csv));
		final long failed = rows.stream().filter(r -> r.contains(",failed,")).count();
		System.err.println("nufft-j spark batch: " + (rows.size() - failed) + " of " + rows.size() + " scans done, " +
			failed + " failed; summary " + table);
		System.exit(failed == 0 ? 0 : 1);
	}

	// -- helpers --

	/** One partition's scans in one session on the task's device. */
	private static Iterator<Tuple2<Integer, String>> reconstructAll(final Iterator<Tuple2<Integer, String>> it,
		final Settings s) throws java.io.IOException
	{
		final TaskContext task = TaskContext.get();
		final DeviceChoice device = device(task);
		final int threads = device.kind() == DeviceChoice.Kind.CPU ? cpus(task) : 0;
		final ReconOptions options = ReconOptions.defaults().withNufft(Options.nufft(s.kernel, 0, 0, s.tolerance,
			s.precision, device.toString(), "auto", threads)).withCombine(Options.combine(s.combine))
			.withDcfIterations(s.dcfIterations);
		final List<Tuple2<Integer, String>> rows = new ArrayList<>();
		try (Session session = new Session(System.err::println)) {
			while (it.hasNext()) {
				final Tuple2<Integer, String> in = it.next();
				final Path scan = Path.of(in._2());
				final Path output = Batch.output(Path.of(s.out), s.template, scan);
				final Batch.Item item = s.resume && Files.exists(withCfl(output)) ? null : Batch.reconstruct(scan,
					output, options, s.dcf, null, session, (o, sc, r) -> Cfl.writeImage(o, r.image(), sc.frameDims()));
				if (scan.getFileName().toString().equals(s.failFirstAttemptOf) && task != null &&
					task.attemptNumber() == 0)
				{
					// After the output was written: the retry must leave exactly one complete result.
					if (s.failureMarker != null) Files.writeString(Path.of(s.failureMarker), "attempt 0 of " + scan + "\n");
					throw new IllegalStateException("injected failure of the first attempt at " + scan);
				}
				final String row = item == null ? String.join(",", scan.toString(), output.toString(), "skipped", "",
					"0.0", "") : Batch.csv(List.of(item)).split("\n", 2)[1].trim();
				rows.add(new Tuple2<>(in._1(), row));
			}
		}
		return rows.iterator();
	}

	/** The task's GPU when Spark assigned one (first address), else the CPU. */
	private static DeviceChoice device(final TaskContext task) {
		if (task == null) return DeviceChoice.CPU;
		final Map<String, ResourceInformation> r = task.resourcesJMap();
		final ResourceInformation gpu = r.get("gpu");
		if (gpu == null || gpu.addresses().length == 0) return DeviceChoice.CPU;
		return DeviceChoice.gpu(Integer.parseInt(gpu.addresses()[0].trim()));
	}

	/** The CPU cores Spark gave the task ({@code spark.task.cpus}); 0 (every core) outside a task. */
	private static int cpus(final TaskContext task) {
		return task == null ? 0 : Math.max(1, task.cpus());
	}

	private static Path withCfl(final Path output) {
		final String n = output.getFileName().toString();
		return n.endsWith(".cfl") ? output : output.resolveSibling(n + ".cfl");
	}

	private static String value(final String[] args, final int i, final String option) {
		InvalidInputException.require(i < args.length, option + ": a value is needed");
		return args[i];
	}
}
