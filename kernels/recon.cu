// Gridding-recon helpers that keep a `recon --device gpu` on the device between the sample upload and the final
// image download (float only; double plans keep the host path): the elementwise steps of the Pipe–Menon density
// compensation, density-compensation multiply, root sum of squares, and the adaptive coil combination of Walsh,
// Gmitro & Marcellin, MRM 43:682 (2000) with exactly the maths of org.nufftj.recon.CoilCombine.walsh.
//
// Layouts (complex interleaved float2, x fastest):
//   samples [coil][sample]  (one frame: KSpace's layout, what GpuNufftPlan.adjointDevice reads)
//   images  [coil][pixel]   (what GpuNufftPlan.adjointDevice writes), pixels = nx·ny·nz
// 32-bit pixel and sample indices (< 2^31), 64-bit offsets between coils.

#define FULL_MASK 0xffffffffu

// -- Pipe–Menon density compensation (Pipe & Menon, MRM 41:179 (1999)), iterated by GpuPipeMenon: the weights are
// kept complex (re = w, im = 0) so that GpuNufftPlan's spreader and interpolator take them as one transform; the
// elementwise steps of org.nufftj.recon.DensityCompensation.pipeMenon are these kernels, one thread per sample.

/** w[i] = (1, 0): the iteration's start, w = 1. */
extern "C" __global__ void dcf_pipe_menon_init_f(float2* w, int m)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	w[i] = make_float2(1.f, 0.f);
}

/**
 * One iteration's update, c = interpolate(spread(w)) (real: the imaginary parts stay 0): w_i ← w_i / c_i where
 * c_i > 0, else 0 (also for c_i NaN), as the host does; real[i] = the new w_i, the weights as one float per sample.
 */
extern "C" __global__ void dcf_pipe_menon_update_f(float2* w, const float2* c, float* real, int m)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	const float ci = c[i].x;
	const float wi = ci > 0.f ? w[i].x / ci : 0.f; // IEEE division (no fast-math in the build)
	w[i] = make_float2(wi, 0.f);
	real[i] = wi;
}

/** w[i] *= s: the host's normalisation factor (DensityCompensation.normalisation), the same float product. */
extern "C" __global__ void dcf_scale_f(float* w, float s, int m)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	w[i] *= s;
}

/** samples[c·m + i] *= w[i]: one thread per sample, blockIdx.y = coil (DCF w applied once, real). */
extern "C" __global__ void dcf_weight_f(float2* samples, const float* w, int m)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m) return;
	const float wi = w[i];
	float2* s = samples + (size_t) blockIdx.y * m + i;
	float2 v = *s;
	v.x *= wi;
	v.y *= wi;
	*s = v;
}

/**
 * out[p] = (√(Σ_c |x_c[p]|²), 0): one thread per pixel. Accumulated in float, coil 0 first, as
 * CoilCombine.sumOfSquares does on the host.
 */
extern "C" __global__ void sum_of_squares_f(const float2* images, float2* out, int pixels, int coils)
{
	const int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= pixels) return;
	float s = 0;
	for (int c = 0; c < coils; c++) {
		const float2 v = images[(size_t) c * pixels + p];
		s += v.x * v.x + v.y * v.y;
	}
	out[p] = make_float2(sqrtf(s), 0.f);
}

/**
 * energy[c] += Σ_p |x_c[p]|² (double; energy must be zeroed first): blockIdx.y = coil, grid-stride over pixels,
 * block reduction, one atomicAdd per block. Walsh's phase reference is the coil of largest total energy.
 */
extern "C" __global__ void coil_energy_f(const float2* images, double* energy, int pixels)
{
	const float2* x = images + (size_t) blockIdx.y * pixels;
	double s = 0;
	for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < pixels; p += gridDim.x * blockDim.x) {
		const float2 v = x[p];
		s += (double) v.x * v.x + (double) v.y * v.y;
	}
	for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL_MASK, s, o);
	__shared__ double part[32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	if (lane == 0) part[warp] = s;
	__syncthreads();
	if (warp == 0) {
		s = lane < (int) (blockDim.x >> 5) ? part[lane] : 0;
		for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL_MASK, s, o);
		if (lane == 0) atomicAdd(&energy[blockIdx.y], s);
	}
}

/** The reference coil: the first of largest energy (CoilCombine.walsh's rule: strict > over c = 0, 1, …). */
__device__ __forceinline__ int reference_coil(const double* __restrict__ energy, int coils)
{
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

// -- Walsh, coils ≤ 32: one group of G lanes (G = 4, 8, 16 or 32 ≥ coils) per pixel, 32/G pixels per warp --
//
// Lane c of a group owns row c of the coil covariance R = Σ_window x xᴴ (R[c][d] = Σ x_c·conj(x_d)) in G complex
// registers; x_d reaches lane c by a shuffle within the group (width G), so R is never in memory. Lanes c ≥ coils hold
// zeros. Every lane of the warp runs the same number of shuffles: window pixels outside the image, and pixels past
// the end, contribute zeros (the host clips the window at the border: adding zeros is the same sum).

/** Sum over the lanes of one group of G (xor butterfly, stays within the group). */
template <int G, typename T>
__device__ __forceinline__ T group_sum(T v)
{
#pragma unroll
	for (int o = G / 2; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o, G);
	return v;
}

/**
 * u ← u/‖u‖ over the group; ‖u‖ = 0 gives u = e_0 (CoilCombine.normalise). ‖u‖² is summed in double: entries of
 * R·u scale as |x|², so their squares underflow float for |x| ≲ 1e-10 where the host (double) still normalises.
 */
template <int G>
__device__ __forceinline__ void group_normalise(float2& u, int c)
{
	const double s = group_sum<G>((double) u.x * u.x + (double) u.y * u.y);
	if (s == 0) {
		u = make_float2(c == 0 ? 1.f : 0.f, 0.f);
		return;
	}
	const float f = (float) (1 / sqrt(s));
	u.x *= f;
	u.y *= f;
}

template <int G>
__device__ __forceinline__ void walsh_group(const float2* __restrict__ images, float2* __restrict__ out,
	const double* __restrict__ energy, int nx, int ny, int nz, int coils, int half, int iterations)
{
	const int c = threadIdx.x & (G - 1);
	const int pixels = nx * ny * nz;
	const int p = blockIdx.x * (blockDim.x / G) + threadIdx.x / G;
	const bool active = p < pixels;
	const bool mine = active && c < coils;
	const int x = p % nx, y = (p / nx) % ny, z = p / (nx * ny);
	const float2* xc = images + (size_t) c * pixels + (size_t) z * nx * ny;

	// R row c over the (2h+1)² window of slice z.
	float2 r[G];
#pragma unroll
	for (int d = 0; d < G; d++) r[d] = make_float2(0.f, 0.f);
#pragma unroll 1
	for (int yy = y - half; yy <= y + half; yy++) {
#pragma unroll 1
		for (int xx = x - half; xx <= x + half; xx++) {
			const bool in = mine && xx >= 0 && xx < nx && yy >= 0 && yy < ny;
			const float2 a = in ? xc[yy * nx + xx] : make_float2(0.f, 0.f);
#pragma unroll
			for (int d = 0; d < G; d++) {
				const float br = __shfl_sync(FULL_MASK, a.x, d, G), bi = __shfl_sync(FULL_MASK, a.y, d, G);
				r[d].x += a.x * br + a.y * bi;
				r[d].y += a.y * br - a.x * bi;
			}
		}
	}

	// Power iteration from the column of largest diagonal (first one on ties).
	float diag = -1.f;
#pragma unroll
	for (int d = 0; d < G; d++)
		if (d == c && c < coils) diag = r[d].x;
	int start = c;
#pragma unroll
	for (int o = G / 2; o > 0; o >>= 1) {
		const float od = __shfl_xor_sync(FULL_MASK, diag, o, G);
		const int os = __shfl_xor_sync(FULL_MASK, start, o, G);
		if (od > diag || (od == diag && os < start)) {
			diag = od;
			start = os;
		}
	}
	float2 u = make_float2(0.f, 0.f);
#pragma unroll
	for (int d = 0; d < G; d++)
		if (d == start) u = r[d]; // R[c][start]: column start, row c (rows c ≥ coils are zero)
	group_normalise<G>(u, c);
#pragma unroll 1
	for (int it = 0; it < iterations; it++) {
		float2 w = make_float2(0.f, 0.f);
#pragma unroll
		for (int d = 0; d < G; d++) {
			const float ur = __shfl_sync(FULL_MASK, u.x, d, G), ui = __shfl_sync(FULL_MASK, u.y, d, G);
			w.x += r[d].x * ur - r[d].y * ui;
			w.y += r[d].x * ui + r[d].y * ur;
		}
		u = w;
		group_normalise<G>(u, c);
	}

	// Phase reference: u_ref real and positive; combined = Σ_c conj(v_c)·x_c with v = u·e^{−iφ_ref}.
	const int ref = reference_coil(energy, coils);
	const float rr = __shfl_sync(FULL_MASK, u.x, ref, G), ri = __shfl_sync(FULL_MASK, u.y, ref, G);
	const float rm = hypotf(rr, ri);
	const float pr = rm > 0.f ? rr / rm : 1.f, pi = rm > 0.f ? -ri / rm : 0.f;
	const float vr = u.x * pr - u.y * pi, vi = u.x * pi + u.y * pr;
	const float2 xp = mine ? xc[y * nx + x] : make_float2(0.f, 0.f);
	const float sr = group_sum<G>(vr * xp.x + vi * xp.y), si = group_sum<G>(vr * xp.y - vi * xp.x);
	if (active && c == 0) out[p] = make_float2(sr, si);
}

#define WALSH_GROUP_ENTRY(G)                                                                                            \
	extern "C" __global__ void __launch_bounds__(256) walsh_combine_f_g##G(const float2* images, float2* out,          \
		const double* energy, int nx, int ny, int nz, int coils, int half, int iterations)                              \
	{                                                                                                                   \
		walsh_group<G>(images, out, energy, nx, ny, nz, coils, half, iterations);                                       \
	}

WALSH_GROUP_ENTRY(4)
WALSH_GROUP_ENTRY(8)
WALSH_GROUP_ENTRY(16)
WALSH_GROUP_ENTRY(32)

// -- Walsh, 32 < coils ≤ WALSH_MAX_COILS: one warp (one block of 32 threads) per pixel, R in shared memory --
//
// Dynamic shared memory: R (coils rows of coils + 1 entries: the pad spreads a column over the banks), the window
// pixel's coil vector and u, as float2: 8·(coils·(coils + 1) + 2·coils) bytes. Lane l owns rows l, l + 32, … .

#define WALSH_MAX_COILS 128
#define WALSH_ROWS (WALSH_MAX_COILS / 32)

template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
	return v;
}

extern "C" __global__ void __launch_bounds__(32) walsh_combine_shared_f(const float2* images, float2* out,
	const double* energy, int nx, int ny, int nz, int coils, int half, int iterations)
{
	extern __shared__ float2 shared[];
	const int stride = coils + 1;
	float2* r = shared;
	float2* a = r + (size_t) coils * stride;
	float2* u = a + coils;
	const int lane = threadIdx.x;
	const int pixels = nx * ny * nz;
	const int p = blockIdx.x;
	const int x = p % nx, y = (p / nx) % ny, z = p / (nx * ny);
	const float2* slice = images + (size_t) z * nx * ny;

	for (int i = lane; i < coils * stride; i += 32) r[i] = make_float2(0.f, 0.f);
	const int y0 = max(0, y - half), y1 = min(ny - 1, y + half), x0 = max(0, x - half), x1 = min(nx - 1, x + half);
	for (int yy = y0; yy <= y1; yy++) {
		for (int xx = x0; xx <= x1; xx++) {
			for (int c = lane; c < coils; c += 32) a[c] = slice[(size_t) c * pixels + yy * nx + xx];
			__syncwarp();
#pragma unroll
			for (int k = 0; k < WALSH_ROWS; k++) {
				const int c = lane + 32 * k;
				if (c >= coils) break;
				const float2 ac = a[c];
				float2* row = r + (size_t) c * stride;
				for (int d = 0; d < coils; d++) {
					const float2 b = a[d];
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
		const float f = ss == 0 ? 0.f : (float) (1 / sqrt(ss));
		for (int c = lane; c < coils; c += 32) {
			if (ss == 0) u[c] = make_float2(c == 0 ? 1.f : 0.f, 0.f);
			else u[c] = make_float2(u[c].x * f, u[c].y * f);
		}
		__syncwarp();
		if (it == iterations) break;
		float2 w[WALSH_ROWS];
#pragma unroll
		for (int k = 0; k < WALSH_ROWS; k++) {
			const int c = lane + 32 * k;
			w[k] = make_float2(0.f, 0.f);
			if (c >= coils) continue;
			const float2* row = r + (size_t) c * stride;
			for (int d = 0; d < coils; d++) {
				const float2 m = row[d], ud = u[d];
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
	const float2 ur = u[ref];
	const float rm = hypotf(ur.x, ur.y);
	const float pr = rm > 0.f ? ur.x / rm : 1.f, pi = rm > 0.f ? -ur.y / rm : 0.f;
	float sr = 0, si = 0;
	for (int c = lane; c < coils; c += 32) {
		const float vr = u[c].x * pr - u[c].y * pi, vi = u[c].x * pi + u[c].y * pr;
		const float2 xp = slice[(size_t) c * pixels + y * nx + x];
		sr += vr * xp.x + vi * xp.y;
		si += vr * xp.y - vi * xp.x;
	}
	sr = warp_sum(sr);
	si = warp_sum(si);
	if (lane == 0) out[p] = make_float2(sr, si);
}
