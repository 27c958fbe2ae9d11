// Interpolation (forward NUFFT, type 2): oversampled grid -> samples, y_m = Σ_l g(l) ψ(t_m − l) per axis.
// Input-driven on bin-sorted points (one thread per point, all B transforms per thread so the kernel values are
// computed once): neighbouring threads read neighbouring grid cells, which the sort keeps in L1/L2.
// Point layout as in spread.cu; the result goes to samples[b·M + perm[i]] (the caller's order).
#include "nufft_common.cuh"

template <typename T>
__device__ __forceinline__ void interp_2d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const T* __restrict__ fx, const T* __restrict__ fy, int m,
	const typename Cplx<T>::type* __restrict__ grid, typename Cplx<T>::type* __restrict__ samples, int nx, int ny,
	int batch, int type, int w, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	T kx[NUFFTJ_MAX_W], ky[NUFFTJ_MAX_W];
	kernel_values<T>(kx, type, fx[i], w, beta, norm);
	kernel_values<T>(ky, type, fy[i], w, beta, norm);
	const int p = perm[i], x0 = ix[i], y0 = iy[i];
	int xs[NUFFTJ_MAX_W];
#pragma unroll
	for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) xs[jx] = wrap(x0 + (jx < w ? jx : 0), nx);
	const long long g = (long long) nx * ny;
	for (int b = 0; b < batch; b++) {
		const C* gb = grid + b * g;
		T sr = 0, si = 0;
		for (int jy = 0; jy < w; jy++) {
			const C* row = gb + (long long) wrap(y0 + jy, ny) * nx;
			T rr = 0, ri = 0;
#pragma unroll
			for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) {
				if (jx < w) {
					const C v = row[xs[jx]];
					rr += v.x * kx[jx];
					ri += v.y * kx[jx];
				}
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

template <typename T>
__device__ __forceinline__ void interp_3d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const typename Cplx<T>::type* __restrict__ grid,
	typename Cplx<T>::type* __restrict__ samples, int nx, int ny, int nz, int batch, int type, int w, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	T kx[NUFFTJ_MAX_W], ky[NUFFTJ_MAX_W], kz[NUFFTJ_MAX_W];
	kernel_values<T>(kx, type, fx[i], w, beta, norm);
	kernel_values<T>(ky, type, fy[i], w, beta, norm);
	kernel_values<T>(kz, type, fz[i], w, beta, norm);
	const int p = perm[i], x0 = ix[i], y0 = iy[i], z0 = iz[i];
	int xs[NUFFTJ_MAX_W];
#pragma unroll
	for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) xs[jx] = wrap(x0 + (jx < w ? jx : 0), nx);
	const long long g = (long long) nx * ny * nz;
	for (int b = 0; b < batch; b++) {
		const C* gb = grid + b * g;
		T sr = 0, si = 0;
		for (int jz = 0; jz < w; jz++) {
			const C* plane = gb + (long long) wrap(z0 + jz, nz) * ny * nx;
			T pr = 0, pi = 0;
			for (int jy = 0; jy < w; jy++) {
				const C* row = plane + (long long) wrap(y0 + jy, ny) * nx;
				T rr = 0, ri = 0;
#pragma unroll
				for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) {
					if (jx < w) {
						const C v = row[xs[jx]];
						rr += v.x * kx[jx];
						ri += v.y * kx[jx];
					}
				}
				pr += rr * ky[jy];
				pi += ri * ky[jy];
			}
			sr += pr * kz[jz];
			si += pi * kz[jz];
		}
		C out;
		out.x = sr;
		out.y = si;
		samples[(long long) b * m + p] = out;
	}
}

#define INTERP_ENTRIES(T, S)                                                                                            \
	extern "C" __global__ void interp_2d_##S(const int* perm, const int* ix, const int* iy, const T* fx, const T* fy, \
		int m, const Cplx<T>::type* grid, Cplx<T>::type* samples, int nx, int ny, int batch, int type, int w, T beta,   \
		T norm)                                                                                                         \
	{                                                                                                                   \
		interp_2d<T>(perm, ix, iy, fx, fy, m, grid, samples, nx, ny, batch, type, w, beta, norm);                      \
	}                                                                                                                   \
	extern "C" __global__ void interp_3d_##S(const int* perm, const int* ix, const int* iy, const int* iz,            \
		const T* fx, const T* fy, const T* fz, int m, const Cplx<T>::type* grid, Cplx<T>::type* samples, int nx,       \
		int ny, int nz, int batch, int type, int w, T beta, T norm)                                                     \
	{                                                                                                                   \
		interp_3d<T>(perm, ix, iy, iz, fx, fy, fz, m, grid, samples, nx, ny, nz, batch, type, w, beta, norm);          \
	}

INTERP_ENTRIES(float, f)
INTERP_ENTRIES(double, d)
