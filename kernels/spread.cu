// Spreading (adjoint NUFFT, type 1): samples -> oversampled grid, g(l) = Σ_m y_m ψ(t_m − l) per axis.
//
// Points arrive bin-sorted (GpuPoints sorts them on the host in setPoints): i is the sorted index, perm[i] the
// sample's index in the caller's order, (ix, iy, iz) the first grid cell of its W-wide stencil per axis (normalised
// so that ix + ⌊W/2⌋ lies in [0, nx)), (fx, fy, fz) = ix − t, the kernel argument of that first cell.
// Grid and sample buffers hold B transforms: grid[b·G + …], samples[b·M + …], complex interleaved.
// The width W is a template constant (one entry point per W = 2..16, suffix _wW) so every stencil loop unrolls and
// the kernel values stay in registers.
//
// Two methods (SpreadMethod):
//  ATOMIC: one thread per sorted point, global atomics (neighbouring threads hit neighbouring cells thanks to the
//          sort, so the L2 atomics coalesce), all B transforms per thread (kernel values computed once).
//  SHARED: one block per (subproblem, transform); a subproblem is ≤ maxSub points of one bin, accumulated in a
//          shared-memory tile of (bin + W − 1) cells per axis, then added to the grid with global atomics
//          (Sørensen's hybrid gridding / gpuNUFFT sectors / cuFINUFFT "SM").
#include "nufft_common.cuh"

template <typename T, int W>
__device__ __forceinline__ void spread_atomic_2d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const T* __restrict__ fx, const T* __restrict__ fy, int m,
	const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny, int batch,
	int type, T beta, T norm)
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
		const C c = samples[(long long) b * m + p];
		C* gb = grid + b * g;
#pragma unroll (W <= 8 ? W : 2)
		for (int jy = 0; jy < W; jy++) {
			C* row = gb + (long long) wrap(y0 + jy, ny) * nx;
			const T vr = c.x * ky[jy], vi = c.y * ky[jy];
#pragma unroll
			for (int jx = 0; jx < W; jx++) {
				C v;
				v.x = vr * kx[jx];
				v.y = vi * kx[jx];
				atomic_add_c(&row[xs[jx]], v);
			}
		}
	}
}

template <typename T, int W>
__device__ __forceinline__ void spread_atomic_3d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid,
	int nx, int ny, int nz, int batch, int type, T beta, T norm)
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
		const C c = samples[(long long) b * m + p];
		C* gb = grid + b * g;
#pragma unroll 1
		for (int jz = 0; jz < W; jz++) {
			const T kz = kernel_value<T>(type, offz + (T) jz, W, beta, norm);
			C* plane = gb + (long long) wrap(z0 + jz, nz) * ny * nx;
#pragma unroll (W <= 8 ? W : 2)
			for (int jy = 0; jy < W; jy++) {
				C* row = plane + (long long) wrap(y0 + jy, ny) * nx;
				const T k = kz * ky[jy];
				const T vr = c.x * k, vi = c.y * k;
#pragma unroll
				for (int jx = 0; jx < W; jx++) {
					C v;
					v.x = vr * kx[jx];
					v.y = vi * kx[jx];
					atomic_add_c(&row[xs[jx]], v);
				}
			}
		}
	}
}

/** Adds a shared-memory tile (origin ox, oy, oz; tx × ty × tz cells) to the periodic grid, skipping zero cells. */
template <typename T>
__device__ __forceinline__ void flush_tile(const typename Cplx<T>::type* tile, typename Cplx<T>::type* gb, int ox,
	int oy, int oz, int tx, int ty, int tz, int nx, int ny, int nz)
{
	const int tn = tx * ty * tz;
	for (int k = threadIdx.x; k < tn; k += blockDim.x) {
		const typename Cplx<T>::type v = tile[k];
		if (v.x != (T) 0 || v.y != (T) 0) {
			int gx = (ox + k % tx) % nx, gy = (oy + (k / tx) % ty) % ny, gz = (oz + k / (tx * ty)) % nz;
			if (gx < 0) gx += nx;
			if (gy < 0) gy += ny;
			if (gz < 0) gz += nz;
			atomic_add_c(&gb[((long long) gz * ny + gy) * nx + gx], v);
		}
	}
}

/**
 * One block per (subproblem, transform): subproblem s covers sorted points [start[s], start[s] + count[s]) of bin
 * bin[s]; bins are bx × by cells, numbered x fastest over nbx bins per row.
 */
template <typename T, int W>
__device__ __forceinline__ void spread_shared_2d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const T* __restrict__ fx, const T* __restrict__ fy, int m,
	const int* __restrict__ subBin, const int* __restrict__ subStart, const int* __restrict__ subCount, int nbx,
	int bx, int by, const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny,
	int type, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char smem[];
	C* tile = reinterpret_cast<C*>(smem);
	const int s = blockIdx.x, b = blockIdx.y;
	const int tx = bx + W - 1, ty = by + W - 1, tn = tx * ty;
	for (int k = threadIdx.x; k < tn; k += blockDim.x) {
		tile[k].x = 0;
		tile[k].y = 0;
	}
	__syncthreads();
	const int bin = subBin[s], start = subStart[s], count = subCount[s];
	const int ox = (bin % nbx) * bx - W / 2, oy = (bin / nbx) * by - W / 2;
	const C* sb = samples + (long long) b * m;
	for (int i = start + threadIdx.x; i < start + count; i += blockDim.x) {
		T kx[W], ky[W];
		kernel_values<T, W>(kx, type, fx[i], beta, norm);
		kernel_values<T, W>(ky, type, fy[i], beta, norm);
		const C c = sb[perm[i]];
		C* base = tile + (iy[i] - oy) * tx + ix[i] - ox;
#pragma unroll (W <= 8 ? W : 2)
		for (int jy = 0; jy < W; jy++) {
			const T vr = c.x * ky[jy], vi = c.y * ky[jy];
			C* row = base + jy * tx;
#pragma unroll
			for (int jx = 0; jx < W; jx++) {
				atomicAdd(&row[jx].x, vr * kx[jx]);
				atomicAdd(&row[jx].y, vi * kx[jx]);
			}
		}
	}
	__syncthreads();
	flush_tile<T>(tile, grid + (long long) b * nx * ny, ox, oy, 0, tx, ty, 1, nx, ny, 1);
}

template <typename T, int W>
__device__ __forceinline__ void spread_shared_3d(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const int* __restrict__ subBin, const int* __restrict__ subStart,
	const int* __restrict__ subCount, int nbx, int nby, int bx, int by, int bz,
	const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny, int nz,
	int type, T beta, T norm)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char smem[];
	C* tile = reinterpret_cast<C*>(smem);
	const int s = blockIdx.x, b = blockIdx.y;
	const int tx = bx + W - 1, ty = by + W - 1, tz = bz + W - 1, tn = tx * ty * tz;
	for (int k = threadIdx.x; k < tn; k += blockDim.x) {
		tile[k].x = 0;
		tile[k].y = 0;
	}
	__syncthreads();
	const int bin = subBin[s], start = subStart[s], count = subCount[s];
	const int ox = (bin % nbx) * bx - W / 2, oy = ((bin / nbx) % nby) * by - W / 2;
	const int oz = (bin / (nbx * nby)) * bz - W / 2;
	const C* sb = samples + (long long) b * m;
	for (int i = start + threadIdx.x; i < start + count; i += blockDim.x) {
		T kx[W], ky[W];
		kernel_values<T, W>(kx, type, fx[i], beta, norm);
		kernel_values<T, W>(ky, type, fy[i], beta, norm);
		const T offz = fz[i];
		const C c = sb[perm[i]];
		C* base = tile + ((iz[i] - oz) * ty + iy[i] - oy) * tx + ix[i] - ox;
#pragma unroll 1
		for (int jz = 0; jz < W; jz++) {
			const T kz = kernel_value<T>(type, offz + (T) jz, W, beta, norm);
			const T cr = c.x * kz, ci = c.y * kz;
			C* plane = base + jz * tx * ty;
#pragma unroll (W <= 8 ? W : 2)
			for (int jy = 0; jy < W; jy++) {
				const T vr = cr * ky[jy], vi = ci * ky[jy];
				C* row = plane + jy * tx;
#pragma unroll
				for (int jx = 0; jx < W; jx++) {
					atomicAdd(&row[jx].x, vr * kx[jx]);
					atomicAdd(&row[jx].y, vi * kx[jx]);
				}
			}
		}
	}
	__syncthreads();
	flush_tile<T>(tile, grid + (long long) b * nx * ny * nz, ox, oy, oz, tx, ty, tz, nx, ny, nz);
}

// -- entry points: <kernel>_<f|d>_w<W>, looked up by name from GpuNufftPlan --

#define SPREAD_ENTRIES(T, S, W)                                                                                         \
	extern "C" __global__ void __launch_bounds__(256) spread_atomic_2d_##S##_w##W(const int* perm, const int* ix,     \
		const int* iy, const T* fx, const T* fy, int m, const Cplx<T>::type* samples, Cplx<T>::type* grid, int nx,     \
		int ny, int batch, int type, T beta, T norm)                                                                    \
	{                                                                                                                   \
		spread_atomic_2d<T, W>(perm, ix, iy, fx, fy, m, samples, grid, nx, ny, batch, type, beta, norm);               \
	}                                                                                                                   \
	extern "C" __global__ void __launch_bounds__(256) spread_atomic_3d_##S##_w##W(const int* perm, const int* ix,     \
		const int* iy, const int* iz, const T* fx, const T* fy, const T* fz, int m, const Cplx<T>::type* samples,      \
		Cplx<T>::type* grid, int nx, int ny, int nz, int batch, int type, T beta, T norm)                               \
	{                                                                                                                   \
		spread_atomic_3d<T, W>(perm, ix, iy, iz, fx, fy, fz, m, samples, grid, nx, ny, nz, batch, type, beta, norm);   \
	}                                                                                                                   \
	extern "C" __global__ void __launch_bounds__(256) spread_shared_2d_##S##_w##W(const int* perm, const int* ix,     \
		const int* iy, const T* fx, const T* fy, int m, const int* subBin, const int* subStart, const int* subCount,   \
		int nbx, int bx, int by, const Cplx<T>::type* samples, Cplx<T>::type* grid, int nx, int ny, int type, T beta,  \
		T norm)                                                                                                         \
	{                                                                                                                   \
		spread_shared_2d<T, W>(perm, ix, iy, fx, fy, m, subBin, subStart, subCount, nbx, bx, by, samples, grid, nx,    \
			ny, type, beta, norm);                                                                                      \
	}                                                                                                                   \
	extern "C" __global__ void __launch_bounds__(256) spread_shared_3d_##S##_w##W(const int* perm, const int* ix,     \
		const int* iy, const int* iz, const T* fx, const T* fy, const T* fz, int m, const int* subBin,                 \
		const int* subStart, const int* subCount, int nbx, int nby, int bx, int by, int bz,                            \
		const Cplx<T>::type* samples, Cplx<T>::type* grid, int nx, int ny, int nz, int type, T beta, T norm)           \
	{                                                                                                                   \
		spread_shared_3d<T, W>(perm, ix, iy, iz, fx, fy, fz, m, subBin, subStart, subCount, nbx, nby, bx, by, bz,     \
			samples, grid, nx, ny, nz, type, beta, norm);                                                               \
	}

FOR_EACH_WIDTH(SPREAD_ENTRIES, float, f)
FOR_EACH_WIDTH(SPREAD_ENTRIES, double, d)
