package org.nufftj.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.data.FrameGroup;
import org.nufftj.InvalidInputException;
import org.nufftj.io.Cfl;
import org.nufftj.io.IsmrmrdData;
import org.nufftj.io.IsmrmrdReader;
import org.nufftj.trajectory.Trajectory;

/**
 * One matrix rule, one "kz is zero" rule and one range check (docs/conventions.md): the rule reproduces the matrix of
 * the bundled BART data and of the ISMRMRD sample's header, every matrix it picks passes the range check and the
 * next smaller one does not.
 */
class KSpaceRulesTest {

	@Test
	void theMatrixRuleReproducesTheSampleData() throws Exception {
		assertArrayEquals(new int[] { 128, 128 }, estimate(Path.of("sample-data", "radial_ga_traj")));
		assertArrayEquals(new int[] { 64, 64 }, estimate(Path.of("sample-data", "bart", "radial_traj")));
		// ISMRMRD: the header's recon matrix from the stored trajectory in cycles/FOV of that matrix.
		final IsmrmrdData d = IsmrmrdReader.read(Path.of("sample-data", "ismrmrd", "radial_shepp_logan.h5"));
		final int[] m = d.matrix();
		final double[] maxAbs = new double[3];
		for (final FrameGroup b : d.blocks()) {
			final Trajectory t = b.trajectory();
			final double[] c = t.toCyclesPerFov(m);
			for (int i = 0; i < c.length; i++) maxAbs[i % t.dimensions()] = Math.max(maxAbs[i % t.dimensions()],
				Math.abs(c[i]));
		}
		assertArrayEquals(m, KSpaceRules.estimateMatrix(maxAbs, "ismrmrd"));
		// And the loader applies it to BART files without a matrix.
		assertArrayEquals(new int[] { 64, 64 }, ScanLoader.load(Path.of("sample-data", "bart", "radial.cfl"), null,
			null, null).matrix());
	}

	@Test
	void everyEstimatedMatrixPassesTheRangeCheckAndTheNextSmallerFails() {
		final long seed = new Random().nextLong();
		final Random r = new Random(seed);
		for (int i = 0; i < 1000; i++) {
			final double k = r.nextDouble() * 200 + 0.5;
			final int n = KSpaceRules.estimateMatrix(new double[] { k, k, 0 }, "random")[0];
			assertTrue(n % 2 == 0, "even, seed " + seed);
			KSpaceRules.checkRange(k, n, 0, 0, Path.of("random"));
			if (n > 2) assertThrows(InvalidInputException.class, () -> KSpaceRules.checkRange(k, n - 2, 0, 0,
				Path.of("random")), "k " + k + " fits " + (n - 2) + ", seed " + seed);
		}
		// |k| = N/2 plus float rounding keeps N (bart 0.8's 2*ceil(max|k|) would give N + 2); beyond the slack, N + 2.
		assertArrayEquals(new int[] { 128, 128 }, KSpaceRules.estimateMatrix(new double[] { 64 * (1 + 5e-6), 64, 0 },
			"rounded"));
		assertArrayEquals(new int[] { 130, 128 }, KSpaceRules.estimateMatrix(new double[] { 64.01, 64, 0 }, "beyond"));
	}

	@Test
	void kzIsZeroBelowOneThreshold() {
		assertTrue(KSpaceRules.kzIsZero(0));
		assertTrue(KSpaceRules.kzIsZero(KSpaceRules.KZ_ZERO));
		assertFalse(KSpaceRules.kzIsZero(2 * KSpaceRules.KZ_ZERO));
		assertArrayEquals(new int[] { 16, 16 }, KSpaceRules.estimateMatrix(new double[] { 8, 8, KSpaceRules.KZ_ZERO },
			"2D"));
		assertArrayEquals(new int[] { 16, 16, 2 }, KSpaceRules.estimateMatrix(new double[] { 8, 8, 2 *
			KSpaceRules.KZ_ZERO }, "3D"));
	}

	@Test
	void bartTrajectoryWithKzNoiseIs2dAndRealKzIsRefusedFor2d(@org.junit.jupiter.api.io.TempDir final Path dir)
		throws Exception
	{
		final float[] t = new float[2 * 3 * 4];
		for (int p = 0; p < 4; p++) {
			t[2 * 3 * p] = p - 2;
			t[2 * (3 * p + 1)] = 2 - p;
			t[2 * (3 * p + 2)] = (float) (KSpaceRules.KZ_ZERO / 2);
		}
		Cfl.write(dir.resolve("t"), new long[] { 3, 4, 1 }, t);
		final Trajectory two = ScanLoader.bartTrajectory(dir.resolve("t"), null);
		assertTrue(two.dimensions() == 2, "kz within the threshold: 2D");
		t[2 * (3 * 1 + 2)] = 1;
		Cfl.write(dir.resolve("t"), new long[] { 3, 4, 1 }, t);
		assertTrue(ScanLoader.bartTrajectory(dir.resolve("t"), null).dimensions() == 3, "real kz: 3D");
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> ScanLoader.bartTrajectory(dir
			.resolve("t"), new int[] { 4, 4 }));
		assertTrue(e.getMessage().contains("kz"), e.getMessage());
	}

	@Test
	void bothFrontEndsParseTheSameOptionValues() {
		assertArrayEquals(new int[] { 32, 32 }, Options.matrix("32"));
		assertArrayEquals(new int[] { 32, 16 }, Options.matrix("32x16"));
		assertArrayEquals(new int[] { 32, 16 }, Options.matrix("32:16:1"));
		assertArrayEquals(new int[] { 32, 16, 8 }, Options.matrix("32:16:8"));
		assertNull(Options.matrix("auto"));
		assertThrows(InvalidInputException.class, () -> Options.matrix("-d", "16:x:1"));
		assertThrows(InvalidInputException.class, () -> Options.nufft("auto", 0, 0, 0.5, "float", "cpu"));
		assertThrows(InvalidInputException.class, () -> Options.nufft("auto", 0, 0, 1e-4, "float", "cpu", "magic", 0));
		assertThrows(InvalidInputException.class, () -> Options.nufft("auto", 0, 0, 1e-4, "float", "cpu", "auto", -1));
		// Threads beyond the cores are capped to them (issue 11).
		assertEquals(Math.min(3, Runtime.getRuntime().availableProcessors()), Options.nufft("kb", 2, 6, 1e-4, "double",
			"cpu", "atomic", 3).threads());
	}

	private static int[] estimate(final Path traj) throws Exception {
		final float[] f = Cfl.read(traj).data();
		final double[] maxAbs = new double[3];
		for (int i = 0; i < f.length / 2; i++) maxAbs[i % 3] = Math.max(maxAbs[i % 3], Math.abs(f[2 * i]));
		return KSpaceRules.estimateMatrix(maxAbs, traj.toString());
	}
}
