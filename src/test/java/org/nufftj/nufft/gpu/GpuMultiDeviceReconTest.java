package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.nufftj.app.Devices;
import org.nufftj.app.Options;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.Session;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.Trajectory;

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
		final long seed = System.nanoTime();
		final Random r = new Random(seed);
		final int[] matrix = { 64, 64 };
		final Trajectory t = TestTrajectories.make("golden angle", matrix, 48 * 128, r);
		final int coils = 4, frames = 6;
		final float[] d = new float[2 * t.count() * coils * frames];
		for (int i = 0; i < d.length; i++) d[i] = (float) r.nextGaussian();
		final Scan scan = Scan.of("series", t, new KSpace(d, t.count(), coils, frames), matrix);
		final ReconOptions o = ReconOptions.defaults().withNufft(NufftOptions.defaults().withTolerance(1e-5))
			.withDcf(Options.dcf("pipe-menon", false));
		try (Session session = new Session(s -> {})) {
			final float[] one = Reconstruction.run(scan, o.withNufft(o.nufft().withDevice(reference)), null, session)
				.image().data();
			final List<DeviceChoice> devices = Devices.parse(spec);
			final Reconstruction split = Reconstruction.run(scan, o, null, session, devices);
			final float[] many = split.image().data();
			assertEquals(one.length, many.length, spec + ": image length (seed " + seed + ")");
			double num = 0, den = 0;
			for (int i = 0; i < one.length; i++) {
				num += (one[i] - many[i]) * (double) (one[i] - many[i]);
				den += one[i] * (double) one[i];
			}
			assertTrue(Math.sqrt(num / den) <= tolerance, spec + " vs " + reference + ": relative difference " +
				Math.sqrt(num / den) + " > " + tolerance + " (seed " + seed + "; shares " + split.shares() + ")");
			assertEquals(Math.min(devices.size(), frames), split.shares().size(), spec + ": " + split.shares());
		}
	}
}
