package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;

/**
 * Device choice on any machine (CI has no GPU): {@code info} never throws, {@code auto} always gives a working plan
 * (the GPU when usable, else the CPU), {@code gpu} gives a GPU plan or an IllegalStateException naming the reason.
 */
class GpuFallbackTest {

	@Test
	void infoNeverThrows() {
		final String info = GpuInfo.describe();
		assertTrue(info.startsWith("GPU engine"), info);
		assertTrue(info.contains("unavailable") || info.contains("gpu 0"), info);
	}

	@Test
	void autoFallsBackAndGpuNamesTheReason() {
		final String reason = GpuInfo.unusableReason(0);
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-3);
		try (NufftPlan auto = Nufft.plan(new int[] { 16, 16 }, o.withDevice(DeviceChoice.AUTO))) {
			assertTrue(auto.backend().startsWith(reason == null ? "gpu" : "cpu"), auto.backend() + " / " + reason);
		}
		if (reason == null) {
			try (NufftPlan gpu = Nufft.plan(new int[] { 16, 16 }, o.withDevice(DeviceChoice.gpu(0)))) {
				assertTrue(gpu.backend().startsWith("gpu 0"), gpu.backend());
			}
		}
		else {
			final IllegalStateException e = assertThrows(IllegalStateException.class,
				() -> Nufft.plan(new int[] { 16, 16 }, o.withDevice(DeviceChoice.gpu(0))));
			assertFalse(e.getMessage().isBlank());
		}
		final IllegalStateException e = assertThrows(IllegalStateException.class,
			() -> Nufft.plan(new int[] { 16, 16 }, o.withDevice(DeviceChoice.gpu(99))));
		assertTrue(e.getMessage().contains("99") || e.getMessage().contains("cuFFT") || e.getMessage().contains("driver"),
			e.getMessage());
	}

	/**
	 * {@link Backends#open}: {@code auto} gives the GPU when usable, else the CPU after exactly one notice naming the
	 * reason; {@code cpu} never notices.
	 */
	@Test
	void backendsFallBackWithOneNotice() {
		final String reason = GpuInfo.unusableReason(0);
		final java.util.List<String> notices = new java.util.ArrayList<>();
		try (Backend auto = Backends.open(DeviceChoice.AUTO, 1, notices::add)) {
			assertEquals(reason == null ? DeviceChoice.Kind.GPU : DeviceChoice.Kind.CPU, auto.device().kind(),
				auto.name() + " / " + reason);
			assertEquals(reason == null ? 0 : 1, notices.size(), notices.toString());
		}
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, notices::add)) {
			assertEquals(DeviceChoice.CPU, cpu.device());
			assertTrue(cpu.name().startsWith("cpu (2 threads"), cpu.name());
		}
		assertEquals(reason == null ? 0 : 1, notices.size(), "cpu gives no notice");
	}
}
