package org.nufftj.nufft;

/**
 * A device failed, or none is usable (no driver, no such device, out of device memory, a failed launch), as opposed
 * to bad input ({@link org.nufftj.InvalidInputException}); the message names the call and the sizes. Front ends
 * catch this type and never a backend's own subclass.
 */
public class DeviceException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	public DeviceException(final String message) {
		super(message);
	}

	public DeviceException(final String message, final Throwable cause) {
		super(message, cause);
	}
}
