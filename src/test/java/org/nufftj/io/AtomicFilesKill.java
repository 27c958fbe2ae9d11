package org.nufftj.io;

import java.nio.file.Path;

/**
 * Run in a child JVM by {@link AtomicFilesTest}: starts writing {@code args[0]} (a .cfl/.hdr pair) and, with the
 * temporary file half-written, says "writing" and waits to be killed, as a long write interrupted by SIGTERM.
 */
public final class AtomicFilesKill {

	private AtomicFilesKill() {}

	public static void main(final String[] args) throws Exception {
		try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
			batch.add(Path.of(args[0] + ".cfl"), out -> {
				out.write(new byte[1 << 16]);
				out.flush();
				System.out.println("writing");
				System.out.flush();
				try {
					Thread.sleep(120_000);
				}
				catch (final InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			});
			batch.commit();
		}
	}
}
