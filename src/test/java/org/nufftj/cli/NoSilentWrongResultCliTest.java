package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.io.Cfl;

/**
 * Issue 11's "silent wrong results" of the command line, each now refused or reported: the ramp on non-radial data,
 * an image matrix estimated from one corrupt coordinate, more threads than cores, an option {@code bench} does not use.
 */
class NoSilentWrongResultCliTest {

	@TempDir
	Path dir;

	/** "--dcf ramp on spiral/Cartesian data gives NRMSE 0.94 / 2.3 silently". */
	@Test
	void theRampIsRefusedOnTrajectoriesWithoutSpokes() {
		for (final String design : new String[] { "spiral", "cartesian", "propeller" }) {
			assertEquals(0, Cli.run("simulate", "--trajectory", design, "--matrix", "24", "--coils", "1", dir.resolve(
				design + "_traj"), dir.resolve(design)).code);
			final Cli.Result r = Cli.run("recon", "--dcf", "ramp", dir.resolve(design + "_traj"), dir.resolve(design), dir
				.resolve(design + "-r"));
			assertEquals(Main.BAD_INPUT, r.code, design + ": " + r);
			assertTrue(r.err.contains("ramp") && r.err.contains("not a spoke") && r.err.contains("pipe-menon"), r.err);
		}
		for (final String design : new String[] { "radial", "golden-angle", "stack-of-stars" }) {
			assertEquals(0, Cli.run("simulate", "--trajectory", design, "--matrix", design.startsWith("stack") ? "24x24x4"
				: "24", "--coils", "1", dir.resolve(design + "_traj"), dir.resolve(design)).code);
			final Cli.Result r = Cli.run("recon", "--dcf", "ramp", dir.resolve(design + "_traj"), dir.resolve(design), dir
				.resolve(design + "-r"));
			assertEquals(0, r.code, design + " has spokes: " + r);
		}
	}

	/** "one corrupt coordinate (kx = 1000) makes a 2000×128 image". */
	@Test
	void anEstimatedMatrixFromOneOutlierIsRefusedWithTheEstimateAndAHint() throws Exception {
		assertEquals(0, Cli.run("simulate", "--trajectory", "radial", "--matrix", "32", "--coils", "1", dir.resolve(
			"t"), dir.resolve("k")).code);
		final Cfl.Array t = Cfl.read(dir.resolve("t"));
		final float[] f = t.data();
		f[2 * (3 * 77)] = 1000; // kx of point 77
		Cfl.write(dir.resolve("bad_traj"), t.dims(), f);
		final Cli.Result r = Cli.run("recon", dir.resolve("bad_traj"), dir.resolve("k"), dir.resolve("r"));
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertTrue(r.err.contains("2000x32") && r.err.contains("1000") && r.err.contains("-d"), r.err);
		assertEquals(1, r.err.strip().split("\n").length, r.err);
		// The unharmed trajectory still estimates its own 32 x 32.
		assertEquals(0, Cli.run("recon", dir.resolve("t"), dir.resolve("k"), dir.resolve("r")).code);
		assertEquals(32, Cfl.read(dir.resolve("r")).dim(0));
	}

	/** "--threads 10000 takes 20× longer": capped to the cores, with one notice. */
	@Test
	void moreThreadsThanCoresAreCappedWithANotice() {
		assertEquals(0, Cli.run("simulate", "--trajectory", "radial", "--matrix", "16", "--coils", "1", dir.resolve(
			"t"), dir.resolve("k")).code);
		final Cli.Result r = Cli.run("recon", "--threads", "10000", dir.resolve("t"), dir.resolve("k"), dir.resolve("r"));
		assertEquals(0, r.code, r.toString());
		assertTrue(r.err.contains("--threads 10000 capped to the " + Runtime.getRuntime().availableProcessors() +
			" cores"), r.err);
		assertEquals(1, r.err.strip().split("\n").length, "one notice: " + r.err);
		final Cli.Result quiet = Cli.run("recon", "--threads", "1", dir.resolve("t"), dir.resolve("k"), dir.resolve("r"));
		assertEquals("", quiet.err.strip(), "no notice within the cores");
		final Cli.Result sim = Cli.run("simulate", "--threads", "10000", "--trajectory", "radial", "--matrix", "16",
			"--coils", "1", dir.resolve("t2"), dir.resolve("k2"));
		assertEquals(0, sim.code, sim.toString());
		assertTrue(sim.err.contains("--threads 10000 capped"), "simulate: " + sim.err);
	}

	/** "bench accepts -d and ignores it" (and -e, which bench's --tolerances replace). */
	@Test
	void optionsBenchDoesNotUseAreRefused() {
		final Cli.Result d = Cli.run("bench", "-d", "64:64:1", "--size", "16", "--spokes", "4", "--readout", "8",
			"--coils", "1", "--tolerances", "1e-3", "--warmup", "0", "--repeats", "1");
		assertEquals(Main.BAD_INPUT, d.code, d.toString());
		assertTrue(d.err.contains("-d"), d.err);
		final Cli.Result e = Cli.run("bench", "-e", "1e-2", "--size", "16", "--spokes", "4", "--readout", "8",
			"--coils", "1", "--tolerances", "1e-3", "--warmup", "0", "--repeats", "1");
		assertEquals(Main.BAD_INPUT, e.code, e.toString());
		assertTrue(e.err.contains("-e") && e.err.contains("--tolerances"), e.err);
		final Cli.Result ok = Cli.run("bench", "--size", "16", "--spokes", "4", "--readout", "8", "--coils", "1",
			"--tolerances", "1e-3", "--warmup", "0", "--repeats", "1");
		assertEquals(0, ok.code, ok.toString());
	}
}
