package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nufftj.InvalidInputException;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * NUFFT-J's own GPU FFT (kernels/fft.cu): the transforms of {@link GpuFfts} without cuFFT — in place on {@code batch}
 * complex arrays of {@code size} (x fastest), unnormalised, sign −1 forward and +1 inverse — as Stockham autosort
 * passes of radix 8, 4, 2, 3, 5 and 7 along each axis in turn, ping-ponging between the data and one scratch array of
 * the same size (kept, grown as needed; the result is copied back when an odd number of passes ends in the scratch).
 * Lengths must factor into 2, 3, 5 and 7 (the grid sizes of {@link org.nufftj.nufft.ParameterChoice}); others are
 * refused naming the length. Asynchronous on the stream; use with the device's context current.
 */
final class GpuOwnFft implements AutoCloseable {

	static final String MODULE = "fft";
	/** Radices in the order the passes use them. */
	static final int[] RADICES = { 8, 4, 2, 3, 5, 7 };
	private static final int BLOCK = 256, MAX_BLOCKS = 8192;

	private final GpuDevice device;
	private final CUstream stream;
	private DeviceArray scratch;

	GpuOwnFft(final GpuDevice device, final CUstream stream) {
		this.device = device;
		this.stream = stream;
	}

	/** Transforms {@code batch} arrays of {@code size} at {@code data} in place; queued on the stream. */
	void execute(final CUdeviceptr data, final int[] size, final int batch, final boolean dbl, final int sign) {
		long pixels = 1;
		for (final int n : size) pixels *= n;
		final long bytes = pixels * batch * (dbl ? 16 : 8);
		final List<int[]> passes = new ArrayList<>(); // {axis, radix, ns}
		for (int a = 0; a < size.length; a++) {
			int ns = 1;
			for (final int r : factors(size[a])) {
				passes.add(new int[] { a, r, ns });
				ns *= r;
			}
		}
		if (passes.isEmpty()) return; // every axis of length 1
		if (scratch == null || scratch.bytes() < bytes) {
			if (scratch != null) {
				check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (growing FFT scratch)");
				scratch.close();
			}
			scratch = null;
			scratch = new DeviceArray(bytes, "own FFT scratch, " + Arrays.toString(size) + " x " + batch);
		}
		CUdeviceptr in = data, out = scratch.pointer();
		for (final int[] p : passes) {
			final int a = p[0], r = p[1], ns = p[2], n = size[a];
			long inner = 1, outer = batch;
			for (int b = 0; b < a; b++) inner *= size[b];
			for (int b = a + 1; b < size.length; b++) outer *= size[b];
			final long threads = outer * (n / r) * inner;
			final long blocks = Math.max(1, Math.min((threads + BLOCK - 1) / BLOCK, MAX_BLOCKS));
			// fft_pass_S_R(const C* in, C* out, long long outer, int n, long long inner, int ns, int sign)
			device.launch(MODULE, "fft_pass_" + (dbl ? "d" : "f") + "_" + r, blocks, 1, BLOCK, 0, stream, new KernelArgs()
				.pointer(in).pointer(out).i64(outer).i32(n).i64(inner).i32(ns).i32(sign).build(), Arrays.toString(size) +
					" x " + batch + ", axis " + a + ", radix " + r + ", span " + ns);
			final CUdeviceptr t = in;
			in = out;
			out = t;
		}
		if (in != data) {
			check(JCudaDriver.cuMemcpyDtoDAsync(data, in, bytes, stream), "cuMemcpyDtoDAsync(own FFT result, " + bytes +
				" B)");
		}
	}

	/** The radices of the passes for length n (8s first, then 4, 2, 3, 5, 7); refuses other prime factors. */
	static int[] factors(final int n) {
		InvalidInputException.require(n >= 1, "own GPU FFT: length " + n + ", expected >= 1");
		final List<Integer> out = new ArrayList<>();
		int rest = n;
		for (final int r : RADICES) {
			while (rest % r == 0) {
				out.add(r);
				rest /= r;
			}
		}
		InvalidInputException.require(rest == 1, "own GPU FFT: length " + n + " has a prime factor above 7 (" + rest +
			" is left after 2, 3, 5, 7); use cuFFT (NUFFTJ_FFT=cufft or -Dnufftj.fft=cufft) or a 2,3,5,7-smooth size");
		return out.stream().mapToInt(Integer::intValue).toArray();
	}

	/** Frees the scratch array (remade on next use). */
	@Override
	public void close() {
		if (scratch != null) {
			JCudaDriver.cuStreamSynchronize(stream);
			scratch.close();
			scratch = null;
		}
	}
}
