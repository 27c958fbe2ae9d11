package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --fft auto|cufft|own} (FftOption): every command that can run on the GPU takes it; a bad value is one line
 * naming the option and the allowed values, exit 1; a good one selects the engine (the property {@code nufftj.fft} the
 * GPU backend reads when it opens), in any case; without it nothing is set. The property is restored after each test.
 */
class FftOptionTest {

	private String before;

	@BeforeEach
	void save() {
		before = System.getProperty("nufftj.fft");
		System.clearProperty("nufftj.fft");
	}

	@AfterEach
	void restore() {
		if (before == null) System.clearProperty("nufftj.fft");
		else System.setProperty("nufftj.fft", before);
	}

	@Test
	void aBadValueIsOneLineNamingTheChoices() {
		for (final String[] args : new String[][] { { "info", "--fft", "fftw" }, { "recon", "--fft", "fftw", "t", "k",
			"o.tif" }, { "pics", "--fft", "fftw", "-t", "t", "k", "m", "o" } })
		{
			final Cli.Result r = Cli.run(args);
			assertEquals(Main.BAD_INPUT, r.code, String.join(" ", args) + ": " + r);
			assertTrue(r.err.contains("--fft") && r.err.contains("fftw") && r.err.contains("[auto, cufft, own]"), r
				.toString());
			assertEquals(1, r.err.strip().lines().count(), "one line: " + r.err);
		}
	}

	@Test
	void aGoodValueSelectsTheEngine() {
		final Cli.Result r = Cli.run("info", "--fft", "OWN");
		assertEquals(0, r.code, r.toString());
		assertEquals("own", System.getProperty("nufftj.fft"));
		assertEquals(0, Cli.run("info").code);
		assertEquals("own", System.getProperty("nufftj.fft"), "unchanged without --fft");
		System.clearProperty("nufftj.fft");
		assertEquals(0, Cli.run("info").code);
		assertEquals(null, System.getProperty("nufftj.fft"), "nothing set without --fft");
	}

	@Test
	void everyGpuCommandTakesIt() {
		for (final String sub : new String[] { "recon", "adjoint", "forward", "bench", "batch", "tune", "pics",
			"us-recon", "info" })
		{
			final Cli.Result r = Cli.run(sub, "--help");
			assertEquals(0, r.code, sub + ": " + r);
			assertTrue(r.out.contains("--fft=auto|cufft|own"), sub + " --help lists --fft: " + r.out);
		}
	}
}
