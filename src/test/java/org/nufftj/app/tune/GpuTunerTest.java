package org.nufftj.app.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.TuneMode;
import org.nufftj.nufft.gpu.GpuBackend;
import org.nufftj.nufft.gpu.GpuTests;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Trajectory;

/**
 * The tuner suite on GPU 0 (spreading methods and bins among the candidates), and 1000 tune / plan / setPoints /
 * forward / adjoint / close cycles on one backend — two keys, each tuned on its first cycle and answered by the wisdom
 * after — that leave the device's free memory unchanged (± 1 MiB, as GpuLeakTest). Skipped without a usable GPU.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuTunerTest extends AbstractTunerTest {

	@Override
	protected Backend open() {
		GpuTests.assumeGpu();
		return GpuBackend.open(0);
	}

	@Test
	void thousandTuneCyclesLeaveDeviceMemoryFlat(@TempDir final Path dir) {
		GpuTests.assumeGpu();
		final Random r = new Random();
		final int[] size = { 32, 24 };
		final Trajectory t = new GoldenAngleRadial(48, 31).build(); // radial lines: output-driven is a candidate
		final float[] x = Arrays2.gaussianFloat(r, 2 * 32 * 24 * 2), y = Arrays2.gaussianFloat(r, 2 * t.count() * 2);
		final Tuner tuner = new Tuner(new Wisdom(dir.resolve("wisdom.json"), null), null);
		try (GpuBackend backend = GpuBackend.open(0)) {
			// Warm-up: the first cycle of each key tunes (cuFFT keeps lasting state for each grid size it planned).
			cycle(backend, tuner, t, x, y, 0);
			cycle(backend, tuner, t, x, y, 1);
			assertEquals(2, tuner.wisdom().entries().size(), "both keys tuned and recorded");
			final long before = backend.gpu().memoryInfo()[0];
			for (int i = 0; i < 1000; i++) cycle(backend, tuner, t, x, y, i);
			final long after = backend.gpu().memoryInfo()[0];
			assertTrue(Math.abs(after - before) <= 1 << 20, "free device memory before " + before + " B, after 1000 " +
				"cycles " + after + " B");
			assertEquals(2, tuner.wisdom().entries().size(), "no other key appeared");
		}
	}

	private static void cycle(final GpuBackend backend, final Tuner tuner, final Trajectory t, final float[] x,
		final float[] y, final int i)
	{
		final int[] size = { 32, 24 };
		final NufftOptions asked = NufftOptions.defaults().withTolerance(i % 2 == 0 ? 1e-3 : 1e-5)
			.withTuning(TuneMode.QUICK, 5);
		final NufftOptions o = tuner.resolve(backend, t, size, 2, asked, TuneDirection.BOTH);
		try (NufftPlan plan = backend.plan(size, o)) {
			plan.setPoints(t);
			plan.forward(x, new float[y.length]);
			plan.adjoint(y, new float[x.length]);
		}
	}
}
