package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.data.ComplexImage;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.Nudft;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.phantom.CoilSensitivities;
import org.nufftj.phantom.Simulation;
import org.nufftj.recon.CoilCombine;
import org.nufftj.recon.ImageComparison;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Trajectory;

/** {@code nufft-j simulate} end to end: its files, their noise, and a reconstruction of them against the truth. */
class SimulateTest {

	@TempDir
	Path dir;

	private final Random random = new Random();

	private static long[] dims(final long... d) {
		final long[] out = Arrays.copyOf(d, Cfl.DIMS);
		for (int i = d.length; i < Cfl.DIMS; i++) out[i] = 1;
		return out;
	}

	/**
	 * 64², 4 coils, the default design (golden-angle radial, 128 samples × ⌈π·64/2⌉ = 101 spokes), noiseless. The
	 * files must hold the design (cycles/FOV) and the values layer's simulation. The reconstruction of the files by
	 * {@code nufft-j recon} is then compared with the truth file, as SheppLoganReconTest does for the recon API: the
	 * reference is the same reconstruction done exactly (analytic polar sample areas r·Δk·Δθ, with Δθ half the
	 * angular gaps to the neighbouring half-spokes and the centre sample's share of its disc; exact NUDFT adjoint;
	 * root sum of squares). It carries only the sampling's own error (finite k-space extent, spokes). The gridding
	 * recon (tolerance 1e-3; Voronoi and the default Pipe–Menon DCF) must come within 0.01 of it in scaled NRMSE
	 * (the margin of SheppLoganReconTest: NUFFT tolerance and DCF weights), at its intensity, and both must match the
	 * truth better than the truth mirrored top to bottom (file orientation).
	 */
	@Test
	void reconstructionOfTheFilesComesWithinTheExactReconstructionsErrorOfTheTruth() throws Exception {
		final int n = 64, coils = 4, readout = 2 * n, spokes = (int) Math.ceil(Math.PI / 2 * n);
		final Cli.Result r = Cli.run("simulate", "--matrix", n, "--coils", coils, "--truth", dir.resolve("truth"),
			dir.resolve("traj"), dir.resolve("ksp.cfl"));
		assertEquals(0, r.code, r.toString());
		final Cfl.Array tf = Cfl.read(dir.resolve("traj")), kf = Cfl.read(dir.resolve("ksp"));
		final Cfl.Array truthFile = Cfl.read(dir.resolve("truth"));
		assertArrayEquals(dims(3, readout, spokes), tf.dims(), "trajectory dims");
		assertArrayEquals(dims(1, readout, spokes, coils), kf.dims(), "k-space dims");
		assertArrayEquals(dims(n, n), truthFile.dims(), "truth dims");

		final int[] size = { n, n };
		final Trajectory t = new GoldenAngleRadial(readout, spokes).build();
		for (int p = 0; p < t.count(); p++) {
			assertEquals((float) (t.k(p, 0) * n), tf.data()[6 * p], 1e-4, "kx of point " + p + " in cycles/FOV");
			assertEquals((float) (t.k(p, 1) * n), tf.data()[6 * p + 2], 1e-4, "ky of point " + p + " in cycles/FOV");
			assertEquals(0f, tf.data()[6 * p + 4], "kz of point " + p);
		}
		final Simulation sim = new Simulation(AnalyticPhantom.sheppLogan2d(), CoilSensitivities.synthetic(coils, size));
		final double[] y = sim.noiseless(t, 0);
		for (int i = 0; i < y.length; i++) assertEquals((float) y[i], kf.data()[i], "k-space value " + i);
		assertArrayEquals(sim.truth().data(), truthFile.data(), "truth");

		final double[] w = polarAreas(t, readout, spokes);
		final double[] wy = new double[y.length];
		for (int i = 0; i < y.length; i++) wy[i] = y[i] * w[(i / 2) % t.count()];
		final float[] exact = Nudft.toFloat(Nudft.adjoint(size, t, wy, 0));
		final float[] reference = realPart(CoilCombine.sumOfSquares(exact, 0, n * n, coils));
		final float[] truth = realPart(truthFile.data());
		final ImageComparison ref = ImageComparison.of(truth, reference);

		final float[] mirrored = flipY(truth, n);
		assertTrue(ref.scaledNrmse() < ImageComparison.of(mirrored, reference).scaledNrmse(), "orientation");
		for (final String dcf : new String[] { "voronoi", "pipe-menon" }) {
			final Path out = dir.resolve("recon-" + dcf);
			assertEquals(0, Cli.run("recon", "--dcf", dcf, "--tolerance", 1e-3, dir.resolve("traj"), dir.resolve("ksp"),
				out).code);
			final Cfl.Array rf = Cfl.read(out);
			assertArrayEquals(dims(n, n), rf.dims(), "recon dims (estimated from the trajectory)");
			final float[] recon = new ComplexImage(rf.data(), size, 1, 1, null).magnitude();
			final ImageComparison c = ImageComparison.of(truth, recon);
			assertTrue(c.scaledNrmse() <= ref.scaledNrmse() + 0.01, dcf + ": scaled NRMSE of the recon " +
				c.scaledNrmse() + ", of the exact reconstruction " + ref.scaledNrmse());
			// Voronoi weights are the cell areas the reference uses; Pipe-Menon's match them to 10% per sample
			// (DensityCompensationTest), and the intensity is a weighted mean of them. A file in another scale
			// convention (BART's 1/sqrt(pixels) = 1/64 here) would be far outside either.
			final double allowed = dcf.equals("voronoi") ? 0.02 : 0.05;
			assertEquals(ref.scale(), c.scale(), allowed * ref.scale(), dcf + ": least-squares scale to the truth");
			assertTrue(c.scaledNrmse() < ImageComparison.of(mirrored, recon).scaledNrmse(), dcf + ": orientation");
		}
	}

	/** Polar cell areas of full-diameter spokes (the Voronoi cells of a polar grid, centre sample shared). */
	private static double[] polarAreas(final Trajectory t, final int readout, final int spokes) {
		final double dk = 1.0 / readout;
		// Directions of the 2S half-spokes: the outermost sample of each half.
		final double[] phi = new double[2 * spokes];
		for (int s = 0; s < spokes; s++) {
			final int neg = s * readout, pos = s * readout + readout - 1;
			phi[2 * s] = Math.atan2(t.k(neg, 1), t.k(neg, 0));
			phi[2 * s + 1] = Math.atan2(t.k(pos, 1), t.k(pos, 0));
		}
		final Integer[] order = new Integer[phi.length];
		for (int i = 0; i < order.length; i++) order[i] = i;
		Arrays.sort(order, (a, b) -> Double.compare(phi[a], phi[b]));
		final double[] width = new double[phi.length];
		for (int i = 0; i < order.length; i++) {
			final double prev = phi[order[(i + order.length - 1) % order.length]], next = phi[order[(i + 1) % order.length]];
			final double here = phi[order[i]];
			width[order[i]] = (mod2pi(here - prev) + mod2pi(next - here)) / 2;
		}
		final double[] w = new double[t.count()];
		for (int s = 0; s < spokes; s++)
			for (int i = 0; i < readout; i++) {
				final int p = s * readout + i;
				final double r = Math.hypot(t.k(p, 0), t.k(p, 1));
				w[p] = r < dk / 2 ? Math.PI * dk * dk / 4 / spokes : r * dk * width[2 * s + (i < readout / 2 ? 0 : 1)];
			}
		return w;
	}

	private static double mod2pi(final double a) {
		final double m = a % (2 * Math.PI);
		return m < 0 ? m + 2 * Math.PI : m;
	}

	private static float[] realPart(final float[] complex) {
		final float[] re = new float[complex.length / 2];
		for (int i = 0; i < re.length; i++) re[i] = complex[2 * i];
		return re;
	}

	private static float[] flipY(final float[] a, final int n) {
		final float[] out = new float[a.length];
		for (int y = 0; y < n; y++) System.arraycopy(a, y * n, out, (n - 1 - y) * n, n);
		return out;
	}

	/**
	 * --snr adds complex Gaussian noise with σ = rms|y|/(√2·SNR) per component (SNR = rms|y|/rms|n|): the measured
	 * ratio of the files with and without noise must match within 5 standard errors (1/(2√N) for N complex samples);
	 * --sigma adds σ itself; the same seed gives the same files, byte for byte.
	 */
	@Test
	void noiseFollowsSnrSigmaAndSeed() throws Exception {
		final double snr = 2 + 30 * random.nextDouble();
		final int seed = random.nextInt(1000);
		final Object[] common = { "--matrix", 32, "--coils", 3, "--readout", 64, "--shots", 40, "--seed", seed };
		assertEquals(0, run(common, "t", "clean").code);
		assertEquals(0, run(common, "--snr", snr, "t", "noisy").code);
		assertEquals(0, run(common, "--snr", 20 * Math.log10(snr) + "dB", "t", "noisydb").code);
		assertEquals(0, run(common, "--sigma", 0.5, "t", "sigma").code);
		final float[] clean = Cfl.read(dir.resolve("clean")).data(), noisy = Cfl.read(dir.resolve("noisy")).data();
		final int samples = clean.length / 2;
		double yy = 0, nn = 0, ss = 0;
		final float[] sig = Cfl.read(dir.resolve("sigma")).data();
		for (int i = 0; i < clean.length; i++) {
			yy += clean[i] * (double) clean[i];
			nn += Math.pow(noisy[i] - clean[i], 2);
			ss += Math.pow(sig[i] - clean[i], 2);
		}
		final double measured = Math.sqrt(yy / nn);
		assertEquals(1, measured / snr, 5 / (2 * Math.sqrt(samples)), "SNR measured " + measured + ", asked " + snr);
		assertEquals(1, Math.sqrt(ss / (2 * samples)) / 0.5, 5 / (2 * Math.sqrt(samples)), "sigma 0.5");
		assertArrayEquals(Files.readAllBytes(dir.resolve("noisy.cfl")), Files.readAllBytes(dir.resolve("noisydb.cfl")),
			"the same SNR in dB and the same seed give the same file");
	}

	private Cli.Result run(final Object[] common, final Object... rest) {
		final Object[] args = new Object[1 + common.length + rest.length];
		args[0] = "simulate";
		System.arraycopy(common, 0, args, 1, common.length);
		for (int i = 0; i < rest.length; i++) {
			final boolean file = i >= rest.length - 2;
			args[1 + common.length + i] = file ? dir.resolve(String.valueOf(rest[i])) : rest[i];
		}
		return Cli.run(args);
	}

	/**
	 * The sample dataset is what sample-data/README.md says made it (its command, run again, gives the same values),
	 * and README.md's quick start command reconstructs it into a 128 × 128 TIFF.
	 */
	@Test
	void sampleDataIsWhatItsReadmeSaysAndTheQuickStartRuns() throws Exception {
		final String[] made = command(Path.of("sample-data", "README.md"), "./nufft-j simulate ");
		for (int i = 0; i < made.length; i++)
			if (made[i].startsWith("sample-data/")) made[i] = dir.resolve(Path.of(made[i]).getFileName()).toString();
		final Cli.Result r = Cli.run((Object[]) made);
		assertEquals(0, r.code, r.toString());
		for (final String f : new String[] { "radial_ga_traj", "radial_ga" }) {
			final Cfl.Array committed = Cfl.read(Path.of("sample-data", f)), again = Cfl.read(dir.resolve(f));
			assertArrayEquals(committed.dims(), again.dims(), f);
			final float[] a = committed.data(), b = again.data();
			double rms = 0;
			for (final float v : a) rms += v * (double) v;
			rms = Math.sqrt(rms / a.length);
			for (int i = 0; i < a.length; i++) assertEquals(a[i], b[i], 1e-5 * rms, f + " value " + i);
		}
		final float[][] truth = CliTest.readTiff(Path.of("sample-data", "radial_ga_truth.tif"), 128, 128);
		final float[][] truthAgain = CliTest.readTiff(dir.resolve("radial_ga_truth.tif"), 128, 128);
		assertEquals(1, truth.length);
		assertArrayEquals(truth[0], truthAgain[0], 1e-5f);

		final String[] quick = command(Path.of("README.md"), "./nufft-j recon ");
		assertEquals("recon.tif", quick[quick.length - 1], "README quick start output");
		quick[quick.length - 1] = dir.resolve("recon.tif").toString();
		final Cli.Result q = Cli.run((Object[]) quick);
		assertEquals(0, q.code, q.toString());
		assertEquals(1, CliTest.readTiff(dir.resolve("recon.tif"), 128, 128).length);
	}

	/** The arguments (after "./nufft-j") of the first line of a document that starts with {@code prefix}. */
	private static String[] command(final Path doc, final String prefix) throws Exception {
		for (final String line : Files.readAllLines(doc)) {
			final String l = line.trim();
			if (l.startsWith(prefix)) return l.substring("./nufft-j ".length()).split("\\s+");
		}
		throw new AssertionError(doc + " has no line starting with '" + prefix + "'");
	}

	/** 3D and the other 2D designs write what 'recon' reads back at the right size. */
	@Test
	void otherDesignsAndThreeDimensions() throws Exception {
		final String[][] cases = { { "stack-of-stars", "16x16x6" }, { "3d-radial", "12:12:12" }, { "spiral", "32" },
			{ "cartesian", "24x20" }, { "propeller", "32" }, { "radial", "20" } };
		for (final String[] c : cases) {
			final Cli.Result r = Cli.run("simulate", "--trajectory", c[0], "--matrix", c[1], "--coils", 2, "--phantom",
				random.nextBoolean() ? "disc" : "shepp-logan", "--truth", dir.resolve("truth.tif"), dir.resolve("t"),
				dir.resolve("k"));
			assertEquals(0, r.code, c[0] + ": " + r);
			final int[] m = SimulateCommand.parseMatrix(c[1]);
			final Cfl.Array k = Cfl.read(dir.resolve("k")), t = Cfl.read(dir.resolve("t"));
			assertEquals(2, k.dim(3), c[0] + ": coils");
			assertEquals(t.dim(1), k.dim(1), c[0]);
			assertEquals(t.dim(2), k.dim(2), c[0]);
			final Cli.Result rec = Cli.run("recon", "-d", m[0] + ":" + m[1] + ":" + (m.length == 3 ? m[2] : 1),
				dir.resolve("t"), dir.resolve("k"), dir.resolve("img"));
			assertEquals(0, rec.code, c[0] + ": " + rec);
			assertArrayEquals(dims(m[0], m[1], m.length == 3 ? m[2] : 1), Cfl.read(dir.resolve("img")).dims(), c[0]);
			assertTrue(Files.size(dir.resolve("truth.tif")) > 4L * m[0] * m[1], c[0] + ": truth TIFF");
		}
	}
}
