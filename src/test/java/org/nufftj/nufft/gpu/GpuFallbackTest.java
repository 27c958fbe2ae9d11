package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
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
	 * Plans on shared {@link GpuDevices}: {@code auto} works with or without a GPU, {@code gpu} borrows the one device
	 * (opened once, kept after the plans close) or names the reason and keeps nothing; closed devices refuse.
	 */
	@Test
	void sharedDevicesBorrowOrFallBack() {
		final String reason = GpuInfo.unusableReason(0);
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-3);
		final GpuDevices devices = new GpuDevices();
		try {
			for (int i = 0; i < 3; i++) {
				try (NufftPlan auto = Nufft.plan(new int[] { 16, 16 }, o.withDevice(DeviceChoice.AUTO), devices)) {
					assertTrue(auto.backend().startsWith(reason == null ? "gpu" : "cpu"), auto.backend() + " / " + reason);
				}
			}
			if (reason == null) {
				try (NufftPlan a = Nufft.plan(new int[] { 16, 16 }, o.withDevice(DeviceChoice.gpu(0)), devices);
					NufftPlan b = Nufft.plan(new int[] { 12, 10, 8 }, o.withDevice(DeviceChoice.gpu(0)), devices))
				{
					assertSame(((GpuNufftPlan) a).device(), ((GpuNufftPlan) b).device(), "one device for both plans");
					assertSame(devices.get(0), ((GpuNufftPlan) a).device());
				}
				assertEquals(java.util.List.of(0), devices.opened(), "kept open after the plans closed");
			}
			else {
				assertThrows(IllegalStateException.class, () -> Nufft.plan(new int[] { 16, 16 },
					o.withDevice(DeviceChoice.gpu(0)), devices));
				assertTrue(devices.opened().isEmpty(), "a device that failed to open is not kept");
			}
		}
		finally {
			devices.close();
		}
		assertTrue(devices.isClosed() && devices.opened().isEmpty());
		assertThrows(IllegalStateException.class, () -> devices.get(0));
		try (NufftPlan cpu = Nufft.plan(new int[] { 16, 16 }, o.withDevice(DeviceChoice.CPU), devices)) {
			assertTrue(cpu.backend().startsWith("cpu"), "CPU plans ignore the devices");
		}
	}
}
