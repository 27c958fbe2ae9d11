// Shared device helpers of the NUFFT-J kernels: the interpolation kernels, evaluated online with exactly the formulas
// of org.nufftj.kernel.* (ExpSemicircle, KaiserBessel, Gaussian), complex types and grid-index wrapping.
#pragma once

#define NUFFTJ_MAX_W 16

// Kernel families, numbered as GpuKernels.kernelCode(KernelType) numbers them.
#define KERNEL_ES 0
#define KERNEL_KB 1
#define KERNEL_GAUSS 2

template <typename T> struct Cplx;
template <> struct Cplx<float> { typedef float2 type; };
template <> struct Cplx<double> { typedef double2 type; };

__device__ __forceinline__ float nj_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double nj_sqrt(double x) { return sqrt(x); }
__device__ __forceinline__ float nj_exp(float x) { return expf(x); }
__device__ __forceinline__ double nj_exp(double x) { return exp(x); }
__device__ __forceinline__ float nj_i0(float x) { return cyl_bessel_i0f(x); }
__device__ __forceinline__ double nj_i0(double x) { return cyl_bessel_i0(x); }

/**
 * ψ(x) for x in grid cells from the kernel centre.
 *   ES (Barnett et al. 2019 eq. 1.8): exp(β(√(1 − (2x/W)²) − 1)) for |x| < W/2
 *   KB (Jackson 1991):                I0(β√(1 − (2x/W)²)) / I0(β)  for |x| ≤ W/2   (norm = 1/I0(β))
 *   Gaussian:                         exp(−x²/(2s²)) for |x| < W/2                  (norm = 1/(2s²))
 */
template <typename T>
__device__ __forceinline__ T kernel_value(int type, T x, int w, T beta, T norm) {
	const T z = (T) 2 * x / (T) w;
	const T q = (T) 1 - z * z;
	if (type == KERNEL_ES) return q > (T) 0 ? nj_exp(beta * (nj_sqrt(q) - (T) 1)) : (T) 0;
	if (type == KERNEL_KB) return q >= (T) 0 ? nj_i0(beta * nj_sqrt(q)) * norm : (T) 0;
	return q > (T) 0 ? nj_exp(-x * x * norm) : (T) 0;
}

/** The W kernel values ψ(off + j), j = 0..W−1, of one axis into k[] (unrolled, so k stays in registers). */
template <typename T>
__device__ __forceinline__ void kernel_values(T* k, int type, T off, int w, T beta, T norm) {
#pragma unroll
	for (int j = 0; j < NUFFTJ_MAX_W; j++) k[j] = j < w ? kernel_value<T>(type, off + (T) j, w, beta, norm) : (T) 0;
}

/** Grid index i in [−n, 2n) wrapped into [0, n). */
__device__ __forceinline__ int wrap(int i, int n) {
	return i < 0 ? i + n : (i >= n ? i - n : i);
}

__device__ __forceinline__ void atomic_add_c(float2* p, float2 v) {
	atomicAdd(&p->x, v.x);
	atomicAdd(&p->y, v.y);
}

__device__ __forceinline__ void atomic_add_c(double2* p, double2 v) {
	atomicAdd(&p->x, v.x);
	atomicAdd(&p->y, v.y);
}
