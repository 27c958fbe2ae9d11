package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.data.ComplexImage;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.Nudft;
import org.nufftj.trajectory.Trajectory;

/** The CLI's subcommands end to end (in-process), against the exact NUDFT and the file formats' definitions. */
class CliTest {

	@TempDir
	Path dir;

	private final Random random = new Random();

	@Test
	void everySubcommandHasHelp() {
		for (final String c : new String[] { "adjoint", "forward", "recon", "simulate", "info", "bench" }) {
			final Cli.Result r = Cli.run(c, "--help");
			assertEquals(0, r.code, c + ": " + r);
			assertTrue(r.out.contains("Usage: nufft-j " + c), c + ": " + r.out);
		}
		assertEquals(0, Cli.run("--version").code);
	}

	/** 2D radial in BART units (cycles/FOV), |k| ≤ n/2. */
	private Path writeTrajectory(final int n, final int readout, final int spokes) throws Exception {
		final float[] t = new float[2 * 3 * readout * spokes];
		final double offset = random.nextDouble();
		for (int s = 0; s < spokes; s++)
			for (int i = 0; i < readout; i++) {
				final double a = Math.PI * s / spokes + offset, r = (i - readout / 2.0) * n / readout;
				t[2 * (3 * (s * readout + i))] = (float) (r * Math.cos(a));
				t[2 * (3 * (s * readout + i) + 1)] = (float) (r * Math.sin(a));
			}
		final Path p = dir.resolve("traj");
		Cfl.write(p, new long[] { 3, readout, spokes }, t);
		return p;
	}

	private static Trajectory normalised(final Cfl.Array t, final int n) {
		final int m = t.dim(1) * t.dim(2);
		final double[] c = new double[2 * m];
		for (int p = 0; p < m; p++) {
			c[2 * p] = t.data()[6 * p] / n;
			c[2 * p + 1] = t.data()[6 * p + 2] / n;
		}
		return new Trajectory(2, c, "t");
	}

	@Test
	void forwardAndAdjointFollowBartScalingWithFrames() throws Exception {
		final int n = 20, readout = 40, spokes = 11, coils = 2, frames = 3;
		final Path traj = writeTrajectory(n, readout, spokes);
		final float[] img = new float[2 * n * n * coils * frames];
		for (int i = 0; i < img.length; i++) img[i] = (float) random.nextGaussian();
		Cfl.write(dir.resolve("img"), new long[] { n, n, 1, coils, 1, frames }, img);
		assertEquals(0, Cli.run("forward", "-e", 1e-5, traj, dir.resolve("img"), dir.resolve("k")).code);
		final Cfl.Array k = Cfl.read(dir.resolve("k"));
		assertArrayEquals(new long[] { 1, readout, spokes, coils, 1, frames, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, k.dims());
		final Trajectory t = normalised(Cfl.read(traj), n);
		final double[] ref = Nudft.forward(new int[] { n, n }, t, Nudft.toDouble(img), 2);
		assertTrue(error(k.data(), ref, 1.0 / n) <= 1e-5, "forward vs NUDFT/sqrt(pixels)");

		assertEquals(0, Cli.run("adjoint", "-e", 1e-5, "-d", n + ":" + n + ":1", traj, dir.resolve("k"),
			dir.resolve("back")).code);
		final Cfl.Array back = Cfl.read(dir.resolve("back"));
		assertArrayEquals(new long[] { n, n, 1, coils, 1, frames, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, back.dims());
		final double[] ref2 = Nudft.adjoint(new int[] { n, n }, t, Nudft.toDouble(k.data()), 2);
		assertTrue(error(back.data(), ref2, 1.0 / n) <= 1e-5, "adjoint vs NUDFT/sqrt(pixels)");
	}

	private static double error(final float[] test, final double[] ref, final double scale) {
		double num = 0, den = 0;
		for (int i = 0; i < ref.length; i++) {
			num += Math.pow(test[i] - ref[i] * scale, 2);
			den += Math.pow(ref[i] * scale, 2);
		}
		return Math.sqrt(num / den);
	}

	@Test
	void reconWritesCflAndAFloatTiffOfTheMagnitude() throws Exception {
		final int n = 24, readout = 48, spokes = 30, coils = 3;
		final Path traj = writeTrajectory(n, readout, spokes);
		final float[] k = new float[2 * readout * spokes * coils];
		for (int i = 0; i < k.length; i++) k[i] = (float) random.nextGaussian();
		Cfl.write(dir.resolve("k"), new long[] { 1, readout, spokes, coils }, k);
		for (final String combine : new String[] { "sos", "walsh", "none" }) {
			assertEquals(0, Cli.run("recon", "--combine", combine, traj, dir.resolve("k"), dir.resolve("r")).code);
			assertEquals(0, Cli.run("recon", "--combine", combine, traj, dir.resolve("k"), dir.resolve("r.tif")).code);
			final Cfl.Array r = Cfl.read(dir.resolve("r"));
			final int channels = combine.equals("none") ? coils : 1;
			assertArrayEquals(new long[] { n, n, 1, channels, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, r.dims());
			final float[] mag = org.nufftj.imglib.DisplayOrder.toDisplay(new ComplexImage(r.data(), new int[] { n, n },
				channels, 1, null).magnitude(), n, n);
			final float[][] pages = readTiff(dir.resolve("r.tif"), n, n);
			assertEquals(channels, pages.length);
			for (int c = 0; c < channels; c++)
				for (int i = 0; i < n * n; i++) assertEquals(mag[c * n * n + i], pages[c][i], 0, combine + " pixel " + i);
		}
	}

	/** A minimal TIFF reader for what TiffWriter promises: little-endian, 32-bit float, one strip per page. */
	static float[][] readTiff(final Path p, final int w, final int h) throws Exception {
		final ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
		assertEquals('I', b.get(0));
		assertEquals(42, b.getShort(2));
		final java.util.List<float[]> pages = new java.util.ArrayList<>();
		for (int ifd = b.getInt(4); ifd != 0;) {
			final int tags = b.getShort(ifd);
			int width = 0, height = 0, bits = 0, format = 0, offset = 0, bytes = 0;
			for (int t = 0; t < tags; t++) {
				final int e = ifd + 2 + 12 * t, tag = b.getShort(e) & 0xFFFF, type = b.getShort(e + 2);
				final int v = type == 3 ? b.getShort(e + 8) & 0xFFFF : b.getInt(e + 8);
				if (tag == 256) width = v;
				if (tag == 257) height = v;
				if (tag == 258) bits = v;
				if (tag == 339) format = v;
				if (tag == 273) offset = v;
				if (tag == 279) bytes = v;
			}
			assertEquals(w, width);
			assertEquals(h, height);
			assertEquals(32, bits);
			assertEquals(3, format, "IEEE float samples");
			assertEquals(4 * w * h, bytes);
			final float[] px = new float[w * h];
			b.position(offset);
			b.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(px);
			pages.add(px);
			ifd = b.getInt(ifd + 2 + 12 * tags);
		}
		return pages.toArray(new float[0][]);
	}

	@Test
	void compareWithoutAGpuFailsWithOneLine() throws Exception {
		final Path traj = writeTrajectory(16, 32, 8);
		Cfl.write(dir.resolve("k"), new long[] { 1, 32, 8 }, new float[2 * 32 * 8]);
		final Cli.Result r = Cli.run("recon", "--compare", traj, dir.resolve("k"), dir.resolve("cmp"));
		org.junit.jupiter.api.Assumptions.assumeFalse(r.code == 0, "a GPU is present: --compare ran");
		assertEquals(Main.GPU, r.code, r.toString());
		assertEquals(1, r.err.trim().split("\n").length, r.err);
		assertTrue(r.err.contains("GPU"), r.err);
		assertFalse(Files.exists(dir.resolve("cmp.cfl")), "no output without a GPU");
	}

	@Test
	void infoAndBenchRun() {
		final Cli.Result info = Cli.run("info");
		assertEquals(0, info.code, info.toString());
		assertTrue(info.out.contains("Java") && info.out.contains("CPU cores") && info.out.contains("GPU"), info.out);
		final Cli.Result bench = Cli.run("bench", "--size", 16, "--spokes", 8, "--readout", 32, "--coils", "1,2",
			"--tolerances", "1e-3", "--warmup", 0, "--repeats", 1);
		assertEquals(0, bench.code, bench.toString());
		assertTrue(bench.out.contains("adjoint") && bench.out.contains("forward") && bench.out.contains("peak heap"),
			bench.out);
	}
}
