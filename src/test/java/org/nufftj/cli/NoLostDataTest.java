package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11's lost-data reproductions: an output named like an input (or its companion file) is refused before
 * anything is written and the inputs stay byte for byte as they were; multi-file outputs appear together or not at
 * all; {@code adjoint … out.tif} writes that TIFF, not {@code out.tif.cfl}.
 */
class NoLostDataTest {

	@TempDir
	Path dir;

	private Map<String, byte[]> before;

	@BeforeEach
	void inputs() throws IOException {
		assertEquals(0, Cli.run("simulate", "--matrix", 16, "--coils", 2, dir.resolve("t"), dir.resolve("k")).code);
		Files.copy(dir.resolve("t.cfl"), dir.resolve("k_traj.cfl"));
		Files.copy(dir.resolve("t.hdr"), dir.resolve("k_traj.hdr"));
		Files.copy(dir.resolve("k.cfl"), dir.resolve("o-cpu.cfl"));
		Files.copy(dir.resolve("k.hdr"), dir.resolve("o-cpu.hdr"));
		assertEquals(0, Cli.run("adjoint", dir.resolve("t"), dir.resolve("k"), dir.resolve("img")).code);
		before = contents();
	}

	/** Issue 11: "nufft-j recon t k k (output = an input) overwrites the raw data, exit 0". */
	@Test
	void anOutputOverAnInputIsRefusedAndTheInputsStay() throws IOException {
		final Path t = dir.resolve("t"), k = dir.resolve("k"), img = dir.resolve("img");
		refused(k, "recon", t, k, k);
		refused(k.resolveSibling("k.cfl"), "recon", t, k, dir.resolve("k.cfl"));
		refused(k.resolveSibling("k.hdr"), "recon", t, k, dir.resolve("k.hdr")); // the companion
		refused(t, "recon", t, k, t);
		refused(k, "recon", k, k); // k-space alone: its own name
		refused(dir.resolve("k_traj"), "recon", k, dir.resolve("k_traj")); // the trajectory read beside it
		refused(k, "adjoint", t, k, k);
		refused(t, "adjoint", t, k, dir.resolve("t.hdr"));
		refused(img, "forward", t, img, img);
		// --compare also writes <output>-cpu: here that is the k-space read.
		refused(dir.resolve("o-cpu"), "recon", "--compare", t, dir.resolve("o-cpu"), dir.resolve("o"));
	}

	/** Issue 11: "adjoint … out.tif writes out.tif.cfl". It writes out.tif, a TIFF of the magnitude. */
	@Test
	void adjointToATiffWritesThatTiff() throws IOException {
		final Cli.Result r = Cli.run("adjoint", dir.resolve("t"), dir.resolve("k"), dir.resolve("out.tif"));
		assertEquals(0, r.code, r.toString());
		final byte[] b = Files.readAllBytes(dir.resolve("out.tif"));
		assertTrue(b.length > 16 * 16 * 4 * 2 && b[0] == 'I' && b[1] == 'I' && b[2] == 42, "a little-endian TIFF");
		assertFalse(Files.exists(dir.resolve("out.tif.cfl")) || Files.exists(dir.resolve("out.tif.hdr")));
		final Cli.Result f = Cli.run("forward", dir.resolve("t"), dir.resolve("img"), dir.resolve("k2.tif"));
		assertEquals(Main.BAD_INPUT, f.code, f.toString());
		ExitCodesTest.assertOneLine(f, "k2.tif", "not TIFF");
		assertFalse(Files.exists(dir.resolve("k2.tif.cfl")) || Files.exists(dir.resolve("k2.tif")));
	}

	/** Issue 11: "simulate on a full disk leaves <traj>.cfl/.hdr behind": the k-space file fails, so no trajectory. */
	@Test
	void simulateWritesAllItsFilesOrNone() throws IOException {
		Files.createDirectories(dir.resolve("k2.cfl").resolve("blocker")); // k2.cfl cannot be replaced
		final Cli.Result r = Cli.run("simulate", "--matrix", 16, "--coils", 2, dir.resolve("t2"), dir.resolve("k2"));
		assertEquals(Main.IO, r.code, r.toString());
		ExitCodesTest.assertOneLine(r, "k2.cfl");
		assertFalse(r.err.contains(".nufftj-"), "names the final path: " + r.err);
		assertFalse(Files.exists(dir.resolve("t2.cfl")) || Files.exists(dir.resolve("t2.hdr")), "no trajectory alone");
		assertFalse(Files.exists(dir.resolve("k2.hdr")), "no header alone");
		noTemporaryFiles();
	}

	/** Issue 11: a legal 244-character output name failed ("File name too long") through its temporary name. */
	@Test
	void aLongOutputNameWorks() throws IOException {
		final String name = "r".repeat(240);
		final Cli.Result r = Cli.run("recon", dir.resolve("t"), dir.resolve("k"), dir.resolve(name + ".tif"));
		assertEquals(0, r.code, r.toString());
		assertTrue(Files.exists(dir.resolve(name + ".tif")));
		final Cli.Result c = Cli.run("adjoint", dir.resolve("t"), dir.resolve("k"), dir.resolve(name));
		assertEquals(0, c.code, c.toString());
		assertTrue(Files.exists(dir.resolve(name + ".cfl")) && Files.exists(dir.resolve(name + ".hdr")));
		noTemporaryFiles();
	}

	// -- helpers --

	private void refused(final Path named, final Object... args) throws IOException {
		final Cli.Result r = Cli.run(args);
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		ExitCodesTest.assertOneLine(r, "would overwrite", named.getFileName().toString());
		final Map<String, byte[]> after = contents();
		assertEquals(before.keySet(), after.keySet(), "no file added or removed by " + java.util.Arrays.toString(args));
		for (final var e : before.entrySet()) assertArrayEquals(e.getValue(), after.get(e.getKey()), e.getKey() +
			" unchanged");
	}

	private Map<String, byte[]> contents() throws IOException {
		final Map<String, byte[]> m = new TreeMap<>();
		try (Stream<Path> s = Files.list(dir)) {
			for (final Path p : (Iterable<Path>) s::iterator)
				if (Files.isRegularFile(p)) m.put(p.getFileName().toString(), Files.readAllBytes(p));
		}
		return m;
	}

	private void noTemporaryFiles() throws IOException {
		try (Stream<Path> s = Files.list(dir)) {
			assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".nufftj-")), "temporary files left");
		}
	}
}
