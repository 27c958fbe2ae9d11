// Fused deapodization + zero-padding + fftshift-by-index + crop, and the precision conversions.
// Image pixel (ix, iy, iz) of an N0x × N0y × N0z image (x fastest) sits at centred position x = index − N0/2 and maps
// to fine-grid cell x mod n on each axis (so no separate fftshift pass). dx, dy, dz hold 1/ψ̂((i − N0/2)/n) per axis
// (Kernels.deapodization, computed on the host in double; dz = {1} in 2D).
//  pad  (forward, before the FFT):  grid[cell(x)] = image[x] · dx·dy·dz   (grid zeroed beforehand)
//  crop (adjoint, after the FFT):   image[x] = grid[cell(x)] · dx·dy·dz
// One thread per pixel and transform (blockIdx.y = transform).
#include "nufft_common.cuh"

__device__ __forceinline__ long long grid_cell(long long q, int n0x, int n0y, int nx, int ny, int nz, int n0z,
	int* ix, int* iy, int* iz)
{
	*ix = (int) (q % n0x);
	*iy = (int) ((q / n0x) % n0y);
	*iz = (int) (q / ((long long) n0x * n0y));
	int gx = *ix - n0x / 2, gy = *iy - n0y / 2, gz = *iz - n0z / 2;
	if (gx < 0) gx += nx;
	if (gy < 0) gy += ny;
	if (gz < 0) gz += nz;
	return ((long long) gz * ny + gy) * nx + gx;
}

template <typename T>
__device__ __forceinline__ void pad(const typename Cplx<T>::type* __restrict__ image,
	typename Cplx<T>::type* __restrict__ grid, const T* __restrict__ dx, const T* __restrict__ dy,
	const T* __restrict__ dz, int n0x, int n0y, int n0z, int nx, int ny, int nz)
{
	const long long pixels = (long long) n0x * n0y * n0z;
	const long long q = (long long) blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= pixels) return;
	const int b = blockIdx.y;
	int ix, iy, iz;
	const long long cell = grid_cell(q, n0x, n0y, nx, ny, nz, n0z, &ix, &iy, &iz);
	const T d = dx[ix] * dy[iy] * dz[iz];
	typename Cplx<T>::type v = image[b * pixels + q];
	v.x *= d;
	v.y *= d;
	grid[b * (long long) nx * ny * nz + cell] = v;
}

template <typename T>
__device__ __forceinline__ void crop(const typename Cplx<T>::type* __restrict__ grid,
	typename Cplx<T>::type* __restrict__ image, const T* __restrict__ dx, const T* __restrict__ dy,
	const T* __restrict__ dz, int n0x, int n0y, int n0z, int nx, int ny, int nz)
{
	const long long pixels = (long long) n0x * n0y * n0z;
	const long long q = (long long) blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= pixels) return;
	const int b = blockIdx.y;
	int ix, iy, iz;
	const long long cell = grid_cell(q, n0x, n0y, nx, ny, nz, n0z, &ix, &iy, &iz);
	const T d = dx[ix] * dy[iy] * dz[iz];
	typename Cplx<T>::type v = grid[b * (long long) nx * ny * nz + cell];
	v.x *= d;
	v.y *= d;
	image[b * pixels + q] = v;
}

#define DEAPOD_ENTRIES(T, S)                                                                                            \
	extern "C" __global__ void pad_##S(const Cplx<T>::type* image, Cplx<T>::type* grid, const T* dx, const T* dy,     \
		const T* dz, int n0x, int n0y, int n0z, int nx, int ny, int nz)                                                 \
	{                                                                                                                   \
		pad<T>(image, grid, dx, dy, dz, n0x, n0y, n0z, nx, ny, nz);                                                     \
	}                                                                                                                   \
	extern "C" __global__ void crop_##S(const Cplx<T>::type* grid, Cplx<T>::type* image, const T* dx, const T* dy,    \
		const T* dz, int n0x, int n0y, int n0z, int nx, int ny, int nz)                                                 \
	{                                                                                                                   \
		crop<T>(grid, image, dx, dy, dz, n0x, n0y, n0z, nx, ny, nz);                                                    \
	}

DEAPOD_ENTRIES(float, f)
DEAPOD_ENTRIES(double, d)
