// Output-driven spreading (adjoint NUFFT, type 1) for 2D radial lines: one thread per fine-grid cell gathers the
// samples whose stencils cover it (TRON, Smith et al. 2019, Algorithm G), so no atomics, and every cell is written
// exactly once per transform (the grid needs no clearing pass).
//
// Geometry (GpuRadial builds it on the host from org.nufftj.trajectory.RadialLines, in grid units t = k·n per axis):
// spoke s holds the samples base_s + i, i = 0..R−1, at t(i) ≈ (i − c_s)·d_s; d_s is its grid-unit step (anisotropic
// grids scale the axes differently, so its angle is taken after scaling). Spokes arrive sorted by the angle of their
// line in [0, π); spokes[] holds (1/d_x, 1/d_y, c, base as int bits), angles[] the sorted angles. The model only
// selects candidates; whether and how a sample touches a cell is decided from the sample's own stencil, computed on
// the host in double from the caller's coordinates exactly as the CPU engine and GpuPoints do: l0 = ⌈t − W/2⌉ per
// axis (first[m], unwrapped) and off = l0 − t (off[m]). Cell L (unwrapped) gets weight ψ(off + j), j = L − l0, when
// 0 ≤ j < W: so the weights are those of the other GPU methods, and a sample whose t − W/2 is an integer (every sample
// of an axis-aligned spoke at σ = 2) falls on the same side of ⌈·⌉ as on the CPU, which a position recomputed from the
// model (even in double) would not guarantee. `margin` (cells) covers the samples' largest distance from their model
// plus the float rounding of the selection.
//
// Work split: a warp owns a tile of 8 × 4 cells (a block 16 × 16), lane → (lane % 8, lane / 8). Every loop is
// warp-uniform: the tile, not the lane, selects images, spokes and sample ranges; each lane then tests the sample
// against its own cell. So lanes never diverge in control flow, and every load in the loops (spoke, stencil, sample
// values) is one address for the whole warp (a broadcast, L1-resident: neighbouring warps read the same spokes).
//  images   a cell l ∈ [0, n) receives samples through its unwrapped images L = l + k·n that samples can reach
//           (reach[] = the least and greatest L over all stencils, from the host; usually k ∈ {0, −1}).
//  spokes   a spoke can reach a cell of the tile only if its line passes within W/√2 (the stencil box's half-diagonal)
//           of that cell, hence within ρ = W/√2 + h (+ margins) of the tile centre, h the tile's half-diagonal: the
//           angle window |φ − α| ≤ asin(ρ/r) (mod π) around the centre's angle φ at radius r; binary search in
//           angles[], with wrap at π; all spokes when ρ ≥ r.
//  samples  per spoke, the index range whose model position lies in the tile's box widened by W/2 + margin on each
//           axis (i − c = t/d solved per axis, intersected with [0, R−1], widened by the float rounding of the bounds).
// Transforms: blockIdx.y takes BC of them (8 float, 4 double), accumulated in registers, so the kernel weights of a
// (cell, sample) pair are computed once per BC transforms (per coil group) and each sample value load serves them.
#include "nufft_common.cuh"

#define RADIAL_TILE_X 8
#define RADIAL_TILE_Y 4
#define RADIAL_BLOCK_X 16
#define RADIAL_BLOCK_Y 16
/** Transforms per block (blockIdx.y): GpuHeuristics.radialBatch mirrors these. */
#define RADIAL_BATCH_F 8
#define RADIAL_BATCH_D 4
#define RADIAL_PI 3.14159265358979f

/** First index in sorted a[0..n) whose value is ≥ v (n when none); warp-uniform when v is. */
__device__ __forceinline__ int first_at_least(const float* __restrict__ a, int n, float v) {
	int lo = 0, len = n;
	while (len > 0) {
		const int half = len >> 1;
		if (__ldg(a + lo + half) < v) {
			lo += half + 1;
			len -= half + 1;
		}
		else {
			len = half;
		}
	}
	return lo;
}

/**
 * Narrows [ilo, ihi] to the sample indices i whose model position (i − c)/inv lies in (lo, hi] on one axis
 * (inv = 1/d). A spoke that does not move on this axis (inv infinite) sits at 0: all or nothing.
 */
__device__ __forceinline__ void narrow(float inv, float c, float lo, float hi, float& ilo, float& ihi) {
	if (fabsf(inv) <= 3.0e38f) {
		const float a = fmaf(lo, inv, c), b = fmaf(hi, inv, c);
		ilo = fmaxf(ilo, fminf(a, b));
		ihi = fminf(ihi, fmaxf(a, b));
	}
	else if (!(lo < 0.f && hi >= 0.f)) {
		ilo = 3.0e38f;
	}
}

/** ⌊a / b⌋ for b > 0. */
__device__ __forceinline__ int floor_div(int a, int b) {
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

template <typename T, int W, int BC>
__device__ __forceinline__ void spread_radial_2d(const int2* __restrict__ first,
	const typename Cplx<T>::type* __restrict__ off, int m, const float4* __restrict__ spokes,
	const float* __restrict__ angles, int nspokes, int readout, int lxmin, int lxmax, int lymin, int lymax,
	float margin, const typename Cplx<T>::type* __restrict__ samples, typename Cplx<T>::type* grid, int nx, int ny,
	int batch, const KernelSpec<T>& ks)
{
	typedef typename Cplx<T>::type C;
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const int tilesX = (nx + RADIAL_BLOCK_X - 1) / RADIAL_BLOCK_X;
	const int x0 = (blockIdx.x % tilesX) * RADIAL_BLOCK_X + (warp % (RADIAL_BLOCK_X / RADIAL_TILE_X)) * RADIAL_TILE_X;
	const int y0 = (blockIdx.x / tilesX) * RADIAL_BLOCK_Y + (warp / (RADIAL_BLOCK_X / RADIAL_TILE_X)) * RADIAL_TILE_Y;
	if (x0 >= nx || y0 >= ny) return; // the whole warp: no cell of its tile exists
	const int x1 = min(x0 + RADIAL_TILE_X - 1, nx - 1), y1 = min(y0 + RADIAL_TILE_Y - 1, ny - 1);
	const int x = x0 + lane % RADIAL_TILE_X, y = y0 + lane / RADIAL_TILE_X;
	const bool inside = x < nx && y < ny;
	const int b0 = blockIdx.y * BC, nb = min(BC, batch - b0);
	C acc[BC];
#pragma unroll
	for (int q = 0; q < BC; q++) {
		acc[q].x = 0;
		acc[q].y = 0;
	}
	const float hw = W * 0.5f + margin;
	// Tile half-diagonal plus the stencil box's (W/√2), plus the samples' distance from the model (√2·margin).
	const float rho = 0.5f * hypotf((float) (x1 - x0), (float) (y1 - y0)) + (W * 0.70710678f) + 1.5f * margin + 1e-3f;
	const C* sb = samples + (long long) b0 * m;
	for (int kx = -floor_div(x1 - lxmin, nx); kx <= floor_div(lxmax - x0, nx); kx++) {
		for (int ky = -floor_div(y1 - lymin, ny); ky <= floor_div(lymax - y0, ny); ky++) {
			// This image of the tile: cells X0..X1 × Y0..Y1 (unwrapped); this lane's cell (Lx, Ly).
			const int X0 = x0 + kx * nx, Y0 = y0 + ky * ny, X1 = x1 + kx * nx, Y1 = y1 + ky * ny;
			const int Lx = inside ? x + kx * nx : INT_MIN / 2, Ly = y + ky * ny;
			const float xc = 0.5f * (float) (X0 + X1), yc = 0.5f * (float) (Y0 + Y1), r = hypotf(xc, yc);
			int s0 = 0, count = nspokes;
			if (rho < 0.9999f * r) {
				const float dphi = asinf(rho / r) + 4e-6f; // < π/2: the two ends of the window never overlap
				float phi = atan2f(yc, xc);
				if (phi < 0.f) phi += RADIAL_PI;
				if (phi >= RADIAL_PI) phi -= RADIAL_PI;
				float lo = phi - dphi;
				if (lo < 0.f) lo += RADIAL_PI;
				const float hi = lo + 2.f * dphi;
				s0 = first_at_least(angles, nspokes, lo);
				count = hi < RADIAL_PI ? first_at_least(angles, nspokes, hi) - s0 :
					nspokes - s0 + first_at_least(angles, nspokes, hi - RADIAL_PI);
			}
			const float bxlo = (float) X0 - hw, bxhi = (float) X1 + hw, bylo = (float) Y0 - hw, byhi = (float) Y1 + hw;
			for (int q = 0; q < count; q++) {
				int s = s0 + q;
				if (s >= nspokes) s -= nspokes;
				const float4 sp = __ldg(spokes + s);
				float ilo = 0.f, ihi = (float) (readout - 1);
				narrow(sp.x, sp.z, bxlo, bxhi, ilo, ihi);
				narrow(sp.y, sp.z, bylo, byhi, ilo, ihi);
				// Widened by eps, which exceeds the float rounding of the bounds (≤ ~5·10⁻⁷ (2|c| + R) samples where a
				// bound lies in [−1, R]): no sample is dropped, and few extra ones are visited.
				const float eps = 1e-3f + 1e-6f * (fabsf(sp.z) + (float) readout);
				const int i0 = max(0, (int) ceilf(ilo - eps)), i1 = min(readout - 1, (int) floorf(ihi + eps));
				const int base = __float_as_int(sp.w);
				for (int i = i0; i <= i1; i++) {
					const int p = base + i;
					const int2 f = __ldg(first + p);
					const int jx = Lx - f.x, jy = Ly - f.y;
					if ((unsigned) jx < (unsigned) W && (unsigned) jy < (unsigned) W) {
						const C o = __ldg(off + p);
						const T w = kernel_cell<T, W>(ks, o.x, jx) * kernel_cell<T, W>(ks, o.y, jy);
						const C* v = sb + p;
#pragma unroll
						for (int b = 0; b < BC; b++) {
							if (b < nb) {
								const C c = __ldg(v + (long long) b * m);
								acc[b].x += w * c.x;
								acc[b].y += w * c.y;
							}
						}
					}
				}
			}
		}
	}
	if (!inside) return;
	C* g = grid + (long long) b0 * nx * ny + (long long) y * nx + x;
#pragma unroll
	for (int b = 0; b < BC; b++)
		if (b < nb) g[(long long) b * nx * ny] = acc[b];
}

// -- entry points: spread_radial_2d_<f|d>_w<W>, launched by GpuNufftPlan with (RadialArgs, samples, grid, batch,
// KernelSpec); the struct is unpacked into the __restrict__ arguments of spread_radial_2d --

#define RADIAL_ENTRIES(T, S, W, BC, MIN_BLOCKS)                                                                         \
	extern "C" __global__ void __launch_bounds__(256, MIN_BLOCKS) spread_radial_2d_##S##_w##W(                         \
		const __grid_constant__ RadialArgs<T> r,                                                                       \
		const Cplx<T>::type* samples, Cplx<T>::type* grid, int batch, const KernelSpec<T> ks)                           \
	{                                                                                                                   \
		spread_radial_2d<T, W, BC>(r.first, r.off, r.m, r.spokes, r.angles, r.nspokes, r.readout, r.reach[0],          \
			r.reach[1], r.reach[2], r.reach[3], r.margin, samples, grid, r.grid[0], r.grid[1], batch, ks);              \
	}

// Blocks per SM the register allocation must allow: float ≤ 64 registers (4 × 256 threads), double ≤ 85 (3 blocks;
// with 64 the double entry points spill).
#define RADIAL_ENTRIES_F(T, S, W) RADIAL_ENTRIES(T, S, W, RADIAL_BATCH_F, 4)
#define RADIAL_ENTRIES_D(T, S, W) RADIAL_ENTRIES(T, S, W, RADIAL_BATCH_D, 3)

FOR_EACH_WIDTH(RADIAL_ENTRIES_F, float, f)
FOR_EACH_WIDTH(RADIAL_ENTRIES_D, double, d)
