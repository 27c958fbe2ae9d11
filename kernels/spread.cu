// Spreading (adjoint NUFFT, type 1): samples -> oversampled grid, g(l) = Σ_m y_m ψ(t_m − l) per axis.
//
// Points arrive bin-sorted (GpuPoints sorts them on the host in setPoints): i is the sorted index, perm[i] the
// sample's index in the caller's order, (ix, iy, iz) the first grid cell of its W-wide stencil per axis (normalised
// so that ix + ⌊W/2⌋ lies in [0, nx)), (fx, fy, fz) = ix − t, the kernel argument of that first cell.
// Grid and sample buffers hold B transforms: grid[b·G + …], samples[b·M + …], complex interleaved.
// The width W is a template constant (one entry point per W = 2..16, suffix _wW) so every stencil loop unrolls and
// the kernel values stay in registers; ψ is evaluated as KernelSpec says (nufft_common.cuh).
//
// Methods (SpreadMethod):
//  ATOMIC: one thread per sorted point, global atomics (neighbouring threads hit neighbouring cells thanks to the
//          sort, so the L2 atomics coalesce), all B transforms per thread (kernel values computed once).
//  SHARED: one block per (subproblem, transform); a subproblem is ≤ maxSub points of one bin, accumulated in a
//          shared-memory tile of (bin + W − 1) cells per axis, then added to the grid with global atomics
//          (Sørensen's hybrid gridding / gpuNUFFT sectors / cuFINUFFT "SM"), kernels spread_tiles_*. Threads run over
//          (point, tap) pairs: the block first stages a chunk of points (kernel values, tile offsets, sample value)
//          in shared memory, then consecutive threads take consecutive taps of one point, so the lanes of a warp
//          update distinct cells. (Shared-memory float atomics are compare-and-swap loops on sm_90, ATOMS.CAST.SPIN:
//          one point per thread, as first written, had the lanes of a warp — neighbouring sorted points — retry on
//          the same cells; docs/gpu-tuning.md has the timings.) The tile is planar (real plane, then imaginary) with
//          a row pitch of bin + W cells, so the W taps of W consecutive rows fall in distinct banks.
//          In 3D the tiles are filled by spread_serial_* instead (below; GpuHeuristics.serialBlock): each thread owns
//          fixed taps of the stencil and the block takes the staged points one at a time with a barrier between them,
//          so the tile is updated with plain loads and stores, no shared atomics (cuFINUFFT's output-driven method
//          also spreads point by point; here the block has ⌈W³/32⌉ warps, so a point takes one round of the block,
//          not ⌈W³/256⌉ partly idle ones). spread_tiles_3d_* stays for the A/B (-Dnufftj.spread3d=atomic).
#include "nufft_common.cuh"

/**
 * ATOMIC: one thread per sorted point i < m, all B transforms per thread. D = 2 or 3 (iz, fz unused in 2D, nz = 1):
 * one template, the z loop of one pass and its weight folded away in 2D.
 */
template <typename T, int W, int D>
__device__ __forceinline__ void spread_atomic(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid,
	int nx, int ny, int nz, int batch, const KernelSpec<T>& ks)
{
	typedef typename Cplx<T>::type C;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	T kx[W], ky[W];
	kernel_values<T, W>(kx, ks, fx[i]);
	kernel_values<T, W>(ky, ks, fy[i]);
	const T offz = D == 3 ? fz[i] : (T) 0;
	const int p = perm[i], x0 = ix[i], y0 = iy[i], z0 = D == 3 ? iz[i] : 0;
	int xs[W];
#pragma unroll
	for (int jx = 0; jx < W; jx++) xs[jx] = wrap(x0 + jx, nx);
	const long long g = (long long) nx * ny * nz;
	for (int b = 0; b < batch; b++) {
		const C c = samples[(long long) b * m + p];
		C* gb = grid + b * g;
#pragma unroll 1
		for (int jz = 0; jz < (D == 3 ? W : 1); jz++) {
			const T kz = D == 3 ? kernel_cell<T, W>(ks, offz, jz) : (T) 1;
			C* plane = D == 3 ? gb + (long long) wrap(z0 + jz, nz) * ny * nx : gb;
#pragma unroll (W <= 8 ? W : 2)
			for (int jy = 0; jy < W; jy++) {
				C* row = plane + (long long) wrap(y0 + jy, ny) * nx;
				const T k = D == 3 ? kz * ky[jy] : ky[jy];
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

/**
 * Adds nc tiles to nc periodic grids, skipping zero cells: tile c's cell s has its real part at t[c·stride + s·cs] and
 * its imaginary part imoff values after it (planar tiles: cs = 1, imoff = the plane; interleaved: cs = 2, imoff = 1),
 * tx × ty × tz cells used, row pitch px ≥ tx; grid c at gb + c·g. A thread takes a cell of every tile in turn, so the
 * cell's grid index is computed once for all of them.
 */
template <typename T>
__device__ __forceinline__ void flush_tiles(const T* t, int cs, int imoff, int stride, int nc,
	typename Cplx<T>::type* gb, long long g, int ox, int oy, int oz, int tx, int ty, int tz, int px, int nx, int ny,
	int nz)
{
	for (TileWalk w(tx, ty, tz); w.more(); w.next()) {
		const int s = ((w.cz * ty + w.cy) * px + w.cx) * cs;
		const long long gi = w.grid(ox, oy, oz, nx, ny, nz);
		for (int c = 0; c < nc; c++) {
			typename Cplx<T>::type v;
			v.x = t[c * stride + s];
			v.y = t[c * stride + s + imoff];
			if (v.x != (T) 0 || v.y != (T) 0) atomic_add_c(&gb[c * g + gi], v);
		}
	}
}

/** Points staged per chunk by the tiles_* spreaders (= threads per block). */
#define TILE_CHUNK 256

/**
 * Shared-memory layout of the tiles_* spreaders (D = 2 or 3 axes): the tile's real and imaginary planes
 * (pitch (bx + W) × (by + W − 1) [× (bz + W − 1)] cells each), then per staged point its D·W kernel values, its tile
 * cell offset and its sample value. GpuHeuristics.stagedTileBytes computes the same size.
 */
template <typename T, int W, int D>
struct TileStage {
	T* re;
	T* im;
	T* k;        // [TILE_CHUNK][D·W]
	int* cell;   // [TILE_CHUNK] offset of the stencil's first cell in the tile planes
	T* vr;       // [TILE_CHUNK]
	T* vi;       // [TILE_CHUNK]
	__device__ TileStage(unsigned char* smem, int planeCells) {
		re = reinterpret_cast<T*>(smem);
		im = re + planeCells;
		k = im + planeCells;
		vr = k + TILE_CHUNK * D * W;
		vi = vr + TILE_CHUNK;
		cell = reinterpret_cast<int*>(vi + TILE_CHUNK);
	}
};

/**
 * Stages points first .. first + n − 1 (n ≤ TILE_CHUNK) in st: their D·W kernel values, the tile offset of their first
 * stencil cell (tile origin ox, oy, oz; row pitch px, ty rows per plane) and their sample value.
 */
template <typename T, int W, int D>
__device__ __forceinline__ void stage_points(const TileStage<T, W, D>& st, const int* __restrict__ perm,
	const int* __restrict__ ix, const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx,
	const T* __restrict__ fy, const T* __restrict__ fz, int first, int n, int ox, int oy, int oz, int px, int ty,
	const typename Cplx<T>::type* __restrict__ sb, const KernelSpec<T>& ks)
{
	for (int t = threadIdx.x; t < n; t += blockDim.x) {
		const int i = first + t;
		T* k = st.k + t * D * W;
		kernel_values<T, W>(k, ks, fx[i]);
		kernel_values<T, W>(k + W, ks, fy[i]);
		if (D == 3) {
			kernel_values<T, W>(k + 2 * W, ks, fz[i]);
			st.cell[t] = ((iz[i] - oz) * ty + iy[i] - oy) * px + ix[i] - ox;
		}
		else {
			st.cell[t] = (iy[i] - oy) * px + ix[i] - ox;
		}
		const typename Cplx<T>::type v = sb[perm[i]];
		st.vr[t] = v.x;
		st.vi[t] = v.y;
	}
}

/**
 * SHARED: one block per (subproblem s = blockIdx.x, transform b = blockIdx.y). D = 2 or 3 (iz, fz, nby, bz unused in
 * 2D, nz = 1): one template; the tap loop is written per dimension (2D: W² taps of a point; 3D: W³).
 */
template <typename T, int W, int D>
__device__ __forceinline__ void spread_tiles(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const int* __restrict__ subBin, const int* __restrict__ subStart,
	const int* __restrict__ subCount, int nbx, int nby, int bx, int by, int bz,
	const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny, int nz,
	const KernelSpec<T>& ks)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char smem[];
	const int s = blockIdx.x, b = blockIdx.y;
	const int px = bx + W, tx = bx + W - 1, ty = by + W - 1, tz = D == 3 ? bz + W - 1 : 1, plane = px * ty * tz;
	TileStage<T, W, D> st(smem, plane);
	for (int k = threadIdx.x; k < plane; k += blockDim.x) {
		st.re[k] = 0;
		st.im[k] = 0;
	}
	const int bin = subBin[s], start = subStart[s], count = subCount[s];
	const int ox = (bin % nbx) * bx - W / 2, oy = (D == 3 ? (bin / nbx) % nby : bin / nbx) * by - W / 2;
	const int oz = D == 3 ? (bin / (nbx * nby)) * bz - W / 2 : 0;
	const C* sb = samples + (long long) b * m;
	for (int c0 = 0; c0 < count; c0 += TILE_CHUNK) {
		const int n = min(TILE_CHUNK, count - c0);
		__syncthreads(); // tile cleared / previous chunk's taps done before the stage is overwritten
		stage_points<T, W, D>(st, perm, ix, iy, iz, fx, fy, fz, start + c0, n, ox, oy, oz, px, ty, sb, ks);
		__syncthreads();
		if (D == 2) {
			for (int e = threadIdx.x; e < n * W * W; e += blockDim.x) {
				const int p = e / (W * W), r = e - p * (W * W), jy = r / W, jx = r - jy * W;
				const T* k = st.k + p * 2 * W;
				const T w = k[jx] * k[W + jy];
				const int cell = st.cell[p] + jy * px + jx;
				atomicAdd(&st.re[cell], st.vr[p] * w);
				atomicAdd(&st.im[cell], st.vi[p] * w);
			}
		}
		else {
			for (int e = threadIdx.x; e < n * W * W * W; e += blockDim.x) {
				const int p = e / (W * W * W), r = e - p * (W * W * W), jz = r / (W * W), r2 = r - jz * (W * W);
				const int jy = r2 / W, jx = r2 - jy * W;
				const T* k = st.k + p * 3 * W;
				const T w = k[jx] * k[W + jy] * k[2 * W + jz];
				const int cell = st.cell[p] + (jz * ty + jy) * px + jx;
				atomicAdd(&st.re[cell], st.vr[p] * w);
				atomicAdd(&st.im[cell], st.vi[p] * w);
			}
		}
	}
	__syncthreads();
	flush_tiles<T>(st.re, 1, plane, 0, 1, grid + (long long) b * nx * ny * nz, 0, ox, oy, oz, tx, ty, tz, px, nx, ny, nz);
}

/**
 * Points a chunk of spread_serial_3d_* stages at most (fewer where the shared memory the host gives the block,
 * GpuHeuristics.stagedTileBytes, holds fewer).
 */
#define SERIAL_CHUNK 64

/** The dynamic shared memory of this launch, in bytes. */
__device__ __forceinline__ unsigned dynamic_smem_bytes() {
	unsigned v;
	asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v));
	return v;
}

/**
 * SHARED in 3D, point-serial: one block per (subproblem, transform) as spread_tiles, the same tile (real and imaginary
 * planes, pitch bx + W), but thread t owns taps t, t + blockDim, … of every point's W³ stencil (x fastest) and the
 * block takes the staged points one at a time with a barrier after each: no two threads touch one cell between
 * barriers, so the tile is updated with plain loads and stores (a shared float atomicAdd is a CAS loop on sm_90).
 * blockDim is GpuHeuristics.serialBlock(W) = ⌈W³/32⌉·32 up to 512: one round per point up to W = 8.
 * A chunk of points is staged as products, so that a tap costs one product and two multiply-adds: per point its
 * sample times the x kernel values (W complex values, ax) and the W² products ψy·ψz (kyz, z outer), computed by the
 * whole block from the points' kernel values (k) after they are evaluated; a chunk holds as many points (up to
 * SERIAL_CHUNK) as fit the bytes that GpuHeuristics.stagedTileBytes gives the block (the size of spread_tiles' stage
 * of TILE_CHUNK points). Per tap and point the loop then reads ax and kyz and updates the cell, where it read three
 * kernel values and the sample and multiplied twice: on the H200 the 3D spreads at W = 7 and 8 took 0.94–0.96 of the
 * time, W = 5 the same (docs/gpu-tuning.md, fourth session of 2026-11-29).
 */
template <typename T, int W>
__device__ __forceinline__ void spread_serial3(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const int* __restrict__ iz, const T* __restrict__ fx, const T* __restrict__ fy,
	const T* __restrict__ fz, int m, const int* __restrict__ subBin, const int* __restrict__ subStart,
	const int* __restrict__ subCount, int nbx, int nby, int bx, int by, int bz,
	const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny, int nz,
	const KernelSpec<T>& ks)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char smem[];
	const int s = blockIdx.x, b = blockIdx.y;
	const int px = bx + W, tx = bx + W - 1, ty = by + W - 1, tz = bz + W - 1, plane = px * ty * tz;
	constexpr int TAPS = W * W * W, PER = 3 * W + 2 * W + W * W; // reals a staged point takes, and a cell offset
	// Stage: ax [chunk][W] complex, then the tile planes, then k [chunk][3W], kyz [chunk][W²], cell [chunk]
	// (complex values first: their alignment).
	const int chunk = min(SERIAL_CHUNK, (int) ((dynamic_smem_bytes() - 2u * plane * sizeof(T)) / (PER * sizeof(T) +
		sizeof(int))));
	C* const ax = reinterpret_cast<C*>(smem);
	T* const re = reinterpret_cast<T*>(ax + chunk * W);
	T* const im = re + plane;
	T* const kv = im + plane;
	T* const kyz = kv + chunk * 3 * W;
	int* const cell = reinterpret_cast<int*>(kyz + chunk * W * W);
	for (int k = threadIdx.x; k < plane; k += blockDim.x) {
		re[k] = 0;
		im[k] = 0;
	}
	const int bin = subBin[s], start = subStart[s], count = subCount[s];
	const int ox = (bin % nbx) * bx - W / 2, oy = ((bin / nbx) % nby) * by - W / 2, oz = (bin / (nbx * nby)) * bz - W / 2;
	const C* sb = samples + (long long) b * m;
	// This thread's first tap (the only one up to W = 8): its cell offset in the tile, x index and (y, z) index.
	const int e0 = threadIdx.x, jz0 = e0 / (W * W), jy0 = (e0 / W) % W, jx0 = e0 % W;
	const int cell0 = (jz0 * ty + jy0) * px + jx0, yz0 = jz0 * W + jy0;
	for (int c0 = 0; c0 < count; c0 += chunk) {
		const int n = min(chunk, count - c0);
		__syncthreads(); // tile cleared / the previous chunk's last point done before the stage is overwritten
		for (int t = threadIdx.x; t < n; t += blockDim.x) {
			const int i = start + c0 + t;
			T* const k = kv + t * 3 * W;
			kernel_values<T, W>(k, ks, fx[i]);
			kernel_values<T, W>(k + W, ks, fy[i]);
			kernel_values<T, W>(k + 2 * W, ks, fz[i]);
			cell[t] = ((iz[i] - oz) * ty + iy[i] - oy) * px + ix[i] - ox;
			const C v = sb[perm[i]];
#pragma unroll
			for (int j = 0; j < W; j++) {
				C a;
				a.x = v.x * k[j];
				a.y = v.y * k[j];
				ax[t * W + j] = a;
			}
		}
		__syncthreads();
		for (int f = threadIdx.x; f < n * W * W; f += blockDim.x) {
			const int t = f / (W * W), e = f - t * (W * W);
			const T* const k = kv + t * 3 * W;
			kyz[f] = k[W + e % W] * k[2 * W + e / W];
		}
		__syncthreads();
		for (int p = 0; p < n; p++) {
			const int base = cell[p];
			if (e0 < TAPS) {
				const C a = ax[p * W + jx0];
				const T w = kyz[p * W * W + yz0];
				re[base + cell0] += a.x * w;
				im[base + cell0] += a.y * w;
			}
			for (int e = e0 + blockDim.x; e < TAPS; e += blockDim.x) {
				const int jz = e / (W * W), jy = (e / W) % W, jx = e % W;
				const C a = ax[p * W + jx];
				const T w = kyz[p * W * W + jz * W + jy];
				const int c = base + (jz * ty + jy) * px + jx;
				re[c] += a.x * w;
				im[c] += a.y * w;
			}
			__syncthreads(); // the next point may share cells with this one
		}
	}
	__syncthreads();
	flush_tiles<T>(re, 1, plane, 0, 1, grid + (long long) b * nx * ny * nz, 0, ox, oy, oz, tx, ty, tz, px, nx, ny, nz);
}

/**
 * Points staged per chunk by spread_coils_2d_* at width W (GpuHeuristics.coilChunk): 64 at W = 4, where the smaller
 * stage leaves room for more blocks per SM, else 128.
 */
__host__ __device__ constexpr int coil_chunk(int w) {
	return w == 4 ? 64 : 128;
}

/** Coils one warp of spread_coils_2d_* spreads at once: the W² taps of a coil take W² lanes (GpuHeuristics.coilsPerWarp). */
__host__ __device__ constexpr int coils_per_warp(int w) {
	return w * w <= 16 ? 32 / (w * w) : 1;
}

/**
 * The float count of one tile plane of spread_coils_2d_* for `cells` cells: rounded up to 8 mod 16, so that the
 * planes of two coils side by side in a warp (W = 4: lanes 0–15 and 16–31) start 16 banks apart
 * (GpuHeuristics.coilPlane).
 */
__device__ __forceinline__ int coil_plane(int cells) {
	return (cells + 7) / 16 * 16 + 8;
}

/**
 * SHARED in 2D for a batch of transforms (coils), point-serial per warp: one block per (subproblem s = blockIdx.x,
 * group of coils blockIdx.y); each warp owns coils_per_warp(W) coils of the group and each of its lanes fixed taps of
 * the W² stencil of one of them, and the warp takes the staged points one at a time with a __syncwarp between them.
 * No two lanes touch one cell between two __syncwarps and no two warps share a coil's tile, so the tiles are updated
 * with plain loads and stores (no shared atomics, which are compare-and-swap loops for float on sm_90), and the kernel
 * values, tile offsets and coordinates of a point are computed once for the whole group instead of once per coil as
 * spread_tiles does. Shared memory: per coil of the group a real and an imaginary plane of coil_plane((bx + W) ×
 * (by + W − 1)) values, then per staged point (coil_chunk(W) of them) its 2W kernel values, and per coil its sample
 * values (pitch 2·coil_chunk(W) + 1), then per staged point its tile offset (GpuHeuristics.coilTileBytes computes the
 * same size).
 * At W = 4 in float (CPLX) a coil's tile is one interleaved complex plane of (bx + W) × (by + W − 1) cells in the
 * place of its two planes, and its samples are complex values in the place of its two rows, so a lane's update is one
 * 64-bit load and store and its sample one 64-bit read (a half-warp's 16 taps of 4 rows at a pitch ≡ 4 mod 8 cells
 * cover the 32 banks once); and each point's operands are read before the previous point's update. On the H200 the
 * radial 512² × 8 spread took 0.299 ms with the interleaved tiles against 0.319 with the planes, 0.286–0.290 with the
 * operands read ahead too (docs/gpu-tuning.md, seventh session).
 */
template <typename T, int W>
__device__ __forceinline__ void spread_coils2(const int* __restrict__ perm, const int* __restrict__ ix,
	const int* __restrict__ iy, const T* __restrict__ fx, const T* __restrict__ fy, int m,
	const int* __restrict__ subBin, const int* __restrict__ subStart, const int* __restrict__ subCount, int nbx, int bx,
	int by, const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny,
	int batch, const KernelSpec<T>& ks)
{
	constexpr int TAPS = W * W, CPW = coils_per_warp(W), LPC = CPW > 1 ? TAPS : 32, TPL = (TAPS + LPC - 1) / LPC;
	constexpr int COIL_CHUNK = coil_chunk(W);
	// W = 4 in float: interleaved complex tiles and samples, and each point's operands read ahead (below).
	constexpr bool CPLX = W == 4 && sizeof(T) == 4;
	typedef typename Cplx<T>::type C;
	constexpr int SV = 2 * COIL_CHUNK + 1; // sample values of one coil: real [0, CHUNK), imaginary [CHUNK, 2 CHUNK)
	extern __shared__ __align__(16) unsigned char smem[];
	const int cb = (blockDim.x / 32) * CPW, c0 = blockIdx.y * cb, nc = min(cb, batch - c0);
	const int px = bx + W, tx = bx + W - 1, ty = by + W - 1, cells = px * ty, plane = coil_plane(cells);
	T* const tiles = reinterpret_cast<T*>(smem);  // [cb][2][plane]
	T* const kv = tiles + 2 * cb * plane;          // [COIL_CHUNK][2W]
	T* const sv = kv + COIL_CHUNK * 2 * W;         // [cb][SV]
	int* const cell = reinterpret_cast<int*>(sv + cb * SV); // [COIL_CHUNK]
	for (int k = threadIdx.x; k < 2 * nc * plane; k += blockDim.x) tiles[k] = 0;
	const int s = blockIdx.x, bin = subBin[s], start = subStart[s], count = subCount[s];
	const int ox = (bin % nbx) * bx - W / 2, oy = (bin / nbx) * by - W / 2;
	// This lane's coil (of the group) and taps: tap t = lane mod LPC + q·LPC (q < TPL), x fastest.
	const int lane = threadIdx.x & 31, coil = (threadIdx.x >> 5) * CPW + lane / LPC, first = lane % LPC;
	const bool mine = coil < nc && lane < CPW * LPC;
	int jx[TPL], jy[TPL], off[TPL];
#pragma unroll
	for (int q = 0; q < TPL; q++) {
		const int t = first + q * LPC;
		jx[q] = t % W;
		jy[q] = t / W; // ≥ W for a lane past the last tap: skipped below
		off[q] = jy[q] * px + jx[q];
	}
	T* const re = tiles + 2 * (mine ? coil : 0) * plane;
	T* const im = re + plane;
	const T* const vr = sv + (mine ? coil : 0) * SV;
	const T* const vi = vr + COIL_CHUNK;
	C* const ct = reinterpret_cast<C*>(tiles) + (mine ? coil : 0) * plane;
	const C* const cv = reinterpret_cast<const C*>(sv) + (mine ? coil : 0) * COIL_CHUNK;
	for (int c0p = 0; c0p < count; c0p += COIL_CHUNK) {
		const int n = min(COIL_CHUNK, count - c0p);
		__syncthreads(); // tiles cleared / the previous chunk's points done before the stage is overwritten
		for (int t = threadIdx.x; t < n; t += blockDim.x) {
			const int i = start + c0p + t;
			kernel_values<T, W>(kv + t * 2 * W, ks, fx[i]);
			kernel_values<T, W>(kv + t * 2 * W + W, ks, fy[i]);
			cell[t] = (iy[i] - oy) * px + ix[i] - ox;
		}
		for (int e = threadIdx.x; e < nc * COIL_CHUNK; e += blockDim.x) {
			const int c = e / COIL_CHUNK, t = e % COIL_CHUNK; // constant divisor: no division
			if (t < n) {
				const C v = samples[(long long) (c0 + c) * m + perm[start + c0p + t]];
				if constexpr (CPLX) {
					reinterpret_cast<C*>(sv)[c * COIL_CHUNK + t] = v;
				}
				else {
					sv[c * SV + t] = v.x;
					sv[c * SV + COIL_CHUNK + t] = v.y;
				}
			}
		}
		__syncthreads();
		if constexpr (CPLX) {
			// One tap a lane (TPL = 1). A point's operands (tile offset, sample, tap weight) are read before the previous
			// point's cell is updated, so a point waits for one shared load (its cell's), not two in a row.
			int base = cell[0];
			C a = cv[0];
			T w = kv[jx[0]] * kv[W + jy[0]];
			for (int p = 0; p < n; p++) {
				const int pn = p + 1 < n ? p + 1 : p;
				const int nbase = cell[pn];
				const C na = cv[pn];
				const T nw = kv[pn * 2 * W + jx[0]] * kv[pn * 2 * W + W + jy[0]];
				if (mine) {
					C t = ct[base + off[0]];
					t.x += a.x * w;
					t.y += a.y * w;
					ct[base + off[0]] = t;
				}
				__syncwarp(); // the next point may share cells with this one
				base = nbase;
				a = na;
				w = nw;
			}
		}
		else {
			for (int p = 0; p < n; p++) {
				if (mine) {
					const T* const k = kv + p * 2 * W;
					const int base = cell[p];
					const T ar = vr[p], ai = vi[p];
#pragma unroll
					for (int q = 0; q < TPL; q++) {
						if (CPW > 1 || jy[q] < W) {
							const T w = k[jx[q]] * k[W + jy[q]];
							re[base + off[q]] += ar * w;
							im[base + off[q]] += ai * w;
						}
					}
				}
				__syncwarp(); // the next point may share cells with this one
			}
		}
	}
	__syncthreads();
	flush_tiles<T>(tiles, CPLX ? 2 : 1, CPLX ? 1 : plane, 2 * plane, nc, grid + (long long) c0 * nx * ny,
		(long long) nx * ny, ox, oy, 0, tx, ty, 1, px, nx, ny, 1);
}

// -- entry points: <kernel>_<2d|3d>_<f|d>_w<W>, launched by GpuNufftPlan with (PointArgs, samples, grid, batch,
// KernelSpec); the struct is unpacked into __restrict__ arguments of the templates above --

#define SPREAD_ENTRY(NAME, FN, T, S, W, D)                                                                              \
	extern "C" __global__ void __launch_bounds__(256) NAME##_##D##d_##S##_w##W(                                        \
		const __grid_constant__ PointArgs<T> p,                                                                        \
		const Cplx<T>::type* samples, Cplx<T>::type* grid, int batch, const KernelSpec<T> ks)                           \
	{                                                                                                                   \
		FN<T, W, D>(p, samples, grid, batch, ks);                                                                       \
	}

/** spread_atomic from the struct. */
template <typename T, int W, int D>
__device__ __forceinline__ void atomic_entry(const PointArgs<T>& p, const typename Cplx<T>::type* samples,
	typename Cplx<T>::type* grid, int batch, const KernelSpec<T>& ks)
{
	spread_atomic<T, W, D>(p.perm, p.first[0], p.first[1], D == 3 ? p.first[2] : nullptr, p.offset[0], p.offset[1],
		D == 3 ? p.offset[2] : nullptr, p.m, samples, grid, p.grid[0], p.grid[1], D == 3 ? p.grid[2] : 1, batch, ks);
}

/** spread_tiles from the struct (the batch is the grid's y extent). */
template <typename T, int W, int D>
__device__ __forceinline__ void tiles_entry(const PointArgs<T>& p, const typename Cplx<T>::type* samples,
	typename Cplx<T>::type* grid, int, const KernelSpec<T>& ks)
{
	spread_tiles<T, W, D>(p.perm, p.first[0], p.first[1], D == 3 ? p.first[2] : nullptr, p.offset[0], p.offset[1],
		D == 3 ? p.offset[2] : nullptr, p.m, p.subBin, p.subStart, p.subCount, p.bins[0], D == 3 ? p.bins[1] : 1,
		p.bin[0], p.bin[1], D == 3 ? p.bin[2] : 1, samples, grid, p.grid[0], p.grid[1], D == 3 ? p.grid[2] : 1, ks);
}

/** spread_serial3 from the struct (3D only; launched with GpuHeuristics.serialBlock(W) threads). */
template <typename T, int W>
__device__ __forceinline__ void serial_entry(const PointArgs<T>& p, const typename Cplx<T>::type* samples,
	typename Cplx<T>::type* grid, const KernelSpec<T>& ks)
{
	spread_serial3<T, W>(p.perm, p.first[0], p.first[1], p.first[2], p.offset[0], p.offset[1], p.offset[2], p.m,
		p.subBin, p.subStart, p.subCount, p.bins[0], p.bins[1], p.bin[0], p.bin[1], p.bin[2], samples, grid, p.grid[0],
		p.grid[1], p.grid[2], ks);
}

#define SERIAL_ENTRY(T, S, W)                                                                                           \
	extern "C" __global__ void __launch_bounds__(512) spread_serial_3d_##S##_w##W(const __grid_constant__ PointArgs<T> p, \
		const Cplx<T>::type* samples, Cplx<T>::type* grid, int batch, const KernelSpec<T> ks)                           \
	{                                                                                                                   \
		serial_entry<T, W>(p, samples, grid, ks);                                                                       \
	}

/** spread_coils2 from the struct (2D only; blockIdx.y = group of coils, launched with GpuHeuristics.coilWarps warps). */
#define COILS_ENTRY(T, S, W)                                                                                            \
	extern "C" __global__ void __launch_bounds__(256) spread_coils_2d_##S##_w##W(const __grid_constant__ PointArgs<T> p, \
		const Cplx<T>::type* samples, Cplx<T>::type* grid, int batch, const KernelSpec<T> ks)                           \
	{                                                                                                                   \
		spread_coils2<T, W>(p.perm, p.first[0], p.first[1], p.offset[0], p.offset[1], p.m, p.subBin, p.subStart,       \
			p.subCount, p.bins[0], p.bin[0], p.bin[1], samples, grid, p.grid[0], p.grid[1], batch, ks);                  \
	}

#define SPREAD_ENTRIES(T, S, W)                                                                                         \
	COILS_ENTRY(T, S, W)                                                                                                \
	SPREAD_ENTRY(spread_atomic, atomic_entry, T, S, W, 2)                                                               \
	SPREAD_ENTRY(spread_atomic, atomic_entry, T, S, W, 3)                                                               \
	SPREAD_ENTRY(spread_tiles, tiles_entry, T, S, W, 2)                                                                 \
	SPREAD_ENTRY(spread_tiles, tiles_entry, T, S, W, 3)                                                                 \
	SERIAL_ENTRY(T, S, W)

FOR_EACH_WIDTH(SPREAD_ENTRIES, float, f)
FOR_EACH_WIDTH(SPREAD_ENTRIES, double, d)
