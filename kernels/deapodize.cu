// Fused deapodization + zero-padding + fftshift-by-index + crop.
// Image pixel (ix, iy, iz) of an N0x × N0y × N0z image (x fastest) sits at centred position x = index − ⌊N0/2⌋ and
// maps to fine-grid cell x mod n on each axis (so no separate fftshift pass). dx, dy, dz hold 1/ψ̂((i − N0/2)/n) per
// axis (Kernels.deapodization, computed on the host in double; dz = {1} in 2D).
//  pad  (forward, before the FFT): one thread per grid cell; grid = image · dx·dy·dz where a pixel maps, else 0
//                                  (so the grid needs no separate clearing)
//  crop (adjoint, after the FFT):  one thread per pixel; image = grid[cell] · dx·dy·dz
// blockIdx.y = transform. 32-bit index arithmetic (grids up to 2^31 cells).
#include "nufft_common.cuh"

/** Image index of grid coordinate g on an axis of n cells holding an image of n0 pixels, or −1 outside. */
__device__ __forceinline__ int image_index(int g, int n0, int n) {
	const int h = n0 / 2;
	if (g < n0 - h) return g + h;
	if (g >= n - h) return g - n + h;
	return -1;
}

template <typename T>
__device__ __forceinline__ void pad(const typename Cplx<T>::type* __restrict__ image,
	typename Cplx<T>::type* __restrict__ grid, const T* __restrict__ dx, const T* __restrict__ dy,
	const T* __restrict__ dz, int n0x, int n0y, int n0z, int nx, int ny, int nz)
{
	typedef typename Cplx<T>::type C;
	const unsigned cells = (unsigned) nx * ny * nz;
	const unsigned q = blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= cells) return;
	const unsigned b = blockIdx.y;
	const unsigned gx = q % nx, r = q / nx, gy = r % ny, gz = r / ny;
	const int ix = image_index(gx, n0x, nx), iy = image_index(gy, n0y, ny), iz = image_index(gz, n0z, nz);
	C v;
	v.x = 0;
	v.y = 0;
	if (ix >= 0 && iy >= 0 && iz >= 0) {
		const T d = dx[ix] * dy[iy] * dz[iz];
		v = image[(size_t) b * n0x * n0y * n0z + ((size_t) iz * n0y + iy) * n0x + ix];
		v.x *= d;
		v.y *= d;
	}
	grid[(size_t) b * cells + q] = v;
}

template <typename T>
__device__ __forceinline__ void crop(const typename Cplx<T>::type* __restrict__ grid,
	typename Cplx<T>::type* __restrict__ image, const T* __restrict__ dx, const T* __restrict__ dy,
	const T* __restrict__ dz, int n0x, int n0y, int n0z, int nx, int ny, int nz)
{
	typedef typename Cplx<T>::type C;
	const unsigned pixels = (unsigned) n0x * n0y * n0z;
	const unsigned q = blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= pixels) return;
	const unsigned b = blockIdx.y;
	const unsigned ix = q % n0x, r = q / n0x, iy = r % n0y, iz = r / n0y;
	int gx = (int) ix - n0x / 2, gy = (int) iy - n0y / 2, gz = (int) iz - n0z / 2;
	if (gx < 0) gx += nx;
	if (gy < 0) gy += ny;
	if (gz < 0) gz += nz;
	const T d = dx[ix] * dy[iy] * dz[iz];
	C v = grid[(size_t) b * nx * ny * nz + ((size_t) gz * ny + gy) * nx + gx];
	v.x *= d;
	v.y *= d;
	image[(size_t) b * pixels + q] = v;
}

// -- entry points pad_<f|d>, crop_<f|d>: (DeapodArgs, input, output), launched by GpuNufftPlan --

#define DEAPOD_ENTRIES(T, S)                                                                                            \
	extern "C" __global__ void pad_##S(const __grid_constant__ DeapodArgs<T> a, const Cplx<T>::type* image,            \
		Cplx<T>::type* grid)                                                                                           \
	{                                                                                                                   \
		pad<T>(image, grid, a.d[0], a.d[1], a.d[2], a.image[0], a.image[1], a.image[2], a.grid[0], a.grid[1],          \
			a.grid[2]);                                                                                                 \
	}                                                                                                                   \
	extern "C" __global__ void crop_##S(const __grid_constant__ DeapodArgs<T> a, const Cplx<T>::type* grid,            \
		Cplx<T>::type* image)                                                                                          \
	{                                                                                                                   \
		crop<T>(grid, image, a.d[0], a.d[1], a.d[2], a.image[0], a.image[1], a.image[2], a.grid[0], a.grid[1],         \
			a.grid[2]);                                                                                                 \
	}

DEAPOD_ENTRIES(float, f)
DEAPOD_ENTRIES(double, d)
