package org.nufftj.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nufftj.app.FrontEndParityTest.cli;
import static org.nufftj.app.FrontEndParityTest.relative;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.cli.Main;
import org.nufftj.command.ReconstructCommand;
import org.nufftj.io.Cfl;
import org.scijava.Context;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;

import ij.ImagePlus;

/**
 * {@code --partial-fourier} and Fiji's {@code partialfourier} key go through one parser ({@link Options#partialFourier})
 * and mean the same: on a simulated BART Cartesian scan with its first 30% of phase-encode lines zeroed (BART's way of
 * storing partial Fourier), {@code nufft-j recon --partial-fourier homodyne} and Reconstruct k-space with
 * {@code partialfourier=homodyne} give the same image (≤ 1e-6 relative l2), which differs from the zero-filled one;
 * homodyne on the fully sampled scan and an unknown value are the same clear error in both (CLI exit code 1).
 */
class PartialFourierFrontEndTest {

	static Context context;

	@TempDir
	static Path dir;

	static Path full, partial;

	@BeforeAll
	static void setUp() throws Exception {
		context = new Context(CommandService.class);
		full = dir.resolve("cart");
		final String[] run = cli("simulate", "--trajectory", "cartesian", "--matrix", "32x32", "--coils", "2",
			dir.resolve("cart_traj").toString(), full.toString());
		assertEquals("0", run[0], run[1]);
		// Zero the samples of the first 30% of lines (axis 1 of the trajectory, cycles/FOV -16 … 15).
		final Cfl.Array t = Cfl.read(dir.resolve("cart_traj")), k = Cfl.read(full);
		final float[] y = k.data().clone();
		final int points = (int) (t.dim(1) * t.dim(2)), per = 2 * points;
		int zeroed = 0;
		for (int p = 0; p < points; p++) {
			if (t.data()[2 * (3 * p + 1)] >= -16 + 10) continue;
			zeroed++;
			for (int at = 2 * p; at < y.length; at += per) y[at] = y[at + 1] = 0;
		}
		assertEquals(10 * 32, zeroed, "10 of 32 lines zeroed");
		partial = dir.resolve("part");
		Cfl.write(partial, k.dims(), y);
		Cfl.write(dir.resolve("part_traj"), t.dims(), t.data());
	}

	@AfterAll
	static void tearDown() {
		context.dispose();
	}

	@Test
	void homodyneIsTheSameInBothFrontEnds() throws Exception {
		final Path cliOut = dir.resolve("cli_homodyne"), zeroOut = dir.resolve("cli_zero");
		String[] run = cli("recon", "--device", "cpu", "--dcf", "none", "--partial-fourier", "homodyne", partial +
			".cfl", cliOut.toString());
		assertEquals("0", run[0], run[1]);
		run = cli("recon", "--device", "cpu", "--dcf", "none", partial + ".cfl", zeroOut.toString());
		assertEquals("0", run[0], run[1]);
		final float[] homodyne = magnitude(Cfl.read(cliOut).data()), zero = magnitude(Cfl.read(zeroOut).data());
		assertTrue(relative(zero, homodyne) > 1e-3, "homodyne differs from zero-filled: " + relative(zero, homodyne));
		final CommandModule m = fiji(partial, "homodyne");
		assertFalse(m.isCanceled(), m.getCancelReason());
		final ImagePlus imp = (ImagePlus) m.getOutput("image");
		final float[] shown = (float[]) imp.getProcessor().getPixels();
		final double e = relative(shown, org.nufftj.imglib.DisplayOrder.toDisplay(homodyne, 32, 32));
		assertTrue(e <= 1e-6, "Fiji vs nufft-j recon, homodyne: relative l2 " + e);
	}

	@Test
	void badUseIsTheSameClearErrorInBothFrontEnds() throws Exception {
		final String[] run = cli("recon", "--device", "cpu", "--dcf", "none", "--partial-fourier", "homodyne", full +
			".cfl", dir.resolve("never").toString());
		assertEquals("" + Main.BAD_INPUT, run[0], run[1]);
		assertTrue(run[1].contains("not partial Fourier"), run[1]);
		CommandModule m = fiji(full, "homodyne");
		assertTrue(m.isCanceled());
		assertTrue(m.getCancelReason().contains("not partial Fourier"), m.getCancelReason());
		final String[] bad = cli("recon", "--device", "cpu", "--partial-fourier", "half", full + ".cfl", dir.resolve(
			"never").toString());
		assertEquals("" + Main.BAD_INPUT, bad[0], bad[1]);
		m = fiji(full, "half");
		assertTrue(m.isCanceled());
		for (final String s : new String[] { bad[1], m.getCancelReason() })
			assertTrue(s.contains("partial-fourier (partialfourier): unknown value 'half', expected one of [zero, " +
				"homodyne]"), s);
	}

	// -- helpers --

	private static CommandModule fiji(final Path kspace, final String pf) throws Exception {
		return (CommandModule) context.service(CommandService.class).run(ReconstructCommand.class, true, Map.of(
			"kspace", Path.of(kspace + ".cfl").toFile(), "device", "cpu", "dcf", "none", "partialfourier", pf)).get();
	}

	private static float[] magnitude(final float[] c) {
		final float[] m = new float[c.length / 2];
		for (int i = 0; i < m.length; i++) m[i] = (float) Math.hypot(c[2 * i], c[2 * i + 1]);
		return m;
	}
}
