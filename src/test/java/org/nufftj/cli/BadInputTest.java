package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.io.Cfl;

/**
 * Bad input through the CLI: exit code 1, exactly one line on stderr naming the problem, no stack trace (unless
 * --debug), and no output file left behind (not even a temporary one).
 */
class BadInputTest {

	@TempDir
	Path dir;

	private final Random random = new Random();
	private Path traj, ksp, out;
	private static final int R = 32, S = 8, C = 2, N = 16;

	@BeforeEach
	void validInputs() throws IOException {
		traj = dir.resolve("traj");
		ksp = dir.resolve("ksp");
		out = dir.resolve("out");
		final float[] t = new float[2 * 3 * R * S];
		for (int s = 0; s < S; s++)
			for (int i = 0; i < R; i++) {
				final double a = Math.PI * s / S, r = (i - R / 2) * 0.5; // cycles/FOV, |k| <= 8 = N/2
				t[2 * (3 * (s * R + i))] = (float) (r * Math.cos(a));
				t[2 * (3 * (s * R + i) + 1)] = (float) (r * Math.sin(a));
			}
		Cfl.write(traj, new long[] { 3, R, S }, t);
		final float[] k = new float[2 * R * S * C];
		for (int i = 0; i < k.length; i++) k[i] = (float) random.nextGaussian();
		Cfl.write(ksp, new long[] { 1, R, S, C }, k);
	}

	/** Runs, checks exit 1, one stderr line containing every {@code expected} fragment, and no output files. */
	private void fails(final String[] expected, final Object... args) throws IOException {
		final Cli.Result r = Cli.run(args);
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		final String err = r.err.trim();
		assertFalse(err.isEmpty(), "an error message");
		assertEquals(1, err.split("\n").length, "exactly one line: " + err);
		assertFalse(err.contains("\tat ") || err.contains("Exception"), "no stack trace / exception names: " + err);
		for (final String e : expected) assertTrue(err.toLowerCase().contains(e.toLowerCase()),
			"message names '" + e + "': " + err);
		try (Stream<Path> files = Files.list(dir)) {
			files.forEach(p -> {
				final String n = p.getFileName().toString();
				assertFalse(n.startsWith("out") || n.startsWith(".out") || n.startsWith(".nufftj-") || n.endsWith(".part"),
					"left behind: " + n);
			});
		}
	}

	private static String[] says(final String... s) {
		return s;
	}

	@Test
	void validInputsWork() {
		final Cli.Result r = Cli.run("adjoint", "-d", N + ":" + N + ":1", traj, ksp, out);
		assertEquals(0, r.code, r.toString());
		assertTrue(Files.exists(dir.resolve("out.cfl")) && Files.exists(dir.resolve("out.hdr")));
	}

	@Test
	void nonFiniteValues() throws IOException {
		final Cfl.Array t = Cfl.read(traj);
		final int p = random.nextInt(R * S);
		t.data()[2 * 3 * p] = Float.NaN;
		Cfl.write(traj, t.dims(), t.data());
		fails(says("traj", "point " + p, "NaN"), "adjoint", traj, ksp, out);
		final Cfl.Array k = Cfl.read(ksp);
		t.data()[2 * 3 * p] = 0;
		Cfl.write(traj, t.dims(), t.data());
		k.data()[2 * 5 + 1] = Float.POSITIVE_INFINITY;
		Cfl.write(ksp, k.dims(), k.data());
		fails(says("ksp", "sample 5", "Infinity"), "adjoint", traj, ksp, out);
		fails(says("ksp", "sample 5", "Infinity"), "recon", traj, ksp, out);
	}

	@Test
	void coordinatesOutOfRange() throws IOException {
		// |k| reaches 8 cycles/FOV: an image of 12 pixels only covers [-6, 6].
		fails(says("traj", "cycles/FOV", "outside", "12"), "adjoint", "-d", "12:12:1", traj, ksp, out);
	}

	@Test
	void mismatchedSizes() throws IOException {
		Cfl.write(ksp, new long[] { 1, R - 1, S, C }, new float[2 * (R - 1) * S * C]);
		fails(says("ksp", "do not match", "[1, " + R + ", " + S), "adjoint", traj, ksp, out);
		Cfl.write(dir.resolve("img"), new long[] { 8, 8, 1, 1 }, new float[2 * 64]);
		fails(says("-d", "does not match"), "forward", "-d", "16:16:1", traj, dir.resolve("img"), out);
		Cfl.write(dir.resolve("bad"), new long[] { 2, R, S }, new float[2 * 2 * R * S]);
		fails(says("bad", "expected [3, readout, spokes]"), "adjoint", dir.resolve("bad"), ksp, out);
	}

	@Test
	void truncatedAndMalformedFiles() throws IOException {
		final byte[] data = Files.readAllBytes(dir.resolve("ksp.cfl"));
		Files.write(dir.resolve("ksp.cfl"), java.util.Arrays.copyOf(data, data.length - 8));
		fails(says("ksp.cfl", "truncated"), "adjoint", traj, ksp, out);
		Files.writeString(dir.resolve("traj.hdr"), "# Dimensions\n3 x 8\n");
		fails(says("traj.hdr", "'x'"), "adjoint", traj, ksp, out);
		Files.writeString(dir.resolve("traj.hdr"), "hello\n");
		fails(says("traj.hdr", "Dimensions"), "adjoint", traj, ksp, out);
	}

	@Test
	void missingFiles() throws IOException {
		fails(says("nothere", "not found"), "adjoint", dir.resolve("nothere"), ksp, out);
		fails(says("nothere", "not found"), "recon", traj, dir.resolve("nothere"), out);
	}

	@Test
	void optionsOutOfRange() throws IOException {
		fails(says("tolerance"), "adjoint", "--tolerance", 0.5, traj, ksp, out);
		fails(says("tolerance"), "adjoint", "--tolerance", 1e-9, traj, ksp, out); // below float precision
		fails(says("oversampling", "1.125"), "adjoint", "--oversampling", 3, traj, ksp, out);
		fails(says("width", "16"), "adjoint", "--width", 40, traj, ksp, out);
		fails(says("kernel"), "adjoint", "--kernel", "box", traj, ksp, out);
		fails(says("device"), "adjoint", "--device", "tpu", traj, ksp, out);
		fails(says("density compensation"), "recon", "--dcf", "magic", traj, ksp, out);
		fails(says("-d"), "adjoint", "-d", "16:x:1", traj, ksp, out);
		fails(says("--size"), "adjoint", "--size", 3, traj, ksp, out); // unknown option (usage error)
		// Issue 11: "bench accepts -d and ignores it".
		fails(says("-d 16:16:1", "not used", "--size"), "bench", "-d", "16:16:1", "--coils", 1, "--tolerances", "1e-3");
	}

	@Test
	void simulateOptionsOutOfRange() throws IOException {
		final Path k = dir.resolve("outk");
		fails(says("--coils", "0"), "simulate", "--coils", 0, out, k);
		fails(says("--matrix", "1"), "simulate", "--matrix", 1, out, k);
		fails(says("--matrix", "'y'"), "simulate", "--matrix", "16xy", out, k);
		fails(says("--snr", "'-3'"), "simulate", "--snr", -3, out, k);
		fails(says("--snr", "'abc'"), "simulate", "--snr", "abc", out, k);
		fails(says("--snr", "--sigma"), "simulate", "--snr", 10, "--sigma", 1, out, k);
		fails(says("--sigma"), "simulate", "--sigma", -1, out, k);
		fails(says("trajectory", "rosette"), "simulate", "--trajectory", "rosette", out, k);
		fails(says("--trajectory", "not a design"), "simulate", "--trajectory", "file", out, k);
		fails(says("spiral", "3D"), "simulate", "--trajectory", "spiral", "--matrix", "16x16x8", out, k);
		fails(says("phantom", "brain"), "simulate", "--phantom", "brain", out, k);
		fails(says("--readout"), "simulate", "--readout", -2, out, k);
		fails(says("same file"), "simulate", out, dir.resolve("out.cfl"));
		fails(says("nowhere", "does not exist"), "simulate", "--matrix", 16, out, dir.resolve("nowhere").resolve("k"));
		fails(says("--coils"), "simulate", "--coils", "many", out, k); // not an integer (usage error)
		assertEquals(0, Cli.run("simulate", "--matrix", 16, "--coils", 2, out, k).code, "valid options work");
	}

	@Test
	void debugAddsTheStackTrace() {
		final Cli.Result r = Cli.run("adjoint", "--debug", "--oversampling", 3, traj, ksp, out);
		assertEquals(Main.BAD_INPUT, r.code);
		assertTrue(r.err.contains("\tat "), r.err);
	}
}
