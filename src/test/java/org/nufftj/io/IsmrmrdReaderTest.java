package org.nufftj.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.InvalidInputException;
import org.nufftj.data.KSpace;
import org.nufftj.trajectory.Trajectory;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.WritableGroup;

/** {@link IsmrmrdReader} on real files written by the ISMRMRD library (reference tools and the C fixture writer). */
class IsmrmrdReaderTest {

	@TempDir
	Path dir;

	// -- Cartesian files from ismrmrd_generate_cartesian_shepp_logan --

	@Test
	void cartesianReconstructionMatchesIsmrmrdReconCartesian2d() throws Exception {
		final Path gen = IsmrmrdTools.tool("ismrmrd_generate_cartesian_shepp_logan");
		final Path recon = IsmrmrdTools.tool("ismrmrd_recon_cartesian_2d");
		assumeTrue(gen != null && recon != null, IsmrmrdTools.why);
		final int n = 32;
		// One coil: ismrmrd_recon_cartesian_2d reconstructs channel 0 only. -C adds a noise scan the reader must skip.
		final Path file = dir.resolve("cart.h5");
		IsmrmrdTools.run(List.of(gen.toString(), "-m", "" + n, "-c", "1", "-k", "-C", "-o", file.toString()), dir);
		IsmrmrdTools.run(List.of(recon.toString(), file.toString()), dir);

		final IsmrmrdData data = IsmrmrdReader.read(file);
		assertEquals(1, data.blocks().size());
		assertTrue(data.storedTrajectory());
		assertTrue(data.notes().contains("skipped 1"), data.notes());
		assertArrayEquals(new int[] { n, n }, data.matrix());
		final IsmrmrdHeader h = data.header();
		assertArrayEquals(new double[] { h.reconFov()[0] / n, h.reconFov()[1] / n }, data.pixelMm(), 1e-12);
		final Trajectory t = data.blocks().get(0).trajectory();
		assertEquals(2 * n * n, t.count());
		assertEquals(2 * n, t.readout());

		final float[] image = adjoint(t, data.blocks().get(0).kspace(), n);
		final float[] ref = IsmrmrdTools.referenceImage(file, n);
		final double nrmse = scaledNrmse(ref, magnitude(image));
		System.out.println("ISMRMRD cross-check: scaled NRMSE vs ismrmrd_recon_cartesian_2d = " + nrmse + ", x-flipped " +
			scaledNrmse(ref, flipX(magnitude(image), n)) + ", y-flipped " + scaledNrmse(ref, flipY(magnitude(image), n)));
		assertTrue(nrmse <= 0.05, "scaled NRMSE vs ismrmrd_recon_cartesian_2d = " + nrmse);
		// Orientation: the same image flipped in x or y (or transposed) does not match.
		assertTrue(scaledNrmse(ref, flipX(magnitude(image), n)) > 0.2, "x-flipped image also matches: no orientation check");
		assertTrue(scaledNrmse(ref, flipY(magnitude(image), n)) > 0.2, "y-flipped image also matches: no orientation check");
	}

	@Test
	void derivedCartesianCoordinatesEqualTheStoredOnes() throws Exception {
		final Path gen = IsmrmrdTools.tool("ismrmrd_generate_cartesian_shepp_logan");
		assumeTrue(gen != null, IsmrmrdTools.why);
		final Path stored = dir.resolve("k.h5"), derived = dir.resolve("nok.h5");
		IsmrmrdTools.run(List.of(gen.toString(), "-m", "16", "-c", "3", "-r", "2", "-k", "-o", stored.toString()), dir);
		IsmrmrdTools.run(List.of(gen.toString(), "-m", "16", "-c", "3", "-r", "2", "-o", derived.toString()), dir);
		final IsmrmrdData a = IsmrmrdReader.read(stored), b = IsmrmrdReader.read(derived);
		assertTrue(a.storedTrajectory());
		assertFalse(b.storedTrajectory());
		assertEquals(3, b.coils());
		assertEquals(2, b.frames().size(), "two repetitions are two frames");
		assertEquals(1, b.blocks().size(), "repetitions share one trajectory");
		assertArrayEquals(a.blocks().get(0).trajectory().coords(), b.blocks().get(0).trajectory().coords(), 1e-7);
	}

	// -- non-Cartesian files from the C fixture writer --

	@Test
	void radialFixtureReadsTrajectoryDataCoilsAndFrames() throws Exception {
		final Path writer = IsmrmrdTools.fixtureWriter();
		assumeTrue(writer != null, IsmrmrdTools.why);
		final Random rnd = new Random();
		final int n = 24, coils = 3, slices = 2, reps = 2, pre = 3, readout = 2 * n, shots = 20;
		final int np = 3;
		final double[][] points = new double[np][4];
		final List<String> cmd = new ArrayList<>(List.of(writer.toString(), dir.resolve("rad.h5").toString(),
			"--kind", "golden", "--matrix", "" + n, "--shots", "" + shots, "--coils", "" + coils, "--slices", "" + slices,
			"--reps", "" + reps, "--noise-scan", "--discard-pre", "" + pre, "--traj-dims", "3", "--object", "points"));
		for (final double[] p : points) {
			for (int i = 0; i < 4; i++) p[i] = i < 2 ? (rnd.nextDouble() - 0.5) * n * 0.8 : rnd.nextGaussian();
			cmd.add("--point");
			cmd.add(p[0] + "," + p[1] + "," + p[2] + "," + p[3]);
		}
		IsmrmrdTools.run(cmd, dir);

		final IsmrmrdData data = IsmrmrdReader.read(dir.resolve("rad.h5"));
		assertEquals("goldenangle", data.header().trajectory());
		assertEquals(coils, data.coils());
		assertEquals(slices * reps, data.frames().size());
		assertEquals(slices, data.slices());
		assertEquals(1, data.blocks().size());
		assertTrue(data.notes().contains("skipped 1"), data.notes());
		assertTrue(data.notes().contains("ignored 1 extra trajectory component"), data.notes());
		assertArrayEquals(new double[] { 256.0 / n, 256.0 / n }, data.pixelMm(), 1e-12);
		final Trajectory t = data.blocks().get(0).trajectory();
		assertEquals(readout, t.readout());
		assertEquals(shots, t.shots());
		// The fixture's golden-angle spokes (after the discarded samples), in cycles per pixel.
		for (int s = 0; s < shots; s++) {
			final double angle = Math.toRadians(s * 111.246117975);
			for (int j = 0; j < readout; j++) {
				final double kr = (j - readout / 2) / (double) readout;
				assertEquals(kr * Math.cos(angle), t.k(s * readout + j, 0), 1e-6);
				assertEquals(kr * Math.sin(angle), t.k(s * readout + j, 1), 1e-6);
			}
		}
		// Data: sum_j a_j exp(-2 pi i k.x_j), times the fixture's coil, slice and repetition factors (frame order:
		// slice fastest).
		final KSpace ks = data.blocks().get(0).kspace();
		double maxErr = 0, maxRef = 0;
		for (int f = 0; f < slices * reps; f++) {
			final int z = f % slices, r = f / slices;
			assertEquals(z, data.frames().get(f).slice);
			assertEquals(r, data.frames().get(f).repetition);
			for (int c = 0; c < coils; c++) {
				final double wr = (1 + c) * (1 + z), wphi = 0.5 * c + 0.3 * r;
				for (int m = 0; m < t.count(); m++) {
					double re = 0, im = 0;
					for (final double[] p : points) {
						final double ph = -2 * Math.PI * (t.k(m, 0) * p[0] + t.k(m, 1) * p[1]);
						re += p[2] * Math.cos(ph) - p[3] * Math.sin(ph);
						im += p[2] * Math.sin(ph) + p[3] * Math.cos(ph);
					}
					final double er = wr * (re * Math.cos(wphi) - im * Math.sin(wphi));
					final double ei = wr * (re * Math.sin(wphi) + im * Math.cos(wphi));
					final int o = ks.offset(c, f) + 2 * m;
					maxErr = Math.max(maxErr, Math.hypot(ks.data()[o] - er, ks.data()[o + 1] - ei));
					maxRef = Math.max(maxRef, Math.hypot(er, ei));
				}
			}
		}
		assertTrue(maxErr <= 1e-5 * maxRef, "max |data - analytic| = " + maxErr + " of " + maxRef);
	}

	@Test
	void spiralFixtureHasItsInterleaves() throws Exception {
		final Path writer = IsmrmrdTools.fixtureWriter();
		assumeTrue(writer != null, IsmrmrdTools.why);
		final Path f = dir.resolve("spiral.h5");
		IsmrmrdTools.run(List.of(writer.toString(), f.toString(), "--kind", "spiral", "--matrix", "16", "--readout",
			"100", "--shots", "4", "--coils", "2"), dir);
		final IsmrmrdData data = IsmrmrdReader.read(f);
		final Trajectory t = data.blocks().get(0).trajectory();
		assertEquals("spiral", data.header().trajectory());
		assertEquals(100, t.readout());
		assertEquals(4, t.shots());
		for (int s = 0; s < 4; s++) {
			assertEquals(0, Math.hypot(t.k(s * 100, 0), t.k(s * 100, 1)), 1e-7, "interleave starts at the centre");
			assertEquals(0.5, Math.hypot(t.k(s * 100 + 99, 0), t.k(s * 100 + 99, 1)), 1e-6, "and ends at |k| = 1/2");
		}
	}

	// -- bad input --

	@Test
	void missingFileIsOneClearMessage() {
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> IsmrmrdReader.read(dir.resolve(
			"nothing.h5")));
		assertOneLine(e, "file not found");
	}

	@Test
	void nonHdf5FileIsOneClearMessage() throws IOException {
		final Path f = dir.resolve("text.h5");
		Files.writeString(f, "this is not HDF5 at all\n");
		assertOneLine(assertThrows(InvalidInputException.class, () -> IsmrmrdReader.read(f)), "not an HDF5 file");
	}

	@Test
	void hdf5WithoutIsmrmrdContentIsOneClearMessage() {
		final Path f = dir.resolve("other.h5");
		try (WritableHdfFile w = HdfFile.write(f)) {
			final WritableGroup g = w.putGroup("images");
			g.putDataset("pixels", new float[] { 1, 2, 3 });
		}
		assertOneLine(assertThrows(InvalidInputException.class, () -> IsmrmrdReader.read(f)), "not an ISMRMRD file");
	}

	@Test
	void truncatedFileIsOneClearMessage() throws Exception {
		final Path writer = IsmrmrdTools.fixtureWriter();
		assumeTrue(writer != null, IsmrmrdTools.why);
		final Path f = dir.resolve("cut.h5");
		IsmrmrdTools.run(List.of(writer.toString(), f.toString(), "--matrix", "16", "--coils", "2"), dir);
		final long size = Files.size(f);
		for (final long keep : new long[] { size / 2, 2048, size - 1 }) {
			try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
				ch.truncate(keep);
			}
			assertOneLine(assertThrows(InvalidInputException.class, () -> IsmrmrdReader.read(f)), "truncated");
		}
	}

	// -- helpers --

	static void assertOneLine(final InvalidInputException e, final String expected) {
		assertNotNull(e.getMessage());
		assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
		assertTrue(e.getMessage().contains(expected), "message '" + e.getMessage() + "' should say '" + expected + "'");
	}

	/**
	 * Gridding reconstruction of coil 0, frame 0 as non-Cartesian data: no density compensation (Cartesian sampling is
	 * uniform), no coil combination, double precision at tolerance 1e-8 so the NUFFT is exact to the comparison.
	 */
	static float[] adjoint(final Trajectory t, final KSpace ks, final int n) {
		final KSpace coil0 = new KSpace(Arrays.copyOf(ks.data(), 2 * ks.points()), ks.points(), 1, 1);
		final org.nufftj.recon.ReconOptions o = org.nufftj.recon.ReconOptions.defaults().withNufft(
			org.nufftj.nufft.NufftOptions.defaults().withPrecision(org.nufftj.nufft.Precision.DOUBLE).withTolerance(1e-8)
				.withDevice(org.nufftj.nufft.DeviceChoice.CPU)).withDcf(org.nufftj.recon.DcfMethod.NONE).withCombine(
					org.nufftj.recon.CoilCombination.NONE);
		try (org.nufftj.nufft.Backend cpu = new org.nufftj.nufft.cpu.CpuBackend(0)) {
			return org.nufftj.recon.GriddingRecon.reconstruct(cpu, t, coil0, new int[] { n, n }, o, null).image().data();
		}
	}

	static float[] magnitude(final float[] c) {
		final float[] m = new float[c.length / 2];
		for (int i = 0; i < m.length; i++) m[i] = (float) Math.hypot(c[2 * i], c[2 * i + 1]);
		return m;
	}

	/** ||ref - a test|| / ||ref|| with the least-squares scale a. */
	static double scaledNrmse(final float[] ref, final float[] test) {
		double rt = 0, tt = 0, rr = 0;
		for (int i = 0; i < ref.length; i++) {
			rt += ref[i] * (double) test[i];
			tt += test[i] * (double) test[i];
			rr += ref[i] * (double) ref[i];
		}
		final double a = rt / tt;
		double e = 0;
		for (int i = 0; i < ref.length; i++) e += Math.pow(ref[i] - a * test[i], 2);
		return Math.sqrt(e / rr);
	}

	static float[] flipX(final float[] m, final int n) {
		final float[] o = new float[m.length];
		for (int y = 0; y < n; y++) for (int x = 0; x < n; x++) o[x + n * y] = m[(n - 1 - x) + n * y];
		return o;
	}

	static float[] flipY(final float[] m, final int n) {
		final float[] o = new float[m.length];
		for (int y = 0; y < n; y++) for (int x = 0; x < n; x++) o[x + n * y] = m[x + n * (n - 1 - y)];
		return o;
	}
}
