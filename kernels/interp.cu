// Interpolation (forward NUFFT, type 2): oversampled grid -> samples, y_m = Σ_l g(l) ψ(t_m − l) per axis.
// Input-driven on bin-sorted points (one thread per point, all B transforms per thread so the kernel values are
// computed once): neighbouring threads read neighbouring grid cells, which the sort keeps in L1/L2.
// Point layout as in spread.cu; the result goes to samples[b·M + perm[i]] (the caller's order). W is a template
// constant (entry points _wW, W = 2..16).
#include "nufft_common.cuh"

template <typename T, int W>
__device__ __forceinline__ void interp_2d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const T* __restrict__ fx, const T* __restrict__ fy, int m,
	const typename Cplx<T>::type* __restrict__ grid, typename Cplx<T>::type* __restrict__ samples, int nx, int ny,
	int batch, int type, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	T kx[W], ky[W];
	kernel_values<T, W>(kx, type, fx[i], beta, norm);
	kernel_values<T, W>(ky, type, fy[i], beta, norm);
	const int p = perm[i], x0 = ix[i], y0 = iy[i];
	int xs[W];
#pragma unroll
	for (int jx = 0; jx < W; jx++) xs[jx] = wrap(x0 + jx, nx);
	const long long g = (long long) nx * ny;
	for (int b = 0; b < batch; b++) {
		const C* gb = grid + b * g;
		T sr = 0, si = 0;
#pragma unroll (W <= 8 ? W : 2)
		for (int jy = 0; jy < W; jy++) {
			const C* row = gb + (long long) wrap(y0 + jy, ny) * nx;
			T rr = 0, ri = 0;
#pragma unroll
			for (int jx = 0; jx < W; jx++) {
				const C v = row[xs[jx]];
				rr += v.x * kx[jx];
				ri += v.y * kx[jx];
			}
			sr += rr * ky[jy];
			si += ri * ky[jy];
		}
		C out;
		out.x = sr;
		out.y = si;
		samples[(long long) b * m + p] = out;
	}
}

template <typename T, int W>
__device__ __forceinline__ void interp_3d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const typename Cplx<T>::type* __restrict__ grid,
	typename Cplx<T>::type* __restrict__ samples, int nx, int ny, int nz, int batch, int type, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	T kx[W], ky[W];
	kernel_values<T, W>(kx, type, fx[i], beta, norm);
	kernel_values<T, W>(ky, type, fy[i], beta, norm);
	const T offz = fz[i];
	const int p = perm[i], x0 = ix[i], y0 = iy[i], z0 = iz[i];
	int xs[W];
#pragma unroll
	for (int jx = 0; jx < W; jx++) xs[jx] = wrap(x0 + jx, nx);
	const long long g = (long long) nx * ny * nz;
	for (int b = 0; b < batch; b++) {
		const C* gb = grid + b * g;
		T sr = 0, si = 0;
#pragma unroll 1
		for (int jz = 0; jz < W; jz++) {
			const T kz = kernel_value<T>(type, offz + (T) jz, W, beta, norm);
			const C* plane = gb + (long long) wrap(z0 + jz, nz) * ny * nx;
			T pr = 0, pi = 0;
#pragma unroll (W <= 8 ? W : 2)
			for (int jy = 0; jy < W; jy++) {
				const C* row = plane + (long long) wrap(y0 + jy, ny) * nx;
				T rr = 0, ri = 0;
#pragma unroll
				for (int jx = 0; jx < W; jx++) {
					const C v = row[xs[jx]];
					rr += v.x * kx[jx];
					ri += v.y * kx[jx];
				}
				pr += rr * ky[jy];
				pi += ri * ky[jy];
			}
			sr += pr * kz;
			si += pi * kz;
		}
		C out;
		out.x = sr;
		out.y = si;
		samples[(long long) b * m + p] = out;
	}
}

#define INTERP_ENTRIES(T, S, W)                                                                                         \
	extern "C" __global__ void __launch_bounds__(256) interp_2d_##S##_w##W(const int* perm, const int* ix,            \
		const int* iy, const T* fx, const T* fy, int m, const Cplx<T>::type* grid, Cplx<T>::type* samples, int nx,     \
		int ny, int batch, int type, T beta, T norm)                                                                    \
	{                                                                                                                   \
		interp_2d<T, W>(perm, ix, iy, fx, fy, m, grid, samples, nx, ny, batch, type, beta, norm);                      \
	}                                                                                                                   \
	extern "C" __global__ void __launch_bounds__(256) interp_3d_##S##_w##W(const int* perm, const int* ix,            \
		const int* iy, const int* iz, const T* fx, const T* fy, const T* fz, int m, const Cplx<T>::type* grid,         \
		Cplx<T>::type* samples, int nx, int ny, int nz, int batch, int type, T beta, T norm)                            \
	{                                                                                                                   \
		interp_3d<T, W>(perm, ix, iy, iz, fx, fy, fz, m, grid, samples, nx, ny, nz, batch, type, beta, norm);          \
	}

FOR_EACH_WIDTH(INTERP_ENTRIES, float, f)
FOR_EACH_WIDTH(INTERP_ENTRIES, double, d)
