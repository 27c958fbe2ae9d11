package org.nufftj.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Test helpers: run the CLI in-process with captured output, and run BART. */
final class Cli {

	private Cli() {}

	static final class Result {

		final int code;
		final String out, err;

		Result(final int code, final String out, final String err) {
			this.code = code;
			this.out = out;
			this.err = err;
		}

		@Override
		public String toString() {
			return "exit " + code + "\nstdout: " + out + "\nstderr: " + err;
		}
	}

	static Result run(final Object... args) {
		final String[] a = new String[args.length];
		for (int i = 0; i < a.length; i++) a[i] = String.valueOf(args[i]);
		final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
		final int code = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
			new PrintStream(err, true, StandardCharsets.UTF_8), a);
		return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	/**
	 * Runs {@code mainClass args…} in a new JVM with this test's class path and the given JVM options (e.g. a small
	 * heap), in {@code dir}; waits up to 120 s.
	 */
	static Result fork(final Path dir, final List<String> jvmOptions, final String mainClass, final Object... args)
		throws IOException, InterruptedException
	{
		final Process p = start(dir, jvmOptions, mainClass, args);
		final java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(
			() -> {
				try {
					return p.getErrorStream().readAllBytes();
				}
				catch (final IOException e) {
					return new byte[0];
				}
			});
		final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!p.waitFor(120, TimeUnit.SECONDS)) {
			p.destroyForcibly();
			throw new AssertionError(mainClass + " did not end within 120 s");
		}
		return new Result(p.exitValue(), out, new String(err.join(), StandardCharsets.UTF_8));
	}

	/** Starts {@code mainClass args…} in a new JVM (see {@link #fork}) without waiting. */
	static Process start(final Path dir, final List<String> jvmOptions, final String mainClass, final Object... args)
		throws IOException
	{
		final List<String> cmd = new ArrayList<>();
		cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		cmd.addAll(jvmOptions);
		cmd.add("-cp");
		cmd.add(System.getProperty("java.class.path"));
		cmd.add(mainClass);
		for (final Object o : args) cmd.add(String.valueOf(o));
		return new ProcessBuilder(cmd).directory(dir.toFile()).start();
	}

	/** True when a {@code bart} executable is on the PATH. */
	static boolean bartAvailable() {
		for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
			if (!dir.isEmpty() && java.nio.file.Files.isExecutable(Path.of(dir, "bart"))) return true;
		return false;
	}

	/** Runs {@code bart args…} in {@code dir}; fails with its output unless it exits 0. */
	static String bart(final Path dir, final Object... args) throws IOException, InterruptedException {
		final List<String> cmd = new ArrayList<>();
		cmd.add("bart");
		for (final Object o : args) cmd.add(String.valueOf(o));
		final Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
		final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0)
			throw new AssertionError(String.join(" ", cmd) + " failed: " + output);
		return output;
	}

	/** The first group of {@code regex} in {@code text} as a number; fails naming the pattern and the text. */
	static double number(final String text, final String regex) {
		final java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
		org.junit.jupiter.api.Assertions.assertTrue(m.find(), "no '" + regex + "' in: " + text);
		return Double.parseDouble(m.group(1));
	}

	/** ‖a − b‖ / ‖b‖. */
	static double nrmse(final float[] a, final float[] b) {
		double num = 0, den = 0;
		for (int i = 0; i < a.length; i++) {
			num += (a[i] - (double) b[i]) * (a[i] - b[i]);
			den += (double) b[i] * b[i];
		}
		return Math.sqrt(num / den);
	}
}
