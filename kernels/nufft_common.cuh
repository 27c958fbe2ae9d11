// Shared device helpers of the NUFFT-J kernels: the interpolation kernels, evaluated online with exactly the formulas
// of org.nufftj.kernel.* (ExpSemicircle, KaiserBessel, Gaussian), complex types and grid-index wrapping.
#pragma once

#include <cstddef>

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
// Out of line: the Bessel function is long, and inlining it into every unrolled stencil loop of every width
// multiplies the code size (Kaiser–Bessel pays a call per kernel value; ES and Gaussian stay inline).
__device__ __noinline__ float nj_i0(float x) { return cyl_bessel_i0f(x); }
__device__ __noinline__ double nj_i0(double x) { return cyl_bessel_i0(x); }

/**
 * How kernels evaluate ψ: passed by value to every entry point (it lives in the constant bank of the launch, so the
 * unrolled Horner steps read their coefficients as constant operands; no __constant__ globals). Built on the host by
 * GpuKernelSpec (same field order and C layout: int, int, T, T, float[16·10]).
 *   type  KERNEL_ES / KERNEL_KB / KERNEL_GAUSS: the formulas below; KERNEL_KB_POLY: piecewise polynomials
 *         (org.nufftj.kernel.KernelPolynomial, degree NUFFTJ_DEGREE, checked on the host to 1e-7), float kernels only
 *   beta, norm  the formulas' shape parameters
 *   c     c[j·NUFFTJ_NCOEF + d]: cell j's coefficient of z^d, z = 2(off + W/2) − 1 ∈ [−1, 1)
 */
#define NUFFTJ_DEGREE 9
#define NUFFTJ_NCOEF (NUFFTJ_DEGREE + 1)
#define KERNEL_KB_POLY 3

template <typename T> struct KernelSpec {
	int type;
	int unused;
	T beta;
	T norm;
	float c[NUFFTJ_MAX_W * NUFFTJ_NCOEF];
};

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

/** Cell j's polynomial at z (Horner; j may be a run-time value: the constant bank is indexable). */
__device__ __forceinline__ float kernel_poly(const float* c, int j, float z) {
	const float* cj = c + j * NUFFTJ_NCOEF;
	float v = cj[NUFFTJ_DEGREE];
#pragma unroll
	for (int d = NUFFTJ_DEGREE - 1; d >= 0; d--) v = fmaf(v, z, cj[d]);
	return v;
}

/** ψ(off + j): weight of stencil cell j of a sample whose first cell has kernel argument off ∈ [−W/2, −W/2 + 1). */
template <typename T, int W>
__device__ __forceinline__ T kernel_cell(const KernelSpec<T>& ks, T off, int j) {
	if (sizeof(T) == 4 && ks.type == KERNEL_KB_POLY)
		return (T) kernel_poly(ks.c, j, (float) ((T) 2 * (off + (T) (W / 2.0)) - (T) 1));
	return kernel_value<T>(ks.type, off + (T) j, W, ks.beta, ks.norm);
}

/** The W kernel values ψ(off + j), j = 0..W−1, of one axis into k[] (W is a template constant: k stays in registers). */
template <typename T, int W>
__device__ __forceinline__ void kernel_values(T* k, const KernelSpec<T>& ks, T off) {
	if (sizeof(T) == 4 && ks.type == KERNEL_KB_POLY) {
		const float z = (float) ((T) 2 * (off + (T) (W / 2.0)) - (T) 1);
#pragma unroll
		for (int j = 0; j < W; j++) k[j] = (T) kernel_poly(ks.c, j, z);
		return;
	}
	// Float: unrolled (values in registers). Double: a rolled loop, since the inlined double exp/sqrt repeated W times
	// per axis, per width and per kernel would multiply the module size; the values then live in (L1-cached) local memory.
#pragma unroll (sizeof(T) == 4 ? W : 1)
	for (int j = 0; j < W; j++) k[j] = kernel_value<T>(ks.type, off + (T) j, W, ks.beta, ks.norm);
}

// Instantiates MACRO(T, S, W) for every supported width W = 2..16.
#define FOR_EACH_WIDTH(MACRO, T, S)                                                                                  \
	MACRO(T, S, 2) MACRO(T, S, 3) MACRO(T, S, 4) MACRO(T, S, 5) MACRO(T, S, 6) MACRO(T, S, 7) MACRO(T, S, 8)          \
	MACRO(T, S, 9) MACRO(T, S, 10) MACRO(T, S, 11) MACRO(T, S, 12) MACRO(T, S, 13) MACRO(T, S, 14) MACRO(T, S, 15)    \
	MACRO(T, S, 16)

/** Grid index i in [−n, 2n) wrapped into [0, n). */
__device__ __forceinline__ int wrap(int i, int n) {
	return i < 0 ? i + n : (i >= n ? i - n : i);
}

/** Grid index i ≥ −n wrapped into [0, n) (tiles of bins larger than a small grid reach past 2n). */
__device__ __forceinline__ int wrap_any(int i, int n) {
	return i < 0 ? i + n : (i < n ? i : i % n);
}

/**
 * The cells threadIdx.x, threadIdx.x + blockDim.x, … of a tx × ty × tz tile (x fastest): k the cell's index, (cx, cy,
 * cz) its coordinates, carried from step to step, so that walking a tile costs one division per thread, not per cell
 * (the per-cell divisions and remainders by run-time sizes were most of the instructions of a tile's load or flush).
 */
struct TileWalk {
	int tx, ty, tz, sx, sy, sz, k, cx, cy, cz;
	__device__ __forceinline__ TileWalk(int tx_, int ty_, int tz_) : tx(tx_), ty(ty_), tz(tz_) {
		const int step = blockDim.x, q = step / tx, r = threadIdx.x / tx;
		sx = step - q * tx;
		sy = q % ty;
		sz = q / ty;
		k = threadIdx.x;
		cx = k - r * tx;
		cy = r % ty;
		cz = r / ty;
	}
	__device__ __forceinline__ bool more() const { return cz < tz; }
	__device__ __forceinline__ void next() {
		k += blockDim.x;
		cx += sx;
		cy += sy;
		cz += sz;
		if (cx >= tx) {
			cx -= tx;
			cy++;
		}
		if (cy >= ty) {
			cy -= ty;
			cz++;
		}
	}
	/** The cell's index in the periodic nx × ny × nz grid whose cell (ox, oy, oz) is the tile's first. */
	__device__ __forceinline__ long long grid(int ox, int oy, int oz, int nx, int ny, int nz) const {
		return ((long long) wrap_any(oz + cz, nz) * ny + wrap_any(oy + cy, ny)) * nx + wrap_any(ox + cx, nx);
	}
};

/** Complex add to global memory: one vector atomic on sm_90+ (float2 atomicAdd is global-only there). */
__device__ __forceinline__ void atomic_add_c(float2* p, float2 v) {
#if __CUDA_ARCH__ >= 900
	atomicAdd(p, v);
#else
	atomicAdd(&p->x, v.x);
	atomicAdd(&p->y, v.y);
#endif
}

__device__ __forceinline__ void atomic_add_c(double2* p, double2 v) {
	atomicAdd(&p->x, v.x);
	atomicAdd(&p->y, v.y);
}

// -- launch parameter structs: every NUFFT kernel takes one by value (with its input, output, batch and KernelSpec).
// Marshalled on the host by GpuStructs (same field order; pointers 8 bytes, int 4, float 4, natural alignment) once
// per setPoints or plan; the static_asserts below are the layout the host test (GpuStructsTest) reads and checks
// against GpuStructs, so neither side can drift alone. Entry points declare them `const __grid_constant__`: fields are
// then read from the parameter bank where used, as positional parameters are; a plain by-value struct had nvcc load
// every field into a register at entry (more registers, fewer blocks per SM on the binned kernels).

/**
 * The bin-sorted points of a plan (GpuPoints, GpuPointSet) and its grid: i is the sorted index, perm[i] the sample's
 * index in the caller's order, first[a][i] the first stencil cell on axis a (normalised so that first + ⌊W/2⌋ lies in
 * [0, grid[a])), offset[a][i] = first − t, the kernel argument of that cell; subproblems (≤ GpuHeuristics
 * .MAX_SUBPROBLEM points of one bin) as (subBin, subStart, subCount); bins per axis, bin size, fine-grid size (z
 * entries 1 and z pointers null in 2D).
 */
template <typename T> struct PointArgs {
	const int* perm;
	const int* first[3];
	const T* offset[3];
	const int* subBin;
	const int* subStart;
	const int* subCount;
	int m;
	int subproblems;
	int bins[3];
	int bin[3];
	int grid[3];
	int unused;
};

/** The output-driven spreader's geometry (GpuRadial): see kernels/spread_radial.cu. */
template <typename T> struct RadialArgs {
	const int2* first;
	const typename Cplx<T>::type* off;
	const float4* spokes;
	const float* angles;
	int m;
	int nspokes;
	int readout;
	int reach[4];
	float margin;
	int grid[2];
};

/** Deapodization factors per axis (dz = {1} in 2D), image and fine-grid sizes (z = 1 in 2D): kernels/deapodize.cu. */
template <typename T> struct DeapodArgs {
	const T* d[3];
	int image[3];
	int grid[3];
};

#define NUFFTJ_LAYOUT(S, field, offset) static_assert(offsetof(S<float>, field) == offset && offsetof(S<double>, field) == offset, #S "." #field);
#define NUFFTJ_SIZE(S, size) static_assert(sizeof(S<float>) == size && sizeof(S<double>) == size, #S " size");
NUFFTJ_LAYOUT(PointArgs, perm, 0)
NUFFTJ_LAYOUT(PointArgs, first, 8)
NUFFTJ_LAYOUT(PointArgs, offset, 32)
NUFFTJ_LAYOUT(PointArgs, subBin, 56)
NUFFTJ_LAYOUT(PointArgs, subStart, 64)
NUFFTJ_LAYOUT(PointArgs, subCount, 72)
NUFFTJ_LAYOUT(PointArgs, m, 80)
NUFFTJ_LAYOUT(PointArgs, subproblems, 84)
NUFFTJ_LAYOUT(PointArgs, bins, 88)
NUFFTJ_LAYOUT(PointArgs, bin, 100)
NUFFTJ_LAYOUT(PointArgs, grid, 112)
NUFFTJ_SIZE(PointArgs, 128)
NUFFTJ_LAYOUT(RadialArgs, first, 0)
NUFFTJ_LAYOUT(RadialArgs, off, 8)
NUFFTJ_LAYOUT(RadialArgs, spokes, 16)
NUFFTJ_LAYOUT(RadialArgs, angles, 24)
NUFFTJ_LAYOUT(RadialArgs, m, 32)
NUFFTJ_LAYOUT(RadialArgs, nspokes, 36)
NUFFTJ_LAYOUT(RadialArgs, readout, 40)
NUFFTJ_LAYOUT(RadialArgs, reach, 44)
NUFFTJ_LAYOUT(RadialArgs, margin, 60)
NUFFTJ_LAYOUT(RadialArgs, grid, 64)
NUFFTJ_SIZE(RadialArgs, 72)
NUFFTJ_LAYOUT(DeapodArgs, d, 0)
NUFFTJ_LAYOUT(DeapodArgs, image, 24)
NUFFTJ_LAYOUT(DeapodArgs, grid, 36)
NUFFTJ_SIZE(DeapodArgs, 48)
NUFFTJ_LAYOUT(KernelSpec, type, 0)
NUFFTJ_LAYOUT(KernelSpec, unused, 4)

/**
 * Device setpts (kernels/setpts.cu, GpuSetpts): coordinates in, bin-sorted PointArgs arrays out. coords[d·i + a] is
 * axis a of point i (the Trajectory's interleaved doubles); counts[b] the points of bin b (histogram), starts[b] the
 * exclusive prefix sums of (count, subproblems) per bin within its scan tile of SETPTS_SCAN_TILE bins, partials[t]
 * tile t's offset (so bin b starts at starts[b] + partials[b / SETPTS_SCAN_TILE]; starts[nbins] holds the totals);
 * rank[i] point i's place in its bin (from the histogram's atomic); perm, first, offset, subBin, subStart, subCount
 * as PointArgs (subCapacity entries allocated for the subproblems); maxSub points per subproblem; grid, bin size and
 * bins per axis (1 on unused axes).
 */
template <typename T> struct SetptsArgs {
	const double* coords;
	int* counts;
	int2* starts;
	int2* partials;
	int* rank;
	int* perm;
	int* first[3];
	T* offset[3];
	int* subBin;
	int* subStart;
	int* subCount;
	int m;
	int nbins;
	int width;
	int maxSub;
	int subCapacity;
	int grid[3];
	int bin[3];
	int bins[3];
};

NUFFTJ_LAYOUT(SetptsArgs, coords, 0)
NUFFTJ_LAYOUT(SetptsArgs, counts, 8)
NUFFTJ_LAYOUT(SetptsArgs, starts, 16)
NUFFTJ_LAYOUT(SetptsArgs, partials, 24)
NUFFTJ_LAYOUT(SetptsArgs, rank, 32)
NUFFTJ_LAYOUT(SetptsArgs, perm, 40)
NUFFTJ_LAYOUT(SetptsArgs, first, 48)
NUFFTJ_LAYOUT(SetptsArgs, offset, 72)
NUFFTJ_LAYOUT(SetptsArgs, subBin, 96)
NUFFTJ_LAYOUT(SetptsArgs, subStart, 104)
NUFFTJ_LAYOUT(SetptsArgs, subCount, 112)
NUFFTJ_LAYOUT(SetptsArgs, m, 120)
NUFFTJ_LAYOUT(SetptsArgs, nbins, 124)
NUFFTJ_LAYOUT(SetptsArgs, width, 128)
NUFFTJ_LAYOUT(SetptsArgs, maxSub, 132)
NUFFTJ_LAYOUT(SetptsArgs, subCapacity, 136)
NUFFTJ_LAYOUT(SetptsArgs, grid, 140)
NUFFTJ_LAYOUT(SetptsArgs, bin, 152)
NUFFTJ_LAYOUT(SetptsArgs, bins, 164)
NUFFTJ_SIZE(SetptsArgs, 176)
