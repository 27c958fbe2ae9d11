package org.nufftj.nufft;

import java.util.concurrent.atomic.AtomicBoolean;

import org.nufftj.nufft.cpu.CpuNufftPlan;
import org.nufftj.nufft.gpu.GpuBackend;
import org.nufftj.nufft.gpu.GpuException;

/**
 * Makes plans: the single entry point every caller (operators, recon, CLI, commands) uses, so that choosing a device
 * is an option, not a code path.
 */
public final class Nufft {

	/** The "no GPU, running on the CPU" notice of {@code --device auto} is printed once per process. */
	private static final AtomicBoolean CPU_NOTICE = new AtomicBoolean();

	private Nufft() {}

	/** A plan for images of the given size (2 or 3 axes) on the device the options name. */
	public static NufftPlan plan(final int[] imageSize, final NufftOptions options) {
		org.nufftj.InvalidInputException.require(imageSize.length == 2 || imageSize.length == 3,
			"image size: expected 2 or 3 axes, found " + imageSize.length);
		final NufftParameters p = ParameterChoice.choose(imageSize, options);
		// -- GPU backend selection (owned by the GPU engine, org.nufftj.nufft.gpu) --
		switch (options.device().kind()) {
			case GPU:
				return GpuBackend.plan(p, options); // GpuException (IllegalStateException) names the reason
			case AUTO:
				try {
					return GpuBackend.plan(p, options);
				}
				catch (final GpuException e) {
					if (CPU_NOTICE.compareAndSet(false, true)) {
						System.err.println("NUFFT-J: no usable GPU (" + e.getMessage() + "); running on the CPU");
					}
					// Parameters were weighed for the GPU; choose again for the CPU engine.
					final NufftOptions cpu = options.withDevice(DeviceChoice.CPU);
					return new CpuNufftPlan(ParameterChoice.choose(imageSize, cpu), cpu);
				}
			default:
				return new CpuNufftPlan(p, options);
		}
	}
}
