// Vector operations of the GPU backend (org.nufftj.nufft.Backend on a GPU: GpuBackend, launched by GpuVectorKernels),
// float (_f) and double (_d) from one template each. Complex vectors are interleaved (Cplx<T>::type); lengths are
// 64-bit counts of elements (complex elements for complex kernels, values for real ones), walked by grid-stride loops
// so that any length runs with a bounded grid. Broadcast operands (b, w) repeat with period nb / nw over a's batch.
// Reductions accumulate in double (per thread, warp shuffles, one atomicAdd per block) into a double[] the host zeroed.
//
// Coil combination (from the former recon.cu): root sum of squares and the adaptive combination of Walsh, Gmitro &
// Marcellin, MRM 43:682 (2000), with exactly the maths of org.nufftj.recon.CoilCombine.walsh. Images [coil][pixel],
// 32-bit pixel indices (< 2^31), 64-bit offsets between coils.
#include "nufft_common.cuh"

#define FULL_MASK 0xffffffffu

template <typename T>
__device__ __forceinline__ typename Cplx<T>::type cplx(T re, T im) {
	typename Cplx<T>::type v;
	v.x = re;
	v.y = im;
	return v;
}

__device__ __forceinline__ float nj_hypot(float a, float b) { return hypotf(a, b); }
__device__ __forceinline__ double nj_hypot(double a, double b) { return hypot(a, b); }

#define GRID_STRIDE(i, n)                                                                                              \
	for (long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x; i < (n); i += (long long) gridDim.x * blockDim.x)

// -- element-wise --

/** x[i] = (re, im), i < n complex elements. */
template <typename T>
__device__ __forceinline__ void fill(typename Cplx<T>::type* x, long long n, T re, T im) {
	GRID_STRIDE(i, n) x[i] = cplx<T>(re, im);
}

/** x[i] *= a, i < n values. */
template <typename T>
__device__ __forceinline__ void scale(T* x, long long n, T a) {
	GRID_STRIDE(i, n) x[i] *= a;
}

/** y[i] = a·x[i] + b·y[i], i < n values. */
template <typename T>
__device__ __forceinline__ void axpby(long long n, T a, const T* x, T b, T* y) {
	GRID_STRIDE(i, n) y[i] = a * x[i] + b * y[i];
}

/** out[i] = a[i]·b[i mod nb] (conj(b) when conjugate ≠ 0), i < n complex elements. */
template <typename T>
__device__ __forceinline__ void multiply(const typename Cplx<T>::type* a, const typename Cplx<T>::type* b,
	typename Cplx<T>::type* out, long long n, long long nb, int conjugate)
{
	GRID_STRIDE(i, n) {
		const typename Cplx<T>::type u = a[i], v = b[i % nb];
		const T vi = conjugate ? -v.y : v.y;
		out[i] = cplx<T>(u.x * v.x - u.y * vi, u.x * vi + u.y * v.x);
	}
}

/** out[i] = a[i] / b[i mod nb], 0 where b is 0, i < n complex elements: a·conj(b) / |b|². */
template <typename T>
__device__ __forceinline__ void divide(const typename Cplx<T>::type* a, const typename Cplx<T>::type* b,
	typename Cplx<T>::type* out, long long n, long long nb)
{
	GRID_STRIDE(i, n) {
		const typename Cplx<T>::type u = a[i], v = b[i % nb];
		if (v.x == (T) 0 && v.y == (T) 0) {
			out[i] = cplx<T>(0, 0);
		}
		else {
			const T d = v.x * v.x + v.y * v.y;
			out[i] = cplx<T>((u.x * v.x + u.y * v.y) / d, (u.y * v.x - u.x * v.y) / d);
		}
	}
}

/** out[i] = a[i]·w[i mod nw] (w real), i < n complex elements. */
template <typename T>
__device__ __forceinline__ void multiply_real(const typename Cplx<T>::type* a, const T* w,
	typename Cplx<T>::type* out, long long n, long long nw)
{
	GRID_STRIDE(i, n) {
		const typename Cplx<T>::type u = a[i];
		const T s = w[i % nw];
		out[i] = cplx<T>(u.x * s, u.y * s);
	}
}

/**
 * Complex soft thresholding, the proximal map of tau·|.| per element: out[i] = x[i]·max(0, 1 − tau/|x[i]|) (0 where
 * |x[i]| ≤ tau), i < n complex elements (BART's md_zsoftthresh with no joint dimensions).
 */
template <typename T>
__device__ __forceinline__ void soft_threshold(const typename Cplx<T>::type* x, typename Cplx<T>::type* out,
	long long n, T tau)
{
	GRID_STRIDE(i, n) {
		const typename Cplx<T>::type u = x[i];
		const T m = nj_hypot(u.x, u.y);
		const T s = m > tau ? (m - tau) / m : (T) 0;
		out[i] = cplx<T>(u.x * s, u.y * s);
	}
}

/** out[i] = Σ_b x[b·n + i], b < batch, i < n values (summed in order b = 0, 1, …). */
template <typename T>
__device__ __forceinline__ void sum_batch(const T* x, T* out, long long n, int batch) {
	GRID_STRIDE(i, n) {
		T s = 0;
		for (int b = 0; b < batch; b++) s += x[(long long) b * n + i];
		out[i] = s;
	}
}

/** out[i] = (r[i], 0), i < n. */
template <typename T>
__device__ __forceinline__ void real_to_complex(const T* r, typename Cplx<T>::type* out, long long n) {
	GRID_STRIDE(i, n) out[i] = cplx<T>(r[i], 0);
}

/** out[i] = Re x[i], i < n. */
template <typename T>
__device__ __forceinline__ void complex_to_real(const typename Cplx<T>::type* x, T* out, long long n) {
	GRID_STRIDE(i, n) out[i] = x[i].x;
}

/**
 * out[p] = (√(Σ_c |x_c[p]|²), 0), p < pixels. Accumulated in T, coil 0 first, as CoilCombine.sumOfSquares does on
 * the host.
 */
template <typename T>
__device__ __forceinline__ void sum_of_squares(const typename Cplx<T>::type* x, typename Cplx<T>::type* out,
	long long pixels, int coils)
{
	GRID_STRIDE(p, pixels) {
		T s = 0;
		for (int c = 0; c < coils; c++) {
			const typename Cplx<T>::type v = x[(long long) c * pixels + p];
			s += v.x * v.x + v.y * v.y;
		}
		out[p] = cplx<T>(nj_sqrt(s), 0);
	}
}

// -- reductions (double accumulators; blockDim.x a multiple of 32, at most 1024) --

/** Sum of v over the block; the result is valid in thread 0. */
__device__ __forceinline__ double block_sum(double v) {
	__shared__ double part[32];
	for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL_MASK, v, o);
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	__syncthreads(); // part[] may still be read by a previous call
	if (lane == 0) part[warp] = v;
	__syncthreads();
	v = 0;
	if (warp == 0) {
		v = lane < (int) (blockDim.x >> 5) ? part[lane] : 0;
		for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL_MASK, v, o);
	}
	return v;
}

/** out[0] += Re Σ conj(x_i)·y_i, out[1] += Im, i < n complex elements. */
template <typename T>
__device__ __forceinline__ void dot(const typename Cplx<T>::type* x, const typename Cplx<T>::type* y, long long n,
	double* out)
{
	double re = 0, im = 0;
	GRID_STRIDE(i, n) {
		const typename Cplx<T>::type u = x[i], v = y[i];
		re += (double) u.x * v.x + (double) u.y * v.y;
		im += (double) u.x * v.y - (double) u.y * v.x;
	}
	re = block_sum(re);
	im = block_sum(im);
	if (threadIdx.x == 0) {
		atomicAdd(out, re);
		atomicAdd(out + 1, im);
	}
}

/** out[0] += Σ x_i², i < n values. */
template <typename T>
__device__ __forceinline__ void norm2(const T* x, long long n, double* out) {
	double s = 0;
	GRID_STRIDE(i, n) {
		const double v = x[i];
		s += v * v;
	}
	s = block_sum(s);
	if (threadIdx.x == 0) atomicAdd(out, s);
}

/**
 * energy[c] += Σ_p |x_c[p]|² (double; energy zeroed by the host): blockIdx.y = coil. Walsh's phase reference is the
 * coil of largest total energy.
 */
template <typename T>
__device__ __forceinline__ void coil_energy(const typename Cplx<T>::type* images, double* energy, long long pixels) {
	const typename Cplx<T>::type* x = images + (long long) blockIdx.y * pixels;
	double s = 0;
	GRID_STRIDE(p, pixels) {
		const typename Cplx<T>::type v = x[p];
		s += (double) v.x * v.x + (double) v.y * v.y;
	}
	s = block_sum(s);
	if (threadIdx.x == 0) atomicAdd(&energy[blockIdx.y], s);
}

// -- Walsh --

/** The reference coil: the first of largest energy (CoilCombine.walsh's rule: strict > over c = 0, 1, …). */
__device__ __forceinline__ int reference_coil(const double* __restrict__ energy, int coils) {
	int ref = 0;
	double best = -1;
	for (int c = 0; c < coils; c++) {
		const double e = energy[c];
		if (e > best) {
			best = e;
			ref = c;
		}
	}
	return ref;
}

// Coils ≤ 32: one group of G lanes (G = 4, 8, 16 or 32 ≥ coils) per pixel, 32/G pixels per warp. Lane c of a group
// owns row c of the coil covariance R = Σ_window x xᴴ (R[c][d] = Σ x_c·conj(x_d)) in G complex registers; x_d reaches
// lane c by a shuffle within the group (width G), so R is never in memory. Lanes c ≥ coils hold zeros. Every lane of
// the warp runs the same number of shuffles: window pixels outside the image, and pixels past the end, contribute
// zeros (the host clips the window at the border: adding zeros is the same sum).

/** Sum over the lanes of one group of G (xor butterfly, stays within the group). */
template <int G, typename V>
__device__ __forceinline__ V group_sum(V v) {
#pragma unroll
	for (int o = G / 2; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o, G);
	return v;
}

/**
 * u ← u/‖u‖ over the group; ‖u‖ = 0 gives u = e_0 (CoilCombine.normalise). ‖u‖² is summed in double: entries of
 * R·u scale as |x|², so their squares underflow float for |x| ≲ 1e-10 where the host (double) still normalises.
 */
template <int G, typename T>
__device__ __forceinline__ void group_normalise(typename Cplx<T>::type& u, int c) {
	const double s = group_sum<G>((double) u.x * u.x + (double) u.y * u.y);
	if (s == 0) {
		u = cplx<T>(c == 0 ? (T) 1 : (T) 0, 0);
		return;
	}
	const T f = (T) (1 / sqrt(s));
	u.x *= f;
	u.y *= f;
}

template <typename T, int G>
__device__ __forceinline__ void walsh_group(const typename Cplx<T>::type* __restrict__ images,
	typename Cplx<T>::type* __restrict__ out, const double* __restrict__ energy, int nx, int ny, int nz, int coils,
	int half, int iterations)
{
	typedef typename Cplx<T>::type C;
	const int c = threadIdx.x & (G - 1);
	const int pixels = nx * ny * nz;
	const int p = blockIdx.x * (blockDim.x / G) + threadIdx.x / G;
	const bool active = p < pixels;
	const bool mine = active && c < coils;
	const int x = p % nx, y = (p / nx) % ny, z = p / (nx * ny);
	const C* xc = images + (size_t) c * pixels + (size_t) z * nx * ny;

	// R row c over the (2h+1)² window of slice z.
	C r[G];
#pragma unroll
	for (int d = 0; d < G; d++) r[d] = cplx<T>(0, 0);
#pragma unroll 1
	for (int yy = y - half; yy <= y + half; yy++) {
#pragma unroll 1
		for (int xx = x - half; xx <= x + half; xx++) {
			const bool in = mine && xx >= 0 && xx < nx && yy >= 0 && yy < ny;
			const C a = in ? xc[yy * nx + xx] : cplx<T>(0, 0);
#pragma unroll
			for (int d = 0; d < G; d++) {
				const T br = __shfl_sync(FULL_MASK, a.x, d, G), bi = __shfl_sync(FULL_MASK, a.y, d, G);
				r[d].x += a.x * br + a.y * bi;
				r[d].y += a.y * br - a.x * bi;
			}
		}
	}

	// Power iteration from the column of largest diagonal (first one on ties).
	T diag = -1;
#pragma unroll
	for (int d = 0; d < G; d++)
		if (d == c && c < coils) diag = r[d].x;
	int start = c;
#pragma unroll
	for (int o = G / 2; o > 0; o >>= 1) {
		const T od = __shfl_xor_sync(FULL_MASK, diag, o, G);
		const int os = __shfl_xor_sync(FULL_MASK, start, o, G);
		if (od > diag || (od == diag && os < start)) {
			diag = od;
			start = os;
		}
	}
	C u = cplx<T>(0, 0);
#pragma unroll
	for (int d = 0; d < G; d++)
		if (d == start) u = r[d]; // R[c][start]: column start, row c (rows c ≥ coils are zero)
	group_normalise<G, T>(u, c);
#pragma unroll 1
	for (int it = 0; it < iterations; it++) {
		C w = cplx<T>(0, 0);
#pragma unroll
		for (int d = 0; d < G; d++) {
			const T ur = __shfl_sync(FULL_MASK, u.x, d, G), ui = __shfl_sync(FULL_MASK, u.y, d, G);
			w.x += r[d].x * ur - r[d].y * ui;
			w.y += r[d].x * ui + r[d].y * ur;
		}
		u = w;
		group_normalise<G, T>(u, c);
	}

	// Phase reference: u_ref real and positive; combined = Σ_c conj(v_c)·x_c with v = u·e^{−iφ_ref}.
	const int ref = reference_coil(energy, coils);
	const T rr = __shfl_sync(FULL_MASK, u.x, ref, G), ri = __shfl_sync(FULL_MASK, u.y, ref, G);
	const T rm = nj_hypot(rr, ri);
	const T pr = rm > (T) 0 ? rr / rm : (T) 1, pi = rm > (T) 0 ? -ri / rm : (T) 0;
	const T vr = u.x * pr - u.y * pi, vi = u.x * pi + u.y * pr;
	const C xp = mine ? xc[y * nx + x] : cplx<T>(0, 0);
	const T sr = group_sum<G>(vr * xp.x + vi * xp.y), si = group_sum<G>(vr * xp.y - vi * xp.x);
	if (active && c == 0) out[p] = cplx<T>(sr, si);
}

// 32 < coils ≤ WALSH_MAX_COILS: one warp (one block of 32 threads) per pixel, R in shared memory. Dynamic shared
// memory: R (coils rows of coils + 1 entries: the pad spreads a column over the banks), the window pixel's coil
// vector and u, complex each: sizeof(C)·(coils·(coils + 1) + 2·coils) bytes (GpuVectorKernels.walshSharedBytes).
// Lane l owns rows l, l + 32, … .

#define WALSH_MAX_COILS 128
#define WALSH_ROWS (WALSH_MAX_COILS / 32)

template <typename V>
__device__ __forceinline__ V warp_sum(V v) {
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
	return v;
}

template <typename T>
__device__ __forceinline__ void walsh_shared(const typename Cplx<T>::type* images, typename Cplx<T>::type* out,
	const double* energy, int nx, int ny, int nz, int coils, int half, int iterations)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char walsh_smem[];
	C* r = reinterpret_cast<C*>(walsh_smem);
	const int stride = coils + 1;
	C* a = r + (size_t) coils * stride;
	C* u = a + coils;
	const int lane = threadIdx.x;
	const int pixels = nx * ny * nz;
	const int p = blockIdx.x;
	const int x = p % nx, y = (p / nx) % ny, z = p / (nx * ny);
	const C* slice = images + (size_t) z * nx * ny;

	for (int i = lane; i < coils * stride; i += 32) r[i] = cplx<T>(0, 0);
	const int y0 = max(0, y - half), y1 = min(ny - 1, y + half), x0 = max(0, x - half), x1 = min(nx - 1, x + half);
	for (int yy = y0; yy <= y1; yy++) {
		for (int xx = x0; xx <= x1; xx++) {
			for (int c = lane; c < coils; c += 32) a[c] = slice[(size_t) c * pixels + yy * nx + xx];
			__syncwarp();
#pragma unroll
			for (int k = 0; k < WALSH_ROWS; k++) {
				const int c = lane + 32 * k;
				if (c >= coils) break;
				const C ac = a[c];
				C* row = r + (size_t) c * stride;
				for (int d = 0; d < coils; d++) {
					const C b = a[d];
					row[d].x += ac.x * b.x + ac.y * b.y;
					row[d].y += ac.y * b.x - ac.x * b.y;
				}
			}
			__syncwarp();
		}
	}

	int start = 0;
	for (int c = 1; c < coils; c++)
		if (r[(size_t) c * stride + c].x > r[(size_t) start * stride + start].x) start = c;
	double ss = 0; // ‖u‖² in double, as in group_normalise
	for (int c = lane; c < coils; c += 32) {
		u[c] = r[(size_t) c * stride + start];
		ss += (double) u[c].x * u[c].x + (double) u[c].y * u[c].y;
	}
	ss = warp_sum(ss);
	for (int it = 0; it <= iterations; it++) {
		// Normalise u (‖u‖ = 0 → e_0), then, while iterations remain, u ← R·u.
		__syncwarp();
		const T f = ss == 0 ? (T) 0 : (T) (1 / sqrt(ss));
		for (int c = lane; c < coils; c += 32) {
			if (ss == 0) u[c] = cplx<T>(c == 0 ? (T) 1 : (T) 0, 0);
			else u[c] = cplx<T>(u[c].x * f, u[c].y * f);
		}
		__syncwarp();
		if (it == iterations) break;
		C w[WALSH_ROWS];
#pragma unroll
		for (int k = 0; k < WALSH_ROWS; k++) {
			const int c = lane + 32 * k;
			w[k] = cplx<T>(0, 0);
			if (c >= coils) continue;
			const C* row = r + (size_t) c * stride;
			for (int d = 0; d < coils; d++) {
				const C m = row[d], ud = u[d];
				w[k].x += m.x * ud.x - m.y * ud.y;
				w[k].y += m.x * ud.y + m.y * ud.x;
			}
		}
		__syncwarp();
		ss = 0;
#pragma unroll
		for (int k = 0; k < WALSH_ROWS; k++) {
			const int c = lane + 32 * k;
			if (c >= coils) continue;
			u[c] = w[k];
			ss += (double) w[k].x * w[k].x + (double) w[k].y * w[k].y;
		}
		ss = warp_sum(ss);
	}

	const int ref = reference_coil(energy, coils);
	const C ur = u[ref];
	const T rm = nj_hypot(ur.x, ur.y);
	const T pr = rm > (T) 0 ? ur.x / rm : (T) 1, pi = rm > (T) 0 ? -ur.y / rm : (T) 0;
	T sr = 0, si = 0;
	for (int c = lane; c < coils; c += 32) {
		const T vr = u[c].x * pr - u[c].y * pi, vi = u[c].x * pi + u[c].y * pr;
		const C xp = slice[(size_t) c * pixels + y * nx + x];
		sr += vr * xp.x + vi * xp.y;
		si += vr * xp.y - vi * xp.x;
	}
	sr = warp_sum(sr);
	si = warp_sum(si);
	if (lane == 0) out[p] = cplx<T>(sr, si);
}

/**
 * The centred block between small images (nx, ny, nz) and big ones (bx, by, bz), n = T x small pixels complex
 * elements: small pixel (x, y, z) of image t is big pixel (x + ox, y + oy, z + oz) of image t. pad: small -> big
 * (the rest of big untouched), else big -> small.
 */
template <typename T>
__device__ __forceinline__ void copy_centred(typename Cplx<T>::type* small, typename Cplx<T>::type* big, long long n,
	int nx, int ny, int nz, int bx, int by, int bz, int ox, int oy, int oz, int pad)
{
	const long long sp = (long long) nx * ny * nz, bp = (long long) bx * by * bz;
	GRID_STRIDE(i, n) {
		const long long t = i / sp, p = i - t * sp;
		const int x = (int) (p % nx);
		const long long yz = p / nx;
		const int y = (int) (yz % ny), z = (int) (yz / ny);
		const long long b = t * bp + ((long long) (z + oz) * by + y + oy) * bx + x + ox;
		if (pad) big[b] = small[i];
		else small[i] = big[b];
	}
}

// -- sparse matrix (ELL, tables transposed: entry e of row r at e·rows + r, so that neighbouring threads read
// neighbouring table values) --

/** y[b·rows + r] = Σ_e w[e·rows + r]·x[b·cols + index[e·rows + r]] (index −1: no term), i = b·rows + r < n. */
template <typename T>
__device__ __forceinline__ void sparse_apply(const int* index, const typename Cplx<T>::type* w,
	const typename Cplx<T>::type* x, typename Cplx<T>::type* y, long long rows, int k, long long cols, long long n)
{
	GRID_STRIDE(i, n) {
		const long long b = i / rows, r = i - b * rows;
		T re = 0, im = 0;
		for (int e = 0; e < k; e++) {
			const int c = index[e * rows + r];
			if (c < 0) continue;
			const typename Cplx<T>::type v = w[e * rows + r], u = x[b * cols + c];
			re += v.x * u.x - v.y * u.y;
			im += v.x * u.y + v.y * u.x;
		}
		y[i] = cplx<T>(re, im);
	}
}

/**
 * x[b·cols + index[e·rows + r]] += conj(w[e·rows + r])·y[b·rows + r] for i = b·rows + r < n (x zeroed before): the
 * adjoint of sparse_apply, a scatter with atomic additions.
 */
template <typename T>
__device__ __forceinline__ void sparse_apply_adjoint(const int* index, const typename Cplx<T>::type* w,
	const typename Cplx<T>::type* y, T* x, long long rows, int k, long long cols, long long n)
{
	GRID_STRIDE(i, n) {
		const long long b = i / rows, r = i - b * rows;
		const typename Cplx<T>::type u = y[i];
		if (u.x == 0 && u.y == 0) continue;
		for (int e = 0; e < k; e++) {
			const int c = index[e * rows + r];
			if (c < 0) continue;
			const typename Cplx<T>::type v = w[e * rows + r];
			T* to = x + 2 * (b * cols + c);
			atomicAdd(to, v.x * u.x + v.y * u.y);
			atomicAdd(to + 1, v.x * u.y - v.y * u.x);
		}
	}
}

// -- entry points: <name>_<f|d>; the argument lists are mirrored, one line each, in GpuVectorKernels --

#define VECTOR_ENTRIES(T, S)                                                                                            \
	extern "C" __global__ void vec_fill_##S(Cplx<T>::type* x, long long n, T re, T im) { fill<T>(x, n, re, im); }      \
	extern "C" __global__ void vec_scale_##S(T* x, long long n, T a) { scale<T>(x, n, a); }                            \
	extern "C" __global__ void vec_axpby_##S(long long n, T a, const T* x, T b, T* y) { axpby<T>(n, a, x, b, y); }     \
	extern "C" __global__ void vec_multiply_##S(const Cplx<T>::type* a, const Cplx<T>::type* b, Cplx<T>::type* out,   \
		long long n, long long nb, int conjugate)                                                                       \
	{                                                                                                                   \
		multiply<T>(a, b, out, n, nb, conjugate);                                                                       \
	}                                                                                                                   \
	extern "C" __global__ void vec_divide_##S(const Cplx<T>::type* a, const Cplx<T>::type* b, Cplx<T>::type* out,     \
		long long n, long long nb)                                                                                      \
	{                                                                                                                   \
		divide<T>(a, b, out, n, nb);                                                                                    \
	}                                                                                                                   \
	extern "C" __global__ void vec_multiply_real_##S(const Cplx<T>::type* a, const T* w, Cplx<T>::type* out,          \
		long long n, long long nw)                                                                                      \
	{                                                                                                                   \
		multiply_real<T>(a, w, out, n, nw);                                                                             \
	}                                                                                                                   \
	extern "C" __global__ void vec_soft_threshold_##S(const Cplx<T>::type* x, Cplx<T>::type* out, long long n, T tau) \
	{                                                                                                                   \
		soft_threshold<T>(x, out, n, tau);                                                                              \
	}                                                                                                                   \
	extern "C" __global__ void vec_sum_batch_##S(const T* x, T* out, long long n, int batch)                          \
	{                                                                                                                   \
		sum_batch<T>(x, out, n, batch);                                                                                 \
	}                                                                                                                   \
	extern "C" __global__ void vec_real_to_complex_##S(const T* r, Cplx<T>::type* out, long long n)                   \
	{                                                                                                                   \
		real_to_complex<T>(r, out, n);                                                                                  \
	}                                                                                                                   \
	extern "C" __global__ void vec_complex_to_real_##S(const Cplx<T>::type* x, T* out, long long n)                   \
	{                                                                                                                   \
		complex_to_real<T>(x, out, n);                                                                                  \
	}                                                                                                                   \
	extern "C" __global__ void vec_sum_of_squares_##S(const Cplx<T>::type* x, Cplx<T>::type* out, long long pixels,   \
		int coils)                                                                                                      \
	{                                                                                                                   \
		sum_of_squares<T>(x, out, pixels, coils);                                                                       \
	}                                                                                                                   \
	extern "C" __global__ void vec_dot_##S(const Cplx<T>::type* x, const Cplx<T>::type* y, long long n, double* out)  \
	{                                                                                                                   \
		dot<T>(x, y, n, out);                                                                                           \
	}                                                                                                                   \
	extern "C" __global__ void vec_norm2_##S(const T* x, long long n, double* out) { norm2<T>(x, n, out); }            \
	extern "C" __global__ void vec_copy_centred_##S(Cplx<T>::type* small, Cplx<T>::type* big, long long n, int nx,     \
		int ny, int nz, int bx, int by, int bz, int ox, int oy, int oz, int pad)                                          \
	{                                                                                                                   \
		copy_centred<T>(small, big, n, nx, ny, nz, bx, by, bz, ox, oy, oz, pad);                                        \
	}                                                                                                                   \
	extern "C" __global__ void vec_sparse_apply_##S(const int* index, const Cplx<T>::type* w,                         \
		const Cplx<T>::type* x, Cplx<T>::type* y, long long rows, int k, long long cols, long long n)                    \
	{                                                                                                                   \
		sparse_apply<T>(index, w, x, y, rows, k, cols, n);                                                              \
	}                                                                                                                   \
	extern "C" __global__ void vec_sparse_apply_adjoint_##S(const int* index, const Cplx<T>::type* w,                 \
		const Cplx<T>::type* y, T* x, long long rows, int k, long long cols, long long n)                               \
	{                                                                                                                   \
		sparse_apply_adjoint<T>(index, w, y, x, rows, k, cols, n);                                                      \
	}                                                                                                                   \
	extern "C" __global__ void vec_coil_energy_##S(const Cplx<T>::type* images, double* energy, long long pixels)      \
	{                                                                                                                   \
		coil_energy<T>(images, energy, pixels);                                                                         \
	}                                                                                                                   \
	extern "C" __global__ void __launch_bounds__(32) vec_walsh_shared_##S(const Cplx<T>::type* images,                \
		Cplx<T>::type* out, const double* energy, int nx, int ny, int nz, int coils, int half, int iterations)          \
	{                                                                                                                   \
		walsh_shared<T>(images, out, energy, nx, ny, nz, coils, half, iterations);                                      \
	}

#define WALSH_GROUP_ENTRY(T, S, G)                                                                                      \
	extern "C" __global__ void __launch_bounds__(256) vec_walsh_##S##_g##G(const Cplx<T>::type* images,               \
		Cplx<T>::type* out, const double* energy, int nx, int ny, int nz, int coils, int half, int iterations)          \
	{                                                                                                                   \
		walsh_group<T, G>(images, out, energy, nx, ny, nz, coils, half, iterations);                                    \
	}

VECTOR_ENTRIES(float, f)
VECTOR_ENTRIES(double, d)
WALSH_GROUP_ENTRY(float, f, 4)
WALSH_GROUP_ENTRY(float, f, 8)
WALSH_GROUP_ENTRY(float, f, 16)
WALSH_GROUP_ENTRY(float, f, 32)
WALSH_GROUP_ENTRY(double, d, 4)
WALSH_GROUP_ENTRY(double, d, 8)
WALSH_GROUP_ENTRY(double, d, 16)
WALSH_GROUP_ENTRY(double, d, 32)
