package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.ultrasound.EchoSimulator;
import org.nufftj.recon.ultrasound.FkMigration;
import org.nufftj.recon.ultrasound.PlaneWave;

/**
 * f-k migration with every step on the GPU ({@link FkMigration}: sparse-matrix products and batched FFTs) against the
 * same migration on the CPU backend: frames of simulated speckle plus fresh random noise, steered and not, with
 * lateral upsampling, several frames in one batch and more frames than a batch; float, ≤ 1e-5 relative.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuFkMigrationTest {

	private static GpuBackend gpu;
	private static Backend cpu;

	@BeforeAll
	static void open() {
		GpuTests.assumeGpu();
		gpu = GpuBackend.open(0);
		cpu = Backends.open(DeviceChoice.CPU, 0, null);
	}

	@AfterAll
	static void close() {
		if (gpu != null) gpu.close();
		if (cpu != null) cpu.close();
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0, 8, -15 })
	void gpuEqualsCpu(final double degrees) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final PlaneWave p = new PlaneWave(48, 700, 0.3e-3, 40e6, 1540, 5e6, 0.5e-6);
		final int up = degrees == 8 ? 2 : 1;
		final float[][] frames = new float[5][];
		for (int f = 0; f < frames.length; f++) {
			frames[f] = EchoSimulator.echoes(p, Math.toRadians(degrees), EchoSimulator.speckle(seed + f, -6e-3, 6e-3,
				2e-3, 12e-3, 100, null), 0.6);
			for (int i = 0; i < frames[f].length; i++) frames[f][i] += (float) (0.01 * r.nextGaussian());
		}
		try (FkMigration onGpu = new FkMigration(gpu, p, Math.toRadians(degrees), up);
			FkMigration onCpu = new FkMigration(cpu, p, Math.toRadians(degrees), up))
		{
			assertEquals(onCpu.batch(), onGpu.batch());
			final float[][] g = onGpu.analytic(frames), c = onCpu.analytic(frames);
			for (int f = 0; f < frames.length; f++) {
				double d = 0, s = 0;
				for (int i = 0; i < c[f].length; i++) {
					d += (g[f][i] - c[f][i]) * (double) (g[f][i] - c[f][i]);
					s += c[f][i] * (double) c[f][i];
				}
				final double e = Math.sqrt(d / s);
				assertTrue(s > 0 && e <= 1e-5, "f-k frame " + f + " at " + degrees + " deg, up " + up + ": GPU vs CPU " +
					"relative " + e + " (seed " + seed + ")");
			}
		}
	}
}
