package org.nufftj.nufft.gpu;

import org.nufftj.nufft.DeviceException;

/**
 * A CUDA or cuFFT call failed, or no usable GPU exists; the message names the call or kernel and the sizes. Above the
 * engine it is a {@link DeviceException}.
 */
public final class GpuException extends DeviceException {

	private static final long serialVersionUID = 1L;

	/** The driver's CUresult where a driver call failed ({@link Cuda#check}), else {@link #NO_RESULT}. */
	private final int result;

	/** {@link #result} of an exception that no driver call returned. */
	static final int NO_RESULT = -1;

	public GpuException(final String message) {
		this(message, NO_RESULT);
	}

	public GpuException(final String message, final Throwable cause) {
		super(message, cause);
		result = NO_RESULT;
	}

	GpuException(final String message, final int result) {
		super(message);
		this.result = result;
	}

	/** Whether a driver call failed for want of device memory (CUDA_ERROR_OUT_OF_MEMORY). */
	public boolean outOfMemory() {
		return result == jcuda.driver.CUresult.CUDA_ERROR_OUT_OF_MEMORY;
	}
}
