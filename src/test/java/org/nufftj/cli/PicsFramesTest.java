package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * {@code nufft-j pics} on k-space with frames (BART's TIME dimension 10): two frames of different objects (a
 * Shepp-Logan and a disc, analytic k-space on one golden-angle trajectory, 4 coils, 64²). BART 0.8 reconstructs such
 * data jointly (one data scale σ from the adjoint image of all frames, one solve of the block-diagonal system), and so
 * does NUFFT-J: against {@code bart pics} with the same arguments, σ agrees within 1% (measured ≤ 0.2%) and the image
 * [X, Y, 1, …, 2 in dim 10] within 5% NRMSE (measured 0.3–1.2%, five draws × three cases: BART's gridding error, as
 * for one frame), for {@code -l2}, total variation over time ({@code -R T:1024}) and weights that differ between the
 * frames ({@code -p}).
 * Two identical frames give exactly the one-frame image in each (σ's quantiles, the largest eigenvalue and every
 * step size are those of one frame) for {@code -l2} (both normal operators), {@code -l1 -e} and {@code -R T:3}. Bad frame layouts exit with one line, writing nothing.
 */
class PicsFramesTest {

	private static final int N = 64, COILS = 4;

	@TempDir
	Path dir;

	private long seed;
	private int readout, spokes;

	@BeforeEach
	void simulate() throws Exception {
		seed = TestSeeds.fresh();
		spokes = 30 + new Random(seed).nextInt(8);
		final float[][] frames = new float[2][];
		int f = 0;
		for (final String phantom : new String[] { "shepp-logan", "disc" }) {
			final Cli.Result r = Cli.run("simulate", "-t", "golden-angle", "--phantom", phantom, "-m", N, "-s", spokes,
				"-c", COILS, dir.resolve("traj"), dir.resolve(phantom));
			assertEquals(0, r.code, r.toString());
			frames[f++] = Cfl.read(dir.resolve(phantom)).data();
		}
		readout = Cfl.read(dir.resolve("traj")).dim(1);
		write("ksp", frames[0], frames[1]);
		write("same", frames[0], frames[0]);
		Cfl.write(dir.resolve("maps"), new long[] { N, N, 1, COILS }, CoilSensitivities.synthetic(COILS, new int[] { N,
			N }).maps().data());
	}

	@Test
	void jointLikeBartPics() throws Exception {
		Assumptions.assumeTrue(Cli.bartAvailable(), "bart is not on the PATH (install it: apt-get install bart)");
		// Weights per frame: frame 2's are frame 1's reversed (so they differ), [1, readout, spokes, 1, …, 2].
		final Random random = new Random(seed);
		final int m = readout * spokes;
		final float[] w = new float[4 * m];
		for (int i = 0; i < m; i++) {
			w[2 * i] = (float) (0.1 + 2.9 * random.nextDouble());
			w[2 * (2 * m - 1 - i)] = w[2 * i];
		}
		final long[] wd = { 1, readout, spokes, 1, 1, 1, 1, 1, 1, 1, 2 };
		Cfl.write(dir.resolve("w"), wd, w);
		final String[][] cases = { { "-l2", "-r", "0.01", "-i", "10" }, { "-R", "T:1024:0:0.01", "-i", "20" }, {
			"-l2", "-r", "0.01", "-i", "10", "-p", "w" } };
		for (final String[] c : cases) {
			final java.util.List<Object> theirs = new java.util.ArrayList<>(), ours = new java.util.ArrayList<>();
			theirs.addAll(Arrays.asList("pics", "-d5", "-S"));
			ours.addAll(Arrays.asList("pics", "--verbose", "-S"));
			// bart's ADMM: -i bounds the CG iterations of all steps (as PicsTest.bartAdmmMatchesBartPics).
			if (c[0].equals("-R")) ours.add("--bart-admm");
			for (final String a : c) {
				theirs.add(a);
				ours.add(a.equals("w") ? dir.resolve("w") : a);
			}
			theirs.addAll(Arrays.asList("-t", "traj", "ksp", "maps", "theirs"));
			ours.addAll(Arrays.asList("-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve(
				"ours")));
			final String out = Cli.bart(dir, theirs.toArray());
			final Cli.Result r = Cli.run(ours.toArray());
			assertEquals(0, r.code, r.toString());
			final Cfl.Array mine = Cfl.read(dir.resolve("ours")), bart = Cfl.read(dir.resolve("theirs"));
			assertArrayEquals(bart.dims(), mine.dims(), "dims");
			final double ourScale = Cli.number(r.err, "; scale ([0-9.eE+-]+)"), theirScale = Cli.number(out,
				"Scaling: ([0-9.eE+-]+)");
			final double e = Cli.nrmse(mine.data(), bart.data());
			final String what = String.format(java.util.Locale.ROOT, "%s: scale ours %.6g, bart %.6g; image NRMSE " +
				"%.4f (%d spokes, seed %d)", String.join(" ", c), ourScale, theirScale, e, spokes, seed);
			System.out.println("pics, 2 frames, " + what);
			assertTrue(Math.abs(ourScale / theirScale - 1) <= 0.01, what);
			assertTrue(e <= 0.05, what);
			final int half = mine.data().length / 2;
			assertTrue(Cli.nrmse(Arrays.copyOf(mine.data(), half), Arrays.copyOfRange(mine.data(), half, 2 * half)) > 0.2,
				"the frames are different objects: " + what);
		}
	}

	/**
	 * Two identical frames give the one-frame image: to float rounding (1e-6) for the linear CG runs (measured 0:
	 * the frames' sums round alike there), and to 1e-4, the runs' NUFFT tolerance, for the l1 and TV solvers, whose
	 * soft thresholds amplify the rounding by which the joint run's sums differ (measured 6.7e-7 for l1 and 2.4e-5
	 * for TV since the float subgrids of 3b0ddb2, 5.9e-7 and 3.0e-6 before, on 2026-11-25's fixture). Frames that
	 * leaked into each other would differ by O(1).
	 */
	@Test
	void identicalFramesGiveTheOneFrameImage() throws Exception {
		Cfl.write(dir.resolve("one"), new long[] { 1, readout, spokes, COILS }, Arrays.copyOf(Cfl.read(dir.resolve(
			"same")).data(), 2 * readout * spokes * COILS));
		final String[][] runs = { { "-l2", "-r", "0.01", "-i", "10", "--normal", "nufft" }, { "-l2", "-r", "0.01", "-i",
			"10", "--normal", "toeplitz" }, { "-l1", "-r", "0.005", "-e", "-i", "20" }, { "-R", "T:3:0:0.005", "-i",
				"10" } };
		for (final String[] run : runs) {
			final String normal = String.join(" ", run);
			for (final String k : new String[] { "one", "same" }) {
				final Cli.Result r = Cli.run(concat(concat(new Object[] { "pics", "-S" }, (Object[]) run), "-t", dir
					.resolve("traj"), dir.resolve(k), dir.resolve("maps"), dir.resolve("out-" + k)));
				assertEquals(0, r.code, r.toString());
			}
			final float[] one = Cfl.read(dir.resolve("out-one")).data(), two = Cfl.read(dir.resolve("out-same")).data();
			assertEquals(2 * one.length, two.length);
			for (int f = 0; f < 2; f++) {
				final double e = Cli.nrmse(Arrays.copyOfRange(two, f * one.length, (f + 1) * one.length), one);
				final double bound = run[0].equals("-l2") ? 1e-6 : 1e-4;
				assertTrue(e <= bound, normal + ": frame " + f + ": " + e + " > " + bound + " (seed " + seed + ")");
			}
		}
	}

	@Test
	void badFrameLayoutsExitWithOneLineAndWriteNothing() throws Exception {
		// Frames in dim 11 with total variation over time (dim 10); maps with 3 frames for k-space of 2; a one-frame
		// warm start.
		final float[] k = Cfl.read(dir.resolve("ksp")).data();
		Cfl.write(dir.resolve("dim11"), new long[] { 1, readout, spokes, COILS, 1, 1, 1, 1, 1, 1, 1, 2 }, k);
		final float[] maps = Cfl.read(dir.resolve("maps")).data(), three = Arrays.copyOf(maps, 3 * maps.length);
		Cfl.write(dir.resolve("maps3"), new long[] { N, N, 1, COILS, 1, 1, 1, 1, 1, 1, 3 }, three);
		Cfl.write(dir.resolve("start"), new long[] { N, N }, new float[2 * N * N]);
		final Object[][] cases = { { "-R", "T:1024:0:0.01", "-t", dir.resolve("traj"), dir.resolve("dim11"), dir
			.resolve("maps") }, { "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps3") }, { "-W", dir
				.resolve("start"), "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps") } };
		final String[] named = { "dimension 10", "maps3", "start" };
		for (int c = 0; c < cases.length; c++) {
			final Cli.Result r = Cli.run(concat(concat(new Object[] { "pics" }, cases[c]), dir.resolve("out")));
			assertEquals(Main.BAD_INPUT, r.code, r.toString());
			assertEquals(1, r.err.trim().split("\n").length, r.toString());
			assertTrue(r.err.contains(named[c]), r.toString());
			assertFalse(Files.exists(dir.resolve("out.cfl")) || Files.exists(dir.resolve("out.hdr")), named[c]);
		}
	}

	/**
	 * A trajectory per frame ([3, readout, spokes, 1, …, 2 in dim 10]: golden-angle spokes continuing from frame 1 to
	 * frame 2, each frame a different object) and maps per frame (frame 2's turned by a phase): the joint solve gives
	 * each frame the image a one-frame run on that frame's trajectory, k-space and maps gives (converged CG, -S), for
	 * both normal operators, and bart pics on the same files agrees within its gridding error (measured 0.9–2.2%, where
	 * bart is installed); a trajectory with a frame count unlike the k-space's is refused with one line.
	 */
	@Test
	void trajectoriesAndMapsPerFrame() throws Exception {
		final int s2 = 2 * spokes;
		final float[][] objects = new float[2][];
		int o = 0;
		for (final String phantom : new String[] { "shepp-logan", "disc" }) {
			final Cli.Result r = Cli.run("simulate", "-t", "golden-angle", "--phantom", phantom, "-m", N, "-s", s2, "-c",
				COILS, dir.resolve("traj2"), dir.resolve(phantom + "2"));
			assertEquals(0, r.code, r.toString());
			objects[o++] = Cfl.read(dir.resolve(phantom + "2")).data();
		}
		final float[] traj = Cfl.read(dir.resolve("traj2")).data();
		final int perSpoke = 2 * readout, frameLength = perSpoke * spokes * COILS;
		final float[] k = new float[2 * frameLength];
		for (int f = 0; f < 2; f++) {
			final float[] frame = new float[frameLength];
			for (int c = 0; c < COILS; c++) System.arraycopy(objects[f], perSpoke * (c * s2 + f * spokes), frame,
				perSpoke * spokes * c, perSpoke * spokes);
			System.arraycopy(frame, 0, k, f * frameLength, frameLength);
			Cfl.write(dir.resolve("k" + f), new long[] { 1, readout, spokes, COILS }, frame);
			Cfl.write(dir.resolve("t" + f), new long[] { 3, readout, spokes }, Arrays.copyOfRange(traj, 3 * perSpoke *
				spokes * f, 3 * perSpoke * spokes * (f + 1)));
		}
		Cfl.write(dir.resolve("kf"), new long[] { 1, readout, spokes, COILS, 1, 1, 1, 1, 1, 1, 2 }, k);
		Cfl.write(dir.resolve("tf"), new long[] { 3, readout, spokes, 1, 1, 1, 1, 1, 1, 1, 2 }, traj);
		final float[] maps = Cfl.read(dir.resolve("maps")).data(), turned = maps.clone();
		final double cos = Math.cos(1.1), sin = Math.sin(1.1);
		for (int i = 0; i < maps.length; i += 2) {
			turned[i] = (float) (maps[i] * cos - maps[i + 1] * sin);
			turned[i + 1] = (float) (maps[i] * sin + maps[i + 1] * cos);
		}
		Cfl.write(dir.resolve("m1"), new long[] { N, N, 1, COILS }, turned);
		final float[] both = Arrays.copyOf(maps, 2 * maps.length);
		System.arraycopy(turned, 0, both, maps.length, maps.length);
		Cfl.write(dir.resolve("mf"), new long[] { N, N, 1, COILS, 1, 1, 1, 1, 1, 1, 2 }, both);
		for (final String normal : new String[] { "nufft", "toeplitz" }) {
			final Object[] args = { "pics", "-S", "-l2", "-r", "0.1", "-i", "100", "--precision", "double", "--normal",
				normal, "-t" };
			Cli.Result r = Cli.run(concat(args, dir.resolve("tf"), dir.resolve("kf"), dir.resolve("mf"), dir.resolve(
				"joint")));
			assertEquals(0, r.code, r.toString());
			final float[] joint = Cfl.read(dir.resolve("joint")).data();
			assertEquals(2 * 2 * N * N, joint.length, "two frames of " + N + "^2");
			final float[][] single = new float[2][];
			for (int f = 0; f < 2; f++) {
				r = Cli.run(concat(args, dir.resolve("t" + f), dir.resolve("k" + f), dir.resolve(f == 0 ? "maps" : "m1"),
					dir.resolve("one" + f)));
				assertEquals(0, r.code, r.toString());
				single[f] = Cfl.read(dir.resolve("one" + f)).data();
				final double e = Cli.nrmse(Arrays.copyOfRange(joint, f * single[f].length, (f + 1) * single[f].length),
					single[f]);
				System.out.println("pics, trajectory and maps per frame, " + normal + ", frame " + f + ": NRMSE " + e);
				assertTrue(e <= 1e-3, normal + ": frame " + f + " of the joint solve against its own run: NRMSE " + e +
					" (seed " + seed + ")");
			}
			assertTrue(Cli.nrmse(single[0], single[1]) > 0.2, "the frames are different objects (seed " + seed + ")");
		}
		if (Cli.bartAvailable()) { // bart pics takes the same files: within its gridding error of ours (as above)
			Cli.bart(dir, "pics", "-d5", "-S", "-l2", "-r", "0.1", "-i", "100", "-t", "tf", "kf", "mf", "theirs");
			final double e = Cli.nrmse(Cfl.read(dir.resolve("joint")).data(), Cfl.read(dir.resolve("theirs")).data());
			System.out.println("pics, trajectory and maps per frame, against bart pics: NRMSE " + e);
			assertTrue(e <= 0.05, "against bart pics: NRMSE " + e + " (seed " + seed + ")");
		}
		// Three frames of trajectory for two of k-space.
		Cfl.write(dir.resolve("t3"), new long[] { 3, readout, spokes, 1, 1, 1, 1, 1, 1, 1, 3 }, Arrays.copyOf(traj, 3 *
			traj.length / 2));
		final Cli.Result bad = Cli.run("pics", "-l2", "-t", dir.resolve("t3"), dir.resolve("kf"), dir.resolve("maps"),
			dir.resolve("bad"));
		assertEquals(Main.BAD_INPUT, bad.code, bad.toString());
		assertEquals(1, bad.err.trim().split("\n").length, bad.toString());
		assertTrue(bad.err.contains("traj"), bad.toString());
		assertFalse(Files.exists(dir.resolve("bad.cfl")), "nothing written");
	}

	// -- helpers --

	/** Two frames [1, readout, spokes, coils, 1, …, 2 in dim 10]. */
	private void write(final String name, final float[] a, final float[] b) throws Exception {
		final float[] d = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, d, a.length, b.length);
		Cfl.write(dir.resolve(name), new long[] { 1, readout, spokes, COILS, 1, 1, 1, 1, 1, 1, 2 }, d);
	}

	private static Object[] concat(final Object[] a, final Object... b) {
		final Object[] c = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, c, a.length, b.length);
		return c;
	}
}
