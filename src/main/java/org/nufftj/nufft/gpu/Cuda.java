package org.nufftj.nufft.gpu;

import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import jcuda.jcufft.cufftResult;

/**
 * Result checks for the CUDA driver API and cuFFT: every call goes through one of these (public so that the GPU parts
 * of higher layers, e.g. org.nufftj.recon.gpu, check their calls the same way).
 */
public final class Cuda {

	private Cuda() {}

	/** Throws a {@link GpuException} naming {@code what} when a driver call did not return CUDA_SUCCESS. */
	public static void check(final int result, final String what) {
		if (result != CUresult.CUDA_SUCCESS) throw new GpuException(what + " failed: " + errorName(result), result);
	}

	/** Throws a {@link GpuException} naming {@code what} when a cuFFT call did not return CUFFT_SUCCESS. */
	static void checkFft(final int result, final String what) {
		if (result != cufftResult.CUFFT_SUCCESS) {
			throw new GpuException(what + " failed: " + cufftResult.stringFor(result) + " (" + result + ")");
		}
	}

	/** One line for a throwable: JCuda's linkage errors carry whole nested stack traces in their messages. */
	static String brief(final Throwable e) {
		String msg = String.valueOf(e.getMessage());
		final int nl = msg.indexOf('\n');
		if (nl >= 0) msg = msg.substring(0, nl);
		if (msg.length() > 240) msg = msg.substring(0, 240) + "...";
		return e.getClass().getSimpleName() + ": " + msg.trim();
	}

	static String errorName(final int result) {
		final String[] name = new String[1];
		try {
			if (JCudaDriver.cuGetErrorName(result, name) == CUresult.CUDA_SUCCESS && name[0] != null) {
				return name[0] + " (" + result + ")";
			}
		}
		catch (final RuntimeException | LinkageError e) { /* fall back to JCuda's table */ }
		return CUresult.stringFor(result) + " (" + result + ")";
	}
}
