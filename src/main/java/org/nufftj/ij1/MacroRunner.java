package org.nufftj.ij1;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import ij.macro.Interpreter;

/**
 * {@code nufft-j macro FILE.ijm [ARG]}: runs an ImageJ macro headless with NUFFT-J's commands and ImageJ's own
 * registered (no {@code call("org.nufftj.ij1.Headless.install")} preamble needed) and an exit status scripts can
 * test: 0 when the
 * macro ran to its end, 1 when a NUFFT-J command failed (the macro stops there; the failure is one line in the Log),
 * the macro had an error or stopped itself with {@code exit("message")} (the message is printed, no trace), 2 when the
 * file cannot be read.
 */
public final class MacroRunner {

	public static final int OK = 0, FAILED = 1, UNREADABLE = 2;

	private MacroRunner() {}

	public static void main(final String[] args) {
		System.exit(run(args));
	}

	/** Runs the macro of {@code args[0]} with the argument {@code args[1]} (or ""); returns the exit status. */
	public static int run(final String... args) {
		if (args.length < 1 || args.length > 2) {
			System.err.println("usage: nufft-j macro FILE.ijm [ARGUMENT]");
			return UNREADABLE;
		}
		// Before any AWT class initialises. With a display (e.g. under xvfb-run) ImageJ's commands that open a dialog
		// (Duplicate..., Image Calculator...) work as in a macro run from the menu; plain ImageJ 1 without one cannot
		// construct any dialog (java.awt.Dialog throws HeadlessException), so those alone need a display.
		if (System.getenv("DISPLAY") == null || System.getenv("DISPLAY").isEmpty())
			System.setProperty("java.awt.headless", "true");
		final String code;
		try {
			code = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
		}
		catch (final IOException | java.nio.file.InvalidPathException e) {
			System.err.println("nufft-j macro: cannot read " + args[0] + " (" + e.getMessage() + ")");
			return UNREADABLE;
		}
		final String installed = Headless.install();
		if (!installed.isEmpty()) {
			System.err.println("nufft-j macro: " + installed);
			return FAILED;
		}
		final int failuresBefore = CommandLauncher.failures();
		final Interpreter interpreter = new Interpreter();
		Interpreter.batchMode = true;
		try {
			interpreter.run(code, args.length > 1 ? args[1] : "");
		}
		catch (final RuntimeException e) {
			// exit("message") in a batch-mode macro: ImageJ prints the message, then throws to stop the macro.
			if (!ij.Macro.MACRO_CANCELED.equals(e.getMessage()))
				System.err.println("nufft-j macro: " + args[0] + ": " + e);
			return FAILED;
		}
		if (CommandLauncher.failures() > failuresBefore) return FAILED;
		if (interpreter.wasError()) {
			final String why = interpreter.getErrorMessage();
			if (why != null) System.err.println("nufft-j macro: " + args[0] + ": " + why);
			return FAILED;
		}
		return OK;
	}
}
