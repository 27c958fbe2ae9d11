package org.nufftj.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes outputs so that nothing half-written is ever left behind: data goes to a temporary file in the target's
 * folder, which is moved into place only when complete; on failure the temporary file is deleted.
 */
public final class AtomicFiles {

	private AtomicFiles() {}

	/** Something that writes the content of one file. */
	public interface Writer {
		void write(OutputStream out) throws IOException;
	}

	public static void write(final Path target, final Writer writer) throws IOException {
		final Path dir = target.toAbsolutePath().getParent();
		if (dir != null && !Files.isDirectory(dir)) throw new IOException(dir + ": output folder does not exist");
		final Path tmp = temporaryBeside(target);
		try {
			try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
				writer.write(out);
			}
			moveIntoPlace(tmp, target);
		}
		finally {
			Files.deleteIfExists(tmp);
		}
	}

	/**
	 * A new empty temporary file in {@code target}'s folder, named {@code .<name>.<random>.part}. Created with the
	 * default permissions (0666 less the process umask, as any output file), not {@link Files#createTempFile}'s 0600,
	 * so the moved file is readable as users expect.
	 */
	public static Path temporaryBeside(final Path target) throws IOException {
		final Path dir = target.toAbsolutePath().getParent();
		for (int attempt = 0;; attempt++) {
			final Path tmp = dir.resolve("." + target.getFileName() + "." +
				Long.toUnsignedString(java.util.concurrent.ThreadLocalRandom.current().nextLong(), 36) + ".part");
			try {
				return Files.createFile(tmp);
			}
			catch (final java.nio.file.FileAlreadyExistsException e) {
				if (attempt > 100) throw e;
			}
		}
	}

	/** Moves several finished temporary files into place (e.g. a .cfl and its .hdr); call after all are written. */
	public static void moveIntoPlace(final Path tmp, final Path target) throws IOException {
		try {
			Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (final AtomicMoveNotSupportedException e) {
			Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
		}
	}
}
