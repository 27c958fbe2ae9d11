package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.app.tune.Wisdom;

/**
 * {@code nufft-j tune} and {@code recon --tune} end to end on the sample data, with the wisdom in a temporary folder
 * (the system property {@code nufftj.wisdom}, which takes precedence over {@code NUFFTJ_WISDOM}).
 */
class TuneCommandTest {

	private static final String SAMPLE = "sample-data/radial_ga";

	@TempDir
	Path dir;

	private String old;

	@BeforeEach
	void pointWisdomIntoTheTemporaryFolder() {
		old = System.getProperty(Wisdom.PROPERTY);
		System.setProperty(Wisdom.PROPERTY, dir.resolve("wisdom.json").toString());
	}

	@AfterEach
	void restore() {
		if (old == null) System.clearProperty(Wisdom.PROPERTY);
		else System.setProperty(Wisdom.PROPERTY, old);
	}

	@Test
	void tuneRecordsAWinnerThatReconReadsAndASecondTuneTimesNothing() throws Exception {
		final Cli.Result first = Cli.run("tune", "--device", "cpu", "--eps", "1e-3", "--budget", "2", SAMPLE);
		assertEquals(Main.OK, first.code, first.toString());
		assertTrue(first.out.contains("default (heuristic)") && first.out.contains("recorded in"), first.out);
		final Matcher winner = Pattern.compile("(?m)^\\*\\s+(\\S+) W=(\\d+) sigma=(\\S+)").matcher(first.out);
		assertTrue(winner.find(), "a winner is marked: " + first.out);
		final List<Wisdom.Entry> entries = new Wisdom(dir.resolve("wisdom.json"), null).entries();
		assertEquals(1, entries.size());
		assertEquals(8, entries.get(0).key().batch(), "8 coils");
		assertEquals("adjoint", entries.get(0).key().direction());

		final Cli.Result second = Cli.run("tune", "--device", "cpu", "--eps", "1e-3", SAMPLE);
		assertEquals(Main.OK, second.code, second.toString());
		assertTrue(second.out.contains("nothing timed"), second.out);

		// recon without --tune reads the winner (its plan has the winner's kernel, W and sigma).
		final Cli.Result recon = Cli.run("recon", "--device", "cpu", "--eps", "1e-3", "--dcf", "ramp", "--verbose",
			SAMPLE, dir.resolve("img"));
		assertEquals(Main.OK, recon.code, recon.toString());
		assertTrue(recon.err.contains("kernel=" + winner.group(1) + " W=" + winner.group(2)) &&
			recon.err.contains("sigma=" + winner.group(3)), recon.err + "\nwinner " + winner.group());
		// Another tolerance is another key: recon --tune quick tunes it and records a second entry.
		final Cli.Result tuned = Cli.run("recon", "--device", "cpu", "--eps", "1e-4", "--dcf", "ramp", "--tune",
			"quick", "--tune-budget", "2", SAMPLE, dir.resolve("img2"));
		assertEquals(Main.OK, tuned.code, tuned.toString());
		assertTrue(Files.exists(dir.resolve("img2.cfl")));
		assertEquals(2, new Wisdom(dir.resolve("wisdom.json"), null).entries().size());
	}

	@Test
	void badModesAreOneLineErrors() {
		final Cli.Result mode = Cli.run("tune", "--device", "cpu", "--mode", "fast", SAMPLE);
		assertEquals(Main.BAD_INPUT, mode.code, mode.toString());
		assertTrue(mode.err.contains("fast") && mode.err.contains("quick"), mode.err);
		final Cli.Result recon = Cli.run("recon", "--tune", "always", SAMPLE, dir.resolve("x"));
		assertEquals(Main.BAD_INPUT, recon.code, recon.toString());
		final Cli.Result explicit = Cli.run("tune", "--device", "cpu", "--width", "6", SAMPLE);
		assertEquals(Main.BAD_INPUT, explicit.code, explicit.toString());
		assertTrue(explicit.err.contains("auto"), explicit.err);
	}
}
