package org.nufftj.cli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import org.nufftj.io.AtomicFiles;

/**
 * A warm JVM for repeated one-shot transforms ({@code NUFFTJ_DAEMON=1 nufft-j adjoint|forward …}): the launcher starts
 * it on first use and hands it each later {@code adjoint}/{@code forward} over a loopback socket, so a shell loop over
 * many files pays the JVM's start-up and the JIT's warm-up once instead of on every file (what the Gradle and Kotlin
 * daemons and Nailgun do). The transform is {@link Main#execute(PrintStream, PrintStream, Path, String...)}: the same
 * code, options, output files (written to a temporary file and moved into place) and exit codes as a one-shot run,
 * relative paths taken from the client's working directory.
 * <p>
 * Requests are served one at a time, in order (each transform uses every core). The state file names the port, a
 * random token the client must send first, and the process id; it is readable by its owner only, and the socket is
 * bound to the loopback address, so another user cannot drive the daemon. It ends after {@code idle} seconds without a
 * request, on a {@value #STOP} request ({@code nufft-j daemon stop}), after an out-of-memory failure, or within
 * {@value #POLL_MS} ms once its state file is gone or names another daemon (a rebuild started a new one).
 * </p>
 * Protocol, one request per connection, lines in UTF-8: the token, the working directory, the argument count, the
 * arguments; answer: each line the command wrote to standard output as {@code "o " + line}, to standard error as
 * {@code "e " + line}, then {@code "x " + exit code}.
 */
public final class Daemon {

	/** The request that ends the daemon. */
	static final String STOP = "daemon-stop";
	/** The subcommands a daemon serves (the one-shot transforms timed against {@code bart nufft}). */
	static final List<String> SERVED = List.of("adjoint", "forward");
	static final int POLL_MS = 2000;
	private static final int MAX_ARGUMENTS = 4096;
	/** 127.0.0.1: the address the launcher's client dials (bash's /dev/tcp/127.0.0.1/PORT), IPv6 preferred or not. */
	static final InetAddress LOOPBACK = loopback();

	private final Path state;
	private final long idleMs;
	private final ServerSocket server;
	private final String token;
	private final String stateText;

	/** Listens on a free loopback port; {@link #publish} makes it known. */
	Daemon(final Path state, final long idleSeconds) throws IOException {
		this.state = state;
		this.idleMs = idleSeconds * 1000;
		server = new ServerSocket(0, 50, LOOPBACK);
		server.setSoTimeout(POLL_MS);
		final byte[] secret = new byte[16];
		new SecureRandom().nextBytes(secret);
		token = HexFormat.of().formatHex(secret);
		stateText = server.getLocalPort() + " " + token + " " + ProcessHandle.current().pid() + "\n";
	}

	/** Writes the state file (readable by its owner only, replaced in one move): clients find the daemon from now on. */
	void publish() throws IOException {
		final Path tmp = state.resolveSibling(state.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
		Files.deleteIfExists(tmp);
		try {
			Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
		}
		catch (final UnsupportedOperationException e) {
			Files.createFile(tmp); // not a POSIX file system: the folder's own permissions guard it
		}
		Files.writeString(tmp, stateText);
		AtomicFiles.moveIntoPlace(tmp, state);
	}

	/**
	 * {@code Daemon STATE_FILE IDLE_SECONDS [WARM_UP_SECONDS]}: warms up ({@link #warmUp}), publishes, then serves
	 * until stopped, idle or replaced.
	 */
	public static void main(final String[] args) throws IOException {
		if (args.length < 2 || args.length > 3) {
			System.err.println("usage: Daemon STATE_FILE IDLE_SECONDS [WARM_UP_SECONDS]");
			System.exit(Main.BAD_INPUT);
		}
		final Daemon d = new Daemon(Path.of(args[0]), Long.parseLong(args[1]));
		warmUp(args.length > 2 ? Double.parseDouble(args[2]) : 0);
		d.publish();
		d.serve();
		System.exit(Main.OK);
	}

	/**
	 * Before the first request: the served commands on a simulated scan of the size the benchmarks use (256², 402
	 * radial spokes of 512 samples, 8 coils; adjoint then forward, ε 1e-3 and 1e-4 in turn), so that the JIT has
	 * compiled their loops: at least {@code seconds} and {@value #WARM_UP_PAIRS} pairs, at most
	 * {@value #WARM_UP_CAP_S} s. A cold daemon's first ~15 8-coil forwards took 0.3–0.4 s each against ~0.1 s once
	 * compiled, and 4 s alone left the compiler busy into the first requests (docs/benchmarks.md, 2026-11-29). Output
	 * discarded; a failure only leaves the daemon colder.
	 */
	static void warmUp(final double seconds) {
		if (seconds <= 0) return;
		final PrintStream none = new PrintStream(OutputStream.nullOutputStream());
		Path dir = null;
		try {
			dir = Files.createTempDirectory("nufft-j-daemon");
			final long start = System.nanoTime();
			if (Main.execute(none, none, dir, "simulate", "-t", "radial", "-m", "256", "-s", "402", "-c", "8", "traj",
				"kspace") != Main.OK) return;
			for (int i = 0; i < WARM_UP_PAIRS || System.nanoTime() - start < seconds * 1e9; i++) {
				if (System.nanoTime() - start > WARM_UP_CAP_S * 1e9) break;
				final String eps = i % 2 == 0 ? "1e-3" : "1e-4";
				Main.execute(none, none, dir, "adjoint", "-e", eps, "traj", "kspace", "image");
				Main.execute(none, none, dir, "forward", "-e", eps, "traj", "image", "again");
			}
		}
		catch (final IOException | RuntimeException e) {
			// colder, not broken
		}
		finally {
			if (dir != null) deleteAll(dir);
		}
	}

	private static final int WARM_UP_PAIRS = 12, WARM_UP_CAP_S = 30;

	private static void deleteAll(final Path dir) {
		try (var files = Files.list(dir)) {
			files.forEach(f -> f.toFile().delete());
			Files.deleteIfExists(dir);
		}
		catch (final IOException e) {
			// a temporary folder left behind
		}
	}

	/** Serves requests until a stop request, the idle time, an out-of-memory failure or a replaced state file. */
	void serve() throws IOException {
		try {
			long last = System.nanoTime();
			while (true) {
				final Socket s;
				try {
					s = server.accept();
				}
				catch (final SocketTimeoutException e) {
					if (!published() || (System.nanoTime() - last) / 1_000_000 >= idleMs) return;
					continue;
				}
				try (s) {
					final int code = handle(s);
					if (code == STOPPED || code == Main.OUT_OF_MEMORY) return;
				}
				catch (final IOException e) {
					// The client went away (Ctrl-C): the next request is served as usual.
				}
				last = System.nanoTime();
			}
		}
		finally {
			server.close();
			if (published()) Files.deleteIfExists(state);
		}
	}

	private static final int STOPPED = -1;

	/** One request: checks the token, runs the command, answers; returns its exit code (or {@link #STOPPED}). */
	private int handle(final Socket s) throws IOException {
		s.setSoTimeout(10_000); // for the request's lines only: a client sends them at once
		final BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
		final String sent = in.readLine();
		if (sent == null || !MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8), token.getBytes(
			StandardCharsets.UTF_8))) return Main.BAD_INPUT;
		final String cwd = in.readLine();
		final String count = in.readLine();
		if (cwd == null || count == null || !count.matches("\\d{1,4}")) return Main.BAD_INPUT;
		final int n = Integer.parseInt(count);
		if (n > MAX_ARGUMENTS) return Main.BAD_INPUT;
		final String[] args = new String[n];
		for (int i = 0; i < n; i++) {
			args[i] = in.readLine();
			if (args[i] == null) return Main.BAD_INPUT;
		}
		s.setSoTimeout(0);
		final OutputStream socket = s.getOutputStream();
		if (n == 1 && args[0].equals(STOP)) {
			socket.write("x 0\n".getBytes(StandardCharsets.UTF_8));
			socket.flush();
			return STOPPED;
		}
		final int code;
		try (PrintStream out = framed(socket, "o "); PrintStream err = framed(socket, "e ")) {
			if (n == 0 || !SERVED.contains(args[0])) {
				err.println("nufft-j: the daemon serves " + SERVED + " only, not " + (n == 0 ? "an empty command" :
					"'" + args[0] + "'"));
				code = Main.BAD_INPUT;
			}
			else {
				Path dir = null;
				try {
					dir = Path.of(cwd);
				}
				catch (final InvalidPathException e) {
					err.println("nufft-j: the daemon cannot use the working directory '" + cwd + "': " + e.getReason());
				}
				code = dir == null ? Main.BAD_INPUT : run(out, err, dir, args);
			}
			out.flush();
			err.flush();
			socket.write(("x " + code + "\n").getBytes(StandardCharsets.UTF_8));
			socket.flush();
		}
		return code;
	}

	/** The command, with System.out and System.err also sent to the client (requests run one at a time). */
	private static int run(final PrintStream out, final PrintStream err, final Path cwd, final String[] args) {
		final PrintStream sysOut = System.out, sysErr = System.err;
		System.setOut(out);
		System.setErr(err);
		StepTimes.requestStarted(System.nanoTime());
		try {
			return Main.execute(out, err, cwd, args);
		}
		finally {
			StepTimes.requestStarted(0);
			System.setOut(sysOut);
			System.setErr(sysErr);
		}
	}

	private static InetAddress loopback() {
		try {
			return InetAddress.getByAddress("localhost", new byte[] { 127, 0, 0, 1 });
		}
		catch (final java.net.UnknownHostException e) {
			throw new AssertionError(e); // four bytes are always a valid IPv4 address
		}
	}

	/** Whether the state file still names this daemon. */
	private boolean published() {
		try {
			return Files.readString(state).equals(stateText);
		}
		catch (final IOException e) {
			return false;
		}
	}

	/** A stream that sends each line written to it as {@code prefix + line} (a last unfinished line at flush). */
	private static PrintStream framed(final OutputStream socket, final String prefix) {
		return new PrintStream(new OutputStream() {

			private final ByteArrayOutputStream line = new ByteArrayOutputStream();

			@Override
			public synchronized void write(final int b) throws IOException {
				if (b == '\n') send();
				else if (b != '\r') line.write(b);
			}

			@Override
			public synchronized void flush() throws IOException {
				if (line.size() > 0) send();
				socket.flush();
			}

			private void send() throws IOException {
				synchronized (socket) {
					socket.write(prefix.getBytes(StandardCharsets.UTF_8));
					line.writeTo(socket);
					socket.write('\n');
				}
				line.reset();
			}
		}, true, StandardCharsets.UTF_8);
	}
}
