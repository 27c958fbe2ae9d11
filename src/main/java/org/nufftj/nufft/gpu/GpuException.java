package org.nufftj.nufft.gpu;

import org.nufftj.nufft.DeviceException;

/**
 * A CUDA or cuFFT call failed, or no usable GPU exists; the message names the call or kernel and the sizes. Above the
 * engine it is a {@link DeviceException}.
 */
public final class GpuException extends DeviceException {

	private static final long serialVersionUID = 1L;

	public GpuException(final String message) {
		super(message);
	}

	public GpuException(final String message, final Throwable cause) {
		super(message, cause);
	}
}
