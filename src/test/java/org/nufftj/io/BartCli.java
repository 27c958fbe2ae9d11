package org.nufftj.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the {@code bart} command line tool for cross-checks; tests skip (assumption) when it is not installed. */
public final class BartCli {

	private static Boolean available;

	private BartCli() {}

	/** Whether {@code bart} runs on this machine. */
	public static synchronized boolean available() {
		if (available == null) {
			try {
				final Process p = new ProcessBuilder("bart", "version").redirectErrorStream(true).start();
				p.getInputStream().readAllBytes();
				available = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
			}
			catch (final IOException | InterruptedException e) {
				available = false;
			}
		}
		return available;
	}

	/** Runs {@code bart args…} in {@code dir}; fails with BART's output when it exits non-zero. */
	public static void run(final Path dir, final String... args) throws IOException, InterruptedException {
		final List<String> cmd = new ArrayList<>();
		cmd.add("bart");
		cmd.addAll(Arrays.asList(args));
		final Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
		final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!p.waitFor(120, TimeUnit.SECONDS)) {
			p.destroyForcibly();
			throw new IOException("bart " + String.join(" ", args) + ": timed out");
		}
		if (p.exitValue() != 0) throw new IOException("bart " + String.join(" ", args) + " failed (" + p.exitValue() +
			"): " + out);
	}
}
