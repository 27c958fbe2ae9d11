package org.nufftj.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.InvalidInputException;
import org.nufftj.recon.ultrasound.EchoSimulator;
import org.nufftj.recon.ultrasound.PlaneWave;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;

/**
 * UFF channel data written here with jhdf's HDF5 writer in the USTB / PICMUS layout ({@link UffChannelData}: data
 * [waves][channels][samples], scalars, probe, one sequence group per wave) read back exactly: samples transposed to
 * [sample][channel], parameters and angles as written (pitch from probe/pitch and from probe/geometry). Malformed files
 * fail naming the dataset.
 */
public class UffChannelDataTest {

	@TempDir
	Path dir;

	public static final double[] ANGLES = { -0.1, 0, 0.08 };

	@Test
	void readsWhatWasWritten() {
		final PlaneWave p = new PlaneWave(16, 300, 0.2e-3, 40e6, 1540, 5e6, 1e-6);
		final float[][] ch = new float[ANGLES.length][];
		for (int a = 0; a < ANGLES.length; a++) ch[a] = EchoSimulator.echoes(p, ANGLES[a], new double[][] { { 0.3e-3,
			4e-3, 1 } }, 0.6);
		for (final boolean geometry : new boolean[] { false, true }) {
			final Path f = dir.resolve("pw" + geometry + ".uff");
			write(f, p, ch, geometry, null);
			final UffChannelData u = UffChannelData.read(f);
			assertEquals(16, u.elements);
			assertEquals(300, u.samples);
			assertEquals(0.2e-3, u.pitch, 1e-12);
			assertEquals(40e6, u.fs);
			assertEquals(1540, u.c);
			assertEquals(5e6, u.f0);
			assertEquals(1e-6, u.t0);
			assertArrayEquals(ANGLES, u.angles);
			for (int a = 0; a < ANGLES.length; a++) assertArrayEquals(ch[a], u.channels[a], "wave " + a);
		}
	}

	@Test
	void malformedFilesNameTheDataset() {
		final PlaneWave p = new PlaneWave(8, 50, 0.2e-3, 40e6, 1540, 5e6, 0);
		final float[][] ch = { new float[400], new float[400], new float[400] };
		for (final String broken : new String[] { "sound_speed", "modulation_frequency", "sequence", "data",
			"distance" })
		{
			final Path f = dir.resolve(broken + ".uff");
			write(f, p, ch, false, broken);
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> UffChannelData.read(f));
			final String expected = broken.equals("sequence") ? "/channel_data/sequence: expected 3 waves" : broken
				.equals("distance") ? "source/distance: expected Inf" : "/channel_data/" + broken;
			assertTrue(e.getMessage().contains(expected) && e.getMessage().contains(f.toString()), e.getMessage());
		}
		final Path notUff = dir.resolve("x.uff");
		try (WritableHdfFile h = HdfFile.write(notUff)) {
			h.putGroup("other");
		}
		assertTrue(assertThrows(InvalidInputException.class, () -> UffChannelData.read(notUff)).getMessage().contains(
			"missing UFF dataset or group /channel_data"));
	}

	/** Writes a UFF file; {@code broken} names a part to leave out or spoil (null: none). */
	public static void write(final Path f, final PlaneWave p, final float[][] ch, final boolean geometry,
		final String broken)
	{
		final int n = p.elements(), t = p.samples();
		final float[][][] data = new float[ch.length][n][t];
		for (int a = 0; a < ch.length; a++)
			for (int e = 0; e < n; e++)
				for (int k = 0; k < t; k++) data[a][e][k] = ch[a][k * n + e];
		try (WritableHdfFile h = HdfFile.write(f)) {
			final WritableGroup g = h.putGroup("channel_data");
			g.putAttribute("class", "uff.channel_data");
			g.putDataset("data", "data".equals(broken) ? new float[] { 1, 2 } : data);
			g.putDataset("sampling_frequency", new double[] { p.fs() });
			g.putDataset("initial_time", new double[] { p.t0() });
			if (!"sound_speed".equals(broken)) g.putDataset("sound_speed", new double[] { p.c() });
			g.putDataset("modulation_frequency", new double[] { "modulation_frequency".equals(broken) ? 5e6 : 0 });
			g.putGroup("pulse").putDataset("center_frequency", new double[] { p.f0() });
			final WritableGroup probe = g.putGroup("probe");
			probe.putAttribute("class", "uff.linear_array");
			if (geometry) {
				final double[][] geo = new double[n][7];
				for (int e = 0; e < n; e++) geo[e][0] = p.x(e);
				probe.putDataset("geometry", geo);
			}
			else probe.putDataset("pitch", new double[] { p.pitch() });
			final WritableGroup seq = g.putGroup("sequence");
			final int waves = "sequence".equals(broken) ? ch.length - 1 : ch.length;
			for (int a = 0; a < waves; a++) {
				final WritableGroup src = seq.putGroup(String.format("%08d", a + 1)).putGroup("source");
				src.putDataset("azimuth", new double[] { ANGLES[a] });
				src.putDataset("distance", new double[] { "distance".equals(broken) ? 0.05 : Double.POSITIVE_INFINITY });
			}
		}
	}
}
