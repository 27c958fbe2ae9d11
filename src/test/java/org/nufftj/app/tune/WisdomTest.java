package org.nufftj.app.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.nufft.TuneMode;
import org.nufftj.nufft.cpu.CpuBackend;
import org.nufftj.trajectory.Trajectory;

/** The wisdom file: round trip, merging, corrupt and foreign files (one warning, ignored, backed up), location. */
class WisdomTest {

	private static final Trajectory T = TestTrajectories.make("random", new int[] { 16, 16 }, 300, new Random(3));
	private static final NufftOptions O = NufftOptions.defaults().withTolerance(1e-3);

	@Test
	void entriesRoundTripAndMerge(@TempDir final Path dir) throws IOException {
		final Path f = dir.resolve("sub").resolve("wisdom.json");
		final Wisdom w = new Wisdom(f, null);
		final TuneKey k1 = TuneKey.of("dev A", new int[] { 16, 16 }, T, 4, O, TuneDirection.ADJOINT);
		final TuneKey k2 = TuneKey.of("dev A", new int[] { 16, 16, 8 }, T, 4, O, TuneDirection.ADJOINT);
		final TunedParameters p1 = new TunedParameters(KernelType.EXP_SEMICIRCLE, 1.25, 7, SpreadMethod.SHARED,
			new int[] { 16, 16 }, NufftOptions.Evaluation.ONLINE);
		final TunedParameters p2 = new TunedParameters(KernelType.KAISER_BESSEL, 2.0, 4, SpreadMethod.AUTO, null,
			NufftOptions.Evaluation.LOOKUP);
		w.record(new Wisdom.Entry(k1, p1, TuneMode.QUICK, 1.5, 2.5, 3e-4, 7, "then"));
		w.record(new Wisdom.Entry(k2, p2, TuneMode.EXHAUSTIVE, 0.5, 0.75, 4e-4, 20, "now"));
		final Wisdom again = new Wisdom(f, null);
		assertEquals(2, again.entries().size());
		final Wisdom.Entry e1 = again.lookup(k1).orElseThrow();
		assertEquals(p1, e1.winner());
		assertEquals(TuneMode.QUICK, e1.mode());
		assertEquals(1.5, e1.tunedMillis());
		assertEquals(2.5, e1.defaultMillis());
		assertEquals(3e-4, e1.modelError());
		assertEquals(7, e1.candidates());
		assertEquals(p2, again.lookup(k2).orElseThrow().winner());
		// The same key again replaces its entry, the other is kept.
		again.record(new Wisdom.Entry(k1, p2, TuneMode.QUICK, 1.0, 2.5, 4e-4, 7, "later"));
		final Wisdom third = new Wisdom(f, null);
		assertEquals(2, third.entries().size());
		assertEquals(p2, third.lookup(k1).orElseThrow().winner());
		assertTrue(Files.readString(f).contains("\"format\": \"nufft-j wisdom\""));
		assertEquals(List.of("wisdom.json"), names(f.getParent()), "no temporary file left beside it");
	}

	/** Keys hash their points only when asked; the hash still tells other points of the same count apart. */
	@Test
	void keysMatchOnlyTheSamePoints(@TempDir final Path dir) throws IOException {
		final Trajectory other = TestTrajectories.make("random", new int[] { 16, 16 }, 300, new Random(4));
		assertEquals(T.count(), other.count());
		final TuneKey k = TuneKey.of("dev A", new int[] { 16, 16 }, T, 4, O, TuneDirection.ADJOINT);
		final TuneKey same = TuneKey.of("dev A", new int[] { 16, 16 }, T, 4, O, TuneDirection.ADJOINT);
		final TuneKey moved = TuneKey.of("dev A", new int[] { 16, 16 }, other, 4, O, TuneDirection.ADJOINT);
		assertEquals(k, same);
		assertEquals(k.hashCode(), same.hashCode());
		assertFalse(k.equals(moved));
		assertEquals(TuneKey.hash(T), k.pointsHash());
		assertEquals(TuneKey.trajectoryClass(T), k.trajectoryClass());
		final Wisdom w = new Wisdom(dir.resolve("wisdom.json"), null);
		w.record(new Wisdom.Entry(k, new TunedParameters(KernelType.KAISER_BESSEL, 2.0, 4, SpreadMethod.AUTO, null,
			NufftOptions.Evaluation.LOOKUP), TuneMode.QUICK, 1, 2, 3e-4, 5, "now"));
		assertTrue(w.lookup(same).isPresent());
		assertFalse(w.lookup(moved).isPresent());
	}

	@Test
	void aCorruptFileIsIgnoredWithOneWarningAndBackedUp(@TempDir final Path dir) throws IOException {
		unreadable(dir, "{\"format\": \"nufft-j wisdom\", \"entries\": [ {\"devi");
	}

	@Test
	void aForeignFileIsIgnoredWithOneWarningAndBackedUp(@TempDir final Path dir) throws IOException {
		unreadable(dir, "{\"format\": \"fftw wisdom\", \"version\": 1, \"entries\": []}");
		unreadable(Files.createDirectories(dir.resolve("v2")), "{\"format\": \"nufft-j wisdom\", \"version\": 2, \"entries\": []}");
		unreadable(Files.createDirectories(dir.resolve("array")), "[1, 2, 3]");
	}

	@Test
	void anUnreadableEntryIsSkippedAndKept(@TempDir final Path dir) throws IOException {
		final Path f = dir.resolve("wisdom.json");
		final Wisdom w = new Wisdom(f, null);
		final TuneKey k = TuneKey.of("dev", new int[] { 16, 16 }, T, 1, O, TuneDirection.BOTH);
		w.record(new Wisdom.Entry(k, new TunedParameters(KernelType.KAISER_BESSEL, 2.0, 5, SpreadMethod.AUTO, null,
			NufftOptions.Evaluation.ONLINE), TuneMode.QUICK, 1, 1, 1e-4, 3, "x"));
		// A hand edit puts W out of range: the entry is skipped with one warning, and kept in the file.
		Files.writeString(f, Files.readString(f).replace("\"width\": 5", "\"width\": 99"));
		final List<String> warnings = new ArrayList<>();
		final Wisdom edited = new Wisdom(f, warnings::add);
		assertFalse(edited.lookup(k).isPresent());
		assertFalse(edited.lookup(k).isPresent());
		assertEquals(1, warnings.size(), warnings.toString());
		assertTrue(warnings.get(0).contains("width"), warnings.get(0));
		final TuneKey other = TuneKey.of("dev", new int[] { 16, 16 }, T, 2, O, TuneDirection.BOTH);
		edited.record(new Wisdom.Entry(other, new TunedParameters(KernelType.KAISER_BESSEL, 2.0, 5, SpreadMethod.AUTO,
			null, NufftOptions.Evaluation.ONLINE), TuneMode.QUICK, 1, 1, 1e-4, 3, "y"));
		assertTrue(Files.readString(f).contains("\"width\": 99"), "the unreadable entry is kept as it was");
	}

	@Test
	void theLocationFollowsThePropertyThenTheEnvironment() {
		final String old = System.getProperty(Wisdom.PROPERTY);
		try {
			System.setProperty(Wisdom.PROPERTY, "/some/where/w.json");
			assertEquals(Paths.get("/some/where/w.json"), Wisdom.defaultLocation());
			System.clearProperty(Wisdom.PROPERTY);
			final String env = System.getenv(Wisdom.ENVIRONMENT);
			// pom.xml points the tests' NUFFTJ_WISDOM into target/: tests never touch the user's wisdom.
			if (env != null) assertEquals(Paths.get(env), Wisdom.defaultLocation());
			else assertTrue(Wisdom.defaultLocation().endsWith(Paths.get("nufft-j", "wisdom.json")));
		}
		finally {
			if (old == null) System.clearProperty(Wisdom.PROPERTY);
			else System.setProperty(Wisdom.PROPERTY, old);
		}
	}

	// -- helpers --

	/**
	 * {@code text} in dir/wisdom.json: lookups find nothing with exactly one warning, tuning still runs and records
	 * its winner in a new file, and the old one is kept beside it, byte for byte.
	 */
	private static void unreadable(final Path dir, final String text) throws IOException {
		final Path f = dir.resolve("wisdom.json");
		Files.writeString(f, text, StandardCharsets.UTF_8);
		final List<String> warnings = new ArrayList<>();
		final Wisdom w = new Wisdom(f, warnings::add);
		final int[] size = { 16, 16 };
		final TuneKey k = TuneKey.of("dev", size, T, 1, O, TuneDirection.ADJOINT);
		assertFalse(w.lookup(k).isPresent());
		assertTrue(w.entries().isEmpty());
		final Tuner.Report r;
		try (CpuBackend cpu = new CpuBackend(1)) {
			r = new Tuner(w, warnings::add).tune(cpu, T, size, 1, O, TuneDirection.ADJOINT, TuneMode.QUICK, 1, true);
		}
		assertTrue(r.timed() >= 1, r.table());
		assertEquals(1, warnings.size(), "one warning: " + warnings);
		assertTrue(warnings.get(0).contains(f.toString()) && warnings.get(0).contains("ignored"), warnings.get(0));
		final Wisdom fresh = new Wisdom(f, x -> { throw new AssertionError("the new file is readable: " + x); });
		assertEquals(1, fresh.entries().size());
		assertEquals(r.winner(), fresh.entries().get(0).winner());
		final List<Path> backups;
		try (Stream<Path> s = Files.list(f.getParent())) {
			backups = s.filter(p -> p.getFileName().toString().startsWith("wisdom.json.unreadable-"))
				.collect(Collectors.toList());
		}
		assertEquals(1, backups.size(), backups.toString());
		assertEquals(text, Files.readString(backups.get(0)));
		Files.delete(backups.get(0));
	}

	private static List<String> names(final Path dir) throws IOException {
		try (Stream<Path> s = Files.list(dir)) {
			return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
		}
	}

}
