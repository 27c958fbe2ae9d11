package org.nufftj.nufft.gpu;

import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;

/** Entry point the factory ({@code Nufft.plan}) uses: a GPU plan, or a {@link GpuException} saying why not. */
public final class GpuBackend {

	private GpuBackend() {}

	/**
	 * The {@link org.nufftj.nufft.Backend} of GPU {@code ordinal}. TRANSIENT: replaced by the GPU backend (branch gpu)
	 * before anything lands; until then it refuses with the reason.
	 */
	public static org.nufftj.nufft.Backend open(final int ordinal) {
		throw new GpuException("the GPU backend is not built yet (gpu " + ordinal + ")");
	}

	/**
	 * A GPU plan on the device the options name: borrowed from {@code devices} when not null, else opened for the plan
	 * alone (and closed with it). Throws {@link GpuException} (an IllegalStateException) with the reason when there is
	 * no driver, no such GPU, no cuFFT, or a module does not load; never a linkage error.
	 */
	public static NufftPlan plan(final NufftParameters p, final NufftOptions o, final GpuDevices devices) {
		try {
			if (devices == null) return GpuNufftPlan.create(p, o);
			return new GpuNufftPlan(devices.get(o.device().ordinal()), false, p, o);
		}
		catch (final LinkageError e) {
			throw new GpuException("GPU engine not usable: CUDA libraries did not load (" + Cuda.brief(e) + ")", e);
		}
	}
}
