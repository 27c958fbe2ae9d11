/*
 * cuFFT compatibility shim for JCufft 11.8.0 (NUFFT-J).
 *
 * libJCufft-11.8.0 links libcufft.so.10 and binds its cufft* symbols to the version node "libcufft.so.10", so a
 * symlink to a newer cuFFT (whose symbols carry other nodes) does not resolve. This library has the SONAME
 * libcufft.so.10, defines that version node (cufft_shim.map) for every cufft* entry point JCufft imports, and forwards
 * each call through dlopen/dlsym to the newest real cuFFT found: libcufft.so.12, then .11. Real .10 is not tried:
 * the Java loader only loads this shim when no real libcufft.so.10 exists.
 *
 * Every cuFFT argument is an integer, a pointer or an enum, so each forwarder has the exact prototype of the
 * cuFFT 10..12 API (cufft.h) and passes its arguments through unchanged.
 * Build: scripts/gpu-build-shim.sh (gcc -shared -Wl,-soname,libcufft.so.10 -Wl,--version-script=cufft_shim.map).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

/* Bind to the oldest glibc versions of these symbols so the shim loads on glibc < 2.34 too (before libdl merged). */
__asm__(".symver dlopen,dlopen@GLIBC_2.2.5");
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
__asm__(".symver dlclose,dlclose@GLIBC_2.2.5");
__asm__(".symver pthread_once,pthread_once@GLIBC_2.2.5");

typedef int cufftResult;
typedef int cufftHandle;
typedef int cufftType;
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef struct { float x, y; } cufftComplex;
typedef struct { double x, y; } cufftDoubleComplex;
typedef void *cudaStream_t;
typedef int libraryPropertyType;

#define CUFFT_NOT_SUPPORTED 16

static void *target;
static char target_name[64];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_target(void) {
	static const char *names[] = { "libcufft.so.12", "libcufft.so.11", "libcufft.so" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (h != NULL && dlsym(h, "cufftGetVersion") != NULL) {
			target = h;
			strncpy(target_name, names[i], sizeof target_name - 1);
			return;
		}
		if (h != NULL) dlclose(h);
	}
}

static void *resolve(const char *name) {
	pthread_once(&once, open_target);
	return target == NULL ? NULL : dlsym(target, name);
}

/* Not a cuFFT function: which library the shim forwards to ("" when none). Unversioned, for diagnostics. */
const char *nufftj_cufft_shim_target(void) {
	pthread_once(&once, open_target);
	return target_name;
}

#define FORWARD(name, params, args)                                                     \
	cufftResult name params {                                                            \
		static cufftResult (*fn) params;                                                 \
		if (fn == NULL) fn = (cufftResult (*) params) resolve(#name);                    \
		if (fn == NULL) return CUFFT_NOT_SUPPORTED;                                      \
		return fn args;                                                                  \
	}

FORWARD(cufftPlan1d, (cufftHandle *plan, int nx, cufftType type, int batch), (plan, nx, type, batch))
FORWARD(cufftPlan2d, (cufftHandle *plan, int nx, int ny, cufftType type), (plan, nx, ny, type))
FORWARD(cufftPlan3d, (cufftHandle *plan, int nx, int ny, int nz, cufftType type), (plan, nx, ny, nz, type))
FORWARD(cufftPlanMany, (cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
	int ostride, int odist, cufftType type, int batch),
	(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch))
FORWARD(cufftMakePlan1d, (cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize),
	(plan, nx, type, batch, workSize))
FORWARD(cufftMakePlan2d, (cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize),
	(plan, nx, ny, type, workSize))
FORWARD(cufftMakePlan3d, (cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize),
	(plan, nx, ny, nz, type, workSize))
FORWARD(cufftMakePlanMany, (cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
	int ostride, int odist, cufftType type, int batch, size_t *workSize),
	(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize))
FORWARD(cufftMakePlanMany64, (cufftHandle plan, int rank, long long int *n, long long int *inembed,
	long long int istride, long long int idist, long long int *onembed, long long int ostride, long long int odist,
	cufftType type, long long int batch, size_t *workSize),
	(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize))
FORWARD(cufftGetSizeMany64, (cufftHandle plan, int rank, long long int *n, long long int *inembed,
	long long int istride, long long int idist, long long int *onembed, long long int ostride, long long int odist,
	cufftType type, long long int batch, size_t *workSize),
	(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize))
FORWARD(cufftEstimate1d, (int nx, cufftType type, int batch, size_t *workSize), (nx, type, batch, workSize))
FORWARD(cufftEstimate2d, (int nx, int ny, cufftType type, size_t *workSize), (nx, ny, type, workSize))
FORWARD(cufftEstimate3d, (int nx, int ny, int nz, cufftType type, size_t *workSize), (nx, ny, nz, type, workSize))
FORWARD(cufftEstimateMany, (int rank, int *n, int *inembed, int istride, int idist, int *onembed, int ostride,
	int odist, cufftType type, int batch, size_t *workSize),
	(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize))
FORWARD(cufftCreate, (cufftHandle *handle), (handle))
FORWARD(cufftGetSize1d, (cufftHandle handle, int nx, cufftType type, int batch, size_t *workSize),
	(handle, nx, type, batch, workSize))
FORWARD(cufftGetSize2d, (cufftHandle handle, int nx, int ny, cufftType type, size_t *workSize),
	(handle, nx, ny, type, workSize))
FORWARD(cufftGetSize3d, (cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t *workSize),
	(handle, nx, ny, nz, type, workSize))
FORWARD(cufftGetSizeMany, (cufftHandle handle, int rank, int *n, int *inembed, int istride, int idist,
	int *onembed, int ostride, int odist, cufftType type, int batch, size_t *workArea),
	(handle, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workArea))
FORWARD(cufftGetSize, (cufftHandle handle, size_t *workSize), (handle, workSize))
FORWARD(cufftSetWorkArea, (cufftHandle plan, void *workArea), (plan, workArea))
FORWARD(cufftSetAutoAllocation, (cufftHandle plan, int autoAllocate), (plan, autoAllocate))
FORWARD(cufftExecC2C, (cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction),
	(plan, idata, odata, direction))
FORWARD(cufftExecR2C, (cufftHandle plan, cufftReal *idata, cufftComplex *odata), (plan, idata, odata))
FORWARD(cufftExecC2R, (cufftHandle plan, cufftComplex *idata, cufftReal *odata), (plan, idata, odata))
FORWARD(cufftExecZ2Z, (cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata, int direction),
	(plan, idata, odata, direction))
FORWARD(cufftExecD2Z, (cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata), (plan, idata, odata))
FORWARD(cufftExecZ2D, (cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata), (plan, idata, odata))
FORWARD(cufftSetStream, (cufftHandle plan, cudaStream_t stream), (plan, stream))
FORWARD(cufftDestroy, (cufftHandle plan), (plan))
FORWARD(cufftGetVersion, (int *version), (version))
FORWARD(cufftGetProperty, (libraryPropertyType type, int *value), (type, value))
