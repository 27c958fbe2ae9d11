package org.nufftj.app.tune;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import org.nufftj.io.AtomicFiles;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.TuneMode;

/**
 * Tuning results kept between runs, like FFTW's wisdom: one JSON file of entries, each a {@link TuneKey} and the
 * winning {@link TunedParameters} with their times.
 * <p>
 * <b>Location</b> ({@link #defaultLocation}): the system property {@code nufftj.wisdom}, else the environment variable
 * {@code NUFFTJ_WISDOM}, else {@code $XDG_CONFIG_HOME/nufft-j/wisdom.json}, else {@code ~/.config/nufft-j/wisdom.json}.
 * </p>
 * <p>
 * <b>Format</b> (docs/gpu-tuning.md): {@code {"format": "nufft-j wisdom", "version": 1, "entries": [...]}}. A file
 * that is not valid JSON, or of another format or version, is ignored with one warning per {@link Wisdom} (lookups
 * find nothing, tuning still runs); when a result is recorded it is moved aside to
 * {@code wisdom.json.unreadable-<time>} (a backup, never deleted) and a new file is written. An entry with a value out
 * of range (a hand-edited file) is skipped the same way.
 * </p>
 * <p>
 * <b>Writes</b> re-read the file, replace the entry of the same key (others are kept: two processes tuning different
 * keys both keep theirs, the last writer wins for the same key) and write the whole file atomically (a temporary file
 * beside it moved into place, {@link AtomicFiles}). Thread-safe within a process.
 * </p>
 */
public final class Wisdom {

	public static final String FORMAT = "nufft-j wisdom";
	public static final int VERSION = 1;
	public static final String PROPERTY = "nufftj.wisdom", ENVIRONMENT = "NUFFTJ_WISDOM";

	private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls().create();

	private final Path file;
	private final Consumer<String> warnings;
	private boolean warned;

	/** The wisdom in {@code file}; problems with it go, one line each, to {@code warnings}. */
	public Wisdom(final Path file, final Consumer<String> warnings) {
		this.file = file;
		this.warnings = warnings;
	}

	/** The wisdom at {@link #defaultLocation()}. */
	public static Wisdom atDefaultLocation(final Consumer<String> warnings) {
		return new Wisdom(defaultLocation(), warnings);
	}

	/** The user-level wisdom file (see the class comment for the order). */
	public static Path defaultLocation() {
		final String property = System.getProperty(PROPERTY);
		if (property != null && !property.isBlank()) return Paths.get(property);
		final String env = System.getenv(ENVIRONMENT);
		if (env != null && !env.isBlank()) return Paths.get(env);
		final String xdg = System.getenv("XDG_CONFIG_HOME");
		final Path config = xdg != null && !xdg.isBlank() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"),
			".config");
		return config.resolve("nufft-j").resolve("wisdom.json");
	}

	// -- public API --

	public Path file() { return file; }

	/** The entry of {@code key}, if the file has one. */
	public synchronized Optional<Entry> lookup(final TuneKey key) {
		for (final Entry e : read().entries) if (e.key.equals(key)) return Optional.of(e);
		return Optional.empty();
	}

	/** Every readable entry of the file. */
	public synchronized List<Entry> entries() {
		return List.copyOf(read().entries);
	}

	/** Adds (or replaces) the entry of {@code e}'s key, keeping the other entries; written atomically. */
	public synchronized void record(final Entry e) throws IOException {
		final Contents c = read();
		final List<Entry> out = new ArrayList<>();
		for (final Entry old : c.entries) if (!old.key.equals(e.key)) out.add(old);
		out.add(e);
		final Path dir = file.toAbsolutePath().getParent();
		if (dir != null) Files.createDirectories(dir);
		if (c.unreadable) {
			final Path backup = file.resolveSibling(file.getFileName() + ".unreadable-" + Instant.now().toEpochMilli());
			Files.move(file, backup, StandardCopyOption.ATOMIC_MOVE);
			warn("NUFFT-J: the unreadable wisdom file was moved to " + backup + "; a new " + file + " is written");
		}
		final JsonObject root = new JsonObject();
		root.addProperty("format", FORMAT);
		root.addProperty("version", VERSION);
		final JsonArray entries = new JsonArray();
		for (final Entry x : out) entries.add(x.toJson());
		for (final JsonElement x : c.unknown) entries.add(x);
		root.add("entries", entries);
		AtomicFiles.write(file, stream -> {
			final Writer w = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
			GSON.toJson(root, w);
			w.write('\n');
			w.flush();
		});
	}

	// -- entries --

	/** One tuning result: its key, the winner, the mode that found it and the times measured (ms, medians). */
	public static final class Entry {

		private final TuneKey key;
		private final TunedParameters winner;
		private final TuneMode mode;
		private final double tunedMillis, defaultMillis, modelError;
		private final int candidates;
		private final String created;

		public Entry(final TuneKey key, final TunedParameters winner, final TuneMode mode, final double tunedMillis,
			final double defaultMillis, final double modelError, final int candidates, final String created)
		{
			this.key = key;
			this.winner = winner;
			this.mode = mode;
			this.tunedMillis = tunedMillis;
			this.defaultMillis = defaultMillis;
			this.modelError = modelError;
			this.candidates = candidates;
			this.created = created;
		}

		public TuneKey key() { return key; }

		public TunedParameters winner() { return winner; }

		public TuneMode mode() { return mode; }

		/** Median time of the winner when it was tuned (ms). */
		public double tunedMillis() { return tunedMillis; }

		/** Median time of the heuristic's plan in the same run (ms). */
		public double defaultMillis() { return defaultMillis; }

		public double modelError() { return modelError; }

		/** Candidates timed when it was tuned. */
		public int candidates() { return candidates; }

		public String created() { return created; }

		JsonObject toJson() {
			final JsonObject o = new JsonObject();
			o.addProperty("device", key.device());
			final JsonArray dims = new JsonArray();
			for (final int n : key.dims()) dims.add(n);
			o.add("dims", dims);
			o.addProperty("trajectory", key.trajectoryClass());
			o.addProperty("points", key.points());
			o.addProperty("pointsHash", key.pointsHash());
			o.addProperty("batch", key.batch());
			o.addProperty("precision", key.precision());
			o.addProperty("tolerance", key.tolerance());
			o.addProperty("direction", key.direction());
			o.addProperty("mode", mode.key());
			o.addProperty("kernel", winner.kernel().key());
			o.addProperty("oversampling", winner.oversampling());
			o.addProperty("width", winner.width());
			o.addProperty("spread", winner.spread().name().toLowerCase());
			final int[] b = winner.bins();
			if (b == null) o.add("bins", JsonNull.INSTANCE);
			else {
				final JsonArray bins = new JsonArray();
				for (final int n : b) bins.add(n);
				o.add("bins", bins);
			}
			o.addProperty("evaluation", winner.evaluation().name().toLowerCase());
			o.addProperty("tunedMs", tunedMillis);
			o.addProperty("defaultMs", defaultMillis);
			o.addProperty("modelError", modelError);
			o.addProperty("candidates", candidates);
			o.addProperty("created", created);
			return o;
		}

		/** An entry from its JSON object; any missing or out-of-range field is an exception naming it. */
		static Entry fromJson(final JsonObject o) {
			final JsonArray d = o.getAsJsonArray("dims");
			final int[] dims = new int[d.size()];
			for (int i = 0; i < dims.length; i++) dims[i] = d.get(i).getAsInt();
			final TuneKey key = new TuneKey(o.get("device").getAsString(), dims, o.get("trajectory").getAsString(),
				o.get("pointsHash").getAsString(), o.get("points").getAsInt(), o.get("batch").getAsInt(),
				o.get("precision").getAsString(), o.get("tolerance").getAsDouble(), o.get("direction").getAsString());
			final JsonElement be = o.get("bins");
			int[] bins = null;
			if (be != null && !be.isJsonNull()) {
				final JsonArray ba = be.getAsJsonArray();
				bins = new int[ba.size()];
				for (int i = 0; i < bins.length; i++) bins[i] = ba.get(i).getAsInt();
			}
			final TunedParameters w = new TunedParameters(KernelType.parse(o.get("kernel").getAsString()),
				o.get("oversampling").getAsDouble(), o.get("width").getAsInt(),
				SpreadMethod.parse(o.get("spread").getAsString()), bins,
				NufftOptions.Evaluation.valueOf(o.get("evaluation").getAsString().toUpperCase()));
			// Out-of-range values fail here, not at a plan.
			w.apply(NufftOptions.defaults());
			return new Entry(key, w, TuneMode.parse(o.get("mode").getAsString()), o.get("tunedMs").getAsDouble(),
				o.get("defaultMs").getAsDouble(), o.get("modelError").getAsDouble(), o.get("candidates").getAsInt(),
				o.get("created").getAsString());
		}
	}

	// -- helpers --

	/** What the file holds: readable entries, entries kept as they are (unreadable ones), or an unreadable file. */
	private static final class Contents {
		final List<Entry> entries = new ArrayList<>();
		final List<JsonElement> unknown = new ArrayList<>();
		boolean unreadable;
	}

	private Contents read() {
		final Contents c = new Contents();
		final String text;
		try {
			text = Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (final NoSuchFileException e) {
			return c;
		}
		catch (final IOException | RuntimeException e) {
			warn("NUFFT-J: wisdom file " + file + " is not readable (" + e.getMessage() + "); ignored");
			c.unreadable = Files.exists(file);
			return c;
		}
		final JsonObject root;
		try {
			final JsonElement e = JsonParser.parseString(text);
			root = e.isJsonObject() ? e.getAsJsonObject() : null;
		}
		catch (final JsonParseException | IllegalStateException e) {
			warn("NUFFT-J: wisdom file " + file + " is not valid JSON; ignored (kept as " + file.getFileName() +
				".unreadable-<time> when a tuning result is written)");
			c.unreadable = true;
			return c;
		}
		final JsonElement format = root == null ? null : root.get("format"), version = root == null ? null :
			root.get("version"), entries = root == null ? null : root.get("entries");
		if (format == null || !format.isJsonPrimitive() || !FORMAT.equals(format.getAsString()) || version == null ||
			!version.isJsonPrimitive() || version.getAsDouble() != VERSION || entries == null || !entries.isJsonArray())
		{
			warn("NUFFT-J: wisdom file " + file + " is not a \"" + FORMAT + "\" file of version " + VERSION +
				"; ignored (kept as " + file.getFileName() +
				".unreadable-<time> when a tuning result is written)");
			c.unreadable = true;
			return c;
		}
		for (final JsonElement e : entries.getAsJsonArray()) {
			try {
				c.entries.add(Entry.fromJson(e.getAsJsonObject()));
			}
			catch (final RuntimeException x) {
				warn("NUFFT-J: wisdom file " + file + ": an entry is unreadable (" + x.getMessage() + "); skipped");
				c.unknown.add(e);
			}
		}
		return c;
	}

	/** One warning per Wisdom object: a bad file is reported once, not at every plan. */
	private void warn(final String message) {
		if (warned || warnings == null) return;
		warned = true;
		warnings.accept(message);
	}
}
