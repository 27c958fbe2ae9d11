package org.nufftj.recon.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.Arrays;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

import org.nufftj.nufft.gpu.GpuDevice;

/**
 * Launches of the kernels of kernels/recon.cu (float, complex interleaved) on one device and stream. Every argument
 * list below is written next to the kernel's signature: JCuda passes each parameter by address, so a Java type that
 * differs from the CUDA one (int vs long, float vs double, pointer vs value) would silently corrupt the call.
 * All launches are asynchronous on the stream and checked ({@link GpuDevice#launch}).
 */
final class ReconKernels {

	/** Threads per block of the one-thread-per-element kernels and of the register Walsh kernels. */
	static final int BLOCK = 256;
	/** Most coils the register Walsh kernels take (one lane per coil, groups of ≤ 32 lanes). */
	static final int WALSH_REGISTER_COILS = 32;
	/** Most coils the shared-memory Walsh kernel takes (WALSH_MAX_COILS in recon.cu: 4 rows per lane). */
	static final int WALSH_MAX_COILS = 128;
	/** Blocks per coil of the energy reduction (grid-stride beyond): enough to fill the device, few atomics. */
	static final int ENERGY_BLOCKS = 128;
	/** Grid y limit of the per-coil kernels (dcf_weight_f, coil_energy_f: blockIdx.y = coil). */
	static final int MAX_COILS = 65535;

	private final GpuDevice device;
	private final CUstream stream;

	ReconKernels(final GpuDevice device, final CUstream stream) {
		this.device = device;
		this.stream = stream;
	}

	// -- launches --

	/** w[i] = (1, 0) for i < m: complex Pipe–Menon weights, the iteration's start. */
	void pipeMenonInit(final CUdeviceptr w, final int m) {
		// dcf_pipe_menon_init_f(float2* w, int m)
		final Pointer args = Pointer.to(Pointer.to(w), ints(m));
		device.launch("dcf_pipe_menon_init_f", blocks(m), 1, BLOCK, 0, stream, args, m + " samples");
	}

	/** w[i] ← c[i] > 0 ? w[i] / c[i] : 0 (real parts; imaginary parts 0) and real[i] = the new w[i], for i < m. */
	void pipeMenonUpdate(final CUdeviceptr w, final CUdeviceptr c, final CUdeviceptr real, final int m) {
		// dcf_pipe_menon_update_f(float2* w, const float2* c, float* real, int m)
		final Pointer args = Pointer.to(Pointer.to(w), Pointer.to(c), Pointer.to(real), ints(m));
		device.launch("dcf_pipe_menon_update_f", blocks(m), 1, BLOCK, 0, stream, args, m + " samples");
	}

	/** w[i] *= s for i < m (float weights). */
	void scale(final CUdeviceptr w, final float s, final int m) {
		// dcf_scale_f(float* w, float s, int m)
		final Pointer args = Pointer.to(Pointer.to(w), Pointer.to(new float[] { s }), ints(m));
		device.launch("dcf_scale_f", blocks(m), 1, BLOCK, 0, stream, args, m + " weights x " + s);
	}

	/** samples[c·m + i] *= w[i] for c < coils, i < m. */
	void dcfWeight(final CUdeviceptr samples, final CUdeviceptr w, final int m, final int coils) {
		// dcf_weight_f(float2* samples, const float* w, int m)
		final Pointer args = Pointer.to(Pointer.to(samples), Pointer.to(w), ints(m));
		device.launch("dcf_weight_f", blocks(m), coils, BLOCK, 0, stream, args, m + " samples x " + coils + " coils");
	}

	/** out[p] = (√Σ_c |x_c[p]|², 0) for p < pixels; images [coil][pixel]. */
	void sumOfSquares(final CUdeviceptr images, final CUdeviceptr out, final int pixels, final int coils) {
		// sum_of_squares_f(const float2* images, float2* out, int pixels, int coils)
		final Pointer args = Pointer.to(Pointer.to(images), Pointer.to(out), ints(pixels), ints(coils));
		device.launch("sum_of_squares_f", blocks(pixels), 1, BLOCK, 0, stream, args, pixels + " pixels x " + coils +
			" coils");
	}

	/** energy[c] = Σ_p |x_c[p]|² (double[coils] on the device; zeroed here first). */
	void coilEnergy(final CUdeviceptr images, final CUdeviceptr energy, final int pixels, final int coils) {
		check(JCudaDriver.cuMemsetD32Async(energy, 0, 2L * coils, stream), "cuMemsetD32Async(coil energies, " + coils +
			" doubles)");
		// coil_energy_f(const float2* images, double* energy, int pixels)
		final Pointer args = Pointer.to(Pointer.to(images), Pointer.to(energy), ints(pixels));
		device.launch("coil_energy_f", Math.min(blocks(pixels), ENERGY_BLOCKS), coils, BLOCK, 0, stream, args, pixels +
			" pixels x " + coils + " coils");
	}

	/**
	 * Walsh combination of images [coil][pixel] of {@code size} (2 or 3 axes; 3D slice by slice) into out [pixel]:
	 * window (2·half + 1)² clipped at the border, {@code iterations} power iterations, phase reference the coil of
	 * largest {@code energy} ({@link #coilEnergy}). Needs {@link #walshUnsupported} == null.
	 */
	void walsh(final CUdeviceptr images, final CUdeviceptr energy, final CUdeviceptr out, final int[] size,
		final int coils, final int half, final int iterations)
	{
		final int nx = size[0], ny = size[1], nz = size.length > 2 ? size[2] : 1;
		final long pixels = (long) nx * ny * nz;
		// walsh_combine_f_gG / walsh_combine_shared_f(const float2* images, float2* out, const double* energy,
		//   int nx, int ny, int nz, int coils, int half, int iterations)
		final Pointer args = Pointer.to(Pointer.to(images), Pointer.to(out), Pointer.to(energy), ints(nx), ints(ny),
			ints(nz), ints(coils), ints(half), ints(iterations));
		final String sizes = Arrays.toString(size) + " x " + coils + " coils, window " + (2 * half + 1);
		final int g = groupSize(coils);
		if (g > 0) {
			final long perBlock = BLOCK / g;
			device.launch("walsh_combine_f_g" + g, (pixels + perBlock - 1) / perBlock, 1, BLOCK, 0, stream, args, sizes);
		}
		else {
			final int shared = walshSharedBytes(coils);
			device.launch("walsh_combine_shared_f", pixels, 1, 32, shared, stream, args, sizes + ", " + shared +
				" B shared");
		}
	}

	// -- sizes and limits (host logic, no GPU) --

	/** Lanes per pixel of the register Walsh kernel (4, 8, 16 or 32 ≥ coils), or 0 above 32 coils (shared kernel). */
	static int groupSize(final int coils) {
		if (coils > WALSH_REGISTER_COILS) return 0;
		int g = 4;
		while (g < coils) g *= 2;
		return g;
	}

	/** Dynamic shared memory of walsh_combine_shared_f: R (coils × (coils + 1)), coil vector and u, float2 each. */
	static int walshSharedBytes(final int coils) {
		return 8 * (coils * (coils + 1) + 2 * coils);
	}

	/** Why the device cannot run Walsh for {@code coils} coils, or null when it can. */
	static String walshUnsupported(final int coils, final int sharedOptin) {
		if (coils > WALSH_MAX_COILS) {
			return "Walsh combination on the GPU takes at most " + WALSH_MAX_COILS + " coils, found " + coils;
		}
		if (groupSize(coils) == 0 && walshSharedBytes(coils) > sharedOptin) {
			return "Walsh combination of " + coils + " coils needs " + walshSharedBytes(coils) + " B of shared memory " +
				"per block, the device allows " + sharedOptin;
		}
		return null;
	}

	// -- helpers --

	private static long blocks(final long threads) {
		return (threads + BLOCK - 1) / BLOCK;
	}

	private static Pointer ints(final int v) {
		return Pointer.to(new int[] { v });
	}
}
