package org.nufftj.recon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.TestSeeds;
import org.nufftj.data.KSpace;
import org.nufftj.io.IsmrmrdData;
import org.nufftj.io.IsmrmrdReader;
import org.nufftj.io.IsmrmrdTools;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Nudft;
import org.nufftj.trajectory.Trajectory;

/**
 * Cartesian data by exact FFT ({@link CartesianFft}): on random on-grid samples (with readout oversampling, duplicates,
 * 2D and 3D) the per-coil images equal the exact adjoint NUDFT to float round-off; an off-grid trajectory is not taken;
 * on files of {@code ismrmrd_generate_cartesian_shepp_logan} (4 coils, 2 repetitions, 2× readout oversampling) the
 * image of the last repetition equals {@code ismrmrd_recon_cartesian_2d}'s to a scaled NRMSE of 1e-4 (through the gridding recon entry point,
 * as the front ends call it).
 */
class CartesianFftReconTest {

	@TempDir
	Path dir;

	@Test
	void perCoilImagesAreTheExactAdjoint() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		for (final int[] size : new int[][] { { 12, 10 }, { 6, 8, 4 } }) {
			final int d = size.length, m = 300, coils = 2, frames = 2;
			final int[] g = size.clone();
			g[0] *= 2; // readout oversampling
			final double[] c = new double[d * m];
			for (int j = 0; j < m; j++)
				for (int a = 0; a < d; a++) c[d * j + a] = (r.nextInt(g[a]) - g[a] / 2) / (double) g[a];
			System.arraycopy(c, 0, c, d * 5, d); // a duplicate sample
			final Trajectory t = new Trajectory(d, c, "cartesian test");
			final CartesianFft.Grid grid = CartesianFft.grid(t, size);
			assertNotNull(grid, "on the grid, seed " + seed);
			assertArrayEquals(g, grid.size());
			final float[] y = new float[2 * m * coils * frames];
			for (int i = 0; i < y.length; i++) y[i] = (float) r.nextGaussian();
			final double[] yd = new double[y.length];
			for (int i = 0; i < y.length; i++) yd[i] = y[i];
			try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null)) {
				final ReconResult res = CartesianFft.reconstruct(cpu, grid, new KSpace(y, m, coils, frames), size,
					ReconOptions.defaults().withDcf(DcfMethod.NONE).withCombine(CoilCombination.NONE), Progress.NONE);
				final double[] ref = Nudft.adjoint(size, t, yd, coils * frames);
				final float[] got = res.image().data();
				double e = 0, n = 0;
				for (int i = 0; i < ref.length; i++) {
					e += (ref[i] - got[i]) * (ref[i] - got[i]);
					n += ref[i] * ref[i];
				}
				assertTrue(Math.sqrt(e / n) < 1e-6, "vs NUDFT " + Math.sqrt(e / n) + ", size " + d + "D, seed " + seed);
				assertNull(res.parameters(), "no NUFFT ran");
			}
			c[0] += 0.3 / g[0]; // one sample off the grid
			assertNull(CartesianFft.grid(new Trajectory(d, c, "off grid"), size), "off the grid, seed " + seed);
		}
	}

	@Test
	void equalsIsmrmrdReconCartesian2d() throws Exception {
		final Path gen = IsmrmrdTools.tool("ismrmrd_generate_cartesian_shepp_logan");
		final Path recon = IsmrmrdTools.tool("ismrmrd_recon_cartesian_2d");
		Assumptions.assumeTrue(gen != null && recon != null, IsmrmrdTools.why);
		final int n = 48, coils = 4;
		final Path file = dir.resolve("cart.h5");
		IsmrmrdTools.run(List.of(gen.toString(), "-m", "" + n, "-c", "" + coils, "-r", "2", "-k", "-o",
			file.toString()), dir);
		IsmrmrdTools.run(List.of(recon.toString(), file.toString()), dir);
		final IsmrmrdData d = IsmrmrdReader.read(file);
		final var part = d.blocks().get(0);
		final CartesianFft.Grid grid = CartesianFft.grid(part.trajectory(), d.matrix());
		assertNotNull(grid, "the generated file is Cartesian");
		assertEquals(2 * n, grid.size()[0], "2x readout oversampling");
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null)) {
			final ReconResult r = GriddingRecon.reconstruct(cpu, part.trajectory(), part.kspace(), d.matrix(),
				ReconOptions.defaults().withDcf(DcfMethod.NONE), Progress.NONE);
			assertTrue(r.backend().contains("exact FFT"), r.backend());
			final float[] ref = IsmrmrdTools.referenceImage(file, n);
			final float[] mag = r.image().magnitude();
			// The tool fills one k-space buffer from every acquisition, so a later repetition overwrites an earlier one:
			// its image is that of the last repetition.
			assertEquals(2, r.image().frames(), "one frame per repetition");
			final float[] last = java.util.Arrays.copyOfRange(mag, n * n, 2 * n * n);
			final double e = ImageComparison.of(ref, last).scaledNrmse();
			assertTrue(e <= 1e-4, "scaled NRMSE vs ismrmrd_recon_cartesian_2d " + e);
		}
	}
}
