package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import jcuda.driver.CUresult;

/** Cuda.check's exception carries the driver's result (host only: the driver need not load). */
class CudaCheckTest {

	@Test
	void outOfMemoryIsTheDriversResultNotTheMessage() {
		final GpuException oom = assertThrows(GpuException.class, () -> Cuda.check(CUresult.CUDA_ERROR_OUT_OF_MEMORY,
			"cuMemAlloc(test, 1 bytes)"));
		assertTrue(oom.outOfMemory(), oom.getMessage());
		assertTrue(oom.getMessage().startsWith("cuMemAlloc(test, 1 bytes) failed: "), oom.getMessage());
		for (final int other : new int[] { CUresult.CUDA_ERROR_INVALID_VALUE, CUresult.CUDA_ERROR_LAUNCH_FAILED }) {
			assertFalse(assertThrows(GpuException.class, () -> Cuda.check(other, "call")).outOfMemory(), "result " + other);
		}
		// raised without a driver call (no device, a refused geometry): never out of memory, whatever the text says
		assertFalse(new GpuException("CUDA_ERROR_OUT_OF_MEMORY in the text only").outOfMemory());
	}
}
