// Host emulation of the few CUDA features kernels/setpts.cu uses (thread/block indices, __syncthreads, warp
// shuffles, int atomics, round-to-nearest double arithmetic), so that its kernels can be checked without a GPU:
// scripts/setpts-emulate.sh compiles kernels/setpts.cu with this header and setpts_emulation.cpp. Blocks that
// synchronise run as 256 std::threads with barriers (one per block, one per warp for the shuffles); __shared__
// becomes static, which is per block because blocks run one after another. Not a CUDA implementation: only what
// setpts.cu needs.
#pragma once
#include <cmath>
#include <cstddef>
#include <algorithm>
#include <barrier>
#include <thread>
#include <vector>
using std::min; using std::max;
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(x)
#define __grid_constant__
#define __shared__ static
#define __align__(x)
#define __restrict__
struct int2 { int x, y; };
inline int2 make_int2(int x, int y) { return {x, y}; }
struct float2 { float x, y; };
struct double2 { double x, y; };
struct float4 { float x, y, z, w; };
struct dim3 { unsigned x, y, z; };
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim{256, 1, 1}, gridDim{1, 1, 1};
inline double __dmul_rn(double a, double b) { volatile double r = a * b; return r; }
inline double __dsub_rn(double a, double b) { volatile double r = a - b; return r; }
inline float __double2float_rn(double d) { return (float) d; }
inline float cyl_bessel_i0f(float x) { return std::cyl_bessel_if(0.f, x); }
inline double cyl_bessel_i0(double x) { return std::cyl_bessel_i(0., x); }
inline int atomicAdd(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline float atomicAdd(float* p, float v) { float o = *p; *p += v; return o; }
inline double atomicAdd(double* p, double v) { double o = *p; *p += v; return o; }
inline std::barrier<>* g_block = nullptr;
inline std::barrier<>* g_warp[8] = {};
inline int g_vals[8][32];
inline void __syncthreads() { g_block->arrive_and_wait(); }
inline int __shfl_up_sync(unsigned, int v, int o) {
	const int w = threadIdx.x / 32, l = threadIdx.x % 32;
	g_vals[w][l] = v;
	g_warp[w]->arrive_and_wait();
	const int r = l >= o ? g_vals[w][l - o] : v;
	g_warp[w]->arrive_and_wait();
	return r;
}
