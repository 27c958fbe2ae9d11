package org.nufftj.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
