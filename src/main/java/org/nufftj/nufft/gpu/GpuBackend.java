package org.nufftj.nufft.gpu;

import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;

/** Entry point the factory ({@code Nufft.plan}) uses: a GPU plan, or a {@link GpuException} saying why not. */
public final class GpuBackend {

	private GpuBackend() {}

	/**
	 * A GPU plan on the device the options name. Throws {@link GpuException} (an IllegalStateException) with the
	 * reason when there is no driver, no such GPU, no cuFFT, or a module does not load; never a linkage error.
	 */
	public static NufftPlan plan(final NufftParameters p, final NufftOptions o) {
		try {
			return GpuNufftPlan.create(p, o);
		}
		catch (final LinkageError e) {
			throw new GpuException("GPU engine not usable: CUDA libraries did not load (" + Cuda.brief(e) + ")", e);
		}
	}
}
