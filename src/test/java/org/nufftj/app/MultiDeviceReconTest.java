package org.nufftj.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.Trajectory;

/**
 * A reconstruction split over several devices ({@link Reconstruction#run(Scan, ReconOptions,
 * org.nufftj.recon.Progress, Session, List)}) equals the single-device one frame for frame; here on CPU workers (the
 * same code runs one range per GPU on a machine with several).
 */
public class MultiDeviceReconTest {

	/** A series of {@code frames} frames of fresh Gaussian k-space (all coils) on one trajectory of the named design. */
	public static Scan series(final Random r, final String design, final int[] matrix, final int points, final int coils,
		final int frames)
	{
		final Trajectory t = TestTrajectories.make(design, matrix, points, r);
		return Scan.of("series", t, new KSpace(Arrays2.gaussianFloat(r, 2 * t.count() * coils * frames), t.count(),
			coils, frames), matrix);
	}

	/** ‖many − one‖ / ‖one‖ over the images' values. */
	public static double relativeDifference(final float[] many, final float[] one) {
		final double[] reference = new double[one.length];
		for (int i = 0; i < one.length; i++) reference[i] = one[i];
		return Arrays2.relativeError(many, reference);
	}

	@Test
	void splitOverWorkersEqualsOneDevice() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] matrix = { 32, 32 };
		final int frames = 7;
		final Scan scan = series(r, "radial", matrix, 24 * 64, 3, frames);
		final ReconOptions o = ReconOptions.defaults().withNufft(NufftOptions.defaults().withDevice(DeviceChoice.CPU)
			.withTolerance(1e-5)).withDcf(Options.dcf("pipe-menon", false));
		try (Session session = new Session(s -> {})) {
			final float[] one = Reconstruction.run(scan, o, null, session).image().data();
			for (final String spec : new String[] { "cpu,cpu", "cpu,cpu,cpu", "cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu" }) {
				final List<DeviceChoice> devices = Devices.parse(spec);
				final Reconstruction split = Reconstruction.run(scan, o, null, session, devices);
				final float[] many = split.image().data();
				assertEquals(one.length, many.length, spec + ": image length (seed " + seed + ")");
				final double d = relativeDifference(many, one);
				assertTrue(d <= 1e-6, spec + ": relative difference " + d + " > 1e-6 (seed " + seed + ")");
				// One contiguous range per device (no more ranges than frames), covering every frame once.
				final List<Reconstruction.Share> shares = split.shares();
				assertEquals(Math.min(devices.size(), frames), shares.size(), spec + ": shares");
				int next = 0;
				for (final Reconstruction.Share s : shares) {
					assertEquals(next, s.from(), spec + ": range start " + s);
					assertTrue(s.to() > s.from() && s.to() - s.from() <= (frames + shares.size() - 1) / shares.size(),
						spec + ": range " + s);
					next = s.to();
				}
				assertEquals(frames, next, spec + ": frames covered");
				assertTrue(split.describe().contains("device share cpu: frames 0-"), split.describe());
			}
		}
	}

	/**
	 * One frame of several coils is split by coil: each device reconstructs a contiguous coil range, the coil images are
	 * put back in order and combined on the first device; sum of squares, Walsh and kept coil images equal one device's.
	 */
	@Test
	void oneFrameSplitByCoilEqualsOneDevice() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] matrix = { 32, 32 };
		final int coils = 5;
		final Trajectory t = TestTrajectories.make("radial", matrix, 24 * 64, r);
		final Scan scan = Scan.of("one frame", t, new KSpace(org.nufftj.recon.ReconTestData.coilObject(matrix, coils, t,
			r), t.count(), coils, 1), matrix);
		try (Session session = new Session(s -> {})) {
			for (final CoilCombination combine : CoilCombination.values()) {
				final ReconOptions o = ReconOptions.defaults().withNufft(NufftOptions.defaults().withDevice(DeviceChoice
					.CPU).withTolerance(1e-5)).withDcf(Options.dcf("pipe-menon", false)).withCombine(combine)
					.withKeepCoils(true);
				final Reconstruction single = Reconstruction.run(scan, o, null, session);
				for (final String spec : new String[] { "cpu,cpu", "cpu,cpu,cpu", "cpu,cpu,cpu,cpu,cpu,cpu,cpu" }) {
					final List<DeviceChoice> devices = Devices.parse(spec);
					final Reconstruction split = Reconstruction.run(scan, o, null, session, devices);
					final String what = combine + " on " + spec + " (seed " + seed + ")";
					assertEquals(single.image().channels(), split.image().channels(), what + ": channels");
					final double d = relativeDifference(split.image().data(), single.image().data());
					assertTrue(d <= 1e-6, what + ": relative difference " + d + " > 1e-6");
					final double dc = relativeDifference(split.coils().get(0).data(), single.coils().get(0).data());
					assertTrue(dc <= 1e-6, what + ": coil images differ by " + dc);
					// One contiguous coil range per device (no more ranges than coils), covering every coil once.
					final List<Reconstruction.Share> shares = split.shares();
					assertEquals(Math.min(devices.size(), coils), shares.size(), what + ": shares");
					int next = 0;
					for (final Reconstruction.Share s : shares) {
						assertTrue(s.coils() && s.from() == next && s.to() > s.from(), what + ": range " + s);
						next = s.to();
					}
					assertEquals(coils, next, what + ": coils covered");
					assertTrue(split.describe().contains("device share cpu: coils 0-"), split.describe());
				}
			}
		}
	}

	@Test
	void deviceListsParse() {
		assertEquals(List.of(DeviceChoice.gpu(0), DeviceChoice.gpu(1)), Devices.parse("gpu:0,1"));
		assertEquals(List.of(DeviceChoice.gpu(0), DeviceChoice.gpu(2)), Devices.parse("gpu, gpu:2"));
		assertEquals(List.of(DeviceChoice.CPU, DeviceChoice.CPU), Devices.parse("cpu,cpu"));
		assertEquals(List.of(DeviceChoice.AUTO), Devices.parse("auto"));
		assertEquals(DeviceChoice.gpu(0), Options.device("gpu:0,1"));
		final String m1 = assertThrows(InvalidInputException.class, () -> Devices.parse("1,gpu")).getMessage();
		assertTrue(m1.contains("'1'") && m1.contains("gpu:1"), m1);
		final String m2 = assertThrows(InvalidInputException.class, () -> Devices.parse("cpu,,cpu")).getMessage();
		assertTrue(m2.contains("empty entry"), m2);
		final String m3 = assertThrows(InvalidInputException.class, () -> Devices.parse("cpu,tpu")).getMessage();
		assertTrue(m3.contains("tpu"), m3);
		assertThrows(InvalidInputException.class, () -> Devices.parse(" "));
	}
}
