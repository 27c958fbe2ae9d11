// The exact non-uniform DFT by direct sums (Stone et al. 2008: Q and F^H d with no gridding error), launched by
// GpuExactPlan. Maths and layout of org.nufftj.nufft.Nudft: centred voxel index x = i - floor(N/2) per axis, k in
// cycles per pixel (double, [point][axis]), complex interleaved, images x fastest, [transform][voxel] and
// [transform][sample].
//   adjoint: img_b(x) = sum_m s_b(m) e^{+2 pi i k_m.x}      forward: y_b(m) = sum_x f_b(x) e^{-2 pi i k_m.x}
//
// Phase: the argument k.x is formed in double and reduced to [-1/2, 1/2] cycles before it is rounded to float, so
// the float kernels' phase error is the sin/cos error alone (__sincosf on [-pi, pi]: 2^-21.4 absolute), not the
// rounding of a large argument (|k.x| reaches N/2 cycles). Along x consecutive voxels differ by one factor
// e^{+-2 pi i k_x}: each thread starts afresh every U voxels and steps by that rotation in between (U - 1 complex
// products, so the rounding grows by at most U - 1 ulps), one sin/cos pair per U pairs. U = 8 for one or two
// transforms per pass (few accumulators), 4 for more (UNROLL(TB); GpuExactPlan.unroll mirrors it).
//
// Tiles of TILE samples (adjoint) or voxels (forward) are staged in shared memory and read by every thread of the
// block (broadcast); TB transforms (coils) are accumulated per pass from one phase (TB = 1, 2, 4, 8 by template).
// Small problems split the other dimension over gridDim.y chunks that add into the zeroed output with atomics.
#include "nufft_common.cuh"

#define TILE 256
#define UNROLL(TB) ((TB) <= 2 ? 8 : 4)
#define BLOCK 128

__device__ __forceinline__ void nj_sincos_cycles(double r, float* s, float* c) {
	__sincosf((float) (6.283185307179586 * r), s, c);
}
__device__ __forceinline__ void nj_sincos_cycles(double r, double* s, double* c) { sincospi(2 * r, s, c); }

template <typename T>
__device__ __forceinline__ typename Cplx<T>::type cmul(typename Cplx<T>::type a, typename Cplx<T>::type b) {
	typename Cplx<T>::type v;
	v.x = a.x * b.x - a.y * b.y;
	v.y = a.x * b.y + a.y * b.x;
	return v;
}

/** e^{sign 2 pi i t} for t in cycles (double), reduced to [-1/2, 1/2] first. */
template <typename T>
__device__ __forceinline__ typename Cplx<T>::type phase(double t, int sign) {
	const double r = t - rint(t);
	T s, c;
	nj_sincos_cycles(r, &s, &c);
	typename Cplx<T>::type v;
	v.x = c;
	v.y = sign * s;
	return v;
}

__device__ __forceinline__ void nj_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void nj_add(double* p, double v) { atomicAdd(p, v); }

struct Grid3 {
	int nx, ny, nz;
	int cx, cy, cz; // floor(N/2)
};

/**
 * Adjoint. Thread: UNROLL consecutive voxels of one x row. blockIdx.y: a chunk of samples [m0, m1); with more than
 * one chunk the output (zeroed by the host) is added to atomically, else written.
 */
template <typename T, int TB>
__device__ void adjoint(const double* __restrict__ k, int dims, long long m, const typename Cplx<T>::type* __restrict__ s,
	long long sStride, Grid3 g, typename Cplx<T>::type* img, long long imgStride, int sign, long long chunk)
{
	typedef typename Cplx<T>::type C;
	constexpr int UNROLL = UNROLL(TB);
	__shared__ double kx[TILE], ky[TILE], kz[TILE];
	__shared__ C rot[TILE];
	__shared__ C sv[TB][TILE];
	const int groups = (g.nx + UNROLL - 1) / UNROLL;
	const long long total = (long long) groups * g.ny * g.nz;
	const long long tid = blockIdx.x * (long long) blockDim.x + threadIdx.x;
	const bool active = tid < total;
	const int gx = (int) (tid % groups);
	const long long rest = tid / groups;
	const int y = active ? (int) (rest % g.ny) : 0, z = active ? (int) (rest / g.ny) : 0;
	const int x0 = gx * UNROLL;
	const double dx = x0 - g.cx, dy = y - g.cy, dz = z - g.cz;
	C acc[UNROLL][TB];
#pragma unroll
	for (int u = 0; u < UNROLL; u++)
#pragma unroll
		for (int b = 0; b < TB; b++) acc[u][b].x = acc[u][b].y = 0;
	const long long m0 = blockIdx.y * chunk, m1 = min(m, m0 + chunk);
	for (long long t0 = m0; t0 < m1; t0 += TILE) {
		const int n = (int) min((long long) TILE, m1 - t0);
		__syncthreads();
		for (int j = threadIdx.x; j < n; j += blockDim.x) {
			const long long p = t0 + j;
			kx[j] = k[dims * p];
			ky[j] = k[dims * p + 1];
			kz[j] = dims > 2 ? k[dims * p + 2] : 0;
			rot[j] = phase<T>(kx[j], sign);
#pragma unroll
			for (int b = 0; b < TB; b++) sv[b][j] = s[b * sStride + p];
		}
		__syncthreads();
		if (!active) continue;
		for (int j = 0; j < n; j++) {
			C ph = phase<T>(fma(kx[j], dx, fma(ky[j], dy, kz[j] * dz)), sign);
			const C r = rot[j];
#pragma unroll
			for (int u = 0; u < UNROLL; u++) {
#pragma unroll
				for (int b = 0; b < TB; b++) {
					const C v = sv[b][j];
					acc[u][b].x += v.x * ph.x - v.y * ph.y;
					acc[u][b].y += v.x * ph.y + v.y * ph.x;
				}
				if (u + 1 < UNROLL) ph = cmul<T>(ph, r);
			}
		}
	}
	if (!active) return;
	const long long row = ((long long) z * g.ny + y) * g.nx;
#pragma unroll
	for (int u = 0; u < UNROLL; u++) {
		if (x0 + u >= g.nx) break;
#pragma unroll
		for (int b = 0; b < TB; b++) {
			C* o = img + b * imgStride + row + x0 + u;
			if (gridDim.y > 1) {
				nj_add(&o->x, acc[u][b].x);
				nj_add(&o->y, acc[u][b].y);
			}
			else *o = acc[u][b];
		}
	}
}

/**
 * Forward. Thread: one sample. blockIdx.y: a chunk of voxels [v0, v1) (linear index); with more than one chunk the
 * output (zeroed by the host) is added to atomically, else written. The voxel walk is uniform over the block, so the
 * afresh/rotate choice never diverges.
 */
template <typename T, int TB>
__device__ void forward(const double* __restrict__ k, int dims, long long m, const typename Cplx<T>::type* __restrict__ f,
	long long fStride, Grid3 g, typename Cplx<T>::type* out, long long outStride, int sign, long long chunk)
{
	typedef typename Cplx<T>::type C;
	constexpr int UNROLL = UNROLL(TB);
	__shared__ C fv[TB][TILE];
	const long long p = blockIdx.x * (long long) blockDim.x + threadIdx.x;
	const bool active = p < m;
	const double kxp = active ? k[dims * p] : 0, kyp = active ? k[dims * p + 1] : 0;
	const double kzp = active && dims > 2 ? k[dims * p + 2] : 0;
	const C r = phase<T>(kxp, sign);
	C acc[TB];
#pragma unroll
	for (int b = 0; b < TB; b++) acc[b].x = acc[b].y = 0;
	const long long voxels = (long long) g.nx * g.ny * g.nz;
	const long long v0 = blockIdx.y * chunk, v1 = min(voxels, v0 + chunk);
	for (long long t0 = v0; t0 < v1; t0 += TILE) {
		const int n = (int) min((long long) TILE, v1 - t0);
		__syncthreads();
		for (int j = threadIdx.x; j < n; j += blockDim.x) {
#pragma unroll
			for (int b = 0; b < TB; b++) fv[b][j] = f[b * fStride + t0 + j];
		}
		__syncthreads();
		int x = (int) (t0 % g.nx);
		long long yz = t0 / g.nx;
		int y = (int) (yz % g.ny), z = (int) (yz / g.ny);
		C ph;
		ph.x = 1;
		ph.y = 0;
		for (int j = 0; j < n; j++) {
			if (j % UNROLL == 0 || x == 0) {
				ph = phase<T>(fma(kxp, (double) (x - g.cx), fma(kyp, (double) (y - g.cy), kzp * (z - g.cz))), sign);
			}
			else ph = cmul<T>(ph, r);
#pragma unroll
			for (int b = 0; b < TB; b++) {
				const C v = fv[b][j];
				acc[b].x += v.x * ph.x - v.y * ph.y;
				acc[b].y += v.x * ph.y + v.y * ph.x;
			}
			if (++x == g.nx) {
				x = 0;
				if (++y == g.ny) {
					y = 0;
					z++;
				}
			}
		}
	}
	if (!active) return;
#pragma unroll
	for (int b = 0; b < TB; b++) {
		C* o = out + b * outStride + p;
		if (gridDim.y > 1) {
			nj_add(&o->x, acc[b].x);
			nj_add(&o->y, acc[b].y);
		}
		else *o = acc[b];
	}
}

#define EXACT_ENTRIES(T, S, TB)                                                                                        \
	extern "C" __global__ void __launch_bounds__(BLOCK) exact_adjoint_##S##_##TB(const double* k, int dims,            \
		long long m, const Cplx<T>::type* s, long long sStride, int nx, int ny, int nz, Cplx<T>::type* img,           \
		long long imgStride, int sign, long long chunk)                                                               \
	{                                                                                                                  \
		adjoint<T, TB>(k, dims, m, s, sStride, Grid3 { nx, ny, nz, nx / 2, ny / 2, nz / 2 }, img, imgStride, sign,    \
			chunk);                                                                                                    \
	}                                                                                                                  \
	extern "C" __global__ void __launch_bounds__(BLOCK) exact_forward_##S##_##TB(const double* k, int dims,            \
		long long m, const Cplx<T>::type* f, long long fStride, int nx, int ny, int nz, Cplx<T>::type* out,           \
		long long outStride, int sign, long long chunk)                                                               \
	{                                                                                                                  \
		forward<T, TB>(k, dims, m, f, fStride, Grid3 { nx, ny, nz, nx / 2, ny / 2, nz / 2 }, out, outStride, sign,    \
			chunk);                                                                                                    \
	}

EXACT_ENTRIES(float, f, 1)
EXACT_ENTRIES(float, f, 2)
EXACT_ENTRIES(float, f, 4)
EXACT_ENTRIES(float, f, 8)
EXACT_ENTRIES(double, d, 1)
EXACT_ENTRIES(double, d, 2)
EXACT_ENTRIES(double, d, 4)
EXACT_ENTRIES(double, d, 8)
