package org.nufftj.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.app.tune.Wisdom;
import org.scijava.Context;
import org.scijava.command.Command;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;

/**
 * The Fiji commands' {@code tune} key means what the command line's {@code --tune} means: quick tunes a missing key
 * and records it in the wisdom (here in a temporary folder), off reads it, and the image's Info names the tuned plan.
 */
class TuneKeyTest {

	@TempDir
	static Path dir;

	static Context context;
	static CommandService commands;
	static String old;

	@BeforeAll
	static void setUp() {
		old = System.getProperty(Wisdom.PROPERTY);
		System.setProperty(Wisdom.PROPERTY, dir.resolve("wisdom.json").toString());
		context = new Context(CommandService.class);
		commands = context.service(CommandService.class);
	}

	@AfterAll
	static void tearDown() {
		context.dispose();
		if (old == null) System.clearProperty(Wisdom.PROPERTY);
		else System.setProperty(Wisdom.PROPERTY, old);
	}

	@Test
	void quickTunesAndRecordsOffReadsTheWinner() throws Exception {
		final CommandModule sim = run(SimulateCommand.class, Map.of("matrix", "32", "coils", 2, "output", dir.resolve(
			"k.cfl").toFile(), "reconstruct", false, "device", "cpu"));
		final File k = (File) sim.getOutput("kspace");
		final CommandModule tuned = run(ReconstructCommand.class, Map.of("kspace", k, "device", "cpu", "tune", "quick",
			"tolerance", 1e-3));
		assertFalse(tuned.isCanceled(), tuned.getCancelReason());
		final List<Wisdom.Entry> entries = new Wisdom(dir.resolve("wisdom.json"), null).entries();
		assertEquals(1, entries.size());
		final Wisdom.Entry e = entries.get(0);
		assertEquals(2, e.key().batch());
		final CommandModule off = run(ReconstructCommand.class, Map.of("kspace", k, "device", "cpu", "tolerance", 1e-3));
		assertFalse(off.isCanceled(), off.getCancelReason());
		// The plan's parameters are in the image's Info (the Log has one line per reconstruction).
		final String info = ((ij.ImagePlus) off.getOutput("image")).getInfoProperty();
		assertTrue(info.contains("kernel=" + e.winner().kernel().key() + " W=" + e.winner().width()) &&
			info.contains("sigma=" + e.winner().oversampling()), info + "\nwinner " + e.winner());
		assertEquals(1, new Wisdom(dir.resolve("wisdom.json"), null).entries().size(), "off records nothing");
	}

	private static CommandModule run(final Class<? extends Command> type, final Map<String, Object> inputs)
		throws Exception
	{
		return (CommandModule) commands.run(type, true, inputs).get();
	}
}
