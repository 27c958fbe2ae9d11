package org.nufftj.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Memory;
import org.nufftj.nufft.DeviceException;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code nufft-j}: the command-line front end (launched by the {@code nufft-j} script at the repository root).
 * <p>
 * Exit codes, the same for every subcommand (listed by {@code --help}, documented in docs/cli.md): {@value #OK}
 * success; {@value #BAD_INPUT} bad input (options, missing or malformed input files, an output that would overwrite an
 * input, a missing output folder, sizes beyond what an array holds); {@value #IO} I/O failure (permission denied,
 * disk full), and also no command at all (usage printed); {@value #OUT_OF_MEMORY} out of memory (with the
 * {@code NUFFTJ_JAVA_OPTS} hint); {@value #GPU} GPU failure ({@link org.nufftj.nufft.DeviceException}, no GPU for
 * {@code --compare}); {@value #INTERNAL} internal error (a bug); {@value #INTERRUPTED} interrupted. Errors are one
 * line on stderr; {@code --debug} adds the stack trace.
 * </p>
 */
@Command(name = "nufft-j", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
	description = "Non-uniform FFT reconstruction of non-Cartesian MRI k-space (BART .cfl files in and out).",
	footer = { "%nThe nufft-j script also runs ImageJ macros headless with NUFFT-J's commands: nufft-j macro FILE.ijm " +
		"[ARGUMENT] (exit 1 when a NUFFT-J command in it fails; see README, Install in Fiji / ImageJ)." })
public final class Main implements Callable<Integer> {

	public static final String VERSION = "0.1.0-SNAPSHOT";

	public static final int OK = 0, BAD_INPUT = 1, IO = 2, OUT_OF_MEMORY = 3, GPU = 4, INTERNAL = 5,
		INTERRUPTED = 130;

	/** No command given: the usage goes to stderr and the exit code is this (as shells do for a usage error). */
	public static final int NO_COMMAND = IO;

	/** The exit-code table every subcommand's help ends with. */
	static final Map<String, String> EXIT_CODES = exitCodes();

	/**
	 * The subcommands in the order {@code --help} lists them (then picocli's {@code help}). They are registered in
	 * {@link #commandLine(String)}, not in the {@code @Command} annotation, so that a run builds the model of the one
	 * subcommand it runs: picocli reflects over every registered command's options up front, which cost ~150 ms of a
	 * one-shot {@code adjoint}'s start-up with all twelve (docs/benchmarks.md, whole process).
	 */
	static final List<Class<?>> COMMANDS = List.of(AdjointCommand.class, ForwardCommand.class, ReconCommand.class,
		PicsCommand.class, EcalibCommand.class, BatchCommand.class, SimulateCommand.class,
		UltrasoundCommands.Simulate.class, UltrasoundCommands.Recon.class, InfoCommand.class, BenchCommand.class,
		TuneCommand.class);

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() {
		spec.commandLine().usage(spec.commandLine().getErr());
		return NO_COMMAND;
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
		return execute(out, err, null, args);
	}

	/**
	 * Runs the CLI in-process writing to the given streams, relative file arguments taken from {@code workingDir}
	 * (null: the JVM's; the {@link Daemon} runs each client's command in the client's); returns the exit code.
	 */
	static int execute(final PrintStream out, final PrintStream err, final Path workingDir, final String... args) {
		final boolean debug = Arrays.asList(args).contains("--debug");
		final PrintWriter o = new PrintWriter(out, true), e = new PrintWriter(err, true);
		try {
			final CommandLine cl = commandLine(args.length > 0 ? args[0] : null);
			cl.setOut(o);
			cl.setErr(e);
			if (workingDir != null) cl.registerConverter(Path.class, p -> workingDir.resolve(p));
			for (final CommandLine c : withSubcommands(cl))
				c.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(EXIT_CODES);
			// An unknown subcommand is an error even with --help after it (picocli would print the main help, exit 0).
			if (args.length > 0 && !args[0].startsWith("-") && !cl.getSubcommands().containsKey(args[0])) {
				e.println("nufft-j: unknown command '" + args[0] + "', expected one of " + cl.getSubcommands().keySet() +
					" (see: nufft-j --help)");
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
			return cl.execute(args);
		}
		catch (final Throwable t) {
			// picocli passes Errors (OutOfMemoryError above all) through: they end here, as one line too.
			final int code = report(t, e);
			if (debug) t.printStackTrace(e);
			return code;
		}
		finally {
			o.flush();
			e.flush();
		}
	}

	/**
	 * The command line with its subcommands: only the one named {@code first} when it names one (other than
	 * {@code help}), else all of them and picocli's {@code help}.
	 */
	static CommandLine commandLine(final String first) {
		final CommandLine cl = new CommandLine(new Main());
		for (final Class<?> c : COMMANDS) if (nameOf(c).equals(first)) return cl.addSubcommand(c);
		for (final Class<?> c : COMMANDS) cl.addSubcommand(c);
		return cl.addSubcommand(new CommandLine.HelpCommand());
	}

	private static String nameOf(final Class<?> command) {
		return command.getAnnotation(Command.class).name();
	}

	/** The exit code {@link #report} gives a failure (for front ends that report in their own words). */
	public static int exitCode(final Throwable failure) {
		return classify(failure).code;
	}

	// -- helpers --

	/** One line on stderr for a failure; returns the exit code. */
	static int report(final Throwable ex, final PrintWriter err) {
		final Failure f = classify(ex);
		err.println("nufft-j: " + f.line);
		err.flush();
		return f.code;
	}

	/** What a failure is: the most telling throwable of its cause chain decides, memory and interrupts first. */
	private static Failure classify(final Throwable ex) {
		final List<Throwable> chain = new ArrayList<>();
		for (Throwable t = ex; t != null && !chain.contains(t); t = t.getCause()) chain.add(t);
		for (final Throwable t : chain)
			if (t instanceof OutOfMemoryError) {
				final long max = Runtime.getRuntime().maxMemory();
				return new Failure(OUT_OF_MEMORY, "out of memory (" + oneLine(t.getMessage()) + ") with a maximum heap of " +
					max / (1 << 20) + " MiB; raise it with NUFFTJ_JAVA_OPTS=-Xmx<size>, e.g. NUFFTJ_JAVA_OPTS=-Xmx" +
					Math.max(2, 2 * Math.round(Math.ceil(max / (double) (1L << 30)))) + "g, or use fewer coils/frames at once");
			}
		for (final Throwable t : chain)
			if (t instanceof InterruptedException || t instanceof CancellationException ||
				t instanceof java.nio.channels.ClosedByInterruptException)
				return new Failure(INTERRUPTED, "interrupted");
		for (final Throwable t : chain)
			if (t instanceof Memory.Exceeded) return new Failure(OUT_OF_MEMORY, oneLine(t.getMessage()));
		for (final Throwable t : chain) {
			if (t instanceof InvalidInputException || t instanceof CommandLine.ParameterException)
				return new Failure(BAD_INPUT, oneLine(t.getMessage()));
			if (t instanceof DeviceException) return new Failure(GPU, "GPU: " + oneLine(t.getMessage()));
			if (t instanceof GpuUnavailable) return new Failure(GPU, oneLine(t.getMessage()));
			if (t instanceof NoSuchFileException)
				return new Failure(BAD_INPUT, "file not found: " + oneLine(t.getMessage()));
			if (t instanceof AccessDeniedException)
				return new Failure(IO, "permission denied: " + oneLine(t.getMessage()));
			if (t instanceof IOException) return new Failure(IO, "I/O error: " + oneLine(t.getMessage()));
		}
		final Throwable t = chain.get(chain.size() - 1);
		return new Failure(INTERNAL, "internal error: " + oneLine(String.valueOf(t)) + " (run with --debug for details)");
	}

	private static final class Failure {

		final int code;
		final String line;

		Failure(final int code, final String line) {
			this.code = code;
			this.line = line;
		}
	}

	private static Map<String, String> exitCodes() {
		final Map<String, String> m = new LinkedHashMap<>();
		m.put(OK + "", "success");
		m.put(BAD_INPUT + "", "bad input: options, input files, an output that would overwrite an input; batch: " +
			"some scans failed");
		m.put(IO + "", "I/O failure (permission denied, disk full); also no command given");
		m.put(OUT_OF_MEMORY + "", "out of memory (raise the heap with NUFFTJ_JAVA_OPTS=-Xmx...)");
		m.put(GPU + "", "GPU failure, or no usable GPU where one is required");
		m.put(INTERNAL + "", "internal error (a bug; --debug prints the trace)");
		m.put(INTERRUPTED + "", "interrupted");
		return java.util.Collections.unmodifiableMap(m);
	}

	private static List<CommandLine> withSubcommands(final CommandLine cl) {
		final List<CommandLine> all = new ArrayList<>();
		all.add(cl);
		for (final CommandLine c : cl.getSubcommands().values()) all.addAll(withSubcommands(c));
		return all;
	}

	static String oneLine(final String s) {
		return s == null ? "(no message)" : s.replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
	}

	/** No usable GPU where the command needs one (--compare): one line, exit code {@value #GPU}. */
	static final class GpuUnavailable extends RuntimeException {

		private static final long serialVersionUID = 1L;

		GpuUnavailable(final String message) {
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
