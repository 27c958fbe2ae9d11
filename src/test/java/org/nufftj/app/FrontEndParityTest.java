package org.nufftj.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.cli.Main;
import org.nufftj.command.ForwardCommand;
import org.nufftj.command.ReconstructCommand;
import org.nufftj.io.Cfl;
import org.scijava.Context;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

/**
 * The two front ends on the same files: {@code nufft-j recon} and Fiji's Reconstruct k-space give the same image
 * (≤ 1e-6 relative l2) at the same matrix for the BART and ISMRMRD sample data and a simulated 3D scan; Fiji's Forward
 * NUFFT writes what {@code nufft-j forward} writes for its trajectory file and the image.
 */
class FrontEndParityTest {

	static Context context;

	@TempDir
	static Path dir;

	@BeforeAll
	static void setUp() {
		context = new Context(CommandService.class);
	}

	@AfterAll
	static void tearDown() {
		context.dispose();
	}

	@Test
	void bartSampleReconstructsTheSameInBothFrontEnds() throws Exception {
		sameImage(null, Path.of("sample-data", "radial_ga.cfl"), new int[] { 128, 128, 1 });
		sameImage(Path.of("sample-data", "bart", "radial_traj"), Path.of("sample-data", "bart", "radial.cfl"),
			new int[] { 64, 64, 1 });
	}

	@Test
	void ismrmrdSampleReconstructsTheSameInBothFrontEnds() throws Exception {
		sameImage(null, Path.of("sample-data", "ismrmrd", "radial_shepp_logan.h5"), new int[] { 64, 64, 1 });
	}

	@Test
	void simulated3dScanReconstructsTheSameInBothFrontEnds() throws Exception {
		final Path traj = dir.resolve("sim3d_traj"), ksp = dir.resolve("sim3d");
		final String[] run = cli("simulate", "--trajectory", "3d-radial", "--matrix", "16x16x16", "--coils", "2",
			"--snr", "30", "--seed", String.valueOf(new Random().nextInt(1000)), traj.toString(), ksp.toString());
		assertEquals("0", run[0], run[1]);
		sameImage(null, Path.of(ksp + ".cfl"), new int[] { 16, 16, 16 });
	}

	@Test
	void fijiForwardWritesWhatTheCommandLineWrites() throws Exception {
		final long seed = new Random().nextLong();
		final Random random = new Random(seed);
		final int n = 24, slices = 2;
		final ImageStack stack = new ImageStack(n, n);
		final float[] interleaved = new float[2 * n * n * slices];
		for (int s = 0; s < slices; s++) {
			final float[] p = new float[n * n];
			// Display pixel (x, y) = i % n, i / n is array element y + n·x (docs/conventions.md).
			for (int i = 0; i < p.length; i++)
				interleaved[2 * (s * n * n + i / n + n * (i % n))] = p[i] = (float) random.nextGaussian();
			stack.addSlice(new FloatProcessor(n, n, p));
		}
		final CommandModule m = (CommandModule) context.service(CommandService.class).run(ForwardCommand.class, true,
			Map.of("input", new ImagePlus("img", stack), "trajectory", "spiral", "output", dir.resolve("fiji.cfl")
				.toFile(), "device", "cpu", "tolerance", 1e-5)).get();
		assertFalse(m.isCanceled(), m.getCancelReason());
		// The same image as a BART file (slices as frames in dim 10, as Fiji writes the k-space) through nufft-j.
		final long[] dims = { n, n, 1, 1, 1, 1, 1, 1, 1, 1, slices, 1, 1, 1, 1, 1 };
		Cfl.write(dir.resolve("img"), dims, interleaved);
		final String[] run = cli("forward", "-e", "1e-5", "--device", "cpu", dir.resolve("fiji_traj").toString(),
			dir.resolve("img").toString(), dir.resolve("cli").toString());
		assertEquals("0", run[0], run[1]);
		final Cfl.Array fiji = Cfl.read(dir.resolve("fiji")), cli = Cfl.read(dir.resolve("cli"));
		assertArrayEquals(cli.dims(), fiji.dims(), "dims");
		assertTrue(relative(fiji.data(), cli.data()) <= 1e-6, "Fiji vs nufft-j forward: " + relative(fiji.data(),
			cli.data()) + ", seed " + seed);
	}

	// -- helpers --

	/** nufft-j recon and Reconstruct k-space (CPU, defaults) on the same file: same matrix, same magnitudes. */
	private static void sameImage(final Path traj, final Path kspace, final int[] matrix) throws Exception {
		final Path out = dir.resolve("cli_" + kspace.getFileName());
		final String[] run = traj == null ? cli("recon", "--device", "cpu", kspace.toString(), out.toString()) :
			cli("recon", "--device", "cpu", traj.toString(), kspace.toString(), out.toString());
		assertEquals("0", run[0], run[1]);
		final Cfl.Array c = Cfl.read(out);
		final CommandModule m = (CommandModule) context.service(CommandService.class).run(ReconstructCommand.class,
			true, traj == null ? Map.of("kspace", kspace.toFile(), "device", "cpu") : Map.of("kspace", kspace.toFile(),
				"traj", new File(traj + ".cfl"), "device", "cpu")).get();
		assertFalse(m.isCanceled(), m.getCancelReason());
		final ImagePlus imp = (ImagePlus) m.getOutput("image");
		assertArrayEquals(matrix, new int[] { c.dim(0), c.dim(1), c.dim(2) }, kspace + ": nufft-j recon's matrix");
		// Display orientation (docs/conventions.md): the image is array axis 1 wide and axis 0 high.
		assertArrayEquals(matrix, new int[] { imp.getHeight(), imp.getWidth(), imp.getNSlices() }, kspace +
			": Reconstruct k-space's matrix");
		final float[] cliMag = new float[c.data().length / 2];
		for (int i = 0; i < cliMag.length; i++) cliMag[i] = (float) Math.hypot(c.data()[2 * i], c.data()[2 * i + 1]);
		final float[] fijiMag = new float[cliMag.length];
		final int plane = imp.getWidth() * imp.getHeight();
		assertEquals(cliMag.length, plane * imp.getStackSize(), kspace + ": values");
		for (int s = 0; s < imp.getStackSize(); s++)
			System.arraycopy((float[]) imp.getStack().getPixels(s + 1), 0, fijiMag, s * plane, plane);
		final double e = relative(fijiMag, org.nufftj.imglib.DisplayOrder.toDisplay(cliMag, c.dim(0), c.dim(1)));
		assertTrue(e <= 1e-6, kspace + ": Fiji vs nufft-j recon relative l2 " + e);
	}

	/** ‖a − b‖ / ‖b‖. */
	static double relative(final float[] a, final float[] b) {
		assertEquals(b.length, a.length);
		double d = 0, n = 0;
		for (int i = 0; i < a.length; i++) {
			d += (a[i] - (double) b[i]) * (a[i] - (double) b[i]);
			n += (double) b[i] * b[i];
		}
		return Math.sqrt(d / n);
	}

	/** Runs nufft-j in-process: {exit code, output}. */
	static String[] cli(final String... args) {
		final ByteArrayOutputStream out = new ByteArrayOutputStream();
		final PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
		final int code = Main.execute(ps, ps, args);
		return new String[] { String.valueOf(code), String.join(" ", args) + ": " + out.toString(StandardCharsets.UTF_8) };
	}
}
