package org.nufftj.nufft;

import java.util.concurrent.atomic.AtomicBoolean;

import org.nufftj.nufft.cpu.CpuNufftPlan;
import org.nufftj.nufft.gpu.GpuBackend;
import org.nufftj.nufft.gpu.GpuDevices;
import org.nufftj.nufft.gpu.GpuException;

/**
 * Makes plans: the single entry point every caller (operators, recon, CLI, commands) uses, so that choosing a device
 * is an option, not a code path.
 */
public final class Nufft {

	/** The "no GPU, running on the CPU" notice of {@code --device auto} is printed once per process. */
	private static final AtomicBoolean CPU_NOTICE = new AtomicBoolean();

	private Nufft() {}

	/**
	 * A plan for images of the given size (2 or 3 axes) on the device the options name; a GPU plan opens its own
	 * device and closes it with the plan.
	 */
	public static NufftPlan plan(final int[] imageSize, final NufftOptions options) {
		return plan(imageSize, options, null);
	}

	/**
	 * As {@link #plan(int[], NufftOptions)}, but a GPU plan borrows its device from {@code devices} (opened there on
	 * first use and kept open by it, so that many plans pay the device's set-up once); null: the plan opens and closes
	 * its own. {@code devices} must stay open until the plan is closed. CPU plans ignore it.
	 */
	public static NufftPlan plan(final int[] imageSize, final NufftOptions options, final GpuDevices devices) {
		org.nufftj.InvalidInputException.require(imageSize.length == 2 || imageSize.length == 3,
			"image size: expected 2 or 3 axes, found " + imageSize.length);
		final NufftParameters p = ParameterChoice.choose(imageSize, options);
		// -- GPU backend selection (owned by the GPU engine, org.nufftj.nufft.gpu) --
		switch (options.device().kind()) {
			case GPU:
				return GpuBackend.plan(p, options, devices); // GpuException (IllegalStateException) names the reason
			case AUTO:
				try {
					return GpuBackend.plan(p, options, devices);
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
