package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nufftj.TestProperties;

/** Which pruned grid transforms go to the own FFT where cuFFT is the engine (host rule, no GPU). */
class GpuFftsTest {

	/** Under the engine auto (set here, whatever NUFFTJ_FFT says). */
	@Test
	void floatThreeDimensionalGridsOfAtLeastTwiceTheBlockArePruned() {
		TestProperties.with("nufftj.fft", "auto", () -> {
			assertTrue(GpuFfts.prunedOwn(new int[] { 256, 256, 256 }, new int[] { 128, 128, 128 }, false), "σ = 2");
			assertTrue(GpuFfts.prunedOwn(new int[] { 288, 288, 288 }, new int[] { 128, 128, 128 }, false), "σ = 2.25");
			assertTrue(GpuFfts.prunedOwn(new int[] { 128, 256, 64 }, new int[] { 64, 128, 32 }, false), "anisotropic");
		});
	}

	@Test
	void otherGeometriesStayOnCufft() {
		TestProperties.with("nufftj.fft", "auto", () -> {
			assertFalse(GpuFfts.prunedOwn(new int[] { 192, 192, 192 }, new int[] { 128, 128, 128 }, false), "σ = 1.5");
			assertFalse(GpuFfts.prunedOwn(new int[] { 256, 256, 192 }, new int[] { 128, 128, 128 }, false),
				"one axis 1.5");
			assertFalse(GpuFfts.prunedOwn(new int[] { 1024, 1024 }, new int[] { 512, 512 }, false), "2D");
			assertFalse(GpuFfts.prunedOwn(new int[] { 256, 256, 256 }, new int[] { 128, 128, 128 }, true), "double");
			assertFalse(GpuFfts.prunedOwn(new int[] { 256, 256, 256 }, null, false), "not pruned");
		});
	}

	@Test
	void offKeepsEveryTransformOnCufft() {
		TestProperties.with("nufftj.fft", "auto", () -> TestProperties.with("nufftj.fftPrune", "off", () -> assertFalse(GpuFfts
			.prunedOwn(new int[] { 256, 256, 256 }, new int[] { 128, 128, 128 }, false))));
	}

	/** cuFFT asked for (--fft cufft) runs every transform, pruned or not, on cuFFT. */
	@Test
	void cufftAskedForKeepsEveryTransformOnCufft() {
		TestProperties.with("nufftj.fft", "cufft", () -> assertFalse(GpuFfts.prunedOwn(new int[] { 256, 256, 256 },
			new int[] { 128, 128, 128 }, false)));
	}
}
