package org.nufftj.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;
import org.nufftj.recon.ultrasound.EchoSimulator;
import org.nufftj.recon.ultrasound.PlaneWave;

/**
 * sample-data/ultrasound/plane_wave_points.uff is what {@link #sample} writes (48 elements at 0.2 mm, 20 MHz, 5 MHz
 * pulse, 3 plane waves at −0.1, 0, 0.08 rad, point scatterers at (0, 6), (−2, 10), (2.5, 14) and (0, 18) mm):
 * regenerated here and compared value by value. {@code -Dnufftj.writeSample=true} rewrites the file.
 */
class UltrasoundSampleDataTest {

	static final Path FILE = Paths.get("sample-data/ultrasound/plane_wave_points.uff");

	@Test
	void sampleIsReproducible(@org.junit.jupiter.api.io.TempDir final Path dir) {
		final Path out = Boolean.getBoolean("nufftj.writeSample") ? FILE : dir.resolve("s.uff");
		final PlaneWave p = new PlaneWave(48, 520, 0.2e-3, 20e6, 1540, 5e6, 0);
		final float[][] ch = sample(p);
		UffChannelDataTest.write(out, p, ch, false, null);
		final UffChannelData u = UffChannelData.read(FILE);
		assertEquals(48, u.elements);
		assertEquals(520, u.samples);
		assertArrayEquals(UffChannelDataTest.ANGLES, u.angles);
		for (int a = 0; a < ch.length; a++) assertArrayEquals(ch[a], u.channels[a], "wave " + a);
	}

	static float[][] sample(final PlaneWave p) {
		final double[][] pts = { { 0, 6e-3, 1 }, { -2e-3, 10e-3, 1 }, { 2.5e-3, 14e-3, 1 }, { 0, 18e-3, 1 } };
		final float[][] ch = new float[UffChannelDataTest.ANGLES.length][];
		for (int a = 0; a < ch.length; a++) ch[a] = EchoSimulator.echoes(p, UffChannelDataTest.ANGLES[a], pts, 0.6);
		return ch;
	}
}
