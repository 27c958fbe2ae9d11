package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * GPU against the CPU engine with identical σ, W and kernel (float): relative l2 difference ≤ 1e-5, forward and
 * adjoint, 2D and 3D, every trajectory type, batched and not, every spreading method; and the chunked path (batch
 * limited below T) against one chunk. Fresh random inputs each run.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuParityTest {

	private static GpuDevice device;

	@BeforeAll
	static void open() {
		GpuTests.assumeGpu();
		device = new GpuDevice(0);
	}

	@AfterAll
	static void close() {
		if (device != null) device.close();
	}

	/**
	 * Every trajectory × {atomic, shared}, at the default kernel (Kaiser–Bessel, piecewise polynomial on the GPU) and
	 * the exponential of semicircle; single and batched; plus the Gaussian.
	 */
	static Stream<Arguments> cases() {
		final List<Arguments> cases = new ArrayList<>();
		final int[][] sizes = { { 64, 48 }, { 24, 20, 16 } };
		for (final int[] size : sizes) {
			for (final String traj : TestTrajectories.names(size.length)) {
				for (final SpreadMethod m : new SpreadMethod[] { SpreadMethod.ATOMIC, SpreadMethod.SHARED }) {
					cases.add(Arguments.of(size, traj, m, 1, 1e-3, KernelType.AUTO));
					cases.add(Arguments.of(size, traj, m, 3, 1e-3, KernelType.EXP_SEMICIRCLE));
					cases.add(Arguments.of(size, traj, m, 2, 1e-6, KernelType.AUTO));
					cases.add(Arguments.of(size, traj, m, 2, 1e-5, KernelType.KAISER_BESSEL));
				}
			}
			cases.add(Arguments.of(size, "random", SpreadMethod.SHARED, 2, 1e-5, KernelType.GAUSSIAN));
			cases.add(Arguments.of(size, "random", SpreadMethod.ATOMIC, 2, 1e-4, KernelType.GAUSSIAN));
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "{0} {1} {2} T={3} eps={4} {5}")
	@MethodSource("cases")
	void gpuMatchesCpuEngine(final int[] size, final String trajectory, final SpreadMethod method, final int batch,
		final double eps, final KernelType kernel)
	{
		final long seed = System.nanoTime();
		final Random r = new Random(seed);
		final Trajectory t = TestTrajectories.make(trajectory, size, 4000, r);
		final int px = (int) Arrays2.pixels(size), m = t.count();
		final NufftOptions o = NufftOptions.defaults().withTolerance(eps).withKernel(kernel).withSpreadMethod(method);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final float[] x = Arrays2.gaussianFloat(r, 2 * px * batch), y = Arrays2.gaussianFloat(r, 2 * m * batch);
		final float[] gy = new float[2 * m * batch], gx = new float[2 * px * batch];
		final float[] cy = new float[2 * m * batch], cx = new float[2 * px * batch];
		try (GpuNufftPlan gpu = new GpuNufftPlan(device, false, p, o);
			NufftPlan cpu = Nufft.plan(size, o.withDevice(DeviceChoice.CPU)))
		{
			assertEquals(p.toString(), cpu.parameters().toString(), "same parameters on both engines");
			assertEquals(method, gpu.spreadMethod());
			gpu.setPoints(t);
			cpu.setPoints(t);
			java.util.Arrays.fill(gy, Float.NaN); // every output must be written
			java.util.Arrays.fill(gx, Float.NaN);
			gpu.forward(x, gy);
			gpu.adjoint(y, gx);
			cpu.forward(x, cy);
			cpu.adjoint(y, cx);
			final String what = p + " " + t + " seed " + seed;
			final double ef = Arrays2.relativeError(gy, Nudft.toDouble(cy));
			final double ea = Arrays2.relativeError(gx, Nudft.toDouble(cx));
			assertTrue(ef <= 1e-5, "forward GPU vs CPU " + ef + " > 1e-5: " + what);
			assertTrue(ea <= 1e-5, "adjoint GPU vs CPU " + ea + " > 1e-5: " + what);
		}
	}

	@Test
	void chunkedBatchEqualsOneChunk() {
		final Random r = new Random();
		final int[] size = { 40, 36, 12 };
		final int batch = 5;
		final Trajectory t = TestTrajectories.make("3d radial", size, 3000, r);
		final int px = (int) Arrays2.pixels(size), m = t.count();
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-4);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final float[] x = Arrays2.gaussianFloat(r, 2 * px * batch), y = Arrays2.gaussianFloat(r, 2 * m * batch);
		try (GpuNufftPlan whole = new GpuNufftPlan(device, false, p, o);
			GpuNufftPlan chunked = new GpuNufftPlan(device, false, p, o))
		{
			whole.setPoints(t);
			chunked.setPoints(t);
			chunked.limitBatch(2);
			final float[] y1 = new float[2 * m * batch], y2 = new float[2 * m * batch];
			final float[] x1 = new float[2 * px * batch], x2 = new float[2 * px * batch];
			whole.forward(x, y1);
			chunked.forward(x, y2);
			whole.adjoint(y, x1);
			chunked.adjoint(y, x2);
			assertTrue(Arrays2.relativeError(y2, Nudft.toDouble(y1)) <= 1e-6, "chunked forward");
			assertTrue(Arrays2.relativeError(x2, Nudft.toDouble(x1)) <= 1e-6, "chunked adjoint");
			assertTrue(chunked.predictDeviceBytes(2) < whole.predictDeviceBytes(5), "memory prediction grows with batch");
		}
	}
}
