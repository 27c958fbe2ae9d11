package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.data.ComplexImage;
import org.nufftj.io.Cfl;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.phantom.CoilSensitivities;
import org.nufftj.recon.sense.Espirit;
import org.nufftj.recon.sense.EspiritMaps;
import org.nufftj.recon.sense.EspiritOptions;

/**
 * {@code nufft-j ecalib}: bart's argument order and options reach {@link Espirit} unchanged (the files equal the
 * library's maps for the same options), the output dims are bart's, bad input exits with the bad-input code and
 * writes nothing. The maps themselves are checked against {@code bart ecalib} in
 * {@code EspiritBartTest.ecalibFilesAgreeWithBartEcalib}.
 */
class EcalibTest {

	@TempDir
	Path dir;

	private float[] ksp;
	private final int n = 40, coils = 5;

	@BeforeEach
	void kspace() throws Exception {
		final int[] size = { n, n };
		final float[] maps = CoilSensitivities.synthetic(coils, size).maps().data();
		final ComplexImage f = AnalyticPhantom.sheppLogan2d().image(size, 2);
		ksp = new float[2 * n * n * coils];
		// k-space of each coil image by the centred DFT (Cartesian data, as bart ecalib takes).
		final float[] coil = new float[2 * n * n];
		for (int c = 0; c < coils; c++) {
			for (int p = 0; p < n * n; p++) {
				final float mr = maps[2 * (c * n * n + p)], mi = maps[2 * (c * n * n + p) + 1];
				final float fr = f.data()[2 * p], fi = f.data()[2 * p + 1];
				coil[2 * p] = mr * fr - mi * fi;
				coil[2 * p + 1] = mr * fi + mi * fr;
			}
			final double[] k = org.nufftj.nufft.Nudft.forward(size, cartesian(), toDouble(coil), 1);
			for (int i = 0; i < k.length; i++) ksp[2 * n * n * c + i] = (float) k[i];
		}
		Cfl.write(dir.resolve("ksp"), new long[] { n, n, 1, coils }, ksp);
	}

	@Test
	void filesAreTheLibrarysMapsInBartsDims() throws Exception {
		final Cli.Result r = Cli.run("ecalib", "-m", "1", "-r", "20", "-k", "5:5", "-t", "0.002", "-c", "0.7", dir
			.resolve("ksp"), dir.resolve("sens"), dir.resolve("ev"));
		assertEquals(0, r.code, r.toString());
		final EspiritMaps m = Espirit.fromKSpace(ksp, new int[] { n, n }, coils, EspiritOptions.defaults().withMaps(1)
			.withCalibration(20).withKernel(5, 5).withThreshold(0.002).withCrop(0.7));
		final Cfl.Array sens = Cfl.read(dir.resolve("sens")), ev = Cfl.read(dir.resolve("ev"));
		assertArrayEquals(new long[] { n, n, 1, coils, 1 }, java.util.Arrays.copyOf(sens.dims(), 5));
		assertArrayEquals(new long[] { n, n, 1, 1, 1 }, java.util.Arrays.copyOf(ev.dims(), 5));
		assertArrayEquals(m.maps(), sens.data(), 1e-6f);
		// default: two sets of maps, as bart
		assertEquals(0, Cli.run("ecalib", dir.resolve("ksp"), dir.resolve("sens2")).code);
		assertEquals(2, Cfl.read(dir.resolve("sens2")).dims()[4]);
	}

	@Test
	void badInputExitsWithOneLineAndWritesNothing() throws Exception {
		final Object[][] cases = { { "-m", "9" }, { "-c", "1.5" }, { "-k", "x" }, { "-r", "0" }, { "-t", "-1" } };
		for (final Object[] c : cases) {
			final Object[] args = new Object[c.length + 3];
			args[0] = "ecalib";
			System.arraycopy(c, 0, args, 1, c.length);
			args[c.length + 1] = dir.resolve("ksp");
			args[c.length + 2] = dir.resolve("out");
			final Cli.Result r = Cli.run(args);
			assertEquals(Main.BAD_INPUT, r.code, r.toString());
			assertTrue(r.err.trim().split("\n").length == 1, r.toString());
			assertFalse(Files.exists(dir.resolve("out.cfl")), "nothing written for " + java.util.Arrays.toString(c));
		}
		// a non-Cartesian k-space [1, readout, shots, coils]
		Cfl.write(dir.resolve("radial"), new long[] { 1, n, n, coils }, ksp);
		final Cli.Result r = Cli.run("ecalib", dir.resolve("radial"), dir.resolve("out"));
		assertEquals(Main.BAD_INPUT, r.code, r.toString());
		assertTrue(r.err.contains("Cartesian"), r.toString());
		assertFalse(Files.exists(dir.resolve("out.cfl")));
	}

	// -- helpers --

	private org.nufftj.trajectory.Trajectory cartesian() {
		final double[] c = new double[2 * n * n];
		for (int y = 0; y < n; y++) for (int x = 0; x < n; x++) {
			c[2 * (y * n + x)] = (x - n / 2) / (double) n;
			c[2 * (y * n + x) + 1] = (y - n / 2) / (double) n;
		}
		return new org.nufftj.trajectory.Trajectory(2, c, "cartesian");
	}

	private static double[] toDouble(final float[] f) {
		final double[] d = new double[f.length];
		for (int i = 0; i < f.length; i++) d[i] = f[i];
		return d;
	}
}
