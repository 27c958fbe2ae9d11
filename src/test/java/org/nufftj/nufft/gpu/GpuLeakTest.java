package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Trajectory;

/**
 * 1000 plan / setPoints / forward / adjoint (host arrays and device buffers) / close cycles (atomic, shared and
 * output-driven spreading in turn) on one backend leave the device's free memory unchanged (± 1 MiB).
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuLeakTest {

	@Test
	void thousandCyclesLeaveDeviceMemoryFlat() {
		GpuTests.assumeGpu();
		final Random r = new Random();
		final int[] size = { 32, 24 };
		final Trajectory t = new GoldenAngleRadial(48, 31).build(); // whole spokes: output-driven runs on them too
		final float[] x = Arrays2.gaussianFloat(r, 2 * 32 * 24 * 2), y = Arrays2.gaussianFloat(r, 2 * t.count() * 2);
		try (GpuBackend backend = GpuBackend.open(0)) {
			// warm-up, one cycle of each of the 6 configurations: cuFFT's first plans allocate lasting state, and so does
			// the driver's lazy loading of a kernel's code on its first launch (CUDA_MODULE_LOADING=LAZY, the default
			// since CUDA 12.2: the own FFT's kernels for each grid length, first launched in cycle 1 or later)
			for (int i = 0; i < 6; i++) cycle(backend, t, x, y, i);
			final long before = backend.gpu().memoryInfo()[0];
			for (int i = 0; i < 1000; i++) cycle(backend, t, x, y, i);
			final long after = backend.gpu().memoryInfo()[0];
			assertTrue(Math.abs(after - before) <= 1 << 20, "free device memory before " + before + " B, after 1000 " +
				"cycles " + after + " B");
		}
	}

	private static void cycle(final GpuBackend backend, final Trajectory t, final float[] x, final float[] y,
		final int i)
	{
		final NufftOptions o = NufftOptions.defaults().withTolerance(i % 2 == 0 ? 1e-3 : 1e-5)
			.withSpreadMethod(i % 3 == 0 ? SpreadMethod.ATOMIC : i % 3 == 1 ? SpreadMethod.SHARED :
				SpreadMethod.OUTPUT_DRIVEN);
		final NufftParameters p = ParameterChoice.choose(new int[] { 32, 24 }, o);
		try (GpuNufftPlan plan = new GpuNufftPlan(backend, p, o)) {
			plan.setPoints(t);
			plan.forward(x, new float[y.length]);
			plan.adjoint(y, new float[x.length]);
			try (Buffer bx = backend.wrap(x); Buffer by = backend.allocate(y.length, Precision.FLOAT)) {
				plan.forward(bx, by);
				plan.adjoint(by, bx);
				backend.synchronize();
			}
		}
	}
}
