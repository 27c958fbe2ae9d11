package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm JVM of {@code NUFFTJ_DAEMON=1} ({@link Daemon}), driven over its socket as the launcher's bash client
 * drives it: the answer of a served command is the one-shot run's (output file, stderr line, exit code), relative
 * paths are the client's, and only a client holding the state file's token is served.
 */
class DaemonTest {

	@TempDir
	Path dir;

	private Path state;
	private Thread serving;
	private final AtomicReference<Throwable> failed = new AtomicReference<>();

	@BeforeEach
	void start() throws IOException {
		state = dir.resolve("state");
		final Daemon d = new Daemon(state, 60);
		d.publish();
		serving = new Thread(() -> {
			try {
				d.serve();
			}
			catch (final Throwable t) {
				failed.set(t);
			}
		}, "daemon");
		serving.start();
	}

	@AfterEach
	void stop() throws Exception {
		if (serving.isAlive()) request(token(), dir, Daemon.STOP);
		serving.join(10_000);
		assertFalse(serving.isAlive(), "the daemon did not stop");
		if (failed.get() != null) throw new AssertionError(failed.get());
	}

	@Test
	void theStateFileIsTheOwnersOnlyAndNamesAPortTokenAndProcess() throws IOException {
		final String[] f = Files.readString(state).trim().split(" ");
		assertEquals(3, f.length, Files.readString(state));
		assertTrue(Integer.parseInt(f[0]) > 0);
		assertEquals(32, f[1].length());
		assertEquals(ProcessHandle.current().pid(), Long.parseLong(f[2]));
		assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(state)));
	}

	@Test
	void aServedCommandWritesWhatAOneShotRunWritesWithTheClientsRelativePaths() throws IOException {
		final Path client = clientWithSample();
		final List<String> answer = request(token(), client, "adjoint", "-e", "1e-3", "radial_traj", "radial", "image");
		assertEquals(List.of("x 0"), answer);
		assertTrue(Files.exists(client.resolve("image.cfl")), "written in the client's folder");
		assertEquals(0, Main.execute(new PrintStream(new ByteArrayOutputStream()), new PrintStream(
			new ByteArrayOutputStream()), "adjoint", "-e", "1e-3", client.resolve("radial_traj").toString(), client
				.resolve("radial").toString(), client.resolve("direct").toString()));
		assertArrayEquals(Files.readAllBytes(client.resolve("direct.cfl")), Files.readAllBytes(client.resolve(
			"image.cfl")));
		// --verbose goes to stderr: "e " lines before the exit code, the start-up counted from the request.
		final List<String> verbose = request(token(), client, "forward", "--verbose", "-e", "1e-3", "radial_traj",
			"image", "kspace");
		assertEquals("x 0", verbose.get(verbose.size() - 1));
		assertTrue(verbose.stream().anyMatch(l -> l.matches("e times: start-up \\d+ ms, .*")), String.valueOf(verbose));
		assertTrue(Files.exists(client.resolve("kspace.cfl")));
	}

	@Test
	void badInputIsTheOneShotRunsOneLineAndExitCode() throws IOException {
		final List<String> answer = request(token(), dir, "adjoint", "missing_traj", "missing", "out");
		assertEquals(2, answer.size(), String.valueOf(answer));
		assertTrue(answer.get(0).startsWith("e nufft-j: ") && answer.get(0).contains("missing"), answer.get(0));
		assertEquals("x " + Main.BAD_INPUT, answer.get(1));
		final List<String> nul = request(token(), "bad\u0000dir", "adjoint", "a", "b", "c");
		assertEquals(2, nul.size(), String.valueOf(nul));
		assertTrue(nul.get(0).startsWith("e nufft-j: the daemon cannot use the working directory"), nul.get(0));
		assertEquals("x " + Main.BAD_INPUT, nul.get(1));
		final List<String> other = request(token(), dir, "info");
		assertEquals(List.of("e nufft-j: the daemon serves [adjoint, forward] only, not 'info'", "x " +
			Main.BAD_INPUT), other);
	}

	@Test
	void aClientWithoutTheTokenIsNotServed() throws IOException {
		final List<String> answer = request("0".repeat(32), dir, "forward", "a", "b", "c");
		assertEquals(List.of(), answer);
		assertTrue(serving.isAlive(), "still serving");
		assertEquals(List.of("e nufft-j: the daemon serves [adjoint, forward] only, not 'info'", "x " +
			Main.BAD_INPUT), request(token(), dir, "info"));
	}

	@Test
	void aStopRequestEndsItAndRemovesTheStateFile() throws Exception {
		assertEquals(List.of("x 0"), request(token(), dir, Daemon.STOP));
		serving.join(10_000);
		assertFalse(serving.isAlive());
		assertFalse(Files.exists(state));
	}

	@Test
	void aReplacedStateFileEndsItWithinItsPoll() throws Exception {
		Files.writeString(state, "1 another 2\n"); // a rebuild's new daemon
		serving.join(3L * Daemon.POLL_MS);
		assertFalse(serving.isAlive());
		assertTrue(Files.exists(state), "the new daemon's state is left alone");
	}

	/**
	 * The launcher's own client (its daemon_read and daemon_send functions, taken from the nufft-j script and run by
	 * bash): the command's stderr line on stderr, its exit code as the client's, a file name with a space written in
	 * the client's folder.
	 */
	@Test
	void theLaunchersBashClientPassesArgumentsOutputAndExitCode() throws Exception {
		final Path client = clientWithSample();
		final String[] ok = bashClient(client, "adjoint", "-e", "1e-3", "radial_traj", "radial", "image out");
		assertEquals("0", ok[0], "exit code; stderr: " + ok[2]);
		assertTrue(Files.exists(client.resolve("image out.cfl")), "written in the client's folder");
		final String[] bad = bashClient(client, "adjoint", "radial_traj", "missing", "x");
		assertEquals(String.valueOf(Main.BAD_INPUT), bad[0]);
		assertEquals("", bad[1]);
		assertTrue(bad[2].startsWith("nufft-j: ") && bad[2].contains("missing") && bad[2].trim().split("\n").length ==
			1, bad[2]);
	}

	// -- helpers --

	/** A client folder holding the bundled BART radial sample (trajectory and k-space). */
	private Path clientWithSample() throws IOException {
		final Path client = Files.createDirectory(dir.resolve("client"));
		for (final String f : new String[] { "radial.cfl", "radial.hdr", "radial_traj.cfl", "radial_traj.hdr" })
			Files.copy(Path.of("sample-data", "bart", f), client.resolve(f));
		return client;
	}

	/** The launcher's daemon_read and daemon_send run by bash in {@code cwd}: {exit code, stdout, stderr}. */
	private String[] bashClient(final Path cwd, final String... args) throws Exception {
		final String launcher = Files.readString(Path.of("nufft-j"));
		final int from = launcher.indexOf("daemon_read() {");
		final int to = launcher.indexOf("\n}\n", launcher.indexOf("daemon_send() {")) + 3;
		assertTrue(from >= 0 && to > from, "daemon_read and daemon_send, in that order, in the nufft-j script");
		final String script = "set -euo pipefail\ndaemon_state=\"$1\"; shift\nstamp=/nonexistent\ndaemon_code=''\n" +
			launcher.substring(from, to) + "daemon_send \"$@\" || exit 99\nexit \"$daemon_code\"\n";
		final List<String> command = new ArrayList<>(List.of("bash", "-c", script, "bash", state.toString()));
		command.addAll(List.of(args));
		final Process p = new ProcessBuilder(command).directory(cwd.toFile()).start();
		final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
		return new String[] { String.valueOf(p.waitFor()), out, err };
	}

	private String token() throws IOException {
		return Files.readString(state).trim().split(" ")[1];
	}

	/** One request as the launcher sends it; the answer's lines. */
	private List<String> request(final String token, final Path cwd, final String... args) throws IOException {
		return request(token, cwd.toString(), args);
	}

	private List<String> request(final String token, final String cwd, final String... args) throws IOException {
		final int port = Integer.parseInt(Files.readString(state).trim().split(" ")[0]);
		try (Socket s = new Socket(Daemon.LOOPBACK, port)) {
			final Writer w = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
			w.write(token + "\n" + cwd + "\n" + args.length + "\n");
			for (final String a : args) w.write(a + "\n");
			w.flush();
			final BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(),
				StandardCharsets.UTF_8));
			final List<String> lines = new ArrayList<>();
			for (String l; (l = r.readLine()) != null;) lines.add(l);
			return lines;
		}
	}
}
