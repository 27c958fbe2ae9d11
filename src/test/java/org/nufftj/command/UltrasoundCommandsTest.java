package org.nufftj.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scijava.Context;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;

import ij.ImagePlus;

/**
 * The two ultrasound commands through SciJava's CommandService: simulate two steered transmits of a point, reconstruct
 * them compounded; the B-mode's brightest pixel is the point by the image's mm calibration (x origin at the array's
 * centre). Bad parameters cancel the command with one message naming them (no exception).
 */
class UltrasoundCommandsTest {

	static Context context;

	@BeforeAll
	static void start() {
		context = new Context(CommandService.class);
	}

	@AfterAll
	static void stop() {
		context.dispose();
	}

	@Test
	void simulateThenReconstruct() throws Exception {
		final CommandModule sim = run(UltrasoundSimulateCommand.class, Map.of("points", "1.2,9", "angles", "-6,6",
			"elements", 64, "depth", 12.0));
		final ImagePlus ch = (ImagePlus) sim.getOutput("channels");
		assertEquals(2, ch.getStackSize());
		for (final String method : new String[] { "fk", "das" }) {
			final CommandModule rec = run(UltrasoundReconCommand.class, Map.of("channels", ch, "angles", "-6,6", "method",
				method, "log", 40.0, "device", "cpu"));
			final ImagePlus b = (ImagePlus) rec.getOutput("bmode");
			assertEquals("mm", b.getCalibration().getUnit());
			final float[] px = (float[]) b.getProcessor().getPixels();
			int best = 0;
			for (int i = 1; i < px.length; i++) if (px[i] > px[best]) best = i;
			assertEquals(1.2, b.getCalibration().getX(best % b.getWidth()), 0.077 + b.getCalibration().pixelWidth, method);
			assertEquals(9, b.getCalibration().getY(best / b.getWidth()), 0.077, method);
		}
	}

	@Test
	void badParametersCancelWithOneMessage() throws Exception {
		final ImagePlus ch = (ImagePlus) run(UltrasoundSimulateCommand.class, Map.of("elements", 16, "depth", 5.0))
			.getOutput("channels");
		final Object[][] cases = { { "c", -1540.0, "speed of sound" }, { "angles", "", "at least one angle" }, { "angles",
			"0,60", "transmit angle 1" }, { "angles", "0,5", "one slice per transmit angle" }, { "method", "stolt",
				"fk or das" } };
		for (final Object[] c : cases) {
			final Map<String, Object> in = new HashMap<>(Map.of("channels", ch, "device", "cpu"));
			in.put((String) c[0], c[1]);
			final CommandModule m = context.service(CommandService.class).run(UltrasoundReconCommand.class, true, in).get();
			assertTrue(m.isCanceled(), c[0] + "=" + c[1]);
			assertTrue(m.getCancelReason().contains((String) c[2]) && !m.getCancelReason().contains("\n"), m
				.getCancelReason());
		}
		final CommandModule m = context.service(CommandService.class).run(UltrasoundSimulateCommand.class, true, Map.of(
			"phantom", "moon")).get();
		assertTrue(m.isCanceled() && m.getCancelReason().contains("points, speckle or cyst"), m.getCancelReason());
	}

	private static CommandModule run(final Class<? extends org.scijava.command.Command> c, final Map<String, Object> in)
		throws Exception
	{
		final CommandModule m = context.service(CommandService.class).run(c, true, in).get();
		assertFalse(m.isCanceled(), m.getCancelReason());
		return m;
	}
}
