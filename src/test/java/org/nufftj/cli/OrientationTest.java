package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.command.ForwardCommand;
import org.nufftj.command.ReconstructCommand;
import org.nufftj.command.SimulateCommand;
import org.nufftj.io.BartCli;
import org.nufftj.io.Cfl;
import org.nufftj.io.IsmrmrdTools;
import org.scijava.Context;
import org.scijava.command.Command;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;

import ij.ImagePlus;
import ij.process.FloatProcessor;

/**
 * One orientation (issue 11, docs/conventions.md "Orientation"): an asymmetric object — one bright dot off centre, at
 * display pixel (x, y) = (22, 9) of 32 × 32, right of centre and above it — lands at the same (x, y) through every
 * input path and both front ends, where the reference tools show it: BART files as {@code bart toimg} shows them,
 * ISMRMRD as its x (across) and y (down) axes, Fiji's Forward NUFFT written so that {@code bart nufft -a} +
 * {@code bart toimg} show its input as it was; and simulate's Shepp–Logan (CLI truth, CLI recon, Fiji) shows as
 * {@code bart phantom} + {@code bart toimg} does (upright, not transposed).
 */
class OrientationTest {

	static final int N = 32, X = 22, Y = 9;

	@TempDir
	static Path dir;

	static Context context;

	@BeforeAll
	static void context() {
		context = new Context(CommandService.class);
	}

	@AfterAll
	static void dispose() {
		context.dispose();
	}

	@Test
	void bartFilesOpenAsBartToimgShowsThem() throws Exception {
		assumeTrue(BartCli.available(), "bart not installed");
		// A dot in BART's array at (i0, i1) = (9, 22); where bart toimg shows it is the reference.
		final float[] img = new float[2 * N * N];
		img[2 * (9 + N * 22)] = 1;
		Cfl.write(dir.resolve("dot"), new long[] { N, N }, img);
		BartCli.run(dir, "toimg", "dot", "dot.png");
		final int[] shown = brightest(ImageIO.read(dir.resolve("dot.png").toFile()));
		assertArrayEquals(new int[] { X, Y }, shown, "bart toimg shows array axis 0 down the rows, axis 1 across");
		// Its k-space by bart itself, reconstructed by the CLI (TIFF) and Fiji.
		BartCli.run(dir, "traj", "-r", "-x", "" + N, "-o", "2", "-y", "64", "b_traj");
		BartCli.run(dir, "nufft", "b_traj", "dot", "b");
		assertEquals(0, Cli.run("recon", "--device", "cpu", dir.resolve("b_traj"), dir.resolve("b"), dir.resolve(
			"b.tif")).code);
		assertArrayEquals(shown, brightest(CliTest.readTiff(dir.resolve("b.tif"), N, N)[0], N), "nufft-j recon TIFF");
		assertArrayEquals(shown, brightest(fiji(dir.resolve("b.cfl"))), "Reconstruct k-space");
	}

	@Test
	void fijiForwardWritesWhatBartShowsAsTheImage() throws Exception {
		assumeTrue(BartCli.available(), "bart not installed");
		final float[] p = new float[N * N];
		p[X + N * Y] = 1;
		final CommandModule m = run(ForwardCommand.class, Map.of("input", new ImagePlus("dot", new FloatProcessor(N, N,
			p)), "trajectory", "radial", "output", dir.resolve("f.cfl").toFile(), "device", "cpu"));
		assertFalse(m.isCanceled(), m.getCancelReason());
		BartCli.run(dir, "nufft", "-a", "-d" + N + ":" + N + ":1", "f_traj", "f", "fa");
		BartCli.run(dir, "toimg", "fa", "fa.png");
		assertArrayEquals(new int[] { X, Y }, brightest(ImageIO.read(dir.resolve("fa.png").toFile())),
			"bart nufft -a + toimg of Fiji's Forward NUFFT");
		assertEquals(0, Cli.run("recon", "--device", "cpu", dir.resolve("f"), dir.resolve("f.tif")).code);
		assertArrayEquals(new int[] { X, Y }, brightest(CliTest.readTiff(dir.resolve("f.tif"), N, N)[0], N),
			"nufft-j recon of Fiji's Forward NUFFT");
	}

	@Test
	void ismrmrdOpensWithItsXAcrossAndYDown() throws Exception {
		final Path writer = IsmrmrdTools.fixtureWriter();
		assumeTrue(writer != null, IsmrmrdTools.why);
		// The fixture's point at (x, y) in centred recon pixels: ISMRMRD image pixel (x + N/2, y + N/2).
		final Path h5 = dir.resolve("dot.h5");
		IsmrmrdTools.run(List.of(writer.toString(), h5.toString(), "--kind", "radial", "--matrix", "" + N, "--shots",
			"64", "--coils", "1", "--object", "points", "--point", (X - N / 2) + "," + (Y - N / 2) + ",1,0"), dir);
		assertEquals(0, Cli.run("recon", "--device", "cpu", h5, dir.resolve("i.tif")).code);
		assertArrayEquals(new int[] { X, Y }, brightest(CliTest.readTiff(dir.resolve("i.tif"), N, N)[0], N),
			"nufft-j recon TIFF");
		assertArrayEquals(new int[] { X, Y }, brightest(fiji(h5)), "Reconstruct k-space");
	}

	@Test
	void simulateAndItsTruthShowAsBartPhantom() throws Exception {
		assumeTrue(BartCli.available(), "bart not installed");
		final int n = 64;
		BartCli.run(dir, "phantom", "-x", "" + n, "sl");
		BartCli.run(dir, "toimg", "sl", "sl.png");
		final float[] bart = gray(ImageIO.read(dir.resolve("sl.png").toFile()));
		assertEquals(0, Cli.run("simulate", "--trajectory", "radial", "--matrix", n, "--coils", 1, "--truth", dir
			.resolve("truth.tif"), dir.resolve("s_traj"), dir.resolve("s")).code);
		assertEquals(0, Cli.run("recon", "--device", "cpu", dir.resolve("s_traj"), dir.resolve("s"), dir.resolve(
			"s.tif")).code);
		final CommandModule m = run(SimulateCommand.class, Map.of("trajectory", "radial", "matrix", "" + n, "coils", 1,
			"output", dir.resolve("fs.cfl").toFile(), "device", "cpu"));
		assertFalse(m.isCanceled(), m.getCancelReason());
		final Map<String, float[]> shown = Map.of("simulate --truth", CliTest.readTiff(dir.resolve("truth.tif"), n,
			n)[0], "recon of simulate", CliTest.readTiff(dir.resolve("s.tif"), n, n)[0], "Fiji Simulate phantom",
			(float[]) ((ImagePlus) m.getOutput("phantomimage")).getProcessor().getPixels(), "Fiji Simulate image",
			(float[]) ((ImagePlus) m.getOutput("image")).getProcessor().getPixels());
		for (final Map.Entry<String, float[]> e : shown.entrySet()) {
			final double upright = correlation(e.getValue(), bart), lying = correlation(transpose(e.getValue(), n), bart);
			final double flipped = correlation(flipY(e.getValue(), n), bart);
			assertTrue(upright > 0.8 && upright > lying + 0.1 && upright > flipped + 0.1, e.getKey() + " vs bart " +
				"phantom + toimg: correlation " + upright + ", transposed " + lying + ", upside down " + flipped);
		}
	}

	// -- helpers --

	private static CommandModule run(final Class<? extends Command> c, final Map<String, Object> in) throws Exception {
		return (CommandModule) context.service(CommandService.class).run(c, true, in).get();
	}

	private static float[] fiji(final Path kspace) throws Exception {
		final CommandModule m = run(ReconstructCommand.class, Map.of("kspace", kspace.toFile(), "device", "cpu"));
		assertFalse(m.isCanceled(), m.getCancelReason());
		final ImagePlus imp = (ImagePlus) m.getOutput("image");
		assertEquals(N, imp.getWidth());
		return (float[]) imp.getProcessor().getPixels();
	}

	/** (x, y) of the brightest pixel of a row-major image of width w. */
	private static int[] brightest(final float[] a, final int w) {
		int best = 0;
		for (int i = 1; i < a.length; i++) if (a[i] > a[best]) best = i;
		return new int[] { best % w, best / w };
	}

	private static int[] brightest(final float[] a) {
		return brightest(a, N);
	}

	private static int[] brightest(final BufferedImage img) {
		return brightest(gray(img), img.getWidth());
	}

	private static float[] gray(final BufferedImage img) {
		final float[] g = new float[img.getWidth() * img.getHeight()];
		for (int y = 0; y < img.getHeight(); y++)
			for (int x = 0; x < img.getWidth(); x++) g[x + img.getWidth() * y] = img.getRGB(x, y) & 0xff;
		return g;
	}

	private static float[] transpose(final float[] a, final int n) {
		final float[] t = new float[a.length];
		for (int y = 0; y < n; y++) for (int x = 0; x < n; x++) t[y + n * x] = a[x + n * y];
		return t;
	}

	private static float[] flipY(final float[] a, final int n) {
		final float[] t = new float[a.length];
		for (int y = 0; y < n; y++) System.arraycopy(a, n * y, t, n * (n - 1 - y), n);
		return t;
	}

	private static double correlation(final float[] a, final float[] b) {
		assertEquals(a.length, b.length);
		double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
		for (int i = 0; i < a.length; i++) {
			sa += a[i];
			sb += b[i];
			saa += a[i] * (double) a[i];
			sbb += b[i] * (double) b[i];
			sab += a[i] * (double) b[i];
		}
		final int n = a.length;
		return (sab - sa * sb / n) / Math.sqrt((saa - sa * sa / n) * (sbb - sb * sb / n));
	}
}
