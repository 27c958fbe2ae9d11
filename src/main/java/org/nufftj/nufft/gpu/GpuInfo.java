package org.nufftj.nufft.gpu;

import jcuda.driver.JCudaDriver;

/**
 * What the GPU engine finds on this machine, for {@code nufft-j info}: driver, devices (name, compute capability,
 * memory), cuFFT (version, native or shim) and whether the kernel modules load; or why there is no usable GPU.
 * Never throws: a machine without a driver or without a GPU gets a reason.
 */
public final class GpuInfo {

	private GpuInfo() {}

	/** A multi-line description (no trailing newline). */
	public static String describe() {
		final StringBuilder b = new StringBuilder("GPU engine (JCuda 11.8.0 driver API, kernels from kernels/*.cu)\n");
		final int count;
		try {
			count = deviceCount();
			final int[] v = new int[1];
			Cuda.check(JCudaDriver.cuDriverGetVersion(v), "cuDriverGetVersion");
			b.append("  driver: CUDA ").append(v[0] / 1000).append('.').append(v[0] % 1000 / 10).append(", ")
				.append(count).append(" device(s)\n");
		}
		catch (final GpuException e) {
			return b.append("  unavailable: ").append(e.getMessage()).toString();
		}
		b.append("  cuFFT: ").append(CufftLoader.status()).append('\n');
		b.append("  FFT engine: ").append(GpuFfts.engine()).append('\n');
		for (int i = 0; i < count; i++) {
			try (GpuDevice d = new GpuDevice(i)) {
				d.load(GpuDevice.MODULES);
				final long[] mem = d.memoryInfo();
				b.append("  gpu ").append(i).append(": ").append(d.name()).append(", CC ").append(d.computeCapability())
					.append(", ").append(d.multiprocessors()).append(" SMs, ").append(mem[1] >> 20).append(" MiB (")
					.append(mem[0] >> 20).append(" MiB free), shared memory per block ").append(d.sharedMemoryOptin() >> 10)
					.append(" KiB; kernel modules ").append(String.join(", ", GpuDevice.MODULES)).append(" loaded\n");
			}
			catch (final GpuException e) {
				b.append("  gpu ").append(i).append(": not usable: ").append(e.getMessage()).append('\n');
			}
		}
		return b.toString().stripTrailing();
	}

	/**
	 * Why GPU {@code ordinal} cannot run NUFFT plans, or null when it can (driver, device, cuFFT and modules all
	 * work). Opens and closes the device.
	 */
	public static String unusableReason(final int ordinal) {
		try {
			try (GpuDevice d = new GpuDevice(ordinal)) {
				d.load(GpuDevice.MODULES); // plans load them as needed; here every one must load
				final CufftLoader.Status fft = CufftLoader.status();
				return fft.usable || GpuFfts.useOwn() ? null : "no usable cuFFT: " + fft.description;
			}
		}
		catch (final GpuException e) {
			return e.getMessage();
		}
		catch (final LinkageError e) {
			return "CUDA libraries not loadable: " + Cuda.brief(e);
		}
	}

	/** Number of CUDA devices; throws {@link GpuException} with the reason when there is no usable driver. */
	/** Number of CUDA devices the driver reports; 0 when there is no usable driver (never throws). */
	public static int usableCount() {
		try {
			return deviceCount();
		}
		catch (final GpuException | LinkageError e) {
			return 0;
		}
	}

	static int deviceCount() {
		try {
			JCudaDriver.setExceptionsEnabled(false);
			Cuda.check(JCudaDriver.cuInit(0), "cuInit (is an NVIDIA driver installed?)");
			final int[] c = new int[1];
			Cuda.check(JCudaDriver.cuDeviceGetCount(c), "cuDeviceGetCount");
			return c[0];
		}
		catch (final LinkageError e) {
			throw new GpuException("no CUDA driver: JCuda's driver library did not load (" + Cuda.brief(e) + ")", e);
		}
	}
}
