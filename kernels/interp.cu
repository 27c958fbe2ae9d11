// Interpolation (forward NUFFT, type 2): oversampled grid -> samples, y_m = Σ_l g(l) ψ(t_m − l) per axis.
// Input-driven on bin-sorted points: one block per (subproblem, transform) of the spreader's bins copies its bin's
// tile (bin + W − 1 cells per axis, wrapped) from the grid into shared memory with coalesced loads, then each thread
// interpolates its points from the tile (interp_tiles_*). Reading the grid through L1 instead, one thread per point,
// was as fast on the smallest benchmark row and up to 2.4× slower on the others (docs/gpu-tuning.md).
// Point layout as in spread.cu; the result goes to samples[b·M + perm[i]] (the caller's order). W is a template
// constant (entry points _wW, W = 2..16).
#include "nufft_common.cuh"

/**
 * One block per (subproblem, transform) (layout as spread.cu's spread_tiles_*): the bin's tile of
 * (bx + W − 1) × (by + W − 1) [× (bz + W − 1)] cells is copied from the periodic grid into shared memory, then each
 * thread interpolates points of the subproblem from it. D = 2 or 3 (iz, fz unused in 2D).
 */
template <typename T, int W, int D>
__device__ __forceinline__ void interp_tiles(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const int* __restrict__ subBin, const int* __restrict__ subStart,
	const int* __restrict__ subCount, int nbx, int nby, int bx, int by, int bz,
	const typename Cplx<T>::type* __restrict__ grid, typename Cplx<T>::type* __restrict__ samples, int nx, int ny,
	int nz, const KernelSpec<T>& ks)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char smem[];
	C* tile = reinterpret_cast<C*>(smem);
	const int s = blockIdx.x, b = blockIdx.y;
	const int tx = bx + W - 1, ty = by + W - 1, tz = D == 3 ? bz + W - 1 : 1;
	const int bin = subBin[s], start = subStart[s], count = subCount[s];
	const int ox = (bin % nbx) * bx - W / 2, oy = (D == 3 ? (bin / nbx) % nby : bin / nbx) * by - W / 2;
	const int oz = D == 3 ? (bin / (nbx * nby)) * bz - W / 2 : 0;
	const C* gb = grid + (long long) b * nx * ny * nz;
	for (TileWalk w(tx, ty, tz); w.more(); w.next()) tile[w.k] = gb[w.grid(ox, oy, oz, nx, ny, nz)];
	__syncthreads();
	C* sb = samples + (long long) b * m;
	for (int i = start + threadIdx.x; i < start + count; i += blockDim.x) {
		T kx[W], ky[W];
		kernel_values<T, W>(kx, ks, fx[i]);
		kernel_values<T, W>(ky, ks, fy[i]);
		const C* base = tile + (iy[i] - oy) * tx + ix[i] - ox;
		T offz = 0;
		if (D == 3) {
			offz = fz[i];
			base += (iz[i] - oz) * tx * ty;
		}
		T sr = 0, si = 0;
#pragma unroll 1
		for (int jz = 0; jz < (D == 3 ? W : 1); jz++) {
			const T kz = D == 3 ? kernel_cell<T, W>(ks, offz, jz) : (T) 1;
			const C* plane = base + jz * tx * ty;
			T pr = 0, pi = 0;
#pragma unroll (W <= 8 ? W : 2)
			for (int jy = 0; jy < W; jy++) {
				const C* row = plane + jy * tx;
				T rr = 0, ri = 0;
#pragma unroll
				for (int jx = 0; jx < W; jx++) {
					const C v = row[jx];
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
		sb[perm[i]] = out;
	}
}

// -- entry points: interp_tiles_<2d|3d>_<f|d>_w<W>, launched by GpuNufftPlan with (PointArgs, grid, samples, batch,
// KernelSpec); the struct is unpacked into the __restrict__ arguments of interp_tiles (the batch is the grid's y
// extent; in 2D the z sizes are the constant 1, as the compiler saw them before the struct) --

#define INTERP_ENTRY(T, S, W, D)                                                                                        \
	extern "C" __global__ void __launch_bounds__(256) interp_tiles_##D##d_##S##_w##W(                                  \
		const __grid_constant__ PointArgs<T> p,                                                                        \
		const Cplx<T>::type* grid, Cplx<T>::type* samples, int, const KernelSpec<T> ks)                                 \
	{                                                                                                                   \
		interp_tiles<T, W, D>(p.perm, p.first[0], p.first[1], D == 3 ? p.first[2] : nullptr, p.offset[0],             \
			p.offset[1], D == 3 ? p.offset[2] : nullptr, p.m, p.subBin, p.subStart, p.subCount, p.bins[0],             \
			D == 3 ? p.bins[1] : 1, p.bin[0], p.bin[1], D == 3 ? p.bin[2] : 1, grid, samples, p.grid[0], p.grid[1],    \
			D == 3 ? p.grid[2] : 1, ks);                                                                                \
	}

#define INTERP_ENTRIES(T, S, W) INTERP_ENTRY(T, S, W, 2) INTERP_ENTRY(T, S, W, 3)

FOR_EACH_WIDTH(INTERP_ENTRIES, float, f)
FOR_EACH_WIDTH(INTERP_ENTRIES, double, d)
