package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.TestSeeds;
import org.nufftj.io.Cfl;
import org.nufftj.phantom.CoilSensitivities;

/**
 * {@code nufft-j pics -p} (sample weights) against {@code bart pics -p} with the same arguments on a 64² golden-angle
 * radial scan of 4 coils (analytic k-space: {@code nufft-j simulate}), for random positive weights shared by the
 * coils, the same with zeros (every 5th spoke and ~10% of the samples), and weights per coil.
 * <p>
 * Two checks per case. BART's data scale σ (printed by {@code bart pics -d5}, by ours with {@code --verbose}) is
 * computed from Aᴴ(p·y) with A weighted by p, i.e. from Fᴴ(p²·y): it agrees to 1% (measured ≤ 0.2%), while reading
 * the weights as W^{1/2} = √p (or ignoring them) changes σ by a factor ≈ E[p²]/E[p] ≈ 2 for p uniform on [0.1, 3] —
 * this is the check on the semantics. The images agree within 5% NRMSE after 20 CG iterations: measured 1.1–3.0%
 * (eight draws × four cases), the size of BART's own gridding error (docs/cli.md: 1.6–1.8% without weights; after 10
 * iterations up to 4.1%, the early iterations amplifying it where zero weights make the system worse conditioned).
 * </p>
 * <p>
 * Zero weights drop samples: ours with a 0/1 weight per spoke equals ours on the trajectory and k-space without those
 * spokes (an oracle within NUFFT-J, to float round-off and the NUFFT's ε). Bad weights exit with the bad-input code
 * and one line naming the file, writing nothing.
 * </p>
 */
class PicsWeightsTest {

	private static final int N = 64, COILS = 4;

	@TempDir
	Path dir;

	private long seed;
	private Random random;
	private int readout, spokes;

	@BeforeEach
	void simulate() throws Exception {
		seed = TestSeeds.fresh();
		random = new Random(seed);
		spokes = 30 + random.nextInt(8);
		final Cli.Result r = Cli.run("simulate", "-t", "golden-angle", "-m", N, "-s", spokes, "-c", COILS, dir.resolve(
			"traj"), dir.resolve("ksp"));
		assertEquals(0, r.code, r.toString());
		readout = Cfl.read(dir.resolve("ksp")).dim(1);
		Cfl.write(dir.resolve("maps"), new long[] { N, N, 1, COILS }, CoilSensitivities.synthetic(COILS, new int[] { N,
			N }).maps().data());
	}

	@Test
	void agreesWithBartPics() throws Exception {
		Assumptions.assumeTrue(Cli.bartAvailable(), "bart is not on the PATH (install it: apt-get install bart)");
		final int m = readout * spokes;
		final float[] shared = uniform(m), zeros = shared.clone(), perCoil = uniform(m * COILS);
		for (int i = 0; i < m; i++) if ((i / readout) % 5 == 0 || random.nextDouble() < 0.1) zeros[2 * i] = 0;
		write("wpos", shared, 1);
		write("wzero", zeros, 1);
		write("wcoil", perCoil, COILS);
		final String[][] cases = { { "wpos", "nufft" }, { "wpos", "toeplitz" }, { "wpos", "exact" }, { "wzero", "nufft" },
			{ "wcoil", "nufft" } };
		for (final String[] c : cases) {
			final String out = Cli.bart(dir, "pics", "-d5", "-S", "-l2", "-r", "0.01", "-i", "20", "-p", c[0], "-t",
				"traj", "ksp", "maps", "theirs");
			final double theirScale = Cli.number(out, "Scaling: ([0-9.eE+-]+)");
			final Cli.Result r = Cli.run("pics", "-S", "-l2", "-r", "0.01", "-i", "20", "-p", dir.resolve(c[0]),
				"--normal", c[1], "--verbose", "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir
					.resolve("ours"));
			assertEquals(0, r.code, r.toString());
			final double ourScale = Cli.number(r.err, "; scale ([0-9.eE+-]+)");
			final double e = Cli.nrmse(Cfl.read(dir.resolve("ours")).data(), Cfl.read(dir.resolve("theirs")).data());
			final String what = String.format(java.util.Locale.ROOT, "-p %s --normal %s: scale ours %.6g, bart %.6g; " +
				"image NRMSE %.4f (%d spokes, seed %d)", c[0], c[1], ourScale, theirScale, e, spokes, seed);
			System.out.println("pics " + what);
			assertTrue(Math.abs(ourScale / theirScale - 1) <= 0.01, what);
			assertTrue(e <= 0.05, what);
		}
	}

	@Test
	void zeroWeightsDropSamples() throws Exception {
		final Cfl.Array t = Cfl.read(dir.resolve("traj")), k = Cfl.read(dir.resolve("ksp"));
		final float[] mask = new float[readout * spokes];
		final boolean[] kept = new boolean[spokes];
		int n = 0;
		for (int s = 0; s < spokes; s++) {
			kept[s] = s == 0 || random.nextDouble() < 0.7;
			if (kept[s]) n++;
			Arrays.fill(mask, s * readout, (s + 1) * readout, kept[s] ? 1 : 0);
		}
		write("mask", mask, 1);
		final float[] tk = new float[3 * 2 * readout * n], kk = new float[2 * readout * n * COILS];
		for (int s = 0, j = 0; s < spokes; s++) {
			if (!kept[s]) continue;
			System.arraycopy(t.data(), 3 * 2 * readout * s, tk, 3 * 2 * readout * j, 3 * 2 * readout);
			for (int c = 0; c < COILS; c++)
				System.arraycopy(k.data(), 2 * readout * (c * spokes + s), kk, 2 * readout * (c * n + j), 2 * readout);
			j++;
		}
		Cfl.write(dir.resolve("traj-kept"), new long[] { 3, readout, n }, tk);
		Cfl.write(dir.resolve("ksp-kept"), new long[] { 1, readout, n, COILS }, kk);
		for (final String normal : new String[] { "nufft", "toeplitz", "exact" }) {
			final Cli.Result a = Cli.run("pics", "-S", "-l2", "-r", "0.01", "-i", "10", "--normal", normal, "-p", dir
				.resolve("mask"), "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve(
					"masked"));
			assertEquals(0, a.code, a.toString());
			final Cli.Result b = Cli.run("pics", "-S", "-l2", "-r", "0.01", "-i", "10", "--normal", normal, "-t", dir
				.resolve("traj-kept"), dir.resolve("ksp-kept"), dir.resolve("maps"), dir.resolve("kept"));
			assertEquals(0, b.code, b.toString());
			final double e = Cli.nrmse(Cfl.read(dir.resolve("masked")).data(), Cfl.read(dir.resolve("kept")).data());
			assertTrue(e <= 1e-4, "--normal " + normal + ": -p 0/1 per spoke vs the kept " + n + " of " + spokes +
				" spokes: NRMSE " + e + " (seed " + seed + ")");
		}
	}

	/**
	 * The default {@code --normal auto} runs Toeplitz on the CPU, as {@code --normal toeplitz} does, and NUFFT pairs
	 * where the weights differ between coils (which Toeplitz cannot take).
	 */
	@Test
	void autoNormalIsToeplitzOnTheCpuAndNufftForWeightsPerCoil() throws Exception {
		final int m = readout * spokes;
		write("wpos", uniform(m), 1);
		write("wcoil", uniform(m * COILS), COILS);
		for (final String[] c : new String[][] { { "wpos", "toeplitz" }, { "wcoil", "nufft" } }) {
			final Cli.Result auto = Cli.run("pics", "-S", "-l2", "-r", "0.01", "-i", "8", "-p", dir.resolve(c[0]),
				"--verbose", "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve("auto"));
			assertEquals(0, auto.code, auto.toString());
			assertTrue(auto.err.contains(", " + c[1] + " normal operator,"), "-p " + c[0] + ": " + auto.err);
			final Cli.Result named = Cli.run("pics", "-S", "-l2", "-r", "0.01", "-i", "8", "-p", dir.resolve(c[0]),
				"--normal", c[1], "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve(
					"named"));
			assertEquals(0, named.code, named.toString());
			final double e = Cli.nrmse(Cfl.read(dir.resolve("auto")).data(), Cfl.read(dir.resolve("named")).data());
			assertTrue(e <= 1e-5, "-p " + c[0] + ": auto against --normal " + c[1] + ": NRMSE " + e + " (seed " + seed +
				")");
		}
	}

	@Test
	void badWeightsExitWithOneLineAndWriteNothing() throws Exception {
		final int m = readout * spokes;
		final float[] good = uniform(m);
		Cfl.write(dir.resolve("short"), new long[] { 1, readout - 1, spokes }, Arrays.copyOf(good, 2 * (readout - 1) *
			spokes));
		write("three", uniform(m * (COILS - 1)), COILS - 1);
		final float[] negative = good.clone(), nan = good.clone(), complex = good.clone();
		negative[2 * 17] = -0.5f;
		nan[2 * 23] = Float.NaN;
		complex[2 * 5 + 1] = 0.25f;
		Cfl.write(dir.resolve("negative"), new long[] { 1, readout, spokes }, negative);
		Cfl.write(dir.resolve("nan"), new long[] { 1, readout, spokes }, nan);
		Cfl.write(dir.resolve("complex"), new long[] { 1, readout, spokes }, complex);
		write("wcoil", uniform(m * COILS), COILS);
		final String[][] cases = { { "short", "nufft", "dims" }, { "three", "nufft", "dims" }, { "negative", "nufft",
			"-0.5" }, { "nan", "nufft", "NaN" }, { "complex", "nufft", "0.25i" }, { "wcoil", "toeplitz",
				"--normal nufft" } };
		for (final String[] c : cases) {
			final Cli.Result r = Cli.run("pics", "-l2", "-i", "3", "--normal", c[1], "-p", dir.resolve(c[0]), "-t", dir
				.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve("out"));
			assertEquals(Main.BAD_INPUT, r.code, r.toString());
			assertEquals(1, r.err.trim().split("\n").length, r.toString());
			assertTrue(r.err.contains(c[2]) && r.err.contains("-p"), c[0] + ": " + r);
			if (!c[0].equals("wcoil")) assertTrue(r.err.contains(c[0]), c[0] + ": " + r);
			assertFalse(Files.exists(dir.resolve("out.cfl")) || Files.exists(dir.resolve("out.hdr")), "nothing written " +
				"for " + c[0]);
		}
	}

	// -- helpers --

	/** n complex values p + 0i with p uniform on [0.1, 3]. */
	private float[] uniform(final int n) {
		final float[] p = new float[2 * n];
		for (int i = 0; i < n; i++) p[2 * i] = (float) (0.1 + 2.9 * random.nextDouble());
		return p;
	}

	/** Weights [1, readout, spokes, coils] from real values (or complex interleaved of that length). */
	private void write(final String name, final float[] values, final int coils) throws Exception {
		final long[] dims = { 1, readout, spokes, coils };
		final float[] data;
		if (values.length == 2 * readout * spokes * coils) data = values;
		else {
			data = new float[2 * values.length];
			for (int i = 0; i < values.length; i++) data[2 * i] = values[i];
		}
		Cfl.write(dir.resolve(name), dims, data);
	}
}
