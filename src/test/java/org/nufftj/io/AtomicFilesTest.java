package org.nufftj.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs appear whole or not at all, with the permissions any new file of this process gets. */
class AtomicFilesTest {

	@TempDir
	Path dir;

	@Test
	void writtenFileHasTheDefaultPermissionsOfANewFile() throws IOException {
		Assumptions.assumeTrue(Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "no POSIX file system");
		final Path out = dir.resolve("image.tif");
		AtomicFiles.write(out, o -> o.write(new byte[] { 1, 2, 3 }));
		final Path plain = Files.createFile(dir.resolve("plain"));
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out));
		Cfl.write(dir.resolve("k"), new long[] { 2 }, new float[] { 1, 2, 3, 4 });
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(dir.resolve("k.cfl")));
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(dir.resolve("k.hdr")));
	}

	@Test
	void aFailedWriteLeavesNothing() throws IOException {
		final Path out = dir.resolve("result.cfl");
		assertThrows(IOException.class, () -> AtomicFiles.write(out, o -> {
			o.write(new byte[100]);
			throw new IOException("disk full (simulated)");
		}));
		try (Stream<Path> s = Files.list(dir)) {
			assertEquals(0, s.count(), "nothing left behind");
		}
		AtomicFiles.write(out, o -> o.write(new byte[] { 7 }));
		assertArrayEquals(new byte[] { 7 }, Files.readAllBytes(out));
		assertTrue(Files.isRegularFile(out));
	}

	/** Issue 11: "temp names .<name>.<random>.part make a legal 244-character output name fail (File name too long)". */
	@Test
	void aLongLegalNameStaysLegal() throws IOException {
		final String name = "o".repeat(240);
		Cfl.write(dir.resolve(name + ".cfl"), new long[] { 2 }, new float[] { 1, 2, 3, 4 });
		assertTrue(Files.exists(dir.resolve(name + ".cfl")) && Files.exists(dir.resolve(name + ".hdr")));
		final Path tmp = AtomicFiles.temporaryBeside(dir.resolve("x".repeat(250)));
		assertTrue(tmp.getFileName().toString().length() <= 20, "short temporary name: " + tmp.getFileName());
		Files.delete(tmp);
	}

	/** A batch whose second file fails leaves neither file, nor a temporary one. */
	@Test
	void filesOfABatchAppearTogetherOrNotAtAll() throws IOException {
		final IOException e = assertThrows(IOException.class, () -> {
			try (AtomicFiles.Batch b = AtomicFiles.batch()) {
				b.add(dir.resolve("traj.cfl"), o -> o.write(new byte[64]));
				b.add(dir.resolve("kspace.cfl"), o -> {
					o.write(new byte[64]);
					throw new IOException("No space left on device");
				});
				b.commit();
			}
		});
		assertTrue(e.getMessage().contains("kspace.cfl") && !e.getMessage().contains(".nufftj-"),
			"the final path, not the temporary one: " + e.getMessage());
		assertEmpty();
		// A move that fails after the first one went through (the .hdr target is a non-empty folder): the .cfl moved
		// first is removed again, so no .cfl without its .hdr.
		Files.createDirectories(dir.resolve("pair.hdr").resolve("blocker"));
		assertThrows(IOException.class, () -> Cfl.write(dir.resolve("pair"), new long[] { 2 }, new float[4]));
		assertFalse(Files.exists(dir.resolve("pair.cfl")), "no .cfl without its .hdr");
		try (Stream<Path> s = Files.list(dir)) {
			assertEquals(1, s.count(), "only the blocking folder");
		}
		assertTrue(AtomicFiles.pending().stream().noneMatch(f -> f.startsWith(dir.toAbsolutePath())),
			"nothing left for the shutdown hook");
	}

	/** Issue 11: "SIGINT/SIGTERM during a large write left .part files (2 of 17 runs)". */
	@Test
	void aProcessKilledWhileWritingLeavesNoTemporaryFile() throws Exception {
		final Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
			System.getProperty("java.class.path"), AtomicFilesKill.class.getName(), dir.resolve("big").toString())
			.redirectErrorStream(true).start();
		try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
			java.nio.charset.StandardCharsets.UTF_8))) {
			assertEquals("writing", r.readLine());
			try (Stream<Path> s = Files.list(dir)) {
				assertEquals(1, s.filter(f -> f.getFileName().toString().startsWith(".nufftj-")).count(),
					"the temporary file exists while writing");
			}
			p.destroy(); // SIGTERM
			assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "ended");
		}
		finally {
			p.destroyForcibly();
		}
		assertEmpty();
	}

	private void assertEmpty() throws IOException {
		try (Stream<Path> s = Files.list(dir)) {
			assertEquals(java.util.List.of(), s.map(f -> f.getFileName().toString()).collect(
				java.util.stream.Collectors.toList()), "nothing left behind");
		}
	}
}
