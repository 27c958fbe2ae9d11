package org.nufftj.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import org.nufftj.InvalidInputException;

/**
 * Writes outputs so that nothing half-written is ever left behind. Every file of an output (a {@code .cfl} and its
 * {@code .hdr}; a simulation's trajectory, k-space and truth) is written to a temporary file in its target's folder; only
 * when all are complete are they moved into place, one after the other, and if a move fails the files already moved
 * are removed again, so the set appears together or not at all.
 * <p>
 * Temporary names are short ({@code .nufftj-XXXXXXXX.tmp}, 20 characters) so that any name legal for the target is
 * legal for its temporary file. They are deleted on failure and, for a process stopped by SIGINT/SIGTERM while
 * writing, by a shutdown hook (the one piece of process-wide state here: the JVM's hooks are process-wide). Error
 * messages name the final path, never the temporary one.
 * </p>
 */
public final class AtomicFiles {

	/** Temporary files not yet moved or deleted, removed by the shutdown hook. */
	private static final Set<Path> PENDING = new LinkedHashSet<>();
	private static boolean hookInstalled;

	private AtomicFiles() {}

	/** Something that writes the content of one file. */
	public interface Writer {
		void write(OutputStream out) throws IOException;
	}

	/** Something that writes one file at the given (temporary) path. */
	public interface PathWriter {
		void write(Path file) throws IOException;
	}

	// -- public API --

	/** Writes one file: complete at {@code target}, or (on failure) nothing. */
	public static void write(final Path target, final Writer writer) throws IOException {
		try (Batch b = batch()) {
			b.add(target, writer);
			b.commit();
		}
	}

	/** A new set of files that appear together on {@link Batch#commit()} or not at all. */
	public static Batch batch() {
		return new Batch();
	}

	/**
	 * Files that appear together: each {@link #add} writes a temporary file beside its target; {@link #commit} moves
	 * them all into place; {@link #close} deletes whatever was not committed. Not thread-safe.
	 */
	public static final class Batch implements AutoCloseable {

		private final List<Path> temps = new ArrayList<>(), targets = new ArrayList<>();
		private boolean committed;

		private Batch() {}

		/** Writes the content of {@code target} to a temporary file beside it (moved into place by {@link #commit}). */
		public void add(final Path target, final Writer writer) throws IOException {
			addFile(target, tmp -> {
				try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
					writer.write(out);
				}
			});
		}

		/** As {@link #add(Path, Writer)} for code that writes a file by its path (e.g. through a FileChannel). */
		public void addFile(final Path target, final PathWriter writer) throws IOException {
			if (committed) throw new IllegalStateException("batch already committed");
			final Path t = target.toAbsolutePath().normalize();
			if (targets.contains(t)) throw new InvalidInputException(target + ": named twice as an output");
			requireFolder(target);
			final Path tmp = temporaryBeside(t);
			temps.add(tmp);
			targets.add(t);
			try {
				writer.write(tmp);
			}
			catch (final FileSystemException e) {
				throw renamed(e, target);
			}
			catch (final IOException e) {
				final String m = String.valueOf(e.getMessage());
				throw m.startsWith(target.toString()) ? e : new IOException(target + ": " + m, e);
			}
		}

		/** Moves every file into place; if one move fails, the ones already moved are removed. */
		public void commit() throws IOException {
			if (committed) return;
			int moved = 0;
			try {
				for (; moved < temps.size(); moved++) moveIntoPlace(temps.get(moved), targets.get(moved));
				committed = true;
			}
			catch (final IOException e) {
				for (int i = 0; i < moved; i++) Files.deleteIfExists(targets.get(i));
				throw e instanceof FileSystemException ? renamed((FileSystemException) e, targets.get(moved)) : e;
			}
			finally {
				forget(temps);
			}
		}

		@Override
		public void close() throws IOException {
			IOException first = null;
			for (final Path tmp : temps)
				try {
					Files.deleteIfExists(tmp);
				}
				catch (final IOException e) {
					if (first == null) first = e;
				}
			forget(temps);
			if (first != null && !committed) throw first;
		}
	}

	/**
	 * Fails with one line unless {@code target}'s folder exists: bad input, the same for every format (checked
	 * before anything is computed by callers that know their outputs early).
	 */
	public static void requireFolder(final Path target) {
		final Path dir = target.toAbsolutePath().getParent();
		if (dir != null && !Files.isDirectory(dir)) throw new InvalidInputException(target + ": output folder " + dir +
			" does not exist");
	}

	/**
	 * A new empty temporary file in {@code target}'s folder, named {@code .nufftj-XXXXXXXX.tmp}, deleted by a
	 * shutdown hook unless moved or deleted before. Created with the default permissions (0666 less the process umask,
	 * as any output file), not {@link Files#createTempFile}'s 0600, so the moved file is readable as users expect.
	 */
	public static Path temporaryBeside(final Path target) throws IOException {
		final Path dir = target.toAbsolutePath().getParent();
		installHook();
		for (int attempt = 0;; attempt++) {
			final String id = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36 * 36 * 36),
				36);
			final Path tmp = dir.resolve(".nufftj-" + "0".repeat(8 - id.length()) + id + ".tmp");
			synchronized (PENDING) {
				PENDING.add(tmp);
			}
			try {
				return Files.createFile(tmp);
			}
			catch (final FileAlreadyExistsException e) {
				synchronized (PENDING) {
					PENDING.remove(tmp);
				}
				if (attempt > 100) throw e;
			}
			catch (final FileSystemException e) {
				synchronized (PENDING) {
					PENDING.remove(tmp);
				}
				throw renamed(e, target);
			}
		}
	}

	/** Moves a finished temporary file into place (atomically where the file system can). */
	public static void moveIntoPlace(final Path tmp, final Path target) throws IOException {
		try {
			Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (final AtomicMoveNotSupportedException e) {
			Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
		}
		forget(List.of(tmp));
	}

	/** The temporary files written now and not yet moved or deleted (for tests). */
	static List<Path> pending() {
		synchronized (PENDING) {
			return List.copyOf(PENDING);
		}
	}

	// -- helpers --

	/** A file-system failure on a temporary file, told with the final path and the system's reason. */
	private static IOException renamed(final FileSystemException e, final Path target) {
		final String reason = e.getReason() != null ? e.getReason() : e.getClass().getSimpleName()
			.replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
		final IOException out = e instanceof java.nio.file.AccessDeniedException
			? new java.nio.file.AccessDeniedException(target.toString(), null, "permission denied")
			: new FileSystemException(target.toString(), null, reason);
		out.initCause(e);
		return out;
	}

	private static void forget(final List<Path> temps) {
		synchronized (PENDING) {
			PENDING.removeAll(temps);
		}
	}

	private static synchronized void installHook() {
		if (hookInstalled) return;
		hookInstalled = true;
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			for (final Path tmp : pending())
				try {
					Files.deleteIfExists(tmp);
				}
				catch (final IOException e) {
					// best effort at exit: nothing else can be done with it
				}
		}, "nufftj-temporary-files"));
	}
}
