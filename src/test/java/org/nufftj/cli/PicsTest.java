package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.TestSeeds;
import org.nufftj.data.ComplexImage;
import org.nufftj.io.Cfl;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.phantom.CoilSensitivities;

/**
 * {@code nufft-j pics}: on an undersampled golden-angle radial Shepp-Logan simulated with analytic k-space (no inverse
 * crime: {@code nufft-j simulate}) and the true coil maps, the l2 reconstruction reaches a scaled NRMSE against the
 * phantom (BART's {@code nrmse -s}) no worse than {@code bart pics} with the same arguments on the same files; the two
 * normal operators agree; bad input exits with the bad-input code (Main.BAD_INPUT) and one line, writing nothing.
 */
class PicsTest {

	@TempDir
	Path dir;

	private long seed;
	private Random random;
	private int n, coils, spokes;

	@BeforeEach
	void simulate() {
		seed = TestSeeds.fresh();
		random = new Random(seed);
		n = 48 + 8 * random.nextInt(3);
		coils = 4 + random.nextInt(3);
		spokes = n / 2 + random.nextInt(8); // well under the ~π/2·N spokes of Nyquist
		final Cli.Result r = Cli.run("simulate", "-t", "golden-angle", "-m", n, "-s", spokes, "-c", coils,
			dir.resolve("traj"), dir.resolve("ksp"));
		assertEquals(0, r.code, r.toString());
	}

	/** The maps the simulation used, [X, Y, 1, coils], and the phantom f itself (what x estimates), [X, Y]. */
	private void writeMapsAndTruth() throws Exception {
		final int[] size = { n, n };
		final ComplexImage maps = CoilSensitivities.synthetic(coils, size).maps();
		Cfl.write(dir.resolve("maps"), new long[] { n, n, 1, coils }, maps.data());
		final ComplexImage f = AnalyticPhantom.sheppLogan2d().image(size, 4);
		Cfl.write(dir.resolve("truth"), new long[] { n, n }, f.data());
	}

	/**
	 * With bart's own arguments (the CPU default normal operator, Toeplitz) the scaled NRMSE is no worse than bart's;
	 * with the other two normal operators (forward then adjoint NUFFT, exact) no worse than bart's by more than
	 * {@link #FLOAT_CG_SPREAD}: 30 float CG iterations on this under-determined problem move the NRMSE by that much
	 * between mathematically equal operators (one seed, 2026-11-28: 0.19559–0.19684 over the three normal operators,
	 * the scalar and the vector CPU loops and ε 1e-4 / 1e-5, where the NUFFTs matched to 6e-5 and adjointness held to
	 * 4e-9; bart 0.19642; another seed, 56², Toeplitz 0.20092 against exact 0.19895). The default keeps the strict
	 * bound, as issue 8 asks (in those runs 0.38–0.46% under bart's).
	 */
	@Test
	void noWorseThanBartPics() throws Exception {
		Assumptions.assumeTrue(Cli.bartAvailable(), "bart is not on the PATH (install it: apt-get install bart)");
		writeMapsAndTruth();
		Cli.bart(dir, "pics", "-S", "-l2", "-r", "0.001", "-i", "30", "-t", "traj", "ksp", "maps", "theirs");
		for (final String normal : new String[] { null, "nufft", "exact" }) {
			final List<Object> args = new ArrayList<>(List.of("pics", "-S", "-l2", "-r", "0.001", "-i", "30"));
			if (normal != null) args.addAll(List.of("--normal", normal));
			args.addAll(List.of("-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve("ours")));
			final Cli.Result r = Cli.run(args.toArray());
			assertEquals(0, r.code, r.toString());
			assertArrayEquals(Cfl.read(dir.resolve("theirs")).dims(), Cfl.read(dir.resolve("ours")).dims(), "dims");
			final double ours = nrmse("ours"), theirs = nrmse("theirs");
			final String what = normal == null ? "bart's arguments" : "--normal " + normal;
			System.out.printf("pics %dx%d, %d coils, %d spokes, %s: scaled NRMSE ours %.5f, bart %.5f (seed %d)%n", n, n,
				coils, spokes, what, ours, theirs, seed);
			final double bound = normal == null ? theirs : theirs * (1 + FLOAT_CG_SPREAD);
			assertTrue(ours <= bound, what + ": scaled NRMSE " + ours + " > " + bound + " (bart's " + theirs + "; " + n +
				"^2, " + coils + " coils, " + spokes + " spokes, seed " + seed + ")");
		}
	}

	/** The relative NRMSE spread of 30 float CG iterations between equal normal operators (noWorseThanBartPics). */
	private static final double FLOAT_CG_SPREAD = 0.01;

	/**
	 * Total variation ({@code -R T}, ADMM) and l1-wavelet ({@code -l1 -e} and {@code -R W -e}, FISTA): scaled NRMSE
	 * against the phantom no worse than {@code bart pics} with the same arguments on the same files.
	 */
	@Test
	void regularisedNoWorseThanBartPics() throws Exception {
		Assumptions.assumeTrue(Cli.bartAvailable(), "bart is not on the PATH (install it: apt-get install bart)");
		writeMapsAndTruth();
		final String[][] runs = { { "-R", "T:3:0:0.005", "-i", "30" }, { "-l1", "-r", "0.005", "-e", "-i", "100" },
			{ "-R", "W:3:0:0.01", "-e", "-i", "100" } };
		for (final String[] args : runs) {
			final Object[] theirs = new Object[args.length + 7], ours = new Object[args.length + 7];
			theirs[0] = "pics";
			theirs[1] = "-S";
			System.arraycopy(args, 0, theirs, 2, args.length);
			final int o = args.length + 2;
			theirs[o] = "-t";
			theirs[o + 1] = "traj";
			theirs[o + 2] = "ksp";
			theirs[o + 3] = "maps";
			theirs[o + 4] = "theirs";
			Cli.bart(dir, theirs);
			ours[0] = "pics";
			ours[1] = "-S";
			System.arraycopy(args, 0, ours, 2, args.length);
			ours[o] = "-t";
			ours[o + 1] = dir.resolve("traj");
			ours[o + 2] = dir.resolve("ksp");
			ours[o + 3] = dir.resolve("maps");
			ours[o + 4] = dir.resolve("ours");
			final Cli.Result r = Cli.run(ours);
			assertEquals(0, r.code, r.toString());
			final double mine = nrmse("ours"), bart = nrmse("theirs");
			System.out.printf("pics %s %dx%d, %d coils, %d spokes: scaled NRMSE ours %.4f, bart %.4f (seed %d)%n",
				String.join(" ", args), n, n, coils, spokes, mine, bart, seed);
			assertTrue(mine <= bart, String.join(" ", args) + ": scaled NRMSE " + mine + " > bart's " + bart + " (" + n +
				"^2, " + coils + " coils, " + spokes + " spokes, seed " + seed + ")");
		}
	}

	/**
	 * {@code --bart-admm} (BART 0.8's ADMM: -i bounds the CG iterations of all steps): the same algorithm and work as
	 * {@code bart pics -R T}, so the scaled NRMSE is compared within 5% of BART's rather than "no worse" (measured
	 * differences 1–3% either way, from the two NUFFTs' errors and float round-off: docs/benchmarks.md); a run that
	 * ignored the budget or stalled from the start would be much further off.
	 */
	@Test
	void bartAdmmMatchesBartPics() throws Exception {
		Assumptions.assumeTrue(Cli.bartAvailable(), "bart is not on the PATH (install it: apt-get install bart)");
		writeMapsAndTruth();
		Cli.bart(dir, "pics", "-S", "-R", "T:3:0:0.005", "-i", "30", "-t", "traj", "ksp", "maps", "theirs");
		final Cli.Result r = Cli.run("pics", "-S", "-R", "T:3:0:0.005", "-i", "30", "--bart-admm", "--verbose", "-t",
			dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve("ours"));
		assertEquals(0, r.code, r.toString());
		final double mine = nrmse("ours"), bart = nrmse("theirs");
		System.out.printf("pics --bart-admm -R T:3:0:0.005 -i 30 %dx%d, %d coils, %d spokes: scaled NRMSE ours %.4f, " +
			"bart %.4f (seed %d)%n", n, n, coils, spokes, mine, bart, seed);
		assertTrue(r.err.contains("(bart's ADMM)"), r.err);
		assertTrue(Math.abs(mine - bart) <= 0.05 * bart, "--bart-admm: scaled NRMSE " + mine + " vs bart's " + bart +
			" (" + n + "^2, " + coils + " coils, " + spokes + " spokes, seed " + seed + ")");
	}

	/**
	 * Two {@code -R} terms (l1-wavelet + total variation, as BART sums them): scaled NRMSE against the phantom no
	 * worse than {@code bart pics} with the same arguments on the same files.
	 */
	@Test
	void sumOfTermsNoWorseThanBartPics() throws Exception {
		Assumptions.assumeTrue(Cli.bartAvailable(), "bart is not on the PATH (install it: apt-get install bart)");
		writeMapsAndTruth();
		final String[] args = { "-S", "-R", "W:3:0:0.001", "-R", "T:3:0:0.001", "-i", "30" };
		final List<Object> theirs = new ArrayList<>(List.of((Object[]) args)), ours = new ArrayList<>(theirs);
		theirs.addAll(List.of("-t", "traj", "ksp", "maps", "theirs"));
		theirs.add(0, "pics");
		Cli.bart(dir, theirs.toArray());
		ours.add(0, "pics");
		ours.addAll(List.of("-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve("ours")));
		final Cli.Result r = Cli.run(ours.toArray());
		assertEquals(0, r.code, r.toString());
		final double o = nrmse("ours"), t = nrmse("theirs");
		System.out.printf("pics %dx%d, %d coils, %d spokes, %s: scaled NRMSE ours %.4f, bart %.4f (seed %d)%n", n, n,
			coils, spokes, String.join(" ", args), o, t, seed);
		assertTrue(o <= t, "W + T: scaled NRMSE " + o + " > bart's " + t + " (seed " + seed + ")");
	}

	/**
	 * Toeplitz, forward-adjoint and exact normal operators give the same image (the first two to the NUFFT's ε, the
	 * exact one with none), with -i and --verbose. Six CG iterations: this under-sampled, barely regularised system is
	 * so ill-conditioned that later iterations amplify round-off (float) or an ε of 1e-6 (Toeplitz in double) into
	 * percent-level differences between any two of the paths — measured 2026-11-28 on one of the test's
	 * configurations (64², 4 coils, 37 spokes): 2–7e-6 apart after 6 iterations, 3.7e-4 after 8, 1.1e-3 after 12, and
	 * every float path 1.6–1.7% from the double solution after 12, where double nufft and exact agree to 1e-6. Over
	 * 16 seeds, after 6 iterations: 3e-6 to 5.4e-5.
	 */
	@Test
	void normalOperatorsAgreeAndVerboseReportsEveryIteration() throws Exception {
		writeMapsAndTruth();
		final float[][] images = new float[3][];
		int k = 0;
		for (final String normal : new String[] { "toeplitz", "nufft", "exact" }) {
			final Cli.Result r = Cli.run("pics", "-l2", "-r", "0.01", "-i", "6", "--normal", normal, "--tolerance",
				"1e-6", "--verbose", "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve("maps"), dir.resolve(
					normal));
			assertEquals(0, r.code, r.toString());
			assertEquals(6, r.err.split("iteration \\d+: relative residual").length - 1, r.err);
			// In order (written by a printer thread), from the second on with the time since the previous one, and
			// all before the summary line.
			final java.util.regex.Matcher m = java.util.regex.Pattern.compile(
				"iteration (\\d+): relative residual [0-9.e+-]+( \\(\\+[0-9]+\\.[0-9]{2} ms\\))?").matcher(r.err);
			int expected = 1, last = -1;
			while (m.find()) {
				assertEquals(expected, Integer.parseInt(m.group(1)), r.err);
				assertEquals(expected > 1, m.group(2) != null, "time since the previous line: " + m.group());
				expected++;
				last = m.end();
			}
			assertEquals(7, expected, r.err);
			assertTrue(r.err.indexOf("CG: 6 iterations", last) > 0, "summary after the iteration lines: " + r.err);
			images[k++] = Cfl.read(dir.resolve(normal)).data();
		}
		final String[] names = { "toeplitz", "nufft", "exact" };
		for (final int[] pair : new int[][] { { 0, 1 }, { 2, 1 }, { 2, 0 } }) {
			double num = 0, den = 0;
			for (int i = 0; i < images[0].length; i++) {
				final double d = images[pair[0]][i] - images[pair[1]][i];
				num += d * d;
				den += images[pair[1]][i] * images[pair[1]][i];
			}
			assertTrue(Math.sqrt(num / den) <= 1e-3, names[pair[0]] + " vs " + names[pair[1]] + " normal: " + Math.sqrt(
				num / den) + ", seed " + seed);
		}
	}

	@Test
	void badInputExitsWithOneLineAndWritesNothing() throws Exception {
		writeMapsAndTruth();
		final Object[][] cases = { { "-r", "-0.5" }, { "-i", "0" }, { "-l3" }, { "--normal", "stone" }, { "-R",
			"X:3:0:0.1" }, { "-R", "T:3:0:-0.25" }, { "-R", "W:3:1:0.1" }, { "-l1", "-r", "-2" }, { "-R", "T:3:0:0.1",
				"-i", "-4" }, { "-R", "T:3:0" }, { "-R", "Q:0.1", "-R", "Q:0.2" } };
		final String[] named = { "-0.5", "0", "-l3", "stone", "X:3:0:0.1", "-0.25", "W:3:1:0.1", "-2", "-4",
			"T:3:0", "Tikhonov terms" };
		for (int c = 0; c < cases.length; c++) {
			final Object[] args = new Object[cases[c].length + 6];
			args[0] = "pics";
			System.arraycopy(cases[c], 0, args, 1, cases[c].length);
			final int o = cases[c].length + 1;
			args[o] = "-t";
			args[o + 1] = dir.resolve("traj");
			args[o + 2] = dir.resolve("ksp");
			args[o + 3] = dir.resolve("maps");
			args[o + 4] = dir.resolve("out");
			final Cli.Result r = Cli.run(args);
			assertEquals(Main.BAD_INPUT, r.code, r.toString());
			assertTrue(r.err.contains(named[c]) && r.err.trim().split("\n").length == 1, r.toString());
			assertFalse(Files.exists(dir.resolve("out.cfl")), "nothing written for " + named[c]);
		}
		// Maps of the wrong size (one pixel row short) and of the wrong coil count.
		final float[] m = Cfl.read(dir.resolve("maps")).data();
		Cfl.write(dir.resolve("short"), new long[] { n, n - 1, 1, coils }, java.util.Arrays.copyOf(m, 2 * n * (n - 1) *
			coils));
		Cfl.write(dir.resolve("fewer"), new long[] { n, n, 1, coils - 1 }, java.util.Arrays.copyOf(m, 2 * n * n *
			(coils - 1)));
		for (final String maps : new String[] { "short", "fewer" }) {
			final Cli.Result r = Cli.run("pics", "-t", dir.resolve("traj"), dir.resolve("ksp"), dir.resolve(maps), dir
				.resolve("out"));
			assertEquals(Main.BAD_INPUT, r.code, r.toString());
			assertFalse(Files.exists(dir.resolve("out.cfl")), "nothing written for " + maps);
		}
	}

	// -- helpers --

	/** {@code bart nrmse -s truth image}: ‖truth − a·image‖ / ‖truth‖ with the least-squares complex a. */
	private double nrmse(final String image) throws Exception {
		final String[] lines = Cli.bart(dir, "nrmse", "-s", "truth", image).trim().split("\\R");
		return Double.parseDouble(lines[lines.length - 1].trim()); // after a "Scaled by: …" line
	}
}
