package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.io.Cfl;
import org.nufftj.io.IsmrmrdTools;

/**
 * Bounded, seeded fuzzing of the input files (issue 11): mutations of a BART pair in the sample's format (a small
 * {@code nufft-j simulate} pair, so that the cases that still load reconstruct in milliseconds) and of a small ISMRMRD
 * file from the fixture writer — byte flips, truncations, appended bytes, header dimension edits — each run through
 * {@code nufft-j recon} in this JVM. Every case must end as a success (exit 0, the output complete) or as the
 * bad-input exit with exactly one {@code nufft-j: } line and no stack trace (an {@code InvalidInputException}, or a
 * missing file); any other exit, a trace, a case that runs past its time limit, or a file left in the case's output
 * folder fails the test, naming the seed, the case and its mutation.
 */
class FuzzInputTest {

	static final long SEED = 20261124L;
	static final int SECONDS_PER_CASE = 20;

	@TempDir
	static Path dir;

	static ExecutorService runner;

	@BeforeAll
	static void start() {
		runner = Executors.newSingleThreadExecutor(r -> {
			final Thread t = new Thread(r, "fuzz case");
			t.setDaemon(true);
			return t;
		});
	}

	@AfterAll
	static void stop() {
		runner.shutdownNow();
	}

	@Test
	void mutatedBartPairsEndInSuccessOrOneBadInputLine() throws Exception {
		final Path base = dir.resolve("base");
		Files.createDirectories(base);
		final Cli.Result made = Cli.run("simulate", "--trajectory", "radial", "--matrix", "24", "--coils", "2",
			"--readout", "48", "--shots", "40", base.resolve("k_traj"), base.resolve("k"));
		assertEquals(0, made.code, made.toString());
		final String[] files = { "k.cfl", "k.hdr", "k_traj.cfl", "k_traj.hdr" };
		final Map<String, byte[]> original = new TreeMap<>();
		for (final String f : files) original.put(f, Files.readAllBytes(base.resolve(f)));
		final Random random = new Random(SEED);
		final Map<String, Integer> outcomes = new TreeMap<>();
		final List<String> failures = new ArrayList<>();
		for (int c = 0; c < 210; c++) {
			final Path in = dir.resolve("bart" + c), out = dir.resolve("bart" + c + "-out");
			Files.createDirectories(in);
			Files.createDirectories(out);
			for (final String f : files) Files.write(in.resolve(f), original.get(f));
			final String target = files[random.nextInt(files.length)];
			final String what = target.endsWith(".hdr") ? mutateHeader(in.resolve(target), random) : mutateBytes(in
				.resolve(target), random);
			final String wrong = check("case " + c + " (seed " + SEED + "): " + target + " " + what, out, outcomes,
				"recon", "--device", "cpu", in.resolve("k_traj"), in.resolve("k"), out.resolve("r"));
			if (wrong != null) failures.add(wrong);
		}
		System.out.println("FuzzInputTest BART outcomes: " + outcomes);
		assertNoFailures(failures, 210);
		assertTrue(outcomes.getOrDefault("ok", 0) > 0 && outcomes.getOrDefault("bad input", 0) > 0, "both outcomes "
			+ "occur (the mutations reach past the first check): " + outcomes);
	}

	@Test
	void mutatedIsmrmrdFilesEndInSuccessOrOneBadInputLine() throws Exception {
		final Path writer = IsmrmrdTools.fixtureWriter();
		assumeTrue(writer != null, IsmrmrdTools.why);
		final Path h5 = dir.resolve("base.h5");
		IsmrmrdTools.run(List.of(writer.toString(), h5.toString(), "--kind", "radial", "--matrix", "16", "--shots",
			"24", "--coils", "2", "--noise-scan"), dir);
		final byte[] original = Files.readAllBytes(h5);
		final Random random = new Random(SEED + 1);
		final Map<String, Integer> outcomes = new TreeMap<>();
		final List<String> failures = new ArrayList<>();
		for (int c = 0; c < 100; c++) {
			final Path in = dir.resolve("h5-" + c + ".h5"), out = dir.resolve("h5-" + c + "-out");
			Files.createDirectories(out);
			Files.write(in, original);
			final String what = mutateBytes(in, random);
			final String wrong = check("case " + c + " (seed " + (SEED + 1) + "): .h5 " + what, out, outcomes, "recon",
				"--device", "cpu", in, out.resolve("r.tif"));
			if (wrong != null) failures.add(wrong);
		}
		System.out.println("FuzzInputTest ISMRMRD outcomes: " + outcomes);
		assertNoFailures(failures, 100);
		assertTrue(outcomes.getOrDefault("bad input", 0) > 0, "some mutations are refused: " + outcomes);
	}

	// -- helpers --

	/**
	 * Runs one case under its time limit; returns what is wrong with its outcome or its output folder, or null. The
	 * outcome is counted in {@code outcomes}.
	 */
	private static String check(final String label, final Path out, final Map<String, Integer> outcomes,
		final Object... args) throws Exception
	{
		final Future<Cli.Result> f = runner.submit(() -> Cli.run(args));
		final Cli.Result r;
		try {
			r = f.get(SECONDS_PER_CASE, TimeUnit.SECONDS);
		}
		catch (final TimeoutException e) {
			f.cancel(true);
			outcomes.merge("timed out", 1, Integer::sum);
			return label + ": still running after " + SECONDS_PER_CASE + " s";
		}
		final List<String> left = list(out);
		if (r.code == Main.OK) {
			outcomes.merge("ok", 1, Integer::sum);
			if (System.getProperty("fuzz.verbose") != null) System.out.println("OK " + label);
			if (!left.equals(List.of("r.cfl", "r.hdr")) && !left.equals(List.of("r.tif"))) return label +
				": success leaves exactly its output, found " + left;
			// A success must be a real image: a non-finite input value that made it NaN would be a silent wrong result.
			final float[] values = left.contains("r.tif") ? CliTest.readTiff(out.resolve("r.tif"), 16, 16)[0] : Cfl.read(
				out.resolve("r")).data();
			for (final float v : values) if (!Float.isFinite(v)) return label + ": success with a non-finite image";
			return null;
		}
		outcomes.merge(r.code == Main.BAD_INPUT ? "bad input" : "exit " + r.code, 1, Integer::sum);
		final String[] lines = r.err.strip().split("\n");
		if (r.code != Main.BAD_INPUT) return label + ": expected success or the bad-input exit; " + r;
		if (lines.length != 1 || !lines[0].startsWith("nufft-j: ")) return label + ": one line, no trace; " + r;
		return left.isEmpty() ? null : label + ": a failure leaves nothing in the output folder, found " + left;
	}

	private static void assertNoFailures(final List<String> failures, final int cases) {
		assertTrue(failures.isEmpty(), failures.size() + " of " + cases + " cases wrong:\n" + failures.stream().limit(
			12).collect(Collectors.joining("\n")));
	}

	/** Byte flips, a truncation or appended bytes. */
	private static String mutateBytes(final Path p, final Random random) throws IOException {
		final byte[] b = Files.readAllBytes(p);
		switch (random.nextInt(4)) {
			case 0: {
				final int n = 1 + random.nextInt(4);
				final StringBuilder s = new StringBuilder("bytes set:");
				for (int i = 0; i < n; i++) {
					// Half the flips in the first 4 KiB, where headers and metadata live.
					final int at = random.nextBoolean() ? random.nextInt(Math.min(4096, b.length)) : random.nextInt(b.length);
					b[at] = (byte) random.nextInt(256);
					s.append(' ').append(at);
				}
				Files.write(p, b);
				return s.toString();
			}
			case 1: {
				final int at = random.nextInt(b.length);
				Files.write(p, Arrays.copyOf(b, at));
				return "truncated to " + at + " of " + b.length + " bytes";
			}
			case 2: {
				final byte[] extra = new byte[1 + random.nextInt(16)];
				random.nextBytes(extra);
				final byte[] c = Arrays.copyOf(b, b.length + extra.length);
				System.arraycopy(extra, 0, c, b.length, extra.length);
				Files.write(p, c);
				return "appended " + extra.length + " bytes";
			}
			default: {
				// A whole float made extreme: NaN, infinity or a huge value.
				final float[] v = { Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1e30f, -3e9f };
				final float x = v[random.nextInt(v.length)];
				final int at = 4 * random.nextInt(b.length / 4);
				final int bits = Float.floatToRawIntBits(x);
				for (int i = 0; i < 4; i++) b[at + i] = (byte) (bits >>> (8 * i));
				Files.write(p, b);
				return "float at byte " + at + " set to " + x;
			}
		}
	}

	/** A BART header edit: one dimension changed, the dims line removed or garbled, or an extra dimension. */
	private static String mutateHeader(final Path p, final Random random) throws IOException {
		final List<String> lines = new ArrayList<>(Arrays.asList(Files.readString(p, StandardCharsets.UTF_8).split("\n")));
		final int dimsLine = 1;
		final String[] dims = lines.get(dimsLine).trim().split("\\s+");
		final String[] values = { "0", "1", "2", "3", "-1", "7", "65536", "2147483647", "4294967296", "9999999999999",
			"x", "1.5" };
		switch (random.nextInt(5)) {
			case 0:
			case 1: {
				final int axis = random.nextInt(dims.length);
				final String old = dims[axis];
				dims[axis] = values[random.nextInt(values.length)];
				lines.set(dimsLine, String.join(" ", dims));
				Files.writeString(p, String.join("\n", lines) + "\n");
				return "dim " + axis + " " + old + " -> " + dims[axis];
			}
			case 2:
				lines.remove(dimsLine);
				Files.writeString(p, String.join("\n", lines) + "\n");
				return "dims line removed";
			case 3:
				lines.set(dimsLine, lines.get(dimsLine) + " 2");
				Files.writeString(p, String.join("\n", lines) + "\n");
				return "a 17th dimension";
			default: {
				final String text = String.join("\n", lines);
				final int at = random.nextInt(text.length());
				Files.writeString(p, text.substring(0, at));
				return "header truncated to " + at + " characters";
			}
		}
	}

	private static List<String> list(final Path d) throws IOException {
		try (Stream<Path> s = Files.list(d)) {
			return s.map(x -> x.getFileName().toString()).sorted().collect(Collectors.toList());
		}
	}
}
