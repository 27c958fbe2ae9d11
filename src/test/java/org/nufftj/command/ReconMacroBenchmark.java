package org.nufftj.command;

import org.nufftj.data.FrameGroup;
import org.nufftj.app.Options;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.trajectory.TrajectoryKind;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.nufftj.ij1.CommandLauncher;
import org.nufftj.ij1.ContextHolder;
import org.nufftj.ij1.Headless;
import org.nufftj.io.AtomicFiles;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.gpu.GpuInfo;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;

import ij.IJ;
import ij.ImagePlus;
import ij.WindowManager;
import ij.macro.Interpreter;

/**
 * Benchmark (not a test: no assertions on times; surefire does not pick up *Benchmark) of what a Fiji user waits for:
 * {@code run("Reconstruct k-space", "kspace=[…] device=…")} through the real ImageJ 1 macro bridge
 * ({@code IJ.run} → plugins.config → {@link CommandLauncher} → {@link ReconstructCommand}), headless, in batch mode,
 * in this JVM, until the result ImagePlus is the current image. Per dataset and device: warm-up runs, then timed runs
 * (median and min), Java heap (peak pool occupancy, and what stays reachable after a full GC with the image held) next
 * to the sizes of the k-space and of the output stack, and one extra instrumented run that splits the time into read,
 * plan, density compensation, adjoint NUFFT + coil combination and image building.
 * <p>
 * Datasets: the bundled samples (sample-data/ismrmrd/radial_shepp_logan.h5, sample-data/bart/radial.cfl) and a
 * simulated 32-coil 256² golden-angle radial scan (402 spokes × 512 samples, see {@link #simulate}), written at run
 * time as a BART pair in a temporary folder by the project's "Simulate k-space" command (NUFFT-J reads ISMRMRD but
 * cannot write it from Java). Devices: cpu, and gpu when {@link GpuInfo#unusableReason} says GPU 0 is usable.
 * </p>
 * <p>
 * Run with {@code scripts/recon-bench.sh} (this machine) or {@code gpu-suite.sh run REPORT.md recon} (the GPU
 * machine). Arguments: {@code REPORT.md [key=value …]} with keys {@code runs} (timed runs, default 7), {@code warmup}
 * (default 3), {@code devices} (cpu,gpu), {@code data} (all, samples or radial32), {@code samples} (the sample-data
 * folder, default ./sample-data) and {@code spokes}, {@code readout}, {@code coils}, {@code matrix} of the simulated
 * scan. Results are described in docs/benchmarks.md.
 * </p>
 */
public final class ReconMacroBenchmark {

	private static final double MIB = 1 << 20;
	private static final Pattern RECON_TIME = Pattern.compile("time: ([0-9.]+) ms on (.*)");

	private ReconMacroBenchmark() {}

	/** A k-space file to reconstruct and what it holds (read once with the command's own reader). */
	static final class Dataset {

		final String name;
		final Path kspace;
		final long samples, coils;
		final String matrix;

		Dataset(final String name, final Path kspace) {
			this.name = name;
			this.kspace = kspace;
			final Scan scan = ScanLoader.load(kspace, null, TrajectoryKind.FILE, null);
			long m = 0;
			for (final FrameGroup b : scan.parts()) m += b.kspace().points() * (long) b.kspace().frames();
			samples = m;
			coils = scan.coils();
			matrix = Options.describeMatrix(scan.matrix());
		}

		/** Interleaved complex float, as the command holds it ({@code samples} counts every frame). */
		double kspaceMiB() {
			return samples * coils * 8 / MIB;
		}
	}

	/** One run through the macro path. */
	static final class Run {

		double wallMs, reconMs, cpuPerWall, othersPerWall, beforeMiB, peakMiB, retainedMiB, outputMiB;
		String backend;
	}

	/** A dataset × device row of the table. */
	static final class Row {

		Dataset data;
		String device;
		final List<Run> runs = new ArrayList<>();
		Map<String, Double> stages = new LinkedHashMap<>();
		String note = "";
	}

	// -- entry point --

	public static void main(final String[] args) throws Exception {
		if (args.length < 1) {
			System.err.println("usage: ReconMacroBenchmark REPORT.md [runs=7] [warmup=3] [devices=cpu,gpu] " +
				"[data=all|samples|radial32] [samples=sample-data] [spokes=402] [readout=512] [coils=32] [matrix=256]");
			System.exit(2);
		}
		final Path report = Paths.get(args[0]).toAbsolutePath();
		final Map<String, String> opt = new LinkedHashMap<>(Map.of("runs", "7", "warmup", "3", "devices", "cpu,gpu",
			"data", "all", "samples", "sample-data", "spokes", "402", "readout", "512", "coils", "32", "matrix", "256"));
		for (int i = 1; i < args.length; i++) {
			final int eq = args[i].indexOf('=');
			if (eq < 0 || !opt.containsKey(args[i].substring(0, eq))) throw new IllegalArgumentException("unknown " +
				"argument '" + args[i] + "', expected key=value with key one of " + opt.keySet());
			opt.put(args[i].substring(0, eq), args[i].substring(eq + 1));
		}
		final int runs = Integer.parseInt(opt.get("runs")), warmup = Integer.parseInt(opt.get("warmup"));

		// Headless ImageJ 1 as a -batch macro sees it: the command table without AWT menus, batch mode on.
		if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
		final String installed = Headless.install();
		if (!installed.isEmpty()) throw new IllegalStateException("Headless.install: " + installed);
		Interpreter.batchMode = true; // setBatchMode(true): images go to WindowManager, not to windows

		final String host = host();
		final String loadBefore = load();
		System.out.println(host + "; load average " + loadBefore);
		final List<String> devices = new ArrayList<>();
		final List<String> skipped = new ArrayList<>();
		for (final String d : opt.get("devices").split(",")) {
			if (d.equals("gpu")) {
				final String why = GpuInfo.unusableReason(0);
				if (why != null) {
					skipped.add("gpu: " + why);
					System.out.println("gpu skipped: " + why);
					continue;
				}
			}
			devices.add(d);
		}

		final Path tmp = Files.createTempDirectory("nufftj-recon-bench");
		final List<Row> rows = new ArrayList<>();
		String gpu = null;
		try {
			final List<Dataset> data = new ArrayList<>();
			final Path samples = Paths.get(opt.get("samples")).toAbsolutePath();
			if (!opt.get("data").equals("radial32")) {
				data.add(new Dataset("ISMRMRD sample `radial_shepp_logan.h5`", samples.resolve(
					"ismrmrd/radial_shepp_logan.h5")));
				data.add(new Dataset("BART sample `radial.cfl`", samples.resolve("bart/radial.cfl")));
			}
			String simulated = "";
			if (!opt.get("data").equals("samples")) {
				final int coils = Integer.parseInt(opt.get("coils")), n = Integer.parseInt(opt.get("matrix"));
				final long t0 = System.nanoTime();
				final Path cfl = simulate(tmp, n, Integer.parseInt(opt.get("readout")), Integer.parseInt(opt.get("spokes")),
					coils);
				simulated = String.format(Locale.ROOT, "simulated in %.1f s, %.1f MiB on disk", (System.nanoTime() - t0) /
					1e9, (Files.size(cfl) + Files.size(tmp.resolve("radial32_traj.cfl"))) / MIB);
				System.out.println("radial32: " + simulated);
				data.add(new Dataset(coils + "-coil " + n + "² golden-angle radial (simulated, BART `.cfl`)", cfl));
			}
			for (final String device : devices) {
				if (device.equals("gpu")) gpu = GpuInfo.describe();
				for (final Dataset d : data) {
					final Row row = new Row();
					row.data = d;
					row.device = device;
					rows.add(row);
					try {
						measure(row, warmup, runs);
					}
					catch (final RuntimeException e) {
						row.note = "FAILED: " + e.getMessage();
						System.out.println(d.name + " " + device + " FAILED: " + e);
					}
					write(report, markdown(host, loadBefore + " at start, " + load() + " now", gpu, skipped, simulated,
						warmup, runs, rows));
				}
			}
			write(report, markdown(host, loadBefore + " at start, " + load() + " at end", gpu, skipped, simulated, warmup,
				runs, rows));
		}
		finally {
			deleteTree(tmp);
		}
		System.out.println();
		System.out.print(Files.readString(report));
		System.out.println("table written to " + report);
		System.exit(0); // the SciJava context and ImageJ leave non-daemon threads
	}

	// -- the simulated scan --

	/**
	 * A 32-coil 256² golden-angle radial scan through the "Simulate k-space" command (macro options, in this JVM): the
	 * analytic Shepp–Logan phantom averaged over 2×2 sub-samples per pixel, times smooth complex coil sensitivities,
	 * sampled by the forward NUFFT in double at ε = 1e-7, plus complex Gaussian noise of 1% of the RMS signal. 402 spokes = ⌊π/2 · 256⌋, the azimuthal Nyquist count π/2·N for 256²
	 * (golden-angle spokes cover the angles nearly uniformly), × 512 samples = 2× readout oversampling, like the ISMRMRD
	 * sample and the RadialNufftBenchmark workload (205,824 points per coil). Written as a BART pair
	 * {@code radial32.cfl/.hdr} + {@code radial32_traj.cfl/.hdr}.
	 */
	static Path simulate(final Path dir, final int n, final int readout, final int spokes, final int coils) {
		final Path base = dir.resolve("radial32.cfl");
		final CommandLauncher.Run r = CommandLauncher.execute(SimulateCommand.class, String.format(Locale.ROOT,
			"phantom=shepp-logan trajectory=[golden angle] matrix=%d readout=%d shots=%d coils=%d noise=0.01 seed=1 " +
				"output=[%s] reconstruct=false device=cpu", n, readout, spokes, coils, base), ContextHolder.context());
		if (r.error != null) throw new IllegalStateException("simulate: " + r.error);
		return base;
	}

	// -- measuring --

	static void measure(final Row row, final int warmup, final int runs) {
		final String options = "kspace=[" + row.data.kspace + "] device=" + row.device;
		System.out.printf(Locale.ROOT, "%s, %s: run(\"Reconstruct k-space\", \"%s\")%n", row.data.name, row.device,
			options);
		for (int i = 0; i < warmup + runs; i++) {
			final Run r = once(options, row.data.kspace, i == 0);
			System.out.printf(Locale.ROOT, "  %s %d: %.1f ms (recon %.1f ms on %s), heap before %.1f MiB, peak %.1f MiB, " +
				"retained %.2f MiB, output %.2f MiB, CPU/wall %.2f, others %.2f%n", i < warmup ? "warm-up" : "run",
				i < warmup ? i + 1 : i - warmup + 1, r.wallMs, r.reconMs, r.backend, r.beforeMiB, r.peakMiB, r.retainedMiB,
				r.outputMiB, r.cpuPerWall, r.othersPerWall);
			if (i >= warmup) row.runs.add(r);
		}
		row.stages = stages(row.data.kspace, row.device);
		System.out.println("  stages (one instrumented run): " + steps(row));
	}

	/**
	 * One {@code IJ.run("Reconstruct k-space", options)}: wall time from the call until the result ImagePlus is the
	 * current image; heap pool peaks reset before and summed after; retained heap = heap in use after a full GC with the
	 * image still referenced, minus the same before the run. The image is closed afterwards.
	 */
	static Run once(final String options, final Path kspace, final boolean echoLog) {
		WindowManager.setTempCurrentImage(null);
		final long before = usedAfterGc();
		resetPeaks();
		final PrintStream out = System.out;
		final ByteArrayOutputStream log = new ByteArrayOutputStream();
		final ImagePlus imp;
		final long t0, t1;
		System.setOut(new PrintStream(log, true, StandardCharsets.UTF_8)); // IJ.log prints here when headless
		final double cpu0, busy0;
		try {
			busy0 = machineBusySeconds();
			cpu0 = processCpuSeconds();
			t0 = System.nanoTime();
			IJ.run("Reconstruct k-space", options);
			imp = WindowManager.getCurrentImage();
			t1 = System.nanoTime();
		}
		finally {
			System.setOut(out);
		}
		final long peak = peaks();
		final String logText = log.toString(StandardCharsets.UTF_8).trim();
		if (echoLog) System.out.println("  Log: " + logText.replace("\n", "\n       "));
		final String title = ScanLoader.baseTitle(kspace.getFileName().toString());
		if (imp == null || !imp.getTitle().equals(title)) throw new IllegalStateException("no image '" + title +
			"' after run(\"Reconstruct k-space\"); Log: " + logText);
		final Run r = new Run();
		r.wallMs = (t1 - t0) / 1e6;
		final double ours = processCpuSeconds() - cpu0;
		r.cpuPerWall = ours / (r.wallMs / 1e3);
		// Both counters tick at 10 ms, so on short runs the difference can dip below 0: none taken.
		r.othersPerWall = Math.max(0, (machineBusySeconds() - busy0 - ours) / (r.wallMs / 1e3));
		r.beforeMiB = before / MIB;
		r.peakMiB = peak / MIB;
		long bytes = 0;
		for (int s = 1; s <= imp.getStackSize(); s++) bytes += 4L * ((float[]) imp.getStack().getPixels(s)).length;
		r.outputMiB = bytes / MIB;
		final Matcher m = RECON_TIME.matcher(String.valueOf(imp.getProperty("Info")));
		final boolean logged = m.find();
		r.reconMs = logged ? Double.parseDouble(m.group(1)) : Double.NaN;
		r.backend = logged ? m.group(2).trim() : "?";
		r.retainedMiB = (usedAfterGc() - before) / MIB;
		imp.changes = false;
		imp.close();
		WindowManager.setTempCurrentImage(null);
		return r;
	}

	/**
	 * Where the time goes, from one extra run of the command's own steps in this JVM (not through IJ.run): read
	 * ({@link org.nufftj.app.ScanLoader#load}), the reconstruction timed at its progress reports (planning → density compensation →
	 * adjoint NUFFT + coil combination → done), with GPU plans on the same context's {@link NufftBackendService} devices as
	 * the macro runs, and the output stack ({@link Stacks#stack}). Steps that a changed progress text no longer names
	 * are left out, not guessed.
	 */
	static Map<String, Double> stages(final Path kspace, final String device) {
		final Map<String, Double> ms = new LinkedHashMap<>();
		final long t0 = System.nanoTime();
		final Scan scan = ScanLoader.load(kspace, null, TrajectoryKind.FILE, null);
		final long t1 = System.nanoTime();
		ms.put("read", (t1 - t0) / 1e6);
		final ReconOptions ro = Options.recon(Options.nufft("auto", 0, 0, NufftOptions.DEFAULT_TOLERANCE, "float",
			device), Options.dcf("auto", scan.cartesian()), Options.combine("sos"));
		// Each progress report starts a step; the time until the next report is added to the step (every block and
		// frame of a scan adds to the same steps).
		final Progress timing = new Progress() {

			private String step;
			private long since;

			@Override
			public void update(final double fraction, final String what) {
				final String next = what.startsWith("planning") ? "plan" : what.startsWith("density") ? "DCF" : what
					.startsWith("adjoint") ? "adjoint + combine" : what.startsWith("done") ? "" : null;
				if (next == null) return;
				final long now = System.nanoTime();
				if (step != null) ms.merge(step, (now - since) / 1e6, Double::sum);
				step = next.isEmpty() ? null : next;
				since = now;
			}

			@Override
			public boolean cancelled() {
				return false;
			}
		};
		// GPU plans on the session's devices, as the macro path makes them (NufftBackendService of the same context).
		final NufftBackendService gpus = ContextHolder.context().getService(NufftBackendService.class);
		final Reconstruction rec = Reconstruction.run(scan, ro, timing, gpus.session());
		final long t2 = System.nanoTime();
		ms.put("recon", (t2 - t1) / 1e6);
		final ImagePlus imp = Stacks.stack(scan.title(), rec.images(), Stacks.parts("magnitude"), scan.slices(), scan.pixelMm());
		ms.put("image", (System.nanoTime() - t2) / 1e6);
		imp.flush();
		return ms;
	}

	/**
	 * CPU time of this process, all threads, those that ended included (Linux /proc/self/stat utime + stime, in USER_HZ
	 * = 100 ticks per second); NaN elsewhere. Per run, CPU/wall shows how many cores the run kept busy: on a shared
	 * machine, fewer than the engine's threads means other processes took the cores.
	 */
	static double processCpuSeconds() {
		try {
			final String stat = Files.readString(Paths.get("/proc/self/stat"));
			final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // fields 14 and 15 of proc(5)
		}
		catch (final IOException | RuntimeException e) {
			return Double.NaN;
		}
	}

	/**
	 * CPU time all processes of this machine spent busy (Linux /proc/stat: user, nice, system, irq, softirq and steal,
	 * the last being time the hypervisor gave to other guests), in seconds; NaN elsewhere. Minus this process's own CPU
	 * time, per wall second: how many cores others took during a run.
	 */
	static double machineBusySeconds() {
		try {
			final String[] f = Files.readAllLines(Paths.get("/proc/stat")).get(0).trim().split("\\s+");
			long busy = 0;
			for (final int i : new int[] { 1, 2, 3, 6, 7, 8 }) busy += Long.parseLong(f[i]);
			return busy / 100.0;
		}
		catch (final IOException | RuntimeException e) {
			return Double.NaN;
		}
	}

	// -- heap --

	private static List<MemoryPoolMXBean> heapPools() {
		final List<MemoryPoolMXBean> pools = new ArrayList<>();
		for (final MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
			if (p.getType() == MemoryType.HEAP && p.isValid()) pools.add(p);
		return pools;
	}

	private static void resetPeaks() {
		for (final MemoryPoolMXBean p : heapPools()) p.resetPeakUsage();
	}

	/** Sum of the heap pools' peak occupancy since the reset (each pool's own peak: an upper bound of the joint one). */
	private static long peaks() {
		long s = 0;
		for (final MemoryPoolMXBean p : heapPools()) s += p.getPeakUsage().getUsed();
		return s;
	}

	/** Heap in use after two full collections (System.gc() is a full, blocking collection with G1 and Parallel GC). */
	private static long usedAfterGc() {
		System.gc();
		System.gc();
		long s = 0;
		for (final MemoryPoolMXBean p : heapPools()) s += p.getUsage().getUsed();
		return s;
	}

	// -- report --

	static String host() {
		String cpu = "unknown CPU";
		try (Stream<String> lines = Files.lines(Paths.get("/proc/cpuinfo"))) {
			cpu = lines.filter(l -> l.startsWith("model name")).findFirst().map(l -> l.substring(l.indexOf(':') + 1)
				.trim()).orElse(cpu);
		}
		catch (final IOException | RuntimeException e) {
			// not Linux: keep "unknown CPU"
		}
		final List<String> gcs = new ArrayList<>();
		for (final GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) gcs.add(g.getName());
		return String.format(Locale.ROOT, "%s, %d cores; Java %s (%s); max heap %.1f GiB; GC %s; JVM flags %s", cpu,
			Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), System.getProperty(
				"java.vm.name"), Runtime.getRuntime().maxMemory() / (MIB * 1024), String.join(" + ", gcs), String.join(" ",
					ManagementFactory.getRuntimeMXBean().getInputArguments()));
	}

	/** The 1-minute load average (Linux), to show whether other processes shared the cores during the runs. */
	static String load() {
		try {
			return Files.readString(Paths.get("/proc/loadavg")).split(" ")[0];
		}
		catch (final IOException | RuntimeException e) {
			return "unknown";
		}
	}

	static String markdown(final String host, final String load, final String gpu, final List<String> skipped,
		final String simulated, final int warmup, final int runs, final List<Row> rows)
	{
		final StringBuilder md = new StringBuilder();
		md.append("### run(\"Reconstruct k-space\") — ").append(ZonedDateTime.now(ZoneOffset.UTC).format(
			DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))).append("\n\n");
		md.append("Generated by `ReconMacroBenchmark` (src/test/java/org/nufftj/command) — do not edit by hand.\n\n");
		md.append("Host: ").append(host).append("; 1-minute load average ").append(load).append(".\n");
		if (gpu != null) md.append("\n```\n").append(gpu).append("\n```\n");
		for (final String s : skipped) md.append("\nSkipped ").append(s).append('\n');
		if (!simulated.isEmpty()) md.append("\n32-coil file: ").append(simulated).append(".\n");
		md.append(String.format(Locale.ROOT, "\nOptions: `kspace=[…] device=…`, everything else the command's default " +
			"(matrix from the file, tolerance %.0e, kernel/σ/width auto, DCF auto = Pipe–Menon for non-Cartesian data, " +
			"sum of squares, float, magnitude). ", NufftOptions.DEFAULT_TOLERANCE)).append(warmup).append(" warm-up + ")
			.append(runs).append(" timed runs per row, each after a full GC. Wall = from `IJ.run` to the result ImagePlus ")
			.append("being the current image; recon = the command's own \"time:\" line (plan, DCF, adjoint NUFFT, coil ")
			.append("combination); CPU/wall = this process's CPU time during the run over its wall time (how many cores ")
			.append("it kept busy), others = the same for every other process and the hypervisor's steal (cores taken ")
			.append("from the run; 0 on a quiet machine; both counters tick at 10 ms, so ±0.2 on 100 ms runs). Heap (medians over the timed runs): before = in use after a full GC before the run; ")
			.append("peak = sum of the heap pools' peak occupancy during the run (garbage not yet collected included); ")
			.append("retained = in use after a full GC with the result image still referenced, minus before; output = ")
			.append("the result stack's pixel arrays.\n\n");
		md.append("| dataset | device | samples × coils | matrix | k-space MiB | wall median ms | wall min ms | ")
			.append("recon median ms | CPU/wall | others | heap before MiB | peak heap MiB | retained MiB | output MiB |\n")
			.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (final Row r : rows) {
			final Dataset d = r.data;
			md.append(String.format(Locale.ROOT, "| %s | %s | %,d × %d | %s | %.2f | ", d.name, device(r), d.samples,
				d.coils, d.matrix, d.kspaceMiB()));
			if (r.runs.isEmpty()) {
				md.append(r.note.replace('|', '/')).append(" |||||||||\n");
				continue;
			}
			md.append(String.format(Locale.ROOT, "%.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.3f | %.3f |%n",
				median(r, x -> x.wallMs), r.runs.stream().mapToDouble(x -> x.wallMs).min().getAsDouble(), median(r,
					x -> x.reconMs), median(r, x -> x.cpuPerWall), median(r, x -> x.othersPerWall), median(r,
						x -> x.beforeMiB), median(r, x -> x.peakMiB), median(r, x -> x.retainedMiB), median(r,
					x -> x.outputMiB)));
		}
		md.append("\nWhere the time goes (ms; one extra run per row of the command's own steps in the same JVM, not ")
			.append("through `IJ.run`: read = ScanLoader.load, plan = NUFFT plan + points, DCF, adjoint NUFFT + coil ")
			.append("combination, recon = their total, image = Stacks.stack):\n\n| dataset | device | steps |\n|---|---|---|\n");
		for (final Row r : rows) {
			if (r.stages.isEmpty()) continue;
			md.append("| ").append(r.data.name).append(" | ").append(device(r)).append(" | ").append(steps(r)).append(" |\n");
		}
		return md.toString();
	}

	/** The engine that ran, as the command logged it (e.g. "cpu (2 threads)"), else the device asked for. */
	private static String device(final Row r) {
		return r.runs.isEmpty() ? r.device : r.runs.get(0).backend;
	}

	private static String steps(final Row r) {
		final StringBuilder s = new StringBuilder();
		r.stages.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append(String.format(Locale.ROOT,
			" %.1f", v)));
		return s.toString();
	}

	private static double median(final Row r, final java.util.function.ToDoubleFunction<Run> f) {
		final double[] v = r.runs.stream().mapToDouble(f).toArray();
		Arrays.sort(v);
		return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
	}

	private static void write(final Path report, final String md) {
		try {
			AtomicFiles.write(report, out -> out.write(md.getBytes(StandardCharsets.UTF_8)));
		}
		catch (final IOException e) {
			System.out.println("could not write " + report + ": " + e);
		}
	}

	private static void deleteTree(final Path dir) throws IOException {
		try (Stream<Path> s = Files.walk(dir)) {
			for (final Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
		}
	}
}
