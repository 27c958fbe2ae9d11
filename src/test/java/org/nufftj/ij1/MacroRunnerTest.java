package org.nufftj.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nufft-j macro}: a user's macro without a preamble runs headless, and (issue 11: "-batch exits 0 when a
 * NUFFT-J command failed, so scripts cannot detect failure") a failed NUFFT-J command stops the macro and makes the
 * process exit 1 with one line.
 */
class MacroRunnerTest {

	@TempDir
	Path dir;

	/**
	 * A macro without a preamble: Reconstruct k-space, then ImageJ's own 8-bit and Measure (issue 11: they were
	 * "Unrecognized" headless, being built-in menu commands outside IJ_Props.txt), then save.
	 */
	@Test
	void aMacroWithoutPreambleRunsOursAndImageJsCommandsAndSaves() throws Exception {
		final Path img = dir.resolve("recon.tif");
		final Result r = run(macro("setBatchMode(true);",
			"run(\"Reconstruct k-space\", \"kspace=[sample-data/ismrmrd/radial_shepp_logan.h5] device=cpu\");",
			"run(\"8-bit\");", "run(\"Measure\");", "print(\"depth \" + bitDepth() + \" results \" + nResults);",
			"saveAs(\"Tiff\", \"" + img + "\");", "print(\"saved \" + getWidth());"));
		assertEquals(MacroRunner.OK, r.code, r.out);
		assertTrue(r.out.contains("depth 8 results 1"), r.out);
		assertFalse(r.out.contains("Unrecognized command"), r.out);
		assertTrue(r.out.contains("saved ") && Files.size(img) > 1000, r.out);
	}

	@Test
	void imageJsBuiltInCommandsAreInTheTable() {
		final java.util.Map<String, String> builtIn = ImageJCommands.builtIn();
		for (final String label : new String[] { "8-bit", "32-bit", "Duplicate...", "Measure", "Image Calculator...",
			"Set Scale...", "Enhance Contrast..." })
			assertTrue(builtIn.containsKey(label), label + " in " + builtIn.keySet());
		assertEquals("ij.plugin.Converter(\"8-bit\")", builtIn.get("8-bit"));
	}

	@Test
	void aFailedCommandStopsTheMacroAndExitsOne() throws Exception {
		final Result r = run(macro("run(\"Reconstruct k-space\", \"kspace=[" + dir.resolve("missing.h5") + "]\");",
			"print(\"after the failure\");"));
		assertEquals(MacroRunner.FAILED, r.code, r.out);
		assertTrue(r.out.contains("NUFFT-J") && r.out.contains("missing.h5"), r.out);
		assertFalse(r.out.contains("after the failure"), "the macro stopped: " + r.out);
		assertFalse(r.out.contains("\tat "), "no trace: " + r.out);
	}

	@Test
	void exitWithAMessageIsAFailureWithThatLineAndNoTrace() throws Exception {
		final Result r = run(macro("exit(\"output folder /nowhere does not exist\");", "print(\"after exit\");"));
		assertEquals(MacroRunner.FAILED, r.code, r.out);
		assertTrue(r.out.contains("output folder /nowhere does not exist"), r.out);
		assertFalse(r.out.contains("after exit"), r.out);
		assertFalse(r.out.contains("\tat ") || r.out.contains("Exception"), "no trace: " + r.out);
	}

	@Test
	void aMacroErrorAndAMissingFileAreFailures() throws Exception {
		assertEquals(MacroRunner.FAILED, run(macro("x = ;")).code);
		assertEquals(MacroRunner.UNREADABLE, run(dir.resolve("nothere.ijm")).code);
	}

	// -- helpers --

	private record Result(int code, String out) {}

	private Path macro(final String... lines) throws java.io.IOException {
		return Files.writeString(dir.resolve("m" + System.nanoTime() + ".ijm"), String.join("\n", lines) + "\n");
	}

	private static Result run(final Path macro) throws Exception {
		final ProcessBuilder b = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
			"-cp", System.getProperty("java.class.path"), MacroRunner.class.getName(),
			macro.toString()).redirectErrorStream(true);
		b.environment().remove("DISPLAY"); // headless, as on a server
		final Process p = b.start();
		final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ended: " + out);
		return new Result(p.exitValue(), out);
	}
}
