package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.InvalidInputException;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.DeviceException;

import picocli.CommandLine;

/**
 * The exit-code table (0 ok, 1 bad input, 2 I/O, 3 out of memory, 4 GPU, 5 internal, 130 interrupted), the same for
 * every subcommand, and the reproductions of issue 11 that ended in a raw trace or a wrong code.
 */
class ExitCodesTest {

	@TempDir
	Path dir;

	@Test
	void noArgumentsPrintsUsageAndExitsTwo() {
		final Cli.Result r = Cli.run();
		assertEquals(2, r.code, r.toString());
		assertEquals(Main.NO_COMMAND, r.code);
		assertTrue(r.err.contains("Usage: nufft-j"), r.toString());
	}

	@Test
	void everySubcommandsHelpEndsWithTheTable() {
		final CommandLine cl = Main.commandLine(null);
		for (final String sub : cl.getSubcommands().keySet()) {
			if (sub.equals("help")) continue;
			final Cli.Result r = Cli.run(sub, "--help");
			assertEquals(0, r.code, sub + ": " + r);
			final String help = r.out.replaceAll("\\s+", " ");
			assertTrue(help.contains("Exit codes:"), sub + ": " + r.out);
			for (final int code : new int[] { Main.OK, Main.BAD_INPUT, Main.IO, Main.OUT_OF_MEMORY, Main.GPU,
				Main.INTERNAL, Main.INTERRUPTED })
				assertTrue(help.contains(" " + code + " "), sub + " lists exit code " + code + ": " + r.out);
		}
	}

	@Test
	void eachKindOfFailureHasItsCode() {
		assertEquals(1, Main.exitCode(new InvalidInputException("x")));
		assertEquals(2, Main.exitCode(new IOException("No space left on device")));
		assertEquals(2, Main.exitCode(new java.io.UncheckedIOException(new AccessDeniedException("/out"))));
		assertEquals(3, Main.exitCode(new OutOfMemoryError("Java heap space")));
		// Wrapped by a thread pool, out of memory is still out of memory.
		assertEquals(3, Main.exitCode(new RuntimeException(new java.util.concurrent.ExecutionException(
			new OutOfMemoryError("Java heap space")))));
		assertEquals(4, Main.exitCode(new DeviceException("cuLaunchKernel failed")));
		assertEquals(4, Main.exitCode(new RuntimeException("plan", new DeviceException("no CUDA device"))));
		assertEquals(5, Main.exitCode(new IllegalStateException("bug")));
		assertEquals(130, Main.exitCode(new CancellationException()));
		assertEquals(130, Main.exitCode(new RuntimeException(new InterruptedException())));
	}

	/** Issue 11: "every out-of-memory in the CLI prints a raw java.lang.OutOfMemoryError trace, e.g. recon -d 8192:8192:1". */
	@Test
	void outOfMemoryIsOneLineWithTheHeapHint() throws Exception {
		assertEquals(0, Cli.run("simulate", "--matrix", 32, "--coils", 2, dir.resolve("t"), dir.resolve("k")).code);
		final Cli.Result r = Cli.fork(dir, List.of("-Xmx128m"), Main.class.getName(), "recon", "-d", "8192:8192:1", "t",
			"k", "o");
		assertEquals(Main.OUT_OF_MEMORY, r.code, r.toString());
		final String err = r.err.trim();
		assertEquals(1, err.split("\n").length, "one line: " + err);
		assertTrue(err.startsWith("nufft-j: out of memory") && err.contains("NUFFTJ_JAVA_OPTS=-Xmx"), err);
		assertFalse(err.contains("java.lang.OutOfMemoryError") || err.contains("\tat "), err);
		assertFalse(Files.exists(dir.resolve("o.cfl")), "no output");
	}

	/** Issue 11: "bench --size 100000 → NegativeArraySizeException" (int overflow in a size). */
	@Test
	void sizesBeyondAnArrayAreOneLineNotAnOverflow() {
		final Cli.Result r = Cli.run("bench", "--size", 100000, "--coils", 1, "--tolerances", "1e-3");
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertOneLine(r, "100000x100000", "20000000000"); // 2 floats x 100000^2 x 1 coil, computed in long
	}

	/** Issue 11: "dims 2^32 → expected 0 bytes": the product of a header's sizes overflowed. */
	@Test
	void hugeHeaderDimsAreOneLineWithTheirSizes() throws IOException {
		Cfl.write(dir.resolve("t"), new long[] { 3, 4, 1 }, new float[24]);
		Files.writeString(dir.resolve("k.hdr"), "# Dimensions\n1 4294967296 4294967296 1\n");
		Files.write(dir.resolve("k.cfl"), new byte[0]);
		final Cli.Result r = Cli.run("adjoint", "-d", "8:8:1", dir.resolve("t"), dir.resolve("k"), dir.resolve("o"));
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertOneLine(r, "k.hdr", "4294967296");
		assertFalse(r.err.contains("expected 0 bytes") || r.err.matches("(?s).*[ \\[]-\\d.*"), "no overflowed size: " +
			r.err);
	}

	/** Issue 11: "a kz of 3e9 → an image of -2 pixels" (the estimated matrix overflowed int). */
	@Test
	void aHugeCoordinateIsOneLineWithTheEstimate() throws IOException {
		final float[] t = new float[2 * 3 * 8];
		for (int p = 0; p < 8; p++) {
			t[2 * 3 * p] = p - 4;
			t[2 * (3 * p + 1)] = 4 - p;
		}
		t[2 * (3 * 5 + 2)] = 3e9f;
		Cfl.write(dir.resolve("t"), new long[] { 3, 8, 1 }, t);
		Cfl.write(dir.resolve("k"), new long[] { 1, 8, 1 }, new float[16]);
		final Cli.Result r = Cli.run("adjoint", dir.resolve("t"), dir.resolve("k"), dir.resolve("o"));
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertOneLine(r, "axis 2", "3.0E9", "-d");
		assertFalse(r.err.contains("-2 pixels"), r.err);
	}

	/** A simulation that cannot fit the heap is refused at once with the figure (it once ground 118 s). */
	@Test
	void simulationBeyondTheHeapIsRefusedWithTheFigure() {
		final long max = Runtime.getRuntime().maxMemory();
		// 512^2 golden-angle: 1024 x 805 samples; 24 bytes per sample and coil must exceed the heap.
		final int coils = (int) Math.min(1024, max / (24L * 1024 * 805) + 8);
		org.junit.jupiter.api.Assumptions.assumeTrue(24L * 1024 * 805 * coils > max, "heap too large for this case");
		final Cli.Result r = Cli.run("simulate", "--matrix", 512, "--coils", coils, dir.resolve("t"), dir.resolve("k"));
		assertEquals(Main.OUT_OF_MEMORY, r.code, r.toString());
		assertOneLine(r, "GiB", "NUFFTJ_JAVA_OPTS");
	}

	/** Issue 11: "exit codes differ for the same fault (missing folder: 1 for TIFF, 2 for .cfl)". */
	@Test
	void aMissingOutputFolderIsBadInputForEveryFormat() {
		assertEquals(0, Cli.run("simulate", "--matrix", 16, "--coils", 1, dir.resolve("t"), dir.resolve("k")).code);
		for (final String name : new String[] { "o.tif", "o.cfl", "o" }) {
			final Path out = dir.resolve("nowhere").resolve(name);
			final Cli.Result r = Cli.run("recon", dir.resolve("t"), dir.resolve("k"), out);
			assertEquals(Main.BAD_INPUT, r.code, name + ": " + r);
			assertOneLine(r, "nowhere", "does not exist");
		}
	}

	@Test
	void anUnwritableFolderIsAnIoFailure() throws IOException {
		assertEquals(0, Cli.run("simulate", "--matrix", 16, "--coils", 1, dir.resolve("t"), dir.resolve("k")).code);
		final Path ro = Files.createDirectory(dir.resolve("ro"));
		org.junit.jupiter.api.Assumptions.assumeTrue(ro.toFile().setWritable(false, false) && !Files.isWritable(ro),
			"running as root: permissions are not enforced");
		try {
			final Cli.Result r = Cli.run("recon", dir.resolve("t"), dir.resolve("k"), ro.resolve("o.tif"));
			assertEquals(Main.IO, r.code, r.toString());
			assertOneLine(r, "o.tif", "permission denied");
			assertFalse(r.err.contains(".nufftj-"), "names the final path, not the temporary one: " + r.err);
		}
		finally {
			ro.toFile().setWritable(true, false);
		}
	}

	static void assertOneLine(final Cli.Result r, final String... fragments) {
		final String err = r.err.trim();
		assertEquals(1, err.split("\n").length, "exactly one line: " + r);
		assertFalse(err.contains("\tat ") || err.contains("Exception"), "no trace or exception name: " + err);
		for (final String f : fragments) assertTrue(err.contains(f), "names '" + f + "': " + err);
	}
}
