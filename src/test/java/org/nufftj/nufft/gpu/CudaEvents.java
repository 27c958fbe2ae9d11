package org.nufftj.nufft.gpu;

import java.util.function.IntConsumer;

import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/** Device-time measurement for the GPU benchmarks: CUDA events around each call on one stream, median after warm-up. */
final class CudaEvents {

	private CudaEvents() {}

	/**
	 * Runs {@code call(i)} {@code warmups} times, waits for the stream, then times {@code reps} calls (i = 0 …) between
	 * two events recorded on {@code stream}; returns the median in ms.
	 */
	static double medianMs(final CUstream stream, final int warmups, final int reps, final IntConsumer call) {
		return medianMsQueued(stream, warmups, reps, () -> {}, call);
	}

	/**
	 * {@link #medianMs}, each timed call queued behind {@code busy} (work on the same stream that runs longer than the
	 * host takes to issue the call): the events then bracket the call's kernels back to back, without the host's launch
	 * calls in between — the device time of the call, as it runs inside a longer sequence (a NUFFT execute) where the
	 * host issues ahead of the device. A no-op {@code busy}: each call as the host issues it (launch calls included).
	 */
	static double medianMsQueued(final CUstream stream, final int warmups, final int reps, final Runnable busy,
		final IntConsumer call)
	{
		final CUevent start = new CUevent(), stop = new CUevent();
		Cuda.check(JCudaDriver.cuEventCreate(start, 0), "cuEventCreate");
		Cuda.check(JCudaDriver.cuEventCreate(stop, 0), "cuEventCreate");
		try {
			for (int i = 0; i < warmups; i++) call.accept(i);
			Cuda.check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize");
			final double[] ms = new double[reps];
			for (int i = 0; i < reps; i++) {
				busy.run();
				Cuda.check(JCudaDriver.cuEventRecord(start, stream), "cuEventRecord");
				call.accept(i);
				Cuda.check(JCudaDriver.cuEventRecord(stop, stream), "cuEventRecord");
				Cuda.check(JCudaDriver.cuEventSynchronize(stop), "cuEventSynchronize");
				final float[] e = new float[1];
				Cuda.check(JCudaDriver.cuEventElapsedTime(e, start, stop), "cuEventElapsedTime");
				ms[i] = e[0];
			}
			return GpuBenchmark.median(ms);
		}
		finally {
			JCudaDriver.cuEventDestroy(start);
			JCudaDriver.cuEventDestroy(stop);
		}
	}
}
