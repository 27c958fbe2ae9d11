// Spreading (adjoint NUFFT, type 1): samples -> oversampled grid, g(l) = Σ_m y_m ψ(t_m − l) per axis.
//
// Points arrive bin-sorted (GpuPoints sorts them on the host in setPoints): i is the sorted index, perm[i] the
// sample's index in the caller's order, (ix, iy, iz) the first grid cell of its W-wide stencil per axis (normalised
// so that ix + W/2 lies in [0, nx)), (fx, fy, fz) = ix − t, the kernel argument of that first cell.
// Grid and sample buffers hold B transforms: grid[b·G + …], samples[b·M + …], complex interleaved.
//
// Two methods (SpreadMethod):
//  ATOMIC: one thread per sorted point, global atomics (neighbouring threads hit neighbouring cells, so L2 atomics
//          coalesce well thanks to the sort).
//  SHARED: one block per subproblem (≤ maxSub points of one bin), accumulated in a shared-memory tile of
//          (bin + W − 1) cells per axis, then added to the grid with atomics (Sørensen's hybrid / cuFINUFFT "SM").
#include "nufft_common.cuh"

template <typename T>
__device__ __forceinline__ void spread_atomic_2d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const T* __restrict__ fx, const T* __restrict__ fy, int m,
	const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny, int batch,
	int type, int w, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	T kx[NUFFTJ_MAX_W], ky[NUFFTJ_MAX_W];
	kernel_values<T>(kx, type, fx[i], w, beta, norm);
	kernel_values<T>(ky, type, fy[i], w, beta, norm);
	const int p = perm[i], x0 = ix[i], y0 = iy[i];
	const long long g = (long long) nx * ny;
	for (int b = 0; b < batch; b++) {
		const C c = samples[(long long) b * m + p];
		C* gb = grid + b * g;
		for (int jy = 0; jy < w; jy++) {
			const int yy = wrap(y0 + jy, ny);
			const T vr = c.x * ky[jy], vi = c.y * ky[jy];
#pragma unroll
			for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) {
				if (jx < w) {
					C v;
					v.x = vr * kx[jx];
					v.y = vi * kx[jx];
					atomic_add_c(&gb[(long long) yy * nx + wrap(x0 + jx, nx)], v);
				}
			}
		}
	}
}

template <typename T>
__device__ __forceinline__ void spread_atomic_3d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid,
	int nx, int ny, int nz, int batch, int type, int w, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	T kx[NUFFTJ_MAX_W], ky[NUFFTJ_MAX_W], kz[NUFFTJ_MAX_W];
	kernel_values<T>(kx, type, fx[i], w, beta, norm);
	kernel_values<T>(ky, type, fy[i], w, beta, norm);
	kernel_values<T>(kz, type, fz[i], w, beta, norm);
	const int p = perm[i], x0 = ix[i], y0 = iy[i], z0 = iz[i];
	const long long g = (long long) nx * ny * nz;
	for (int b = 0; b < batch; b++) {
		const C c = samples[(long long) b * m + p];
		C* gb = grid + b * g;
		for (int jz = 0; jz < w; jz++) {
			const int zz = wrap(z0 + jz, nz);
			for (int jy = 0; jy < w; jy++) {
				const int yy = wrap(y0 + jy, ny);
				const T k = kz[jz] * ky[jy];
				const T vr = c.x * k, vi = c.y * k;
				C* row = gb + ((long long) zz * ny + yy) * nx;
#pragma unroll
				for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) {
					if (jx < w) {
						C v;
						v.x = vr * kx[jx];
						v.y = vi * kx[jx];
						atomic_add_c(&row[wrap(x0 + jx, nx)], v);
					}
				}
			}
		}
	}
}

/**
 * One block per (subproblem, transform): subproblem s covers sorted points [start[s], start[s] + count[s]) of bin
 * bin[s]; bins are bx × by cells, numbered x fastest over nbx bins per row.
 */
template <typename T>
__device__ __forceinline__ void spread_shared_2d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const T* __restrict__ fx, const T* __restrict__ fy, int m,
	const int* __restrict__ subBin, const int* __restrict__ subStart, const int* __restrict__ subCount, int nbx,
	int bx, int by, const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny,
	int type, int w, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char smem[];
	C* tile = reinterpret_cast<C*>(smem);
	const int s = blockIdx.x, b = blockIdx.y;
	const int tx = bx + w - 1, ty = by + w - 1, tn = tx * ty;
	for (int k = threadIdx.x; k < tn; k += blockDim.x) {
		tile[k].x = 0;
		tile[k].y = 0;
	}
	__syncthreads();
	const int bin = subBin[s], start = subStart[s], count = subCount[s];
	const int hw = w / 2;
	const int ox = (bin % nbx) * bx - hw, oy = (bin / nbx) * by - hw;
	const C* sb = samples + (long long) b * m;
	for (int i = start + threadIdx.x; i < start + count; i += blockDim.x) {
		T kx[NUFFTJ_MAX_W], ky[NUFFTJ_MAX_W];
		kernel_values<T>(kx, type, fx[i], w, beta, norm);
		kernel_values<T>(ky, type, fy[i], w, beta, norm);
		const C c = sb[perm[i]];
		const int lx = ix[i] - ox, ly = iy[i] - oy;
		for (int jy = 0; jy < w; jy++) {
			const T vr = c.x * ky[jy], vi = c.y * ky[jy];
			C* row = tile + (ly + jy) * tx + lx;
#pragma unroll
			for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) {
				if (jx < w) {
					atomicAdd(&row[jx].x, vr * kx[jx]);
					atomicAdd(&row[jx].y, vi * kx[jx]);
				}
			}
		}
	}
	__syncthreads();
	C* gb = grid + (long long) b * nx * ny;
	for (int k = threadIdx.x; k < tn; k += blockDim.x) {
		const C v = tile[k];
		if (v.x != (T) 0 || v.y != (T) 0) {
			int gx = (ox + k % tx) % nx, gy = (oy + k / tx) % ny;
			if (gx < 0) gx += nx;
			if (gy < 0) gy += ny;
			atomic_add_c(&gb[(long long) gy * nx + gx], v);
		}
	}
}

template <typename T>
__device__ __forceinline__ void spread_shared_3d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const int* __restrict__ subBin, const int* __restrict__ subStart,
	const int* __restrict__ subCount, int nbx, int nby, int bx, int by, int bz,
	const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny, int nz,
	int type, int w, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char smem[];
	C* tile = reinterpret_cast<C*>(smem);
	const int s = blockIdx.x, b = blockIdx.y;
	const int tx = bx + w - 1, ty = by + w - 1, tz = bz + w - 1, tn = tx * ty * tz;
	for (int k = threadIdx.x; k < tn; k += blockDim.x) {
		tile[k].x = 0;
		tile[k].y = 0;
	}
	__syncthreads();
	const int bin = subBin[s], start = subStart[s], count = subCount[s];
	const int hw = w / 2;
	const int ox = (bin % nbx) * bx - hw, oy = ((bin / nbx) % nby) * by - hw, oz = (bin / (nbx * nby)) * bz - hw;
	const C* sb = samples + (long long) b * m;
	for (int i = start + threadIdx.x; i < start + count; i += blockDim.x) {
		T kx[NUFFTJ_MAX_W], ky[NUFFTJ_MAX_W], kz[NUFFTJ_MAX_W];
		kernel_values<T>(kx, type, fx[i], w, beta, norm);
		kernel_values<T>(ky, type, fy[i], w, beta, norm);
		kernel_values<T>(kz, type, fz[i], w, beta, norm);
		const C c = sb[perm[i]];
		const int lx = ix[i] - ox, ly = iy[i] - oy, lz = iz[i] - oz;
		for (int jz = 0; jz < w; jz++) {
			for (int jy = 0; jy < w; jy++) {
				const T k = kz[jz] * ky[jy];
				const T vr = c.x * k, vi = c.y * k;
				C* row = tile + ((lz + jz) * ty + ly + jy) * tx + lx;
#pragma unroll
				for (int jx = 0; jx < NUFFTJ_MAX_W; jx++) {
					if (jx < w) {
						atomicAdd(&row[jx].x, vr * kx[jx]);
						atomicAdd(&row[jx].y, vi * kx[jx]);
					}
				}
			}
		}
	}
	__syncthreads();
	C* gb = grid + (long long) b * nx * ny * nz;
	for (int k = threadIdx.x; k < tn; k += blockDim.x) {
		const C v = tile[k];
		if (v.x != (T) 0 || v.y != (T) 0) {
			int gx = (ox + k % tx) % nx, gy = (oy + (k / tx) % ty) % ny, gz = (oz + k / (tx * ty)) % nz;
			if (gx < 0) gx += nx;
			if (gy < 0) gy += ny;
			if (gz < 0) gz += nz;
			atomic_add_c(&gb[((long long) gz * ny + gy) * nx + gx], v);
		}
	}
}

// -- entry points (float: _f, double: _d), looked up by name from GpuModules --

#define SPREAD_ENTRIES(T, S)                                                                                            \
	extern "C" __global__ void spread_atomic_2d_##S(const int* perm, const int* ix, const int* iy, const T* fx,       \
		const T* fy, int m, const Cplx<T>::type* samples, Cplx<T>::type* grid, int nx, int ny, int batch, int type,     \
		int w, T beta, T norm)                                                                                          \
	{                                                                                                                   \
		spread_atomic_2d<T>(perm, ix, iy, fx, fy, m, samples, grid, nx, ny, batch, type, w, beta, norm);               \
	}                                                                                                                   \
	extern "C" __global__ void spread_atomic_3d_##S(const int* perm, const int* ix, const int* iy, const int* iz,     \
		const T* fx, const T* fy, const T* fz, int m, const Cplx<T>::type* samples, Cplx<T>::type* grid, int nx,       \
		int ny, int nz, int batch, int type, int w, T beta, T norm)                                                     \
	{                                                                                                                   \
		spread_atomic_3d<T>(perm, ix, iy, iz, fx, fy, fz, m, samples, grid, nx, ny, nz, batch, type, w, beta, norm);   \
	}                                                                                                                   \
	extern "C" __global__ void spread_shared_2d_##S(const int* perm, const int* ix, const int* iy, const T* fx,       \
		const T* fy, int m, const int* subBin, const int* subStart, const int* subCount, int nbx, int bx, int by,     \
		const Cplx<T>::type* samples, Cplx<T>::type* grid, int nx, int ny, int type, int w, T beta, T norm)             \
	{                                                                                                                   \
		spread_shared_2d<T>(perm, ix, iy, fx, fy, m, subBin, subStart, subCount, nbx, bx, by, samples, grid, nx, ny,  \
			type, w, beta, norm);                                                                                       \
	}                                                                                                                   \
	extern "C" __global__ void spread_shared_3d_##S(const int* perm, const int* ix, const int* iy, const int* iz,     \
		const T* fx, const T* fy, const T* fz, int m, const int* subBin, const int* subStart, const int* subCount,     \
		int nbx, int nby, int bx, int by, int bz, const Cplx<T>::type* samples, Cplx<T>::type* grid, int nx, int ny,   \
		int nz, int type, int w, T beta, T norm)                                                                        \
	{                                                                                                                   \
		spread_shared_3d<T>(perm, ix, iy, iz, fx, fy, fz, m, subBin, subStart, subCount, nbx, nby, bx, by, bz,        \
			samples, grid, nx, ny, nz, type, w, beta, norm);                                                            \
	}

SPREAD_ENTRIES(float, f)
SPREAD_ENTRIES(double, d)
