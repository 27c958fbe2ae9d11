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
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.app.Session;
import org.nufftj.io.AtomicFiles;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.TrajectoryKind;

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
	 * One long series ({@code scan}: many frames) split into ranges of {@code framesPerTask} frames, one task each;
	 * each task writes its range's images to a hidden partial file fixed by the range ({@code .<name>.frames-a-b},
	 * rewritten whole by a retry), and the driver puts the ranges one after the other into the scan's output (moved
	 * into place complete), with the frame dims of the whole scan, then removes the partials. The image is the one a
	 * single process makes of the whole scan.
	 */
	public static Path runSeries(final JavaSparkContext sc, final String scan, final int framesPerTask, final Settings s)
		throws java.io.IOException
	{
		InvalidInputException.require(framesPerTask >= 1, "frames per task: expected >= 1, found " + framesPerTask);
		final Scan whole = ScanLoader.load(Path.of(scan), null, TrajectoryKind.FILE, null);
		final Path output = Batch.output(Path.of(s.out), s.template, Path.of(scan));
		Batch.checkOutputs(List.of(Path.of(scan)), List.of(output));
		Files.createDirectories(Path.of(s.out));
		final List<int[]> ranges = new ArrayList<>();
		for (int a = 0; a < whole.frames(); a += framesPerTask) ranges.add(new int[] { a, Math.min(whole.frames(),
			a + framesPerTask) });
		final String target = output.toString(); // java.nio.file.Path is not serialisable
		final List<String> partials = sc.parallelize(ranges, ranges.size()).mapPartitions(it -> {
			final TaskContext task = TaskContext.get();
			final ReconOptions options = options(s, task);
			final List<String> out = new ArrayList<>();
			try (Session session = new Session(System.err::println)) {
				final Scan all = ScanLoader.load(Path.of(scan), null, TrajectoryKind.FILE, null);
				while (it.hasNext()) {
					final int[] r = it.next();
					final Scan part = all.frameRange(r[0], r[1]);
					final Reconstruction rec = Reconstruction.run(part, options.withDcf(Options.dcf(s.dcf,
						part.cartesian())), Progress.NONE, session);
					final Path p = partial(Path.of(target), r);
					Cfl.writeImage(p, rec.image(), null);
					if (Path.of(scan).getFileName().toString().equals(s.failFirstAttemptOf) && r[0] == 0 &&
						task != null && task.attemptNumber() == 0)
					{
						if (s.failureMarker != null) Files.writeString(Path.of(s.failureMarker), "attempt 0 of " + p + "\n");
						throw new IllegalStateException("injected failure of the first attempt at " + p);
					}
					out.add(p.toString());
				}
			}
			return out.iterator();
		}).collect();
		InvalidInputException.require(partials.size() == ranges.size(), "series " + scan + ": " + partials.size() +
			" of " + ranges.size() + " frame ranges came back");
		long[] dims = null;
		final List<float[]> data = new ArrayList<>();
		long total = 0;
		for (final int[] r : ranges) {
			final Cfl.Array a = Cfl.read(partial(output, r));
			if (dims == null) dims = a.dims().clone();
			data.add(a.data());
			total += a.data().length;
		}
		InvalidInputException.require(total <= Integer.MAX_VALUE - 8, "series " + scan + ": the whole image (" + total +
			" values) is too large for one array");
		final float[] all = new float[(int) total];
		int at = 0;
		for (final float[] d : data) {
			System.arraycopy(d, 0, all, at, d.length);
			at += d.length;
		}
		java.util.Arrays.fill(dims, 4, Cfl.DIMS, 1);
		final long[] fd = whole.frameDims();
		System.arraycopy(fd, 0, dims, 4, Math.min(fd.length, Cfl.DIMS - 4));
		Cfl.write(output, dims, all);
		for (final int[] r : ranges) {
			final Path p = partial(output, r);
			Files.deleteIfExists(p.resolveSibling(p.getFileName() + ".cfl"));
			Files.deleteIfExists(p.resolveSibling(p.getFileName() + ".hdr"));
		}
		return output;
	}

	/**
	 * {@code spark-submit --class org.nufftj.spark.SparkBatch nufft-j-spark.jar --out FOLDER [--name TEMPLATE]
	 * [--dcf …] [--combine …] [--tolerance ε] [--resume] [--summary FILE] [--frames-per-task N] SCAN…} (SCAN: files,
	 * folders or @lists as for {@code nufft-j batch}, on storage every executor reads; with {@code --frames-per-task}
	 * each scan is a long series whose frame ranges are the tasks, {@link #runSeries}). Exit status 1 when any scan
	 * failed.
	 */
	public static void main(final String[] args) throws Exception {
		final Settings s = new Settings();
		String summary = null;
		int framesPerTask = 0;
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
				case "--frames-per-task": framesPerTask = Integer.parseInt(value(args, ++i, a)); break;
				default:
					InvalidInputException.require(!a.startsWith("--"), "unknown option " + a);
					inputs.add(Path.of(a));
			}
		}
		final List<String> scans = new ArrayList<>();
		for (final Path p : Batch.scans(inputs)) scans.add(p.toString());
		final List<String> rows = new ArrayList<>();
		try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("nufft-j batch"))) {
			if (framesPerTask <= 0) rows.addAll(run(sc, scans, s));
			else for (final String scan : scans) {
				// Each scan a long series: its frame ranges are the tasks.
				final long t0 = System.nanoTime();
				final Path out = runSeries(sc, scan, framesPerTask, s);
				rows.add(String.join(",", scan, out.toString(), "ok", "spark", String.format(java.util.Locale.ROOT,
					"%.1f", (System.nanoTime() - t0) / 1e6), ""));
			}
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
		final ReconOptions options = options(s, task);
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

	/** The reconstruction options of a task on its device ({@link #device}, {@link #cpus}). */
	private static ReconOptions options(final Settings s, final TaskContext task) {
		final DeviceChoice device = device(task);
		final int threads = device.kind() == DeviceChoice.Kind.CPU ? cpus(task) : 0;
		return ReconOptions.defaults().withNufft(Options.nufft(s.kernel, 0, 0, s.tolerance, s.precision,
			device.toString(), "auto", threads)).withCombine(Options.combine(s.combine)).withDcfIterations(s.dcfIterations);
	}

	/** The hidden partial output of frames [r[0], r[1]) beside {@code output} (base name, no extension). */
	private static Path partial(final Path output, final int[] r) {
		String n = output.getFileName().toString();
		if (n.endsWith(".cfl")) n = n.substring(0, n.length() - 4);
		return output.resolveSibling("." + n + ".frames-" + r[0] + "-" + r[1]);
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
