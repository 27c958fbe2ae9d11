package org.nufftj.app;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * Gridding reconstruction of many scans with one set of options, one after the other in one {@link Session} (each
 * device opened once for the whole batch): a failing scan is recorded with its one-line error and the batch goes on;
 * with {@code resume}, a scan whose output already exists is skipped (outputs are written to a temporary file and
 * moved into place, so an existing output is a complete one). Front ends supply how an image is written
 * ({@link Writer}) and where progress lines go.
 */
public final class Batch {

	/** What became of one scan. */
	public static final class Item {

		/** ok, failed, or skipped (resume: the output exists). */
		public enum Status { OK, FAILED, SKIPPED }

		private final Path scan, output;
		private final Status status;
		private final String device, error;
		private final double millis;

		Item(final Path scan, final Path output, final Status status, final String device, final double millis,
			final String error)
		{
			this.scan = scan;
			this.output = output;
			this.status = status;
			this.device = device;
			this.millis = millis;
			this.error = error;
		}

		public Path scan() { return scan; }

		public Path output() { return output; }

		public Status status() { return status; }

		/** The backend that ran it ("" when it did not run). */
		public String device() { return device; }

		/** Wall time of loading, reconstructing and writing (0 when skipped). */
		public double millis() { return millis; }

		/** The one-line error of a failed scan, else "". */
		public String error() { return error; }
	}

	/** Writes a scan's reconstruction to {@code output} (temporary file, then moved into place). */
	public interface Writer {
		void write(Path output, Scan scan, Reconstruction r) throws IOException;
	}

	/** Placeholder of the output name template: the scan's file name without its extension. */
	public static final String NAME = "{name}";

	private Batch() {}

	// -- public API --

	/**
	 * The scans named by {@code inputs}: a folder → its ISMRMRD {@code .h5} files and BART k-space {@code .cfl}
	 * files (not the {@code _traj} companions), sorted by name; {@code @file} → the paths listed in it, one per line
	 * (blank lines and {@code #} comments skipped; relative to the list's folder); anything else → that file. Fails
	 * naming the input when it does not exist or a folder holds no scan.
	 */
	public static List<Path> scans(final List<Path> inputs) throws IOException {
		final List<Path> out = new ArrayList<>();
		for (final Path in : inputs) {
			final String s = in.toString();
			if (s.startsWith("@")) {
				final Path list = Path.of(s.substring(1));
				InvalidInputException.require(Files.isRegularFile(list), "scan list " + list + ": no such file");
				final Path base = list.toAbsolutePath().getParent();
				for (final String line : Files.readAllLines(list)) {
					final String t = line.trim();
					if (t.isEmpty() || t.startsWith("#")) continue;
					final Path p = base.resolve(t);
					InvalidInputException.require(Files.isRegularFile(p), "scan list " + list + ": " + t + ": no such file");
					out.add(p);
				}
			}
			else if (Files.isDirectory(in)) {
				final List<Path> found = new ArrayList<>();
				try (DirectoryStream<Path> ds = Files.newDirectoryStream(in)) {
					for (final Path p : ds) if (Files.isRegularFile(p) && isScan(p)) found.add(p);
				}
				InvalidInputException.require(!found.isEmpty(), in + ": no scans (ISMRMRD .h5 or BART k-space .cfl with " +
					"its _traj.cfl) in this folder");
				found.sort(null);
				out.addAll(found);
			}
			else {
				InvalidInputException.require(Files.isRegularFile(in), in + ": no such file or folder");
				out.add(in);
			}
		}
		return out;
	}

	/**
	 * Output of {@code scan} in {@code folder} by {@code template} ({@value #NAME} = the scan's file name without
	 * extension, e.g. {@code {name}.tif}).
	 */
	public static Path output(final Path folder, final String template, final Path scan) {
		InvalidInputException.require(template.contains(NAME), "output name template '" + template + "' must contain " +
			NAME + " (one output per scan)");
		return folder.resolve(template.replace(NAME, baseName(scan)));
	}

	/**
	 * Reconstructs every scan to {@code outputs.get(i)}, in order, in {@code session}. Before anything runs: two scans
	 * with one output, or an output that is one of the scans (or a BART companion of one), fail naming both.
	 *
	 * @param dcf      the density compensation key ({@link Options#dcf}; auto follows each scan's design)
	 * @param matrix   forced image size, or null for each scan's own
	 * @param progress one line per scan (index, name, status, time, estimated time left), or null
	 */
	public static List<Item> run(final List<Path> scans, final List<Path> outputs, final ReconOptions options,
		final String dcf, final int[] matrix, final boolean resume, final Session session, final Writer writer,
		final Consumer<String> progress)
	{
		InvalidInputException.require(scans.size() == outputs.size(), "batch: " + scans.size() + " scans but " +
			outputs.size() + " outputs");
		checkOutputs(scans, outputs);
		final List<Item> items = new ArrayList<>();
		final long start = System.nanoTime();
		int ran = 0;
		for (int i = 0; i < scans.size(); i++) {
			final Path scan = scans.get(i), output = outputs.get(i);
			final Item item;
			if (resume && Files.exists(output)) item = new Item(scan, output, Item.Status.SKIPPED, "", 0, "");
			else {
				item = reconstruct(scan, output, options, dcf, matrix, session, writer);
				ran++;
			}
			items.add(item);
			if (progress != null) progress.accept(line(i, scans.size(), item, start, ran));
		}
		return items;
	}

	/**
	 * As {@link #run(List, List, ReconOptions, String, int[], boolean, Session, Writer, Consumer)}, with the scans
	 * shared out to one worker per entry of {@code devices} (a worker takes the next scan when it is done with its
	 * own), each in a session of its own on its device; a CPU worker gets {@code threads} threads. Items come back in
	 * the order of {@code scans}. {@code notices}: where each session's device notices go.
	 */
	public static List<Item> run(final List<Path> scans, final List<Path> outputs, final ReconOptions options,
		final String dcf, final int[] matrix, final boolean resume, final List<DeviceChoice> devices, final int threads,
		final Writer writer, final Consumer<String> progress, final Consumer<String> notices)
	{
		InvalidInputException.require(!devices.isEmpty(), "batch: no devices given");
		InvalidInputException.require(scans.size() == outputs.size(), "batch: " + scans.size() + " scans but " +
			outputs.size() + " outputs");
		checkOutputs(scans, outputs);
		final Item[] items = new Item[scans.size()];
		final java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
		final java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
		final long start = System.nanoTime();
		final List<Thread> workers = new ArrayList<>();
		final java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic
			.AtomicReference<>();
		for (final DeviceChoice d : devices) {
			final ReconOptions o = options.withNufft(options.nufft().withDevice(d).withThreads(threads));
			final Thread t = new Thread(() -> {
				try (Session session = new Session(notices)) {
					for (int i; (i = next.getAndIncrement()) < scans.size();) {
						final Path scan = scans.get(i), output = outputs.get(i);
						final Item item = resume && Files.exists(output) ? new Item(scan, output, Item.Status.SKIPPED,
							"", 0, "") : reconstruct(scan, output, o, dcf, matrix, session, writer);
						items[i] = item;
						final int n = done.incrementAndGet();
						if (progress != null) synchronized (progress) {
							progress.accept(line(n - 1, scans.size(), item, start, n));
						}
					}
				}
				catch (final RuntimeException | Error e) {
					failure.compareAndSet(null, e);
				}
			}, "nufft-j batch " + d);
			workers.add(t);
			t.start();
		}
		for (final Thread t : workers) {
			try {
				t.join();
			}
			catch (final InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new CancellationException("batch interrupted");
			}
		}
		final Throwable f = failure.get();
		if (f instanceof RuntimeException) throw (RuntimeException) f;
		if (f instanceof Error) throw (Error) f;
		return java.util.Arrays.asList(items);
	}

	/** The workers of {@code spec} ({@link Devices#parse}: gpu:all, a comma list, or one device). */
	public static List<DeviceChoice> devices(final String spec) {
		return Devices.parse(spec);
	}

	/** The summary table as CSV (header, one row per scan; fields with commas or quotes quoted). */
	public static String csv(final List<Item> items) {
		final StringBuilder b = new StringBuilder("scan,output,status,device,ms,error\n");
		for (final Item it : items) {
			b.append(field(it.scan().toString())).append(',').append(field(it.output().toString())).append(',')
				.append(it.status().name().toLowerCase(Locale.ROOT)).append(',').append(field(it.device())).append(',')
				.append(String.format(Locale.ROOT, "%.1f", it.millis())).append(',').append(field(it.error()))
				.append('\n');
		}
		return b.toString();
	}

	/**
	 * The summary as JSON (gson): {@code {"scans": [{"scan", "output", "status", "device", "ms", "error"}, …],
	 * "ok": n, "failed": n, "skipped": n}}, the same fields as {@link #csv}.
	 */
	public static String json(final List<Item> items) {
		final com.google.gson.JsonArray scans = new com.google.gson.JsonArray();
		for (final Item it : items) {
			final com.google.gson.JsonObject o = new com.google.gson.JsonObject();
			o.addProperty("scan", it.scan().toString());
			o.addProperty("output", it.output().toString());
			o.addProperty("status", it.status().name().toLowerCase(Locale.ROOT));
			o.addProperty("device", it.device());
			o.addProperty("ms", Math.round(it.millis() * 10) / 10.0);
			o.addProperty("error", it.error());
			scans.add(o);
		}
		final com.google.gson.JsonObject root = new com.google.gson.JsonObject();
		root.add("scans", scans);
		for (final Item.Status st : Item.Status.values()) root.addProperty(st.name().toLowerCase(Locale.ROOT), count(
			items, st));
		return new com.google.gson.GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root) + "\n";
	}

	/** How many items have {@code status}. */
	public static long count(final List<Item> items, final Item.Status status) {
		return items.stream().filter(i -> i.status() == status).count();
	}

	/**
	 * One scan of a batch: loaded, reconstructed in {@code session} and written to {@code output}; a failure of the
	 * scan (bad file, out of memory for its size, a device failure) is returned as a failed item with its one-line
	 * error, not thrown (cancellation is thrown).
	 */
	public static Item reconstruct(final Path scan, final Path output, final ReconOptions options, final String dcf,
		final int[] matrix, final Session session, final Writer writer)
	{
		final long t0 = System.nanoTime();
		try {
			final Scan s = ScanLoader.load(scan, null, TrajectoryKind.FILE, matrix);
			final Reconstruction r = Reconstruction.run(s, options.withDcf(Options.dcf(dcf, s.cartesian())),
				Progress.NONE, session);
			writer.write(output, s, r);
			return new Item(scan, output, Item.Status.OK, r.backend(), (System.nanoTime() - t0) / 1e6, "");
		}
		catch (final CancellationException e) {
			throw e;
		}
		catch (final IOException | RuntimeException | OutOfMemoryError e) {
			// One scan's failure (bad file, out of memory for its size, a device failure) is recorded; the batch goes on.
			final String msg = e instanceof OutOfMemoryError ? "out of memory (" + e.getMessage() + ")" :
				e instanceof InvalidInputException ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
			return new Item(scan, output, Item.Status.FAILED, "", (System.nanoTime() - t0) / 1e6, oneLine(msg));
		}
	}

	/**
	 * Fails, naming both, when two scans would write one output or an output would overwrite a scan (or its BART
	 * {@code .hdr} / {@code _traj} companions).
	 */
	public static void checkOutputs(final List<Path> scans, final List<Path> outputs) {
		final Map<Path, Path> byOutput = new HashMap<>();
		final Map<Path, Path> inputs = new HashMap<>();
		for (final Path s : scans) for (final Path f : companions(s)) inputs.put(f, s);
		for (int i = 0; i < outputs.size(); i++) {
			final Path o = outputs.get(i).toAbsolutePath().normalize();
			final Path other = byOutput.putIfAbsent(o, scans.get(i));
			InvalidInputException.require(other == null, "batch: " + other + " and " + scans.get(i) + " would both " +
				"write " + outputs.get(i) + " (use " + NAME + " in the output name)");
			for (final Path f : companions(o)) {
				final Path in = inputs.get(f);
				InvalidInputException.require(in == null, "batch: output " + outputs.get(i) + " would overwrite the " +
					"scan " + in);
			}
		}
	}

	// -- helpers --

	/** The files a path stands for: itself, and for BART names the .cfl / .hdr pair and the _traj pair. */
	private static List<Path> companions(final Path p) {
		final Path a = p.toAbsolutePath().normalize();
		final String name = a.getFileName().toString();
		final List<Path> out = new ArrayList<>(List.of(a));
		final String base = name.endsWith(".cfl") || name.endsWith(".hdr") ? name.substring(0, name.length() - 4) : name;
		for (final String suffix : new String[] { ".cfl", ".hdr", "_traj.cfl", "_traj.hdr" })
			out.add(a.resolveSibling(base + suffix));
		return out;
	}

	private static boolean isScan(final Path p) {
		final String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
		if (n.endsWith(".h5")) return true;
		if (!n.endsWith(".cfl") || n.endsWith("_traj.cfl")) return false;
		final String base = p.getFileName().toString();
		return Files.exists(p.resolveSibling(base.substring(0, base.length() - 4) + "_traj.cfl"));
	}

	private static String baseName(final Path scan) {
		final String n = scan.getFileName().toString();
		final int dot = n.lastIndexOf('.');
		return dot > 0 ? n.substring(0, dot) : n;
	}

	private static String line(final int i, final int total, final Item item, final long start, final int ran) {
		final double elapsed = (System.nanoTime() - start) / 1e9;
		final String eta = ran == 0 ? "" : String.format(Locale.ROOT, ", about %.0f s left", elapsed / (i + 1) *
			(total - i - 1));
		final String what = item.status() == Item.Status.FAILED ? "FAILED: " + item.error() :
			item.status() == Item.Status.SKIPPED ? "skipped (output exists)" :
			String.format(Locale.ROOT, "ok, %.0f ms on %s", item.millis(), item.device());
		return String.format(Locale.ROOT, "[%d/%d] %s: %s%s", i + 1, total, item.scan().getFileName(), what, eta);
	}

	private static String field(final String s) {
		return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
	}

	private static String oneLine(final String s) {
		return s == null ? "(no message)" : s.replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
	}
}
