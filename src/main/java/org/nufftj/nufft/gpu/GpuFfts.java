package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.checkFft;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.jcufft.JCufft;
import jcuda.jcufft.cufftHandle;
import jcuda.jcufft.cufftType;
import jcuda.runtime.cudaStream_t;

/**
 * cuFFT plans on one stream, made on first use per (size, batch, precision) and kept until {@link #close()}:
 * in-place C2C (float) or Z2Z (double) transforms of {@code batch} complex arrays of {@code size} (x fastest) held
 * back to back, unnormalised, no shift; sign −1 forward, +1 inverse (CUFFT_FORWARD, CUFFT_INVERSE). Use with the
 * device's context current.
 */
final class GpuFfts implements AutoCloseable {

	private final CUstream stream;
	private final Map<String, cufftHandle> plans = new HashMap<>();

	GpuFfts(final CUstream stream) {
		this.stream = stream;
	}

	/** Transforms {@code batch} arrays of {@code size} at {@code data} in place; queued on the stream. */
	void execute(final CUdeviceptr data, final int[] size, final int batch, final boolean dbl, final int sign) {
		final cufftHandle h = plan(size, batch, dbl);
		final int direction = sign < 0 ? JCufft.CUFFT_FORWARD : JCufft.CUFFT_INVERSE;
		final int r = dbl ? JCufft.cufftExecZ2Z(h, data, data, direction) : JCufft.cufftExecC2C(h, data, data,
			direction);
		checkFft(r, (dbl ? "cufftExecZ2Z" : "cufftExecC2C") + "(" + Arrays.toString(size) + " x " + batch + ", " +
			(sign < 0 ? "forward" : "inverse") + ")");
	}

	/** Frees every plan; idempotent. */
	@Override
	public void close() {
		for (final cufftHandle h : plans.values()) JCufft.cufftDestroy(h);
		plans.clear();
	}

	/** Frees the plans (their work areas) but keeps this object usable: they are remade on next use. */
	void clear() {
		close();
	}

	private cufftHandle plan(final int[] size, final int batch, final boolean dbl) {
		final String key = Arrays.toString(size) + "x" + batch + (dbl ? "d" : "f");
		cufftHandle h = plans.get(key);
		if (h != null) return h;
		h = new cufftHandle();
		final int dims = size.length;
		final int[] shape = new int[dims];
		long points = 1;
		for (int a = 0; a < dims; a++) {
			shape[a] = size[dims - 1 - a]; // slowest axis first: x is contiguous
			points *= size[a];
		}
		final String what = "cufftPlanMany(" + Arrays.toString(shape) + ", batch " + batch + ", " + (dbl ? "Z2Z" :
			"C2C") + ")";
		checkFft(JCufft.cufftPlanMany(h, dims, shape, null, 1, (int) points, null, 1, (int) points, dbl ?
			cufftType.CUFFT_Z2Z : cufftType.CUFFT_C2C, batch), what);
		final int r = JCufft.cufftSetStream(h, new cudaStream_t(stream));
		if (r != jcuda.jcufft.cufftResult.CUFFT_SUCCESS) JCufft.cufftDestroy(h);
		checkFft(r, "cufftSetStream");
		plans.put(key, h);
		return h;
	}
}
