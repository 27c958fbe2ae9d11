package org.nufftj.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.concurrent.CancellationException;

import org.nufftj.InvalidInputException;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code nufft-j}: the command-line front end (launched by the {@code nufft-j} script at the repository root).
 * <p>
 * Exit codes: 0 success; 2 bad input (unreadable or malformed files, bad options, out-of-range values, missing
 * files); 1 any other failure (I/O, no GPU for {@code --compare}, internal errors); 130 cancelled. Errors are one line
 * on stderr; {@code --debug} adds the stack trace.
 * </p>
 */
@Command(name = "nufft-j", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
	description = "Non-uniform FFT reconstruction of non-Cartesian MRI k-space (BART .cfl files in and out).",
	subcommands = { AdjointCommand.class, ForwardCommand.class, ReconCommand.class, PicsCommand.class,
		BatchCommand.class, SimulateCommand.class, UltrasoundCommands.Simulate.class, UltrasoundCommands.Recon.class,
		InfoCommand.class, BenchCommand.class, CommandLine.HelpCommand.class })
public final class Main implements Runnable {

	public static final String VERSION = "0.1.0-SNAPSHOT";

	public static final int OK = 0, FAILED = 1, BAD_INPUT = 2, CANCELLED = 130;

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public void run() {
		spec.commandLine().usage(spec.commandLine().getOut());
	}

	public static void main(final String[] args) {
		System.exit(execute(args));
	}

	/** Runs the CLI in-process with System.out / System.err; returns the exit code. */
	public static int execute(final String... args) {
		return execute(System.out, System.err, args);
	}

	/** Runs the CLI in-process writing to the given streams; returns the exit code. */
	public static int execute(final PrintStream out, final PrintStream err, final String... args) {
		final boolean debug = Arrays.asList(args).contains("--debug");
		final PrintWriter o = new PrintWriter(out, true), e = new PrintWriter(err, true);
		final CommandLine cl = new CommandLine(new Main());
		cl.setOut(o);
		cl.setErr(e);
		// An unknown subcommand is an error even with --help after it (picocli would print the main help, exit 0).
		if (args.length > 0 && !args[0].startsWith("-") && !cl.getSubcommands().containsKey(args[0])) {
			e.println("nufft-j: unknown command '" + args[0] + "', expected one of " + cl.getSubcommands().keySet() +
				" (see: nufft-j --help)");
			e.flush();
			return BAD_INPUT;
		}
		cl.setParameterExceptionHandler((ex, a) -> {
			e.println("nufft-j: " + oneLine(ex.getMessage()) + " (see: " +
				ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
			if (debug) ex.printStackTrace(e);
			return BAD_INPUT;
		});
		cl.setExecutionExceptionHandler((ex, c, parse) -> {
			final int code = report(ex, e);
			if (debug) ex.printStackTrace(e);
			return code;
		});
		final int code = cl.execute(args);
		o.flush();
		e.flush();
		return code;
	}

	// -- helpers --

	/** One line on stderr for a failure; returns the exit code. */
	static int report(final Throwable ex, final PrintWriter err) {
		Throwable t = ex;
		if (t instanceof java.io.UncheckedIOException && t.getCause() != null) t = t.getCause();
		while (t.getCause() != null && !(t instanceof InvalidInputException) && !(t instanceof IOException) &&
			(t.getMessage() == null || t instanceof RuntimeException && t.getClass() == RuntimeException.class))
			t = t.getCause();
		if (t instanceof InvalidInputException || t instanceof CommandLine.ParameterException) {
			err.println("nufft-j: " + oneLine(t.getMessage()));
			return BAD_INPUT;
		}
		if (t instanceof NoSuchFileException) {
			err.println("nufft-j: file not found: " + oneLine(t.getMessage()));
			return BAD_INPUT;
		}
		if (t instanceof AccessDeniedException) {
			err.println("nufft-j: permission denied: " + oneLine(t.getMessage()));
			return FAILED;
		}
		if (t instanceof CancellationException) {
			err.println("nufft-j: cancelled");
			return CANCELLED;
		}
		if (t instanceof IOException) {
			err.println("nufft-j: I/O error: " + oneLine(t.getMessage()));
			return FAILED;
		}
		if (t instanceof OutOfMemoryError) {
			err.println("nufft-j: out of memory (" + oneLine(t.getMessage()) + "); raise the heap with " +
				"NUFFTJ_JAVA_OPTS=-Xmx... or use fewer coils/frames at once");
			return FAILED;
		}
		if (org.nufftj.app.Session.isDeviceFailure(t)) {
			err.println("nufft-j: GPU: " + oneLine(t.getMessage()));
			return FAILED;
		}
		if (t instanceof CliFailure) {
			err.println("nufft-j: " + oneLine(t.getMessage()));
			return FAILED;
		}
		err.println("nufft-j: internal error: " + oneLine(String.valueOf(t)) + " (run with --debug for details)");
		return FAILED;
	}

	static String oneLine(final String s) {
		return s == null ? "(no message)" : s.replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
	}

	/** A failure that is not bad input (e.g. no GPU for --compare): one line, exit code 1. */
	static final class CliFailure extends RuntimeException {

		private static final long serialVersionUID = 1L;

		CliFailure(final String message) {
			super(message);
		}
	}

	static final class Version implements CommandLine.IVersionProvider {

		@Override
		public String[] getVersion() {
			return new String[] { "nufft-j " + VERSION };
		}
	}
}
