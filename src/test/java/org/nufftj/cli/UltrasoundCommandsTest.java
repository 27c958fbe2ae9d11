package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ij.ImagePlus;
import ij.io.Opener;

/**
 * {@code nufft-j us-simulate} then {@code us-recon} (f-k and delay-and-sum): the brightest pixel of the calibrated
 * B-mode image is the simulated point, within a quarter wavelength in depth and one column laterally; bad parameters
 * are one line, nothing written.
 */
class UltrasoundCommandsTest {

	@TempDir
	Path dir;

	@Test
	void simulateThenReconstructAPoint() {
		final Path ch = dir.resolve("ch.tif");
		final Cli.Result s = Cli.run("us-simulate", "--points", "1.5,12", "--depth", "16", ch);
		assertEquals(0, s.code, s.toString());
		for (final String method : new String[] { "fk", "das" }) {
			final Path out = dir.resolve(method + ".tif");
			final Cli.Result r = Cli.run("us-recon", "--method", method, "--device", "cpu", "--log", "50", ch, out);
			assertEquals(0, r.code, r.toString());
			final ImagePlus imp = new Opener().openImage(out.toString());
			final float[] px = (float[]) imp.getProcessor().getPixels();
			final int best = brightest(imp);
			final double dx = imp.getCalibration().pixelWidth, dz = imp.getCalibration().pixelHeight;
			final int w = imp.getWidth();
			final double x = -(128 - 1) / 2.0 * 0.15 + (best % w) * dx, z = (best / w) * dz;
			assertEquals(0.15 / 2, dx, 1e-6, "pixel width = pitch / up, mm");
			assertEquals(1540 / (2 * 40e6) * 1e3, dz, 1e-6, "pixel height = c / (2 fs), mm");
			assertEquals(1.5, x, dx, method + ": lateral position (mm)");
			assertEquals(12, z, 0.308 / 4, method + ": depth (mm)");
			assertEquals(0, px[best], 1e-6, method + ": log image peaks at 0 dB");
		}
		final Cli.Result bad = Cli.run("us-recon", "--c", "-1540", ch, dir.resolve("bad.tif"));
		assertNotEquals(0, bad.code);
		assertTrue(bad.err.contains("speed of sound") && bad.err.trim().split("\n").length == 1, bad.err);
		assertTrue(!Files.exists(dir.resolve("bad.tif")));
	}

	/** Three steered transmits compounded: the point at its place, origin recorded; bad angle lists are one line. */
	@Test
	void steeredCompoundOfAPointAndBadAngles() {
		final Path ch = dir.resolve("ch3.tif");
		assertEquals(0, Cli.run("us-simulate", "--points", "-1,11", "--depth", "14", "--angles", "-5,0,5", ch).code);
		final Path out = dir.resolve("c.tif");
		final Cli.Result r = Cli.run("us-recon", "--angles", "-5,0,5", "--device", "cpu", ch, out);
		assertEquals(0, r.code, r.toString());
		final ImagePlus imp = new Opener().openImage(out.toString());
		final int best = brightest(imp), w = imp.getWidth();
		final double x = imp.getCalibration().getX(best % w), z = imp.getCalibration().getY(best / w);
		assertEquals(-1, x, 0.308 / 4 + imp.getCalibration().pixelWidth, "lateral position from the calibration (mm)");
		assertEquals(11, z, 0.308 / 4, "depth from the calibration (mm)");
		for (final String[] bad : new String[][] { { "--angles", "" }, { "--angles", "-5,0,50" }, { "--angles", "0" },
			{ "--angles", "-5,x,5" } })
		{
			final Cli.Result e = Cli.run("us-recon", bad[0], bad[1], ch, dir.resolve("bad.tif"));
			assertNotEquals(0, e.code, String.join(" ", bad));
			assertTrue(e.err.trim().split("\n").length == 1 && (e.err.contains("angle") || e.err.contains("slice")),
				e.err);
			assertTrue(!Files.exists(dir.resolve("bad.tif")));
		}
	}

	/** A UFF file (three steered waves, acquisition in the file) → us-recon: the point at its place. */
	@Test
	void uffInput() {
		final org.nufftj.recon.ultrasound.PlaneWave p = new org.nufftj.recon.ultrasound.PlaneWave(64, 700, 0.15e-3, 40e6,
			1540, 5e6, 0);
		final double[] a = org.nufftj.io.UffChannelDataTest.ANGLES;
		final float[][] ch = new float[a.length][];
		for (int i = 0; i < a.length; i++) ch[i] = org.nufftj.recon.ultrasound.EchoSimulator.echoes(p, a[i],
			new double[][] { { 0.5e-3, 10e-3, 1 } }, 0.6);
		final Path uff = dir.resolve("pw.uff"), out = dir.resolve("uff.tif");
		org.nufftj.io.UffChannelDataTest.write(uff, p, ch, false, null);
		for (final String m : new String[] { "fk", "das" }) {
			final Cli.Result r = Cli.run("us-recon", "--method", m, "--device", "cpu", uff, out);
			assertEquals(0, r.code, r.toString());
			final ImagePlus imp = new Opener().openImage(out.toString());
			final int best = brightest(imp), w = imp.getWidth();
			assertEquals(0.5, imp.getCalibration().getX(best % w), 0.308 / 4 + imp.getCalibration().pixelWidth, m);
			assertEquals(10, imp.getCalibration().getY(best / w), 0.308 / 4, m);
		}
	}

	/** Index of the brightest pixel of the image's first slice. */
	private static int brightest(final ImagePlus imp) {
		final float[] px = (float[]) imp.getProcessor().getPixels();
		int best = 0;
		for (int i = 1; i < px.length; i++) if (px[i] > px[best]) best = i;
		return best;
	}
}
