package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.Arrays;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * Launches of the kernels of kernels/vector.cu on one device and stream, float or double ({@code dbl}) by entry-point
 * suffix. Each launch's argument list is written next to the kernel's signature (see {@link KernelArgs} for why the
 * types must match). Counts are {@code long long}: complex elements for complex kernels, values for real ones.
 * Element-wise kernels walk their range with grid-stride loops, so grids are capped ({@link #MAX_BLOCKS}).
 * All launches are asynchronous on the stream and checked ({@link GpuDevice#launch}).
 */
final class GpuVectorKernels {

	static final String MODULE = "vector";
	/** Threads per block of the element-wise and reduction kernels and of the register Walsh kernels. */
	static final int BLOCK = 256;
	/** Most blocks of a grid-stride launch (about 8 resident blocks per SM on 132 SMs, several waves). */
	static final int MAX_BLOCKS = 4096;
	/** Most blocks of a reduction (each adds its partial sum with one double atomic). */
	static final int REDUCTION_BLOCKS = 1024;
	/** Most coils the register Walsh kernels take (one lane per coil, groups of ≤ 32 lanes). */
	static final int WALSH_REGISTER_COILS = 32;
	/** Most coils the shared-memory Walsh kernel takes (WALSH_MAX_COILS in vector.cu: 4 rows per lane). */
	static final int WALSH_MAX_COILS = 128;
	/** Grid y limit of the per-coil kernels (vec_coil_energy_*: blockIdx.y = coil). */
	static final int MAX_GRID_Y = 65535;

	private final GpuDevice device;
	private final CUstream stream;

	GpuVectorKernels(final GpuDevice device, final CUstream stream) {
		this.device = device;
		this.stream = stream;
	}

	// -- element-wise --

	/** x[i] = (re, im) for n complex elements. */
	void fill(final boolean dbl, final CUdeviceptr x, final long n, final double re, final double im) {
		// vec_fill_S(C* x, long long n, T re, T im)
		launch("vec_fill", dbl, n, new KernelArgs().pointer(x).i64(n).real(dbl, re).real(dbl, im), n + " complex");
	}

	/** x[i] *= a for n values. */
	void scale(final boolean dbl, final CUdeviceptr x, final long n, final double a) {
		// vec_scale_S(T* x, long long n, T a)
		launch("vec_scale", dbl, n, new KernelArgs().pointer(x).i64(n).real(dbl, a), n + " values");
	}

	/** y = a·x + b·y for n values. */
	void axpby(final boolean dbl, final long n, final double a, final CUdeviceptr x, final double b,
		final CUdeviceptr y)
	{
		// vec_axpby_S(long long n, T a, const T* x, T b, T* y)
		launch("vec_axpby", dbl, n, new KernelArgs().i64(n).real(dbl, a).pointer(x).real(dbl, b).pointer(y), n +
			" values");
	}

	/** out[i] = a[i]·b[i mod nb] (conj(b) when {@code conjugate}) for n complex elements. */
	void multiply(final boolean dbl, final CUdeviceptr a, final CUdeviceptr b, final CUdeviceptr out, final long n,
		final long nb, final boolean conjugate)
	{
		// vec_multiply_S(const C* a, const C* b, C* out, long long n, long long nb, int conjugate)
		launch("vec_multiply", dbl, n, new KernelArgs().pointer(a).pointer(b).pointer(out).i64(n).i64(nb)
			.i32(conjugate ? 1 : 0), n + " complex, b of " + nb);
	}

	/** out[i] = a[i] / b[i mod nb], 0 where b is 0, for n complex elements. */
	void divide(final boolean dbl, final CUdeviceptr a, final CUdeviceptr b, final CUdeviceptr out, final long n,
		final long nb)
	{
		// vec_divide_S(const C* a, const C* b, C* out, long long n, long long nb)
		launch("vec_divide", dbl, n, new KernelArgs().pointer(a).pointer(b).pointer(out).i64(n).i64(nb), n +
			" complex, b of " + nb);
	}

	/** out[i] = a[i]·w[i mod nw] (w real) for n complex elements. */
	void multiplyReal(final boolean dbl, final CUdeviceptr a, final CUdeviceptr w, final CUdeviceptr out, final long n,
		final long nw)
	{
		// vec_multiply_real_S(const C* a, const T* w, C* out, long long n, long long nw)
		launch("vec_multiply_real", dbl, n, new KernelArgs().pointer(a).pointer(w).pointer(out).i64(n).i64(nw), n +
			" complex, w of " + nw);
	}

	/** out[i] = x[i]·max(0, 1 − tau/|x[i]|) for n complex elements. */
	void softThreshold(final boolean dbl, final CUdeviceptr x, final CUdeviceptr out, final long n, final double tau) {
		// vec_soft_threshold_S(const C* x, C* out, long long n, T tau)
		launch("vec_soft_threshold", dbl, n, new KernelArgs().pointer(x).pointer(out).i64(n).real(dbl, tau), n +
			" complex, tau " + tau);
	}

	/** out[i] = Σ_b x[b·n + i] for n values and {@code batch} parts. */
	void sumBatch(final boolean dbl, final CUdeviceptr x, final CUdeviceptr out, final long n, final int batch) {
		// vec_sum_batch_S(const T* x, T* out, long long n, int batch)
		launch("vec_sum_batch", dbl, n, new KernelArgs().pointer(x).pointer(out).i64(n).i32(batch), n + " values x " +
			batch);
	}

	/**
	 * y[b·rows + r] = Σ_e w[e·rows + r]·x[b·cols + index[e·rows + r]] for {@code batch} vectors (ELL tables
	 * transposed; index −1: no term).
	 */
	void sparseApply(final boolean dbl, final CUdeviceptr index, final CUdeviceptr w, final CUdeviceptr x,
		final CUdeviceptr y, final long rows, final int k, final long cols, final int batch)
	{
		final long n = rows * batch;
		// vec_sparse_apply_S(const int* index, const C* w, const C* x, C* y, long long rows, int k, long long cols,
		// long long n)
		launch("vec_sparse_apply", dbl, n, new KernelArgs().pointer(index).pointer(w).pointer(x).pointer(y).i64(rows)
			.i32(k).i64(cols).i64(n), rows + " rows x " + k + " entries, " + batch + " vectors of " + cols);
	}

	/**
	 * x[b·cols + index[e·rows + r]] += conj(w[e·rows + r])·y[b·rows + r] for {@code batch} vectors, after clearing x
	 * (batch·cols complex): the adjoint of {@link #sparseApply}, atomic additions.
	 */
	void sparseApplyAdjoint(final boolean dbl, final CUdeviceptr index, final CUdeviceptr w, final CUdeviceptr y,
		final CUdeviceptr x, final long rows, final int k, final long cols, final int batch)
	{
		final long n = rows * batch;
		check(JCudaDriver.cuMemsetD32Async(x, 0, 2 * cols * batch * (dbl ? 2 : 1), stream), "cuMemsetD32Async(" +
			cols * batch + " complex, sparse adjoint output)");
		// vec_sparse_apply_adjoint_S(const int* index, const C* w, const C* y, T* x, long long rows, int k,
		// long long cols, long long n)
		launch("vec_sparse_apply_adjoint", dbl, n, new KernelArgs().pointer(index).pointer(w).pointer(y).pointer(x)
			.i64(rows).i32(k).i64(cols).i64(n), rows + " rows x " + k + " entries, " + batch + " vectors of " + cols);
	}

	/** out[i] = (r[i], 0) for n elements. */
	void realToComplex(final boolean dbl, final CUdeviceptr r, final CUdeviceptr out, final long n) {
		// vec_real_to_complex_S(const T* r, C* out, long long n)
		launch("vec_real_to_complex", dbl, n, new KernelArgs().pointer(r).pointer(out).i64(n), n + " values");
	}

	/** out[i] = Re x[i] for n elements. */
	void complexToReal(final boolean dbl, final CUdeviceptr x, final CUdeviceptr out, final long n) {
		// vec_complex_to_real_S(const C* x, T* out, long long n)
		launch("vec_complex_to_real", dbl, n, new KernelArgs().pointer(x).pointer(out).i64(n), n + " complex");
	}

	/** out[p] = (√Σ_c |x_c[p]|², 0) for p < pixels; x [coil][pixel]. */
	void sumOfSquares(final boolean dbl, final CUdeviceptr x, final CUdeviceptr out, final long pixels,
		final int coils)
	{
		// vec_sum_of_squares_S(const C* x, C* out, long long pixels, int coils)
		launch("vec_sum_of_squares", dbl, pixels, new KernelArgs().pointer(x).pointer(out).i64(pixels).i32(coils),
			pixels + " pixels x " + coils + " coils");
	}

	/** The centred block between small and big images ({@link org.nufftj.nufft.CentredBlock}), either way. */
	void copyCentred(final boolean dbl, final CUdeviceptr small, final CUdeviceptr big,
		final org.nufftj.nufft.CentredBlock c)
	{
		final long n = c.transforms * c.smallPixels;
		// vec_copy_centred_S(C* small, C* big, long long n, int nx, int ny, int nz, int bx, int by, int bz, int ox,
		//   int oy, int oz, int pad)
		launch("vec_copy_centred", dbl, n, new KernelArgs().pointer(small).pointer(big).i64(n).i32(c.nx).i32(c.ny).i32(
			c.nz).i32(c.bx).i32(c.by).i32(c.bz).i32(c.ox).i32(c.oy).i32(c.oz).i32(c.pad ? 1 : 0), n + " complex, " + c.nx +
				"x" + c.ny + "x" + c.nz + " in " + c.bx + "x" + c.by + "x" + c.bz);
	}

	// -- reductions into double[] on the device (zeroed here first) --

	/** out[0..1] = Σ conj(x_i)·y_i over n complex elements. */
	void dot(final boolean dbl, final CUdeviceptr x, final CUdeviceptr y, final long n, final CUdeviceptr out) {
		zeroDoubles(out, 2);
		// vec_dot_S(const C* x, const C* y, long long n, double* out)
		device.launch(MODULE, name("vec_dot", dbl), reductionBlocks(n), 1, BLOCK, 0, stream, new KernelArgs()
			.pointer(x).pointer(y).i64(n).pointer(out).build(), n + " complex");
	}

	/** out[0] = Σ x_i² over n values. */
	void norm2(final boolean dbl, final CUdeviceptr x, final long n, final CUdeviceptr out) {
		zeroDoubles(out, 1);
		// vec_norm2_S(const T* x, long long n, double* out)
		device.launch(MODULE, name("vec_norm2", dbl), reductionBlocks(n), 1, BLOCK, 0, stream, new KernelArgs()
			.pointer(x).i64(n).pointer(out).build(), n + " values");
	}

	/** energy[c] = Σ_p |x_c[p]|² (double[coils] on the device). */
	void coilEnergy(final boolean dbl, final CUdeviceptr images, final CUdeviceptr energy, final long pixels,
		final int coils)
	{
		zeroDoubles(energy, coils);
		// vec_coil_energy_S(const C* images, double* energy, long long pixels)
		device.launch(MODULE, name("vec_coil_energy", dbl), Math.min(blocks(pixels), 128), coils, BLOCK, 0, stream,
			new KernelArgs().pointer(images).pointer(energy).i64(pixels).build(), pixels + " pixels x " + coils +
				" coils");
	}

	// -- Walsh --

	/**
	 * Walsh combination of images [coil][pixel] of {@code size} (2 or 3 axes; 3D slice by slice) into out [pixel]:
	 * window (2·half + 1)² clipped at the border, {@code iterations} power iterations, phase reference the coil of
	 * largest {@code energy} ({@link #coilEnergy}). Needs {@link #walshUnsupported} == null.
	 */
	void walsh(final boolean dbl, final CUdeviceptr images, final CUdeviceptr energy, final CUdeviceptr out,
		final int[] size, final int coils, final int half, final int iterations)
	{
		final int nx = size[0], ny = size[1], nz = size.length > 2 ? size[2] : 1;
		final long pixels = (long) nx * ny * nz;
		// vec_walsh_S_gG / vec_walsh_shared_S(const C* images, C* out, const double* energy, int nx, int ny, int nz,
		//   int coils, int half, int iterations)
		final KernelArgs args = new KernelArgs().pointer(images).pointer(out).pointer(energy).i32(nx).i32(ny).i32(nz)
			.i32(coils).i32(half).i32(iterations);
		final String sizes = Arrays.toString(size) + " x " + coils + " coils, window " + (2 * half + 1);
		final int g = groupSize(coils);
		if (g > 0) {
			final long perBlock = BLOCK / g;
			device.launch(MODULE, "vec_walsh_" + (dbl ? "d" : "f") + "_g" + g, (pixels + perBlock - 1) / perBlock, 1,
				BLOCK, 0, stream, args.build(), sizes);
		}
		else {
			final int shared = walshSharedBytes(coils, dbl);
			device.launch(MODULE, name("vec_walsh_shared", dbl), pixels, 1, 32, shared, stream, args.build(), sizes +
				", " + shared + " B shared");
		}
	}

	// -- sizes and limits (host logic, no GPU) --

	/** Lanes per pixel of the register Walsh kernel (4, 8, 16 or 32 ≥ coils), or 0 above 32 coils (shared kernel). */
	static int groupSize(final int coils) {
		if (coils > WALSH_REGISTER_COILS) return 0;
		int g = 4;
		while (g < coils) g *= 2;
		return g;
	}

	/** Dynamic shared memory of vec_walsh_shared_*: R (coils × (coils + 1)), coil vector and u, complex each. */
	static int walshSharedBytes(final int coils, final boolean dbl) {
		return (dbl ? 16 : 8) * (coils * (coils + 1) + 2 * coils);
	}

	/** Why the device cannot run Walsh for {@code coils} coils, or null when it can. */
	static String walshUnsupported(final int coils, final boolean dbl, final int sharedOptin) {
		if (coils > WALSH_MAX_COILS) {
			return "Walsh combination on the GPU takes at most " + WALSH_MAX_COILS + " coils, found " + coils;
		}
		if (coils > MAX_GRID_Y) return "Walsh combination on the GPU: " + coils + " coils exceed " + MAX_GRID_Y;
		if (groupSize(coils) == 0 && walshSharedBytes(coils, dbl) > sharedOptin) {
			return "Walsh combination of " + coils + " coils (" + (dbl ? "double" : "float") + ") needs " +
				walshSharedBytes(coils, dbl) + " B of shared memory per block, the device allows " + sharedOptin;
		}
		return null;
	}

	/** Blocks of a grid-stride launch over n elements. */
	static long blocks(final long n) {
		return Math.max(1, Math.min((n + BLOCK - 1) / BLOCK, MAX_BLOCKS));
	}

	static long reductionBlocks(final long n) {
		return Math.max(1, Math.min((n + BLOCK - 1) / BLOCK, REDUCTION_BLOCKS));
	}

	// -- helpers --

	private void launch(final String kernel, final boolean dbl, final long n, final KernelArgs args,
		final String sizes)
	{
		if (n == 0) return;
		device.launch(MODULE, name(kernel, dbl), blocks(n), 1, BLOCK, 0, stream, args.build(), sizes);
	}

	private void zeroDoubles(final CUdeviceptr p, final int count) {
		check(JCudaDriver.cuMemsetD32Async(p, 0, 2L * count, stream), "cuMemsetD32Async(" + count +
			" double accumulators)");
	}

	private static String name(final String kernel, final boolean dbl) {
		return kernel + (dbl ? "_d" : "_f");
	}
}
