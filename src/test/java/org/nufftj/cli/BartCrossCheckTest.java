package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nufftj.data.ComplexImage;
import org.nufftj.io.Cfl;
import org.nufftj.recon.CoilCombine;
import org.nufftj.recon.ImageComparison;

/**
 * The CLI against BART 0.8 itself (independent reference): {@code nufft-j adjoint/forward} must match BART's exact DFT
 * ({@code bart nufft [-a] -s}, unscaled) times 1/√pixels to the requested tolerance, without any rescaling, with the
 * same output dims; and the gridding recon must do at least as well as BART's ramp-compensated adjoint.
 * Skipped when {@code bart} is not on the PATH (CI installs it: .ci/run).
 */
class BartCrossCheckTest {

	@TempDir
	Path dir;

	private final Random random = new Random();

	@BeforeEach
	void needsBart() {
		Assumptions.assumeTrue(Cli.bartAvailable(), "bart is not on the PATH (install it: apt-get install bart)");
	}

	private static double relativeError(final float[] test, final float[] ref, final double refScale) {
		double num = 0, den = 0;
		for (int i = 0; i < ref.length; i++) {
			final double r = ref[i] * refScale;
			num += (test[i] - r) * (test[i] - r);
			den += r * r;
		}
		return Math.sqrt(num / den);
	}

	@ParameterizedTest
	@ValueSource(doubles = { 1e-3, 1e-5 })
	void adjointMatchesBartDftScaledByOneOverSqrtPixels(final double eps) throws Exception {
		final int x = 48 + 2 * random.nextInt(9), spokes = 9 + random.nextInt(15);
		Cli.bart(dir, "traj", "-r", random.nextBoolean() ? "-G" : "-D", "-x", x, "-y", spokes, "traj");
		Cli.bart(dir, "phantom", "-k", "-s", 4, "-t", "traj", "ksp");
		Cli.bart(dir, "nufft", "-a", "-s", "-d", x + ":" + x + ":1", "traj", "ksp", "dft");
		final Cli.Result r = Cli.run("adjoint", "-d", x + ":" + x + ":1", "--tolerance", eps, dir.resolve("traj"),
			dir.resolve("ksp"), dir.resolve("ours"));
		assertEquals(0, r.code, r.toString());
		final Cfl.Array dft = Cfl.read(dir.resolve("dft")), ours = Cfl.read(dir.resolve("ours"));
		assertArrayEquals(dft.dims(), ours.dims(), "output dims");
		final double err = relativeError(ours.data(), dft.data(), 1 / Math.sqrt(x * x));
		assertTrue(err <= eps, "adjoint vs bart DFT/sqrt(" + x + "^2), eps " + eps + ": relative error " + err);
	}

	@ParameterizedTest
	@ValueSource(doubles = { 1e-3, 1e-5 })
	void forwardMatchesBartDftScaledByOneOverSqrtPixels(final double eps) throws Exception {
		final int x = 32 + 2 * random.nextInt(9), spokes = 9 + random.nextInt(15);
		Cli.bart(dir, "traj", "-r", "-x", x, "-y", spokes, "traj");
		Cli.bart(dir, "phantom", "-s", 3, "-x", x, "img");
		Cli.bart(dir, "nufft", "-s", "traj", "img", "dft");
		final Cli.Result r = Cli.run("forward", "--tolerance", eps, dir.resolve("traj"), dir.resolve("img"),
			dir.resolve("ours"));
		assertEquals(0, r.code, r.toString());
		final Cfl.Array dft = Cfl.read(dir.resolve("dft")), ours = Cfl.read(dir.resolve("ours"));
		assertArrayEquals(dft.dims(), ours.dims(), "output dims");
		final double err = relativeError(ours.data(), dft.data(), 1 / Math.sqrt(x * x));
		assertTrue(err <= eps, "forward vs bart DFT/sqrt(" + x + "^2), eps " + eps + ": relative error " + err);
	}

	@Test
	void imageSizeIsEstimatedLikeBart() throws Exception {
		// Few spokes make the x extent smaller than the y extent: bart 0.8 gives a non-square size.
		final int x = 24 + random.nextInt(20), spokes = 3 + random.nextInt(6);
		Cli.bart(dir, "traj", "-r", "-x", x, "-y", spokes, "traj");
		Cli.bart(dir, "ones", 4, 1, x, spokes, 2, "ksp");
		Cli.bart(dir, "nufft", "-a", "traj", "ksp", "bart");
		final Cli.Result r = Cli.run("adjoint", "--tolerance", 1e-3, dir.resolve("traj"), dir.resolve("ksp"),
			dir.resolve("ours"));
		assertEquals(0, r.code, r.toString());
		assertArrayEquals(Cfl.read(dir.resolve("bart")).dims(), Cfl.read(dir.resolve("ours")).dims(),
			"dims estimated from a " + x + " x " + spokes + " radial trajectory");
	}

	/**
	 * Gridding recon of BART's analytic 4-coil radial Shepp–Logan (128², 201 spokes × 256 samples, 2× readout
	 * oversampling) against the root-sum-of-squares of BART's analytic coil images: the scaled NRMSE must not exceed
	 * that of BART's own adjoint with a plain |k| ramp (0.21 in the measurement) by more than 0.005.
	 */
	@Test
	void griddingReconIsAsGoodAsBartsRampAdjoint() throws Exception {
		Cli.bart(dir, "traj", "-r", "-x", 128, "-o", 2, "-y", 201, "traj");
		Cli.bart(dir, "phantom", "-k", "-s", 4, "-t", "traj", "ksp");
		Cli.bart(dir, "phantom", "-s", 4, "-x", 128, "coils");
		Cli.bart(dir, "rss", 8, "coils", "truth");
		Cli.bart(dir, "rss", 1, "traj", "ramp");
		Cli.bart(dir, "fmac", "ksp", "ramp", "kspw");
		Cli.bart(dir, "nufft", "-a", "-d", "128:128:1", "traj", "kspw", "bartcoils");
		Cli.bart(dir, "rss", 8, "bartcoils", "bartrecon");
		final float[] truth = magnitude(Cfl.read(dir.resolve("truth")));
		final double bart = ImageComparison.of(truth, magnitude(Cfl.read(dir.resolve("bartrecon")))).scaledNrmse();
		for (final String dcf : new String[] { "ramp", "voronoi", "pipe-menon" }) {
			final Cli.Result r = Cli.run("recon", "--dcf", dcf, "--tolerance", 1e-3, dir.resolve("traj"),
				dir.resolve("ksp"), dir.resolve("ours-" + dcf));
			assertEquals(0, r.code, r.toString());
			final Cfl.Array ours = Cfl.read(dir.resolve("ours-" + dcf));
			assertArrayEquals(new long[] { 128, 128, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, ours.dims());
			final double nrmse = ImageComparison.of(truth, magnitude(ours)).scaledNrmse();
			assertTrue(nrmse <= bart + 0.005, dcf + ": scaled NRMSE " + nrmse + ", bart ramp adjoint " + bart);
		}
		// The same figure from the per-coil adjoint + our SoS must agree with bart's (same maths, ramp weights).
		final Cfl.Array coils = Cfl.read(dir.resolve("bartcoils"));
		final float[] sos = CoilCombine.sumOfSquares(coils.data(), 0, 128 * 128, 4);
		final float[] re = new float[128 * 128];
		for (int i = 0; i < re.length; i++) re[i] = sos[2 * i];
		assertEquals(bart, ImageComparison.of(truth, re).scaledNrmse(), 1e-4);
	}

	/**
	 * BART reads what {@code nufft-j simulate} writes: {@code bart nufft -a} estimates the same image size from the
	 * trajectory and gives per-coil images of the same dims as {@code nufft-j adjoint}, with the same values to BART's
	 * own NUFFT accuracy (≈1.3e-3 relative; 1e-2 allowed).
	 */
	@Test
	void bartReadsSimulatedFiles() throws Exception {
		final int n = 32 + 2 * random.nextInt(8), coils = 1 + random.nextInt(4);
		final Cli.Result sim = Cli.run("simulate", "--matrix", n, "--coils", coils, "--snr", 30, "--shots", 40,
			dir.resolve("traj"), dir.resolve("ksp"));
		assertEquals(0, sim.code, sim.toString());
		Cli.bart(dir, "nufft", "-a", "traj", "ksp", "bart");
		final Cli.Result ours = Cli.run("adjoint", "--tolerance", 1e-5, dir.resolve("traj"), dir.resolve("ksp"),
			dir.resolve("ours"));
		assertEquals(0, ours.code, ours.toString());
		final Cfl.Array b = Cfl.read(dir.resolve("bart")), o = Cfl.read(dir.resolve("ours"));
		assertArrayEquals(new long[] { n, n, 1, coils, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, b.dims(), "bart's dims");
		assertArrayEquals(b.dims(), o.dims());
		final double err = relativeError(b.data(), o.data(), 1);
		assertTrue(err <= 1e-2, "bart nufft -a vs nufft-j adjoint of simulated files: relative error " + err);
	}

	private static float[] magnitude(final Cfl.Array a) {
		return new ComplexImage(a.data(), new int[] { a.dim(0), a.dim(1) }, (int) (a.elements() / (a.dim(0) *
			(long) a.dim(1))), 1, null).magnitude();
	}
}
