// NUFFT-J's own FFT (issue 14): Stockham autosort passes of radix 2, 3, 4, 5, 7 and 8, mixed, along one axis of a
// batch of arrays, float and double, forward (sign -1) and inverse (+1, unnormalised), launched by GpuOwnFft. One pass
// reads `in` and writes `out` (ping-pong): for the axis of length n, viewed as [outer][n][inner] (element e of line
// (o, i) at (o * n + e) * inner + i), a thread takes j in [0, n / R) of one line and
//   v_r = in[j + r * n / R] * w^(r * (j mod ns)),  w = e^{sign 2 pi i / (ns R)}    (twiddles of the previous passes)
//   V = DFT_R(v)                                                                    (radix-R butterfly)
//   out[(j / ns) * ns * R + (j mod ns) + s * ns] = V_s
// with ns the product of the radices before this pass (1 for the first); after the last pass (ns * R = n) the result
// is in natural order (Stockham autosort, as in E. Bainville's OpenCL FFT formulation). The twiddle of a thread comes
// from sincospi of an exact rational (integer numerator and denominator), its powers by products; the butterflies' roots
// are constants.
//
// fft_axis_S (below the passes) does every pass of one axis in one launch with the lines in shared memory: a block
// loads `cols` whole lines (contiguous lines when inner = 1; else a tile of `cols` neighbouring i of one o, so that the
// loads and stores are coalesced), runs the same Stockham passes between two shared buffers with a twiddle table
// e^{sign 2 pi i t / n} (t < n, one sincospi each) and stores the lines back in place: one read and one write of the
// array per axis instead of one per pass. GpuOwnFft uses it where the lines fit the block's shared memory.
#include "nufft_common.cuh"

template <typename T>
__device__ __forceinline__ void nj_sincospi(T x, T* s, T* c);
template <>
__device__ __forceinline__ void nj_sincospi<float>(float x, float* s, float* c) { sincospif(x, s, c); }
template <>
__device__ __forceinline__ void nj_sincospi<double>(double x, double* s, double* c) { sincospi(x, s, c); }

template <typename C>
__device__ __forceinline__ C cmul(C a, C b) {
	C v;
	v.x = a.x * b.x - a.y * b.y;
	v.y = a.x * b.y + a.y * b.x;
	return v;
}

/** v[r] *= w1^r for r = 1 … R − 1, the powers by products (r − 1 roundings at most): a pass's twiddles. */
template <typename C, int R>
__device__ __forceinline__ void twiddle(C* v, const C w1) {
	C w = w1;
#pragma unroll
	for (int r = 1; r < R; r++) {
		v[r] = cmul(v[r], w);
		if (r + 1 < R) w = cmul(w, w1);
	}
}

/** cos and sin of 2 pi t / R for the radices (exact constants; t in [0, R), folded after unrolling). */
template <int R>
__device__ __forceinline__ double root_cos(int t);
template <int R>
__device__ __forceinline__ double root_sin(int t);
#define NJ_R2 0.70710678118654752440
template <>
__device__ __forceinline__ double root_cos<3>(int t) { return t == 0 ? 1.0 : -0.5; }
template <>
__device__ __forceinline__ double root_sin<3>(int t) { return t == 0 ? 0.0 : t == 1 ? 0.86602540378443864676 : -0.86602540378443864676; }
template <>
__device__ __forceinline__ double root_cos<5>(int t) {
	return t == 0 ? 1.0 : t == 1 || t == 4 ? 0.30901699437494742410 : -0.80901699437494742410;
}
template <>
__device__ __forceinline__ double root_sin<5>(int t) {
	return t == 0 ? 0.0 : t == 1 ? 0.95105651629515357212 : t == 2 ? 0.58778525229247312917 : t == 3 ?
		-0.58778525229247312917 : -0.95105651629515357212;
}
template <>
__device__ __forceinline__ double root_cos<7>(int t) {
	return t == 0 ? 1.0 : t == 1 || t == 6 ? 0.62348980185873353053 : t == 2 || t == 5 ? -0.22252093395631440429 :
		-0.90096886790241912624;
}
template <>
__device__ __forceinline__ double root_sin<7>(int t) {
	return t == 0 ? 0.0 : t == 1 ? 0.78183148246802980871 : t == 2 ? 0.97492791218182360702 : t == 3 ?
		0.43388373911755812048 : t == 4 ? -0.43388373911755812048 : t == 5 ? -0.97492791218182360702 :
		-0.78183148246802980871;
}
template <>
__device__ __forceinline__ double root_cos<8>(int t) {
	return t == 0 ? 1.0 : t == 1 || t == 7 ? NJ_R2 : t == 2 || t == 6 ? 0.0 : t == 4 ? -1.0 : -NJ_R2;
}
template <>
__device__ __forceinline__ double root_sin<8>(int t) {
	return t == 0 || t == 4 ? 0.0 : t == 1 || t == 3 ? NJ_R2 : t == 2 ? 1.0 : t == 6 ? -1.0 : -NJ_R2;
}

/**
 * In-place DFT of R values: V_s = sum_q v_q e^{sign 2 pi i q s / R}. Radix 2, 4, 8 (as two radix-4 DFTs) and 6 (as
 * radix 2 then radix 3) by hand, the others (3, 5, 7) directly with constant roots (R^2 complex multiply-adds, in registers).
 */
template <typename T, int R>
__device__ __forceinline__ void butterfly(typename Cplx<T>::type* v, int sign) {
	typedef typename Cplx<T>::type C;
	if constexpr (R == 2) {
		const C a = v[0], b = v[1];
		v[0].x = a.x + b.x;
		v[0].y = a.y + b.y;
		v[1].x = a.x - b.x;
		v[1].y = a.y - b.y;
	}
	else if constexpr (R == 4) {
		const C a = v[0], b = v[1], c = v[2], d = v[3];
		C s0, s1, d0, d1;
		s0.x = a.x + c.x; s0.y = a.y + c.y;
		d0.x = a.x - c.x; d0.y = a.y - c.y;
		s1.x = b.x + d.x; s1.y = b.y + d.y;
		d1.x = b.x - d.x; d1.y = b.y - d.y;
		C id1; // sign * i * d1
		id1.x = -sign * d1.y;
		id1.y = sign * d1.x;
		v[0].x = s0.x + s1.x; v[0].y = s0.y + s1.y;
		v[2].x = s0.x - s1.x; v[2].y = s0.y - s1.y;
		v[1].x = d0.x + id1.x; v[1].y = d0.y + id1.y;
		v[3].x = d0.x - id1.x; v[3].y = d0.y - id1.y;
	}
	else if constexpr (R == 8) {
		// two radix-4 DFTs (even and odd inputs), then V_s = E_s + w^s O_s, V_{s+4} = E_s - w^s O_s, w = e^{sign 2 pi i / 8}
		C e[4] = { v[0], v[2], v[4], v[6] }, o[4] = { v[1], v[3], v[5], v[7] };
		butterfly<T, 4>(e, sign);
		butterfly<T, 4>(o, sign);
		const T h = (T) NJ_R2;
		C t;
		// w^1 = h (1 + sign i), w^2 = sign i, w^3 = h (-1 + sign i)
		t.x = h * (o[1].x - sign * o[1].y);
		t.y = h * (o[1].y + sign * o[1].x);
		o[1] = t;
		t.x = -sign * o[2].y;
		t.y = sign * o[2].x;
		o[2] = t;
		t.x = h * (-o[3].x - sign * o[3].y);
		t.y = h * (-o[3].y + sign * o[3].x);
		o[3] = t;
#pragma unroll
		for (int s = 0; s < 4; s++) {
			v[s].x = e[s].x + o[s].x;
			v[s].y = e[s].y + o[s].y;
			v[s + 4].x = e[s].x - o[s].x;
			v[s + 4].y = e[s].y - o[s].y;
		}
	}
	else if constexpr (R == 6) {
		// n = 3 n1 + n2, s = s1 + 2 s2: radix 2 over n1 for each n2, twiddles w6^(n2 s1), then radix 3 over n2 for each
		// s1 (one pass instead of a radix-2 and a radix-3 pass: one shared-memory round trip fewer)
		C a[3][2];
#pragma unroll
		for (int q = 0; q < 3; q++) {
			C p[2] = { v[q], v[q + 3] };
			butterfly<T, 2>(p, sign);
			a[q][0] = p[0];
			a[q][1] = p[1];
		}
		const T h = (T) 0.86602540378443864676; // w6 = 1/2 + sign i h, w6^2 = -1/2 + sign i h
		C t;
		t.x = (T) 0.5 * a[1][1].x - sign * h * a[1][1].y;
		t.y = (T) 0.5 * a[1][1].y + sign * h * a[1][1].x;
		a[1][1] = t;
		t.x = (T) -0.5 * a[2][1].x - sign * h * a[2][1].y;
		t.y = (T) -0.5 * a[2][1].y + sign * h * a[2][1].x;
		a[2][1] = t;
#pragma unroll
		for (int s1 = 0; s1 < 2; s1++) {
			C b[3] = { a[0][s1], a[1][s1], a[2][s1] };
			butterfly<T, 3>(b, sign);
#pragma unroll
			for (int s2 = 0; s2 < 3; s2++) v[s1 + 2 * s2] = b[s2];
		}
	}
	else {
		C out[R];
#pragma unroll
		for (int s = 0; s < R; s++) {
			C acc = v[0];
#pragma unroll
			for (int q = 1; q < R; q++) {
				C w;
				w.x = (T) root_cos<R>((q * s) % R);
				w.y = sign * (T) root_sin<R>((q * s) % R);
				const C p = cmul(v[q], w);
				acc.x += p.x;
				acc.y += p.y;
			}
			out[s] = acc;
		}
#pragma unroll
		for (int s = 0; s < R; s++) v[s] = out[s];
	}
}

/**
 * One pass over every line; I the index type (32-bit where the element count allows: 64-bit division is slow).
 * Twiddles: w_k = e^{sign 2 pi i k / (ns R)} by one sincospi, its powers by products (r - 1 roundings at most).
 */
template <typename T, int R, typename I>
__device__ __forceinline__ void pass_body(const typename Cplx<T>::type* __restrict__ in,
	typename Cplx<T>::type* __restrict__ out, I outer, int n, I inner, int ns, int sign)
{
	typedef typename Cplx<T>::type C;
	const I m = n / R;
	const I total = outer * m * inner;
	for (I t = blockIdx.x * (I) blockDim.x + threadIdx.x; t < total; t += (I) gridDim.x * blockDim.x) {
		const I i = t % inner;
		const I rest = t / inner;
		const int j = (int) (rest % m);
		const I o = rest / m;
		const I base = o * n * inner + i;
		const int k = j % ns;
		C v[R];
#pragma unroll
		for (int r = 0; r < R; r++) v[r] = in[base + (I) (j + r * m) * inner];
		if (k > 0) {
			T sn, cs;
			nj_sincospi<T>((T) (2 * k) / (T) (ns * R), &sn, &cs);
			C w1;
			w1.x = cs;
			w1.y = sign * sn;
			twiddle<C, R>(v, w1);
		}
		butterfly<T, R>(v, sign);
		const I d = (I) (j / ns) * ns * R + k;
#pragma unroll
		for (int q = 0; q < R; q++) out[base + (d + (I) q * ns) * inner] = v[q];
	}
}

template <typename T, int R>
__device__ void pass(const typename Cplx<T>::type* __restrict__ in, typename Cplx<T>::type* __restrict__ out,
	long long outer, int n, long long inner, int ns, int sign)
{
	if (outer * n * inner < 0x7fffffffLL) pass_body<T, R, int>(in, out, (int) outer, n, (int) inner, ns, sign);
	else pass_body<T, R, long long>(in, out, outer, n, inner, ns, sign);
}

#define FFT_ENTRY(T, S, R)                                                                                             \
	extern "C" __global__ void fft_pass_##S##_##R(const Cplx<T>::type* in, Cplx<T>::type* out, long long outer,         \
		int n, long long inner, int ns, int sign)                                                                        \
	{                                                                                                                  \
		pass<T, R>(in, out, outer, n, inner, ns, sign);                                                                \
	}

FFT_ENTRY(float, f, 2)
FFT_ENTRY(float, f, 3)
FFT_ENTRY(float, f, 4)
FFT_ENTRY(float, f, 5)
FFT_ENTRY(float, f, 6)
FFT_ENTRY(float, f, 7)
FFT_ENTRY(float, f, 8)
FFT_ENTRY(double, d, 2)
FFT_ENTRY(double, d, 3)
FFT_ENTRY(double, d, 4)
FFT_ENTRY(double, d, 5)
FFT_ENTRY(double, d, 6)
FFT_ENTRY(double, d, 7)
FFT_ENTRY(double, d, 8)

/**
 * q = x / d and *rem = x mod d for 0 <= x < 2^22 and d >= 1, with inv = 1 / d in float: a float product and one
 * correction instead of an integer division (the kernel is bound by integer instructions otherwise).
 */
__device__ __forceinline__ int fast_div(int x, int d, float inv, int* rem) {
	int q = __float2int_rz(__int2float_rn(x) * inv);
	int r = x - q * d;
	if (r >= d) {
		q++;
		r -= d;
	}
	else if (r < 0) {
		q--;
		r += d;
	}
	*rem = r;
	return q;
}

/**
 * Shared-memory position of element i: one complex value of padding after every 16, so that the strided writes of
 * the first Stockham passes (stride R) and the other accesses fall in distinct banks.
 */
__device__ __forceinline__ int pad16(int i) { return i + (i >> 4); }

/** Which lines of an axis a launch transforms (see selected_line). */
struct LineSelect {
	int n1, s1, c1, n2, s2, c2;
};

/**
 * One Stockham pass in shared memory over `cols` lines of length n: src and dst hold element e of line c at
 * c * cs + e * es (contiguous lines: es = 1, cs = n; tiles: es = cols, cs = 1); tw[t] = e^{sign 2 pi i t / n}.
 */
template <typename T, int R>
__device__ __forceinline__ void smem_pass(const typename Cplx<T>::type* src, typename Cplx<T>::type* dst,
	const typename Cplx<T>::type* tw, int n, int cols, bool contig, int ns, int sign)
{
	typedef typename Cplx<T>::type C;
	const int m = n / R, total = m * cols, stride = n / (ns * R);
	const int es = contig ? 1 : cols, cs = contig ? n : 1;
	const float invM = 1.0f / m, invNs = 1.0f / ns, invCols = 1.0f / cols;
	for (int b = threadIdx.x; b < total; b += blockDim.x) {
		int j, c;
		if (contig) c = fast_div(b, m, invM, &j);
		else j = fast_div(b, cols, invCols, &c);
		int k;
		const int jq = fast_div(j, ns, invNs, &k);
		C v[R];
#pragma unroll
		for (int r = 0; r < R; r++) v[r] = src[pad16(c * cs + (j + r * m) * es)];
		if (k > 0) twiddle<C, R>(v, tw[k * stride]); // w^r from one table entry w = tw[k stride]
		butterfly<T, R>(v, sign);
		const int d = jq * ns * R + k;
#pragma unroll
		for (int q = 0; q < R; q++) dst[pad16(c * cs + (d + q * ns) * es)] = v[q];
	}
}

#define UNROLL 8

/**
 * The global index of shared element f (contiguous lines: line f / n at lineBase, element f mod n; tiles: row f / cols
 * at gbase + row inner, column f mod cols), or -1 for a line or column past the end (valid of them exist).
 */
__device__ __forceinline__ long long element(int f, int n, int cols, float invN, float invCols, bool contig, int valid,
	const long long* lineBase, long long gbase, long long inner)
{
	int c, e;
	if (contig) {
		c = fast_div(f, n, invN, &e);
		return c < valid ? lineBase[c] + e : -1;
	}
	e = fast_div(f, cols, invCols, &c);
	return c < valid ? gbase + (long long) e * inner + c : -1;
}

/**
 * The outer index o of the L-th selected line (pruned transforms): o = (q n2 + y2) n1 + y1 with y1 = (s1 + t1) mod n1,
 * t1 < c1, y2 = (s2 + t2) mod n2, t2 < c2 (the axes after this one; a range may wrap, as the NUFFT grid's image
 * does), L = (q c2 + t2) c1 + t1. With c1 = n1, c2 = n2 (and s = 0) every line: o = L.
 */
__device__ __forceinline__ long long selected_line(long long L, const LineSelect& s) {
	if (s.c1 == s.n1 && s.c2 == s.n2) return L; // every line (s = 0 then)
	if (L < 0x7fffffffLL) { // 32-bit divisions: 64-bit ones cost ~100 instructions each
		const int l = (int) L, t1 = l % s.c1, r = l / s.c1, t2 = r % s.c2, q = r / s.c2;
		int y1 = s.s1 + t1, y2 = s.s2 + t2;
		if (y1 >= s.n1) y1 -= s.n1;
		if (y2 >= s.n2) y2 -= s.n2;
		return ((long long) q * s.n2 + y2) * s.n1 + y1;
	}
	const long long t1 = L % s.c1, r = L / s.c1;
	const long long t2 = r % s.c2, q = r / s.c2;
	long long y1 = s.s1 + t1, y2 = s.s2 + t2;
	if (y1 >= s.n1) y1 -= s.n1;
	if (y2 >= s.n2) y2 -= s.n2;
	return (q * s.n2 + y2) * s.n1 + y1;
}

/**
 * The lines of this block: for contiguous lines (inner = 1) their start offsets lineBase[c] (each line's selected
 * index times n) and the count that exist; for tiles the count of columns that exist and, in gbase, the global index
 * of the tile's first element. Ends with a barrier (lineBase is shared).
 */
__device__ __forceinline__ int block_lines(long long lines, int n, long long inner, int cols, const LineSelect& sel,
	long long* lineBase, long long* gbase)
{
	int valid;
	if (inner == 1) {
		const long long line0 = (long long) blockIdx.x * cols;
		valid = (int) min((long long) cols, lines - line0);
		for (int c = threadIdx.x; c < valid; c += blockDim.x) lineBase[c] = selected_line(line0 + c, sel) * n;
		*gbase = 0;
	}
	else {
		const long long tiles = (inner + cols - 1) / cols;
		const long long so = blockIdx.x / tiles, i0 = (blockIdx.x - so * tiles) * cols;
		*gbase = selected_line(so, sel) * n * inner + i0;
		valid = (int) min((long long) cols, inner - i0);
	}
	__syncthreads();
	return valid;
}

/**
 * Copies the block's `count` elements from global memory into buf (at pad16 of their shared index), the global index
 * of shared element f given by at(f) (-1: nothing there), UNROLL loads in flight per thread (a loop of one load then
 * one shared store would wait out each load's latency). No barrier.
 */
template <typename C, typename At>
__device__ __forceinline__ void load_block(const C* data, C* buf, int count, const At& at) {
	for (int f0 = threadIdx.x; f0 < count; f0 += UNROLL * blockDim.x) {
		C v[UNROLL];
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
			const int f = f0 + u * blockDim.x;
			if (f < count) {
				const long long g = at(f);
				if (g >= 0) v[u] = data[g];
			}
		}
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
			const int f = f0 + u * blockDim.x;
			if (f < count) buf[pad16(f)] = v[u];
		}
	}
}

/** Copies the block's result back from buf to global memory (load_block's inverse). */
template <typename C, typename At>
__device__ __forceinline__ void store_block(C* data, const C* buf, int count, const At& at) {
	for (int f = threadIdx.x; f < count; f += blockDim.x) {
		const long long g = at(f);
		if (g >= 0) data[g] = buf[pad16(f)];
	}
}

/**
 * Every pass of one axis (radices: 4 bits each, first pass lowest; npasses of them) on the lines of this block: of
 * the `lines` selected lines (`sel`; all when unpruned) for contiguous lines, of the selected o times every i in
 * tiles otherwise. The dynamic shared memory holds two buffers of pad16(n cols) + 1 and n complex values, then cols
 * line offsets (contiguous lines).
 */
template <typename T>
__device__ void axis_body(typename Cplx<T>::type* data, long long lines, int n, long long inner, int cols,
	long long radices, int npasses, int sign, const LineSelect& sel)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char nj_fft_smem[];
	C* const buf0 = reinterpret_cast<C*>(nj_fft_smem);
	C* const buf1 = buf0 + pad16(n * cols) + 1;
	C* const tw = buf1 + pad16(n * cols) + 1;
	long long* const lineBase = reinterpret_cast<long long*>(tw + n);
	const bool contig = inner == 1;
	const int count = n * cols;
	const float invN = 1.0f / n, invCols = 1.0f / cols;
	long long gbase;
	const int valid = block_lines(lines, n, inner, cols, sel, lineBase, &gbase); // lines or columns that exist
	for (int t = threadIdx.x; t < n; t += blockDim.x) {
		T sn, cs;
		nj_sincospi<T>((T) (2 * t) / (T) n, &sn, &cs);
		tw[t].x = cs;
		tw[t].y = sign * sn;
	}
	const auto at = [&](int f) { return element(f, n, cols, invN, invCols, contig, valid, lineBase, gbase, inner); };
	load_block(data, buf0, count, at);
	__syncthreads();
	C* src = buf0;
	C* dst = buf1;
	int ns = 1;
	for (int p = 0; p < npasses; p++) {
		const int r = (int) ((radices >> (4 * p)) & 15);
		switch (r) {
			case 2: smem_pass<T, 2>(src, dst, tw, n, cols, contig, ns, sign); break;
			case 3: smem_pass<T, 3>(src, dst, tw, n, cols, contig, ns, sign); break;
			case 4: smem_pass<T, 4>(src, dst, tw, n, cols, contig, ns, sign); break;
			case 5: smem_pass<T, 5>(src, dst, tw, n, cols, contig, ns, sign); break;
			case 7: smem_pass<T, 7>(src, dst, tw, n, cols, contig, ns, sign); break;
			default: smem_pass<T, 8>(src, dst, tw, n, cols, contig, ns, sign); break;
		}
		__syncthreads();
		C* const t = src;
		src = dst;
		dst = t;
		ns *= r;
	}
	store_block(data, src, count, at);
}

// Threads per block at most 512 (float) and 256 (double: 168 registers a thread without the bound).
#define FFT_AXIS_ENTRY(T, S, THREADS)                                                                                  \
	extern "C" __global__ void __launch_bounds__(THREADS) fft_axis_##S(Cplx<T>::type* data, long long lines, int n,    \
		long long inner, int cols, long long radices, int npasses, int sign, int n1, int s1, int c1, int n2, int s2,     \
		int c2)                                                                                                          \
	{                                                                                                                  \
		const LineSelect sel = { n1, s1, c1, n2, s2, c2 };                                                             \
		axis_body<T>(data, lines, n, inner, cols, radices, npasses, sign, sel);                                          \
	}

FFT_AXIS_ENTRY(float, f, 512)
FFT_AXIS_ENTRY(double, d, 256)

// ---- Fixed-length axis kernels (issue 14: the own FFT within 1.5x of cuFFT) ----
// fft_axis_S_N_fw / _bw: fft_axis for one length N known at compile time and one sign, for the grid lengths the NUFFT
// plans make most (FFT_FIXED below; GpuOwnFft.FIXED lists the same). The generic kernel spends its issue slots on
// index arithmetic (divisions by run-time n, ns and cols; Nsight Compute: integer pipeline the busiest); here every
// pass's radix, span ns and line length are constants (the divisions become multiplications and shifts, the pass loop
// is unrolled), the tile width is a power of two (a shift), the sign folds into the butterflies, and the twiddles come
// from one table per length in the module's global memory (filled once by fft_twiddles_init) instead of n sincospi per
// block. Same passes, same order, same arithmetic per element as fft_axis (the tests compare both with cuFFT).

/** The radix of the next pass for the rest of the length (the order of GpuOwnFft.factors: 8s, 4, 6, 2, 3, 5, 7). */
__host__ __device__ constexpr int next_radix(int rest) {
	return rest % 8 == 0 ? 8 : rest % 4 == 0 ? 4 : rest % 6 == 0 ? 6 : rest % 2 == 0 ? 2 : rest % 3 == 0 ? 3 :
		rest % 5 == 0 ? 5 : 7;
}

#define FFT_FIXED(X) X(64) X(96) X(128) X(160) X(192) X(256) X(320) X(384) X(480) X(512) X(640) X(768) X(1024)
#define NJ_TW_SUM(N) + N
#define NJ_TW_COMMA(N) , N
/** Twiddle entries of all fixed lengths: tables of N values e^{+2 pi i t / N} one after the other. */
#define NJ_TW_TOTAL (0 FFT_FIXED(NJ_TW_SUM))
__device__ float2 nj_tw_f[NJ_TW_TOTAL];
__device__ double2 nj_tw_d[NJ_TW_TOTAL];

/** Where the table of length N starts (the sum of the fixed lengths before it). */
__host__ __device__ constexpr int tw_offset(int n) {
	constexpr int lengths[] = { 0 FFT_FIXED(NJ_TW_COMMA) };
	int off = 0;
	for (int i = 1; i < (int) (sizeof(lengths) / sizeof(int)) && lengths[i] != n; i++) off += lengths[i];
	return off;
}

template <typename T>
__device__ __forceinline__ const typename Cplx<T>::type* tw_table();
template <>
__device__ __forceinline__ const float2* tw_table<float>() { return nj_tw_f; }
template <>
__device__ __forceinline__ const double2* tw_table<double>() { return nj_tw_d; }

/** Fills the twiddle tables (both precisions from double sincospi); GpuOwnFft launches it once per backend. */
extern "C" __global__ void fft_twiddles_init() {
	constexpr int lengths[] = { 0 FFT_FIXED(NJ_TW_COMMA) };
	int off = 0;
	for (int i = 1; i < (int) (sizeof(lengths) / sizeof(int)); i++) {
		const int n = lengths[i];
		for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
			double s, c;
			sincospi(2.0 * t / n, &s, &c);
			nj_tw_d[off + t] = make_double2(c, s);
			nj_tw_f[off + t] = make_float2((float) c, (float) s);
		}
		off += n;
	}
}

/** One Stockham pass of radix R at span NS over `cols` lines of the constant length N in shared memory (smem_pass). */
template <typename T, int R, int N, int NS, int SIGN>
__device__ __forceinline__ void smem_pass_fixed(const typename Cplx<T>::type* src, typename Cplx<T>::type* dst,
	const typename Cplx<T>::type* __restrict__ tw, int cols, bool contig, int colShift)
{
	typedef typename Cplx<T>::type C;
	constexpr int M = N / R, STRIDE = N / (NS * R);
	const int total = M * cols;
	for (int b = threadIdx.x; b < total; b += blockDim.x) {
		int j, c, es, cs;
		if (contig) {
			c = b / M;
			j = b - c * M;
			es = 1;
			cs = N;
		}
		else {
			j = b >> colShift;
			c = b & (cols - 1);
			es = cols;
			cs = 1;
		}
		const int k = j % NS, jq = j / NS;
		C v[R];
#pragma unroll
		for (int r = 0; r < R; r++) v[r] = src[pad16(c * cs + (j + r * M) * es)];
		if (NS > 1 && k > 0) {
			C w1 = __ldg(tw + k * STRIDE);
			if (SIGN < 0) w1.y = -w1.y;
			twiddle<C, R>(v, w1);
		}
		butterfly<T, R>(v, SIGN);
		const int d = jq * NS * R + k;
#pragma unroll
		for (int q = 0; q < R; q++) dst[pad16(c * cs + (d + q * NS) * es)] = v[q];
	}
}

/** The passes from span NS on (ping-pong src/dst, a barrier after each); returns the buffer that holds the result. */
template <typename T, int N, int NS, int SIGN>
__device__ __forceinline__ typename Cplx<T>::type* passes_fixed(typename Cplx<T>::type* src,
	typename Cplx<T>::type* dst, const typename Cplx<T>::type* __restrict__ tw, int cols, bool contig, int colShift)
{
	if constexpr (NS >= N) return src;
	else {
		constexpr int R = next_radix(N / NS);
		smem_pass_fixed<T, R, N, NS, SIGN>(src, dst, tw, cols, contig, colShift);
		__syncthreads();
		return passes_fixed<T, N, NS * R, SIGN>(dst, src, tw, cols, contig, colShift);
	}
}

/** Global index of shared element f for the constant length N (element() with constant divisions). */
template <int N>
__device__ __forceinline__ long long element_fixed(int f, int cols, int colShift, bool contig, int valid,
	const long long* lineBase, long long gbase, long long inner)
{
	int c, e;
	if (contig) {
		c = f / N;
		e = f - c * N;
		return c < valid ? lineBase[c] + e : -1;
	}
	e = f >> colShift;
	c = f & (cols - 1);
	return c < valid ? gbase + (long long) e * inner + c : -1;
}

/**
 * axis_body for the constant length N and sign: the same lines per block, loads, passes and stores. Tiles (strided
 * lines) need a power-of-two cols (colShift = log2 cols; GpuOwnFft uses the generic kernel otherwise). Shared memory:
 * two buffers of pad16(N cols) + 1 complex values, then cols line offsets (no twiddle table: it is global).
 */
template <typename T, int N, int SIGN>
__device__ void axis_fixed(typename Cplx<T>::type* data, long long lines, long long inner, int cols, int colShift,
	const LineSelect& sel)
{
	typedef typename Cplx<T>::type C;
	extern __shared__ __align__(16) unsigned char nj_fft_smem[];
	C* const buf0 = reinterpret_cast<C*>(nj_fft_smem);
	C* const buf1 = buf0 + pad16(N * cols) + 1;
	long long* const lineBase = reinterpret_cast<long long*>(buf1 + pad16(N * cols) + 1);
	const bool contig = inner == 1;
	const int count = N * cols;
	long long gbase;
	const int valid = block_lines(lines, N, inner, cols, sel, lineBase, &gbase);
	const auto at = [&](int f) {
		return element_fixed<N>(f, cols, colShift, contig, valid, lineBase, gbase, inner);
	};
	load_block(data, buf0, count, at);
	__syncthreads();
	const C* const out = passes_fixed<T, N, 1, SIGN>(buf0, buf1, tw_table<T>() + tw_offset(N), cols, contig, colShift);
	store_block(data, out, count, at);
}

#define FFT_AXIS_FIXED_ENTRY(T, S, THREADS, N, DIR, SIGN)                                                              \
	extern "C" __global__ void __launch_bounds__(THREADS) fft_axis_##S##_##N##_##DIR(Cplx<T>::type* data,              \
		long long lines, long long inner, int cols, int colShift, int n1, int s1, int c1, int n2, int s2, int c2)       \
	{                                                                                                                  \
		const LineSelect sel = { n1, s1, c1, n2, s2, c2 };                                                             \
		axis_fixed<T, N, SIGN>(data, lines, inner, cols, colShift, sel);                                               \
	}
#define FFT_AXIS_FIXED_ALL(N)                                                                                          \
	FFT_AXIS_FIXED_ENTRY(float, f, 512, N, fw, -1)                                                                     \
	FFT_AXIS_FIXED_ENTRY(float, f, 512, N, bw, 1)                                                                      \
	FFT_AXIS_FIXED_ENTRY(double, d, 256, N, fw, -1)                                                                    \
	FFT_AXIS_FIXED_ENTRY(double, d, 256, N, bw, 1)
FFT_FIXED(FFT_AXIS_FIXED_ALL)
