package org.nufftj.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.app.Regularization;
import org.nufftj.io.Cfl;
import org.scijava.Context;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;

import ij.ImagePlus;
import ij.gui.Plot;

/**
 * "Iterative reconstruction" on a BART file of two frames (frame 2 = 2 × frame 1's k-space, so with the command's
 * {@code -S} scaling its image is exactly 2 × frame 1's): a stack of two frames, frame 1 equal to the one-frame file's
 * image; the residual of every iteration of every frame in the info (and log) as {@code residuals.frameK=…}; no plot
 * headless (these tests run without a display), and the plot itself holds the per-iteration values.
 */
class IterativeCommandTest {

	private static Context context;
	private static CommandService commands;

	@TempDir
	static Path dir;

	private static File one, two;

	@BeforeAll
	static void setUp() throws Exception {
		context = new Context(CommandService.class);
		commands = context.service(CommandService.class);
		final CommandModule m = run(SimulateCommand.class, Map.of("matrix", "32", "coils", 2, "output", dir.resolve(
			"one.cfl").toFile(), "reconstruct", false, "device", "cpu"));
		assertFalse(m.isCanceled(), m.getCancelReason());
		one = (File) m.getOutput("kspace");
		final Cfl.Array k = Cfl.read(one.toPath());
		final float[] d = new float[2 * k.data().length];
		System.arraycopy(k.data(), 0, d, 0, k.data().length);
		for (int i = 0; i < k.data().length; i++) d[k.data().length + i] = 2 * k.data()[i];
		final long[] dims = k.dims();
		dims[10] = 2;
		Cfl.write(dir.resolve("two"), dims, d);
		final Path traj = dir.resolve("one_traj.cfl");
		Files.copy(traj, dir.resolve("two_traj.cfl"));
		Files.copy(dir.resolve("one_traj.hdr"), dir.resolve("two_traj.hdr"));
		two = dir.resolve("two.cfl").toFile();
	}

	@AfterAll
	static void tearDown() {
		context.dispose();
	}

	private static CommandModule run(final Class<? extends org.scijava.command.Command> type,
		final Map<String, Object> inputs) throws Exception
	{
		return (CommandModule) commands.run(type, true, inputs).get();
	}

	@Test
	void everyFrameWithItsResidualsInTheInfo() throws Exception {
		final int iterations = 6;
		final CommandModule a = run(IterativeCommand.class, Map.of("kspace", one, "maps", "walsh", "iterations",
			iterations, "device", "cpu"));
		assertFalse(a.isCanceled(), a.getCancelReason());
		final CommandModule b = run(IterativeCommand.class, Map.of("kspace", two, "maps", "walsh", "iterations",
			iterations, "device", "cpu"));
		assertFalse(b.isCanceled(), b.getCancelReason());
		final ImagePlus single = (ImagePlus) a.getOutput("image"), both = (ImagePlus) b.getOutput("image");
		assertEquals(1, single.getStackSize());
		assertEquals(2, both.getStackSize());
		final float[] s = (float[]) single.getStack().getPixels(1), f1 = (float[]) both.getStack().getPixels(1),
			f2 = (float[]) both.getStack().getPixels(2);
		double max = 0;
		for (final float v : s) max = Math.max(max, v);
		for (int i = 0; i < s.length; i++) {
			assertEquals(s[i], f1[i], 1e-5 * max, "frame 1 pixel " + i);
			assertEquals(2 * s[i], f2[i], 2e-5 * max, "frame 2 pixel " + i);
		}
		final String info = String.valueOf(both.getProperty("Info"));
		assertTrue(info.contains("residual per iteration: relative residual ||r|| / ||b|| (conjugate gradients)"),
			info);
		final double[] r1 = values(info, "residuals.frame1"), r2 = values(info, "residuals.frame2");
		assertEquals(iterations, r1.length, info);
		assertEquals(iterations, r2.length, info);
		for (int i = 0; i < iterations; i++) {
			assertTrue(r1[i] > 0 && r1[i] < 1 && Double.isFinite(r1[i]), info);
			// Frame 2's system is frame 1's times 2 in the data and its scale: the same relative residuals.
			assertEquals(r1[i], r2[i], 1e-3 * r1[i], info);
		}
		assertTrue(r1[iterations - 1] < r1[0], "CG's relative residual falls over the iterations: " + info);
		assertArrayEqualsRelative(r1, values(String.valueOf(single.getProperty("Info")), "residuals"));
		assertTrue(String.valueOf(b.getOutput("log")).contains("residuals.frame2="));
		assertNull(b.getOutput("residuals"), "no plot headless");
	}

	@Test
	void thePlotHoldsEveryFramesResiduals() {
		final double[] a = { 0.5, 0.1, 0.02 }, b = { 0.4, 0.2, 0.05, 0.01 };
		final Plot p = IterativeCommand.residualPlot("t", IterativeCommand.residualName(
			Regularization.Kind.TOTAL_VARIATION), List.of(a, b));
		final float[][] first = p.getDataObjectArrays(0), second = p.getDataObjectArrays(1);
		assertEquals(3, first[0].length);
		assertEquals(4, second[0].length);
		for (int i = 0; i < b.length; i++) {
			assertEquals(i + 1, second[0][i], 0f);
			assertEquals((float) b[i], second[1][i], 0f);
		}
		assertEquals((float) a[2], first[1][2], 0f);
		assertTrue(p.getImagePlus().getWidth() > 0);
	}

	// -- helpers --

	private static double[] values(final String info, final String key) {
		final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + "=([^\\n]*)$").matcher(info);
		assertTrue(m.find(), key + " not in: " + info);
		final String[] parts = m.group(1).split(",");
		final double[] v = new double[parts.length];
		for (int i = 0; i < v.length; i++) v[i] = Double.parseDouble(parts[i]);
		return v;
	}

	private static void assertArrayEqualsRelative(final double[] expected, final double[] actual) {
		assertEquals(expected.length, actual.length);
		for (int i = 0; i < expected.length; i++) assertEquals(expected[i], actual[i], 1e-4 * expected[i], "iteration " +
			(i + 1));
	}
}
