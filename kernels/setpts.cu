// Points set on the device (setpts): from the trajectory's coordinates (doubles, uploaded once), the bin-sorted
// stencils and subproblems the binned kernels read (PointArgs), with no loop over points on the host. The same
// arithmetic as the host oracle GpuPoints (and org.nufftj.kernel.Kernels.stencilStart), in double, per axis a with
// grid size n:
//   t = k·n, i0 = ⌈t − W/2⌉, off = i0 − t (the kernel argument of the first stencil cell),
//   c = (i0 + ⌊W/2⌋) mod n (the periodic wrap), first = c − ⌊W/2⌋, bin on the axis = min(⌊c / bin⌋, bins − 1).
// The products and differences use __dmul_rn / __dsub_rn: nvcc would otherwise contract k·n − W/2 into one fma and
// round differently from Java's two roundings. Float plans store off rounded as GpuPointSet.floatOffsets does (one
// ulp nudge away from the ends of [−W/2, −W/2 + 1)).
//
// Kernels, launched in this order on the plan's stream by GpuSetpts (after counts[] is zeroed):
//  setpts_bin_<2d|3d>     one thread per point: its bin b; rank[i] = atomicAdd(&counts[b], 1), its place in the bin.
//  setpts_scan_tiles      one block per SETPTS_SCAN_TILE bins: exclusive prefix sums of (count, ⌈count/maxSub⌉) within
//                         the tile into starts[], the tile's totals into partials[tile].
//  setpts_scan_partials   one block: exclusive prefix sums of partials[] in place (tile offsets), totals into
//                         starts[nbins] (read back by the host: points, a check, and subproblems, the launch size of
//                         the binned kernels).
//  setpts_sort_<2d|3d>_<f|d>  one thread per point and per bin: point i goes to sorted place start(b) + rank[i]
//                         (perm); bin b writes its ⌈count/maxSub⌉ subproblems (bin, start, count) from its subproblem
//                         offset, in bin order as GpuPoints does.
//  setpts_fill_<2d|3d>_<f|d>  one thread per sorted place: the stencil (first, offset) of the point perm[pos], written
//                         at pos (coalesced; at 16M 3D points the scattered stores of the one-pass sort cost 7.6 ms).
// Within a bin the order of the points follows the atomics (not the host's stable order); bin starts, counts and
// the subproblem lists equal the host's exactly.
#include "nufft_common.cuh"

#define SETPTS_THREADS 256
#define SETPTS_SCAN_ITEMS 8
#define SETPTS_SCAN_TILE (SETPTS_THREADS * SETPTS_SCAN_ITEMS)

/** Point i's stencil on axis a: first cell (wrapped), kernel argument, and its bin on the axis. */
__device__ __forceinline__ void setpts_stencil(double k, int n, int w, int bin, int bins, int& first, double& off,
	int& b)
{
	const int hw = w / 2;
	const double t = __dmul_rn(k, (double) n);
	const int i0 = (int) ceil(__dsub_rn(t, (double) w / 2.0));
	off = __dsub_rn((double) i0, t);
	int c = (i0 + hw) % n;
	if (c < 0) c += n;
	first = c - hw;
	b = min(c / bin, bins - 1);
}

/** The point's bin index (x fastest) over D axes; stencils and offsets into the arrays when asked. */
template <int D>
__device__ __forceinline__ int setpts_point(const double* __restrict__ coords, int i, const int* grid, int w,
	const int* bin, const int* bins, int* first, double* off)
{
	int b = 0, stride = 1;
#pragma unroll
	for (int a = 0; a < D; a++) {
		int f, ba;
		double o;
		setpts_stencil(coords[(long long) D * i + a], grid[a], w, bin[a], bins[a], f, o, ba);
		first[a] = f;
		off[a] = o;
		b += stride * ba;
		stride *= bins[a];
	}
	return b;
}

/** The offset as the plan stores it: double as is; float as GpuPointSet.floatOffsets rounds it. */
__device__ __forceinline__ void store_offset(double* p, double off, int) { *p = off; }

__device__ __forceinline__ void store_offset(float* p, double off, int w) {
	const float lo = -(float) w / 2.0f, hi = lo + 1.0f;
	float v = __double2float_rn(off);
	if (off > (double) lo && v <= lo) v = nextafterf(lo, INFINITY);
	if (off < (double) hi && v >= hi) v = nextafterf(hi, -INFINITY);
	*p = v;
}

/** Exclusive block-wide prefix sum of one int2 per thread (SETPTS_THREADS threads); the block's total in *total. */
__device__ __forceinline__ int2 block_exclusive_scan(int2 v, int2* total) {
	__shared__ int2 warps[SETPTS_THREADS / 32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	int2 inc = v;
#pragma unroll
	for (int o = 1; o < 32; o <<= 1) {
		const int x = __shfl_up_sync(0xffffffffu, inc.x, o), y = __shfl_up_sync(0xffffffffu, inc.y, o);
		if (lane >= o) {
			inc.x += x;
			inc.y += y;
		}
	}
	if (lane == 31) warps[warp] = inc;
	__syncthreads();
	if (warp == 0) {
		int2 s = lane < SETPTS_THREADS / 32 ? warps[lane] : make_int2(0, 0);
#pragma unroll
		for (int o = 1; o < 32; o <<= 1) {
			const int x = __shfl_up_sync(0xffffffffu, s.x, o), y = __shfl_up_sync(0xffffffffu, s.y, o);
			if (lane >= o) {
				s.x += x;
				s.y += y;
			}
		}
		if (lane < SETPTS_THREADS / 32) warps[lane] = s; // inclusive sums over warps
	}
	__syncthreads();
	const int2 before = warp > 0 ? warps[warp - 1] : make_int2(0, 0);
	*total = warps[SETPTS_THREADS / 32 - 1];
	__syncthreads(); // warps[] may be reused by the next call
	return make_int2(before.x + inc.x - v.x, before.y + inc.y - v.y);
}

/** Where bin b (< nbins) starts: (first sorted index, first subproblem index). */
template <typename T>
__device__ __forceinline__ int2 bin_start(const SetptsArgs<T>& a, int b) {
	const int2 s = a.starts[b], p = a.partials[b / SETPTS_SCAN_TILE];
	return make_int2(s.x + p.x, s.y + p.y);
}

// -- entry points --

#define SETPTS_BIN(D)                                                                                                 \
	extern "C" __global__ void __launch_bounds__(SETPTS_THREADS) setpts_bin_##D##d(                                  \
		const __grid_constant__ SetptsArgs<float> a)                                                                 \
	{                                                                                                                 \
		const int i = blockIdx.x * blockDim.x + threadIdx.x;                                                          \
		if (i >= a.m) return;                                                                                         \
		int first[D];                                                                                                 \
		double off[D];                                                                                                \
		const int b = setpts_point<D>(a.coords, i, a.grid, a.width, a.bin, a.bins, first, off);                       \
		a.rank[i] = atomicAdd(&a.counts[b], 1);                                                                       \
	}

SETPTS_BIN(2)
SETPTS_BIN(3)

/** One block per tile of SETPTS_SCAN_TILE bins (each thread SETPTS_SCAN_ITEMS consecutive bins). */
extern "C" __global__ void __launch_bounds__(SETPTS_THREADS) setpts_scan_tiles(const __grid_constant__ SetptsArgs<float> a)
{
	const int base = blockIdx.x * SETPTS_SCAN_TILE + threadIdx.x * SETPTS_SCAN_ITEMS;
	int2 v[SETPTS_SCAN_ITEMS];
	int2 sum = make_int2(0, 0);
#pragma unroll
	for (int j = 0; j < SETPTS_SCAN_ITEMS; j++) {
		const int b = base + j;
		const int c = b < a.nbins ? a.counts[b] : 0;
		v[j] = make_int2(c, (c + a.maxSub - 1) / a.maxSub);
		sum.x += v[j].x;
		sum.y += v[j].y;
	}
	int2 total;
	int2 ex = block_exclusive_scan(sum, &total);
#pragma unroll
	for (int j = 0; j < SETPTS_SCAN_ITEMS; j++) {
		const int b = base + j;
		if (b < a.nbins) a.starts[b] = ex;
		ex.x += v[j].x;
		ex.y += v[j].y;
	}
	if (threadIdx.x == 0) a.partials[blockIdx.x] = total;
}

/** One block: exclusive prefix sums of the tiles' totals in place, the grand totals into starts[nbins]. */
extern "C" __global__ void __launch_bounds__(SETPTS_THREADS) setpts_scan_partials(
	const __grid_constant__ SetptsArgs<float> a)
{
	const int tiles = (a.nbins + SETPTS_SCAN_TILE - 1) / SETPTS_SCAN_TILE;
	int2 carry = make_int2(0, 0);
	for (int t0 = 0; t0 < tiles; t0 += SETPTS_THREADS) {
		const int t = t0 + threadIdx.x;
		const int2 v = t < tiles ? a.partials[t] : make_int2(0, 0);
		int2 total;
		const int2 ex = block_exclusive_scan(v, &total);
		if (t < tiles) a.partials[t] = make_int2(ex.x + carry.x, ex.y + carry.y);
		carry.x += total.x;
		carry.y += total.y;
	}
	if (threadIdx.x == 0) a.starts[a.nbins] = carry;
}

/**
 * Thread i: point i (< m) to its sorted place (perm only: one scattered 4-byte write per point); bin i (< nbins)
 * writes its subproblems. The stencils follow in sorted order (setpts_fill), written coalesced.
 */
template <typename T, int D>
__device__ __forceinline__ void setpts_sort(const SetptsArgs<T>& a) {
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < a.m) {
		int first[D];
		double off[D];
		const int b = setpts_point<D>(a.coords, i, a.grid, a.width, a.bin, a.bins, first, off);
		a.perm[bin_start(a, b).x + a.rank[i]] = i;
	}
	if (i < a.nbins) {
		const int c = a.counts[i];
		const int2 s = bin_start(a, i);
		int sub = s.y;
		for (int o = 0; o < c; o += a.maxSub, sub++) {
			if (sub >= a.subCapacity) break; // the host checks the total against the capacity and reports it
			a.subBin[sub] = i;
			a.subStart[sub] = s.x + o;
			a.subCount[sub] = min(a.maxSub, c - o);
		}
	}
}

#define SETPTS_SORT(T, S, D)                                                                                          \
	extern "C" __global__ void __launch_bounds__(SETPTS_THREADS) setpts_sort_##D##d_##S(                             \
		const __grid_constant__ SetptsArgs<T> a)                                                                     \
	{                                                                                                                 \
		setpts_sort<T, D>(a);                                                                                         \
	}

/**
 * Thread pos: the point at sorted place pos (< m) — its stencil's first cells and kernel arguments written at pos, so
 * consecutive threads write consecutive addresses (the coordinates are gathered instead: reads, no read-modify-write
 * of partly written sectors as scattered stores of 2·D values per point cost once the arrays outgrow the L2 cache).
 */
template <typename T, int D>
__device__ __forceinline__ void setpts_fill(const SetptsArgs<T>& a) {
	const int pos = blockIdx.x * blockDim.x + threadIdx.x;
	if (pos >= a.m) return;
	int first[D];
	double off[D];
	setpts_point<D>(a.coords, a.perm[pos], a.grid, a.width, a.bin, a.bins, first, off);
#pragma unroll
	for (int ax = 0; ax < D; ax++) {
		a.first[ax][pos] = first[ax];
		store_offset(a.offset[ax] + pos, off[ax], a.width);
	}
}

#define SETPTS_FILL(T, S, D)                                                                                          \
	extern "C" __global__ void __launch_bounds__(SETPTS_THREADS) setpts_fill_##D##d_##S(                             \
		const __grid_constant__ SetptsArgs<T> a)                                                                     \
	{                                                                                                                 \
		setpts_fill<T, D>(a);                                                                                         \
	}

SETPTS_FILL(float, f, 2)
SETPTS_FILL(float, f, 3)
SETPTS_FILL(double, d, 2)
SETPTS_FILL(double, d, 3)

SETPTS_SORT(float, f, 2)
SETPTS_SORT(float, f, 3)
SETPTS_SORT(double, d, 2)
SETPTS_SORT(double, d, 3)
