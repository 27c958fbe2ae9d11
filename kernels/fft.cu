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
 * In-place DFT of R values: V_s = sum_q v_q e^{sign 2 pi i q s / R}. Radix 2 and 4 by hand, the others directly
 * with constant roots (R^2 complex multiply-adds, computed in registers; the passes are bound by memory).
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
			C w1, w;
			w1.x = cs;
			w1.y = sign * sn;
			w = w1;
#pragma unroll
			for (int r = 1; r < R; r++) {
				v[r] = cmul(v[r], w);
				if (r + 1 < R) w = cmul(w, w1);
			}
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
FFT_ENTRY(float, f, 7)
FFT_ENTRY(float, f, 8)
FFT_ENTRY(double, d, 2)
FFT_ENTRY(double, d, 3)
FFT_ENTRY(double, d, 4)
FFT_ENTRY(double, d, 5)
FFT_ENTRY(double, d, 7)
FFT_ENTRY(double, d, 8)
