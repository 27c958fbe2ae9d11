package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/** Regressions of the command line's front matter: help text, unknown subcommands, which stream a command writes. */
class MainTest {

	@TempDir
	Path dir;

	@Test
	void mainHelpListsEverySubcommandWithAWholeSentence() {
		final Cli.Result r = Cli.run("--help");
		assertEquals(0, r.code, r.toString());
		final String help = r.out.replaceAll("\\s+", " ");
		final CommandLine cl = Main.commandLine(null);
		for (final var e : cl.getSubcommands().entrySet()) {
			if (e.getValue().getCommand() instanceof CommandLine.HelpCommand) continue; // picocli's own, listed by header
			final String first = e.getValue().getCommandSpec().usageMessage().description()[0];
			// The listing shows the first description line: it must be a whole sentence, not cut at a colon.
			assertTrue(first.endsWith("."), e.getKey() + ": first description line is not a sentence: " + first);
			assertTrue(help.contains(first.replaceAll("\\s+", " ")), e.getKey() + " listed as '" + first + "' in " +
				r.out);
		}
	}

	/** A run builds the model of the subcommand it runs only; help and unknown names get all, in the listed order. */
	@Test
	void aRunRegistersOnlyItsSubcommand() {
		assertEquals(List.of("adjoint"), List.copyOf(Main.commandLine("adjoint").getSubcommands().keySet()));
		final List<String> all = List.copyOf(Main.commandLine(null).getSubcommands().keySet());
		assertEquals(Main.COMMANDS.size() + 1, all.size(), all.toString());
		assertEquals("help", all.get(all.size() - 1));
		for (final String name : new String[] { "help", "nlinv", "--help" })
			assertEquals(all, List.copyOf(Main.commandLine(name).getSubcommands().keySet()), name);
		for (final String name : all) {
			if (name.equals("help")) continue;
			final Cli.Result r = Cli.run(name, "--help");
			assertTrue(r.out.contains("Usage: nufft-j " + name), name + ": " + r.out);
		}
	}

	@Test
	void unknownSubcommandIsBadInputNamedOnce() {
		final Cli.Result r = Cli.run("nlinv", "traj", "ksp", "out");
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertTrue(r.err.contains("'nlinv'"), r.err);
		assertTrue(r.err.contains("see: nufft-j --help"), r.err);
		assertFalse(r.err.contains("nufft-j nufft-j"), r.err);
		assertEquals(1, r.err.trim().split("\n").length, r.err);
	}

	@Test
	void helpOfAnUnknownSubcommandFails() {
		final Cli.Result r = Cli.run("nlinv", "--help");
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertTrue(r.err.contains("'nlinv'"), r.err);
		assertFalse(r.out.contains("Usage:"), "no help for a command that does not exist: " + r.out);
	}

	@Test
	void usageErrorsPointAtTheSubcommandsHelp() {
		final Cli.Result r = Cli.run("recon", "--bogus", "a", "b", "c");
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertTrue(r.err.contains("(see: nufft-j recon --help)"), r.err);
	}

	/**
	 * Everything a command prints goes to the streams it was given (the GPU report captures them), never to
	 * System.out / System.err: recon --verbose's description, and recon --compare's figures (or, without a GPU, its
	 * one-line failure).
	 */
	@Test
	void reconWritesOnlyToTheCommandsStreams() throws Exception {
		final int n = 16, readout = 32, spokes = 24;
		final float[] t = new float[2 * 3 * readout * spokes];
		for (int s = 0; s < spokes; s++)
			for (int i = 0; i < readout; i++) {
				final double a = Math.PI * s / spokes, k = (i - readout / 2.0) * n / readout;
				t[2 * (3 * (s * readout + i))] = (float) (k * Math.cos(a));
				t[2 * (3 * (s * readout + i) + 1)] = (float) (k * Math.sin(a));
			}
		org.nufftj.io.Cfl.write(dir.resolve("traj"), new long[] { 3, readout, spokes }, t);
		final float[] y = new float[2 * readout * spokes * 2];
		final java.util.Random random = new java.util.Random();
		for (int i = 0; i < y.length; i++) y[i] = (float) random.nextGaussian();
		org.nufftj.io.Cfl.write(dir.resolve("ksp"), new long[] { 1, readout, spokes, 2 }, y);
		final PrintStream sysOut = System.out, sysErr = System.err;
		final ByteArrayOutputStream stray = new ByteArrayOutputStream();
		final PrintStream capture = new PrintStream(stray, true, StandardCharsets.UTF_8);
		final Cli.Result verbose, compare;
		try {
			System.setOut(capture);
			System.setErr(capture);
			verbose = Cli.run("recon", "--verbose", "--device", "cpu", dir.resolve("traj"), dir.resolve("ksp"),
				dir.resolve("out"));
			compare = Cli.run("recon", "--compare", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("cmp"));
		}
		finally {
			System.setOut(sysOut);
			System.setErr(sysErr);
		}
		assertEquals(0, verbose.code, verbose.toString());
		assertTrue(verbose.err.contains("dcf"), "--verbose describes the run on the command's stderr: " + verbose);
		assertTrue(verbose.err.contains("open device") && verbose.err.contains("times: start-up"),
			"--verbose splits the device's start from the reconstruction: " + verbose);
		if (compare.code == 0) {
			assertTrue(compare.out.contains("GPU vs CPU") && compare.out.contains("NRMSE"), compare.toString());
			assertTrue(Files.exists(dir.resolve("cmp-cpu.cfl")));
		}
		else {
			assertEquals(Main.GPU, compare.code, compare.toString());
			assertTrue(compare.err.contains("--compare needs a GPU"), compare.toString());
		}
		assertEquals("", stray.toString(StandardCharsets.UTF_8), "nothing on System.out / System.err");
	}
}
