package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.nufftj.TestSeeds;
import org.nufftj.app.Devices;
import org.nufftj.app.MultiDeviceReconTest;
import org.nufftj.app.Options;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.Session;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.ReconOptions;

/**
 * A reconstruction split over devices on the GPU machine: GPU 0 with a CPU worker (every machine with one GPU), and
 * every GPU ({@code gpu:all}, run only where the driver reports two or more), each equal to the one-device result.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuMultiDeviceReconTest {

	@Test
	void gpuWithCpuWorkerEqualsCpu() {
		check("gpu:0,cpu", DeviceChoice.CPU, 1e-5);
	}

	@Test
	void everyGpuEqualsGpu0() {
		Assumptions.assumeTrue(Session.gpuCount() >= 2, "needs two GPUs, the driver reports " + Session.gpuCount());
		check("gpu:all", DeviceChoice.gpu(0), 1e-6);
	}

	private static void check(final String spec, final DeviceChoice reference, final double tolerance) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int frames = 6;
		final Scan scan = MultiDeviceReconTest.series(r, "golden angle", new int[] { 64, 64 }, 48 * 128, 4, frames);
		final ReconOptions o = ReconOptions.defaults().withNufft(NufftOptions.defaults().withTolerance(1e-5))
			.withDcf(Options.dcf("pipe-menon", false));
		try (Session session = new Session(s -> {})) {
			final float[] one = Reconstruction.run(scan, o.withNufft(o.nufft().withDevice(reference)), null, session)
				.image().data();
			final List<DeviceChoice> devices = Devices.parse(spec);
			final Reconstruction split = Reconstruction.run(scan, o, null, session, devices);
			final float[] many = split.image().data();
			assertEquals(one.length, many.length, spec + ": image length (seed " + seed + ")");
			final double d = MultiDeviceReconTest.relativeDifference(many, one);
			assertTrue(d <= tolerance, spec + " vs " + reference + ": relative difference " + d + " > " + tolerance +
				" (seed " + seed + "; shares " + split.shares() + ")");
			assertEquals(Math.min(devices.size(), frames), split.shares().size(), spec + ": " + split.shares());
		}
	}
}
