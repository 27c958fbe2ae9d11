package org.nufftj.recon.gpu;

import java.util.Arrays;

import jcuda.Pointer;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.gpu.DeviceArray;
import org.nufftj.nufft.gpu.GpuDevice;
import org.nufftj.nufft.gpu.GpuNufftPlan;
import org.nufftj.recon.DensityCompensation;
import org.nufftj.trajectory.Trajectory;

/**
 * Pipe–Menon density compensation (Pipe &amp; Menon, MRM 41:179 (1999)) on a GPU: the iterations of
 * {@link DensityCompensation#pipeMenon(Trajectory, int[], int)} — start from w = 1, repeat w ← w / C Cᵀ w with Cᵀ the
 * spreading onto the oversampled grid and C the interpolation back — with the same gridding
 * ({@link DensityCompensation#pipeMenonParameters}: exponential of semicircle, W = 4, σ = 2), run by a float
 * {@link GpuNufftPlan} through its stage API ({@link GpuNufftPlan#spreadDevice}, {@link GpuNufftPlan#interpolateDevice})
 * and the elementwise kernels of kernels/recon.cu. The weights stay on the device (complex, im = 0, for the plan's
 * complex spreader) from the first iteration to the DCF multiply; the host gets one copy (M floats) for the
 * normalisation ({@link DensityCompensation#normalisation}) and the result.
 * <p>
 * Precision: the device iterates in float (kernel values from float offsets, float sums, atomics in any order), the
 * host in double; GpuPipeMenonTest bounds the difference of the weights ({@code GpuPipeMenonTest.BOUND}).
 * </p>
 * <p>
 * Memory: a plan of its own (points, no batch buffers, no cuFFT plan), one complex grid, two complex and one real
 * array of M; all freed before {@link #weights} returns, except the weights themselves.
 * </p>
 */
public final class GpuPipeMenon {

	/** Device memory left free beside the buffers (cuFFT plans, other users). */
	static final long RESERVE_BYTES = 256L << 20;

	private GpuPipeMenon() {}

	// -- public API --

	/**
	 * Normalised Pipe–Menon weights of {@code t} for images of {@code size} on the device of {@code plan}, resident
	 * there and copied to the host; null when the host must compute them ({@code plan} is not a float
	 * {@link GpuNufftPlan}, or the buffers do not fit the free device memory). The weights' plan spreads by
	 * {@code plan}'s method for these points. The caller closes the result.
	 */
	public static GpuWeights weights(final NufftPlan plan, final Trajectory t, final int[] size, final int iterations) {
		if (!(plan instanceof GpuNufftPlan)) return null;
		final GpuNufftPlan g = (GpuNufftPlan) plan;
		if (g.parameters().precision() != Precision.FLOAT) return null;
		final GpuDevice device = g.device();
		if (deviceBytes(t, size) + RESERVE_BYTES > device.memoryInfo()[0]) return null;
		return compute(device, g.spreadMethod(), t, size, iterations, true);
	}

	/**
	 * The weights of {@link DensityCompensation#pipeMenon(Trajectory, int[], int)} (not normalised) computed on
	 * {@code device}, spreading by {@code method}; on the host when this returns.
	 */
	public static float[] rawWeights(final GpuDevice device, final SpreadMethod method, final Trajectory t,
		final int[] size, final int iterations)
	{
		try (GpuWeights w = compute(device, method, t, size, iterations, false)) {
			return w.host();
		}
	}

	// -- helpers --

	/**
	 * The iterations on the device; the weights are then copied to the host and, when {@code normalise}, scaled on
	 * both by the host's normalisation factor (the same float product on both: bit-identical copies).
	 */
	private static GpuWeights compute(final GpuDevice device, final SpreadMethod method, final Trajectory t,
		final int[] size, final int iterations, final boolean normalise)
	{
		InvalidInputException.require(iterations >= 1, "Pipe-Menon: iterations must be >= 1, found " + iterations);
		InvalidInputException.require(size.length == t.dimensions(), "Pipe-Menon: trajectory is " + t.dimensions() +
			"D but the image size " + Arrays.toString(size) + " has " + size.length + " axes");
		final NufftParameters p = DensityCompensation.pipeMenonParameters(size, Precision.FLOAT);
		final NufftOptions o = NufftOptions.defaults().withSpreadMethod(method);
		final int m = t.count();
		try (GpuNufftPlan plan = new GpuNufftPlan(device, false, p, o)) {
			plan.setPoints(t);
			final DeviceArray real = new DeviceArray(4L * m, "Pipe-Menon weights, " + m + " samples");
			boolean ok = false;
			try (DeviceArray w = new DeviceArray(8L * m, "Pipe-Menon weights (complex), " + m + " samples");
				DeviceArray c = new DeviceArray(8L * m, "Pipe-Menon C C^T w, " + m + " samples");
				DeviceArray grid = new DeviceArray(8L * p.gridPoints(), "Pipe-Menon grid " +
					Arrays.toString(p.gridSize())))
			{
				final ReconKernels k = new ReconKernels(device, plan.stream());
				k.pipeMenonInit(w.pointer(), m);
				for (int it = 0; it < iterations; it++) {
					plan.spreadDevice(w.pointer(), grid.pointer(), 1);
					plan.interpolateDevice(grid.pointer(), c.pointer(), 1);
					k.pipeMenonUpdate(w.pointer(), c.pointer(), real.pointer(), m);
				}
				plan.synchronize();
				final float[] host = new float[m];
				real.download(Pointer.to(host), 4L * m, "Pipe-Menon weights, " + m + " samples");
				if (normalise) {
					final float f = DensityCompensation.normalisation(host, t, size);
					for (int i = 0; i < m; i++) host[i] *= f;
					k.scale(real.pointer(), f, m);
					plan.synchronize();
				}
				ok = true;
				return new GpuWeights(device, real, host);
			}
			finally {
				if (!ok) real.close();
			}
		}
	}

	/** Device bytes of {@link #compute}: grid, weights and update buffers, and the plan's points (≈ M·(4 + 8d)). */
	static long deviceBytes(final Trajectory t, final int[] size) {
		final long m = t.count();
		final long grid = DensityCompensation.pipeMenonParameters(size, Precision.FLOAT).gridPoints();
		return 8 * grid + 20 * m + (4 + 8L * t.dimensions()) * m;
	}
}
