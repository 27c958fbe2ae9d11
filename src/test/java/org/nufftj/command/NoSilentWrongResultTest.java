package org.nufftj.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.app.Options;
import org.scijava.Context;
import org.scijava.command.Command;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;

import ij.ImagePlus;
import ij.process.ColorProcessor;
import ij.process.FloatProcessor;

/**
 * Issue 11's "silent wrong results", each now one clear refusal: a design key against a stored trajectory, a NaN
 * pixel or an RGB image into Forward NUFFT, Fiji Simulate's negative readout/shots (the CLI refused them already),
 * thousands of threads.
 */
class NoSilentWrongResultTest {

	static Context context;
	static CommandService commands;

	@TempDir
	static Path dir;

	static File small;

	@BeforeAll
	static void setUp() throws Exception {
		context = new Context(CommandService.class);
		commands = context.service(CommandService.class);
		final CommandModule m = run(SimulateCommand.class, Map.of("matrix", "32", "coils", 2, "trajectory", "radial",
			"output", dir.resolve("radial.cfl").toFile(), "reconstruct", false, "device", "cpu"));
		assertFalse(m.isCanceled(), m.getCancelReason());
		small = (File) m.getOutput("kspace");
	}

	@AfterAll
	static void tearDown() {
		context.dispose();
	}

	/** Issue 11: "trajectory=radial replaces the file's own _traj with a designed one (garbage image, no warning)". */
	@Test
	void aDesignKeyAgainstAStoredTrajectoryIsAnErrorNamingBoth() throws Exception {
		final CommandModule m = run(ReconstructCommand.class, Map.of("kspace", small, "trajectory", "golden angle",
			"device", "cpu"));
		assertTrue(m.isCanceled(), "refused");
		assertTrue(m.getCancelReason().contains("golden angle") && m.getCancelReason().contains("radial_traj.cfl"),
			m.getCancelReason());
		// "... on ISMRMRD the key is silently ignored"
		final CommandModule h = run(ReconstructCommand.class, Map.of("kspace", CommandsTest.SAMPLE_H5.toFile(),
			"trajectory", "spiral", "device", "cpu"));
		assertTrue(h.isCanceled(), "refused");
		assertTrue(h.getCancelReason().contains("spiral") && h.getCancelReason().contains("radial_shepp_logan.h5"),
			h.getCancelReason());
		// The stored trajectory itself still works.
		assertFalse(run(ReconstructCommand.class, Map.of("kspace", small, "device", "cpu")).isCanceled());
	}

	/** Issue 11: "Forward NUFFT of an image with one NaN pixel succeeds and writes all-NaN k-space". */
	@Test
	void aNonFinitePixelIsRefusedWithItsPosition() throws Exception {
		final Random random = new Random();
		final int w = 24, h = 20, x = random.nextInt(w), y = random.nextInt(h);
		final float[] px = new float[w * h];
		for (int i = 0; i < px.length; i++) px[i] = random.nextFloat();
		px[x + w * y] = random.nextBoolean() ? Float.NaN : Float.POSITIVE_INFINITY;
		final Path out = dir.resolve("nan.cfl");
		final CommandModule m = run(ForwardCommand.class, Map.of("input", new ImagePlus("img", new FloatProcessor(w, h,
			px)), "trajectory", "radial", "output", out.toFile(), "device", "cpu"));
		assertTrue(m.isCanceled(), "refused");
		assertTrue(m.getCancelReason().contains("pixel (" + x + ", " + y + ")") && m.getCancelReason().contains(
			String.valueOf(px[x + w * y])), "names the pixel (" + x + ", " + y + "): " + m.getCancelReason());
		assertFalse(Files.exists(out), "nothing written");
	}

	/** Issue 11: "RGB images accepted". */
	@Test
	void anRgbImageIsRefused() throws Exception {
		final CommandModule m = run(ForwardCommand.class, Map.of("input", new ImagePlus("colour", new ColorProcessor(16,
			16)), "trajectory", "radial", "output", dir.resolve("rgb.cfl").toFile(), "device", "cpu"));
		assertTrue(m.isCanceled(), "refused");
		assertTrue(m.getCancelReason().contains("RGB") && m.getCancelReason().contains("colour"), m.getCancelReason());
	}

	/** Issue 11: "Fiji Simulate accepts readout=-5 and shots=-1 (the CLI rejects them)": one validation for both. */
	@Test
	void fijiSimulateValidatesLikeTheCommandLine() throws Exception {
		for (final String key : new String[] { "readout", "shots" }) {
			final CommandModule m = run(SimulateCommand.class, Map.of("matrix", "16", key, -5, "output", dir.resolve(
				key + ".cfl").toFile(), "reconstruct", false, "device", "cpu"));
			assertTrue(m.isCanceled(), key + "=-5 refused");
			assertTrue(m.getCancelReason().contains(key) && m.getCancelReason().contains("-5"), m.getCancelReason());
			assertFalse(Files.exists(dir.resolve(key + ".cfl")));
		}
		final CommandModule c = run(SimulateCommand.class, Map.of("matrix", "16", "coils", Options.MAX_COILS + 1,
			"reconstruct", false));
		assertTrue(c.isCanceled() && c.getCancelReason().contains("coils"), String.valueOf(c.getCancelReason()));
	}

	/** Issue 11: "--threads 10000 takes 20x longer": more threads than cores are capped to the cores. */
	@Test
	void threadsAreCappedToTheCores() {
		final int cores = Runtime.getRuntime().availableProcessors();
		assertEquals(cores, Options.threads("threads", 10000));
		assertEquals(cores, Options.nufft("auto", 0, 0, 1e-4, "float", "cpu", "auto", 10000).threads());
		assertEquals(0, Options.threads("threads", 0), "0 stays 'all cores'");
		assertEquals(1, Options.threads("threads", 1));
	}

	static CommandModule run(final Class<? extends Command> type, final Map<String, Object> inputs) throws Exception {
		return (CommandModule) commands.run(type, true, inputs).get();
	}
}
