package org.nufftj.nufft;

import org.nufftj.nufft.cpu.CpuNufftPlan;

/**
 * Makes plans: the single entry point every caller (operators, recon, CLI, commands) uses, so that choosing a device
 * is an option, not a code path.
 */
public final class Nufft {

	private Nufft() {}

	/** A plan for images of the given size (2 or 3 axes) on the device the options name. */
	public static NufftPlan plan(final int[] imageSize, final NufftOptions options) {
		org.nufftj.InvalidInputException.require(imageSize.length == 2 || imageSize.length == 3,
			"image size: expected 2 or 3 axes, found " + imageSize.length);
		final NufftParameters p = ParameterChoice.choose(imageSize, options);
		// GPU backends hook in here (see org.nufftj.nufft.gpu); until then every device runs on the CPU.
		return new CpuNufftPlan(p, options);
	}
}
