package org.nufftj.nufft.gpu;

import java.util.ArrayList;
import java.util.List;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * The kernel-parameter list of one launch, built in the order of the CUDA signature. JCuda passes each parameter by
 * address and the driver copies as many bytes as the CUDA type has, so every method names the C type it stands for: a
 * Java int where CUDA has {@code long long} (or a float where it has double) would silently corrupt the call.
 */
final class KernelArgs {

	private final List<Pointer> args = new ArrayList<>();

	/** A device pointer ({@code T*}). */
	KernelArgs pointer(final CUdeviceptr p) {
		args.add(Pointer.to(p));
		return this;
	}

	/** {@code int}. */
	KernelArgs i32(final int v) {
		args.add(Pointer.to(new int[] { v }));
		return this;
	}

	/** {@code long long}. */
	KernelArgs i64(final long v) {
		args.add(Pointer.to(new long[] { v }));
		return this;
	}

	/** {@code T} of a kernel instantiated for float ({@code dbl} false) or double. */
	KernelArgs real(final boolean dbl, final double v) {
		args.add(dbl ? Pointer.to(new double[] { v }) : Pointer.to(new float[] { (float) v }));
		return this;
	}

	/** A struct passed by value: its bytes, laid out as the C struct (e.g. {@link GpuKernelSpec}, {@link PointArgs}). */
	KernelArgs struct(final byte[] bytes) {
		args.add(Pointer.to(bytes));
		return this;
	}

	/** The kernel-parameter pointer cuLaunchKernel takes. */
	Pointer build() {
		return Pointer.to(args.toArray(new Pointer[0]));
	}
}
