package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestBuffers;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * Host-array executes of {@link GpuNufftPlan} as a pipeline (issue 9, item 3): pieces of one, two and all transforms,
 * uploads and downloads on their own streams overlapping the transforms, give the device-buffer result of the same
 * plan (one batch, no host transfers); {@link PinnedArray}s of either precision give the Java-array result; bad pinned
 * arrays are refused with a message. Fresh random inputs; messages name the case and the seed.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuTransferTest {

	private static GpuBackend backend;

	@BeforeAll
	static void open() {
		GpuTests.assumeGpu();
		backend = GpuBackend.open(0);
	}

	@AfterAll
	static void close() {
		if (backend != null) backend.close();
	}

	private static NufftOptions options(final Precision p) {
		return NufftOptions.defaults().withTolerance(p == Precision.DOUBLE ? 1e-9 : 1e-4).withPrecision(p)
			.withDevice(DeviceChoice.CPU); // the backend decides the device
	}

	/**
	 * The host sides of {@link #pipelinedHostArraysEqualDeviceBuffers}: pinned arrays; Java arrays through the pinned
	 * mirrors where a chunk has several pieces (default units, units of 4 KiB and output segments of 8 KiB so that one
	 * piece spans several of each and units straddle pieces, float[] arrays), through them for single pieces too
	 * ("always"), and through the staging rings. Which side ran is checked against that rule.
	 */
	private static final String[] HOSTS = { "pinned arrays", "Java double[], mirrors", "Java double[], mirrors, small units",
		"Java float[], mirrors, small units", "Java double[], mirrors always, small units", "Java double[], rings" };

	private static float[] toFloat(final double[] x) {
		final float[] f = new float[x.length];
		for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
		return f;
	}

	/**
	 * T = 7 transforms from pinned arrays of the plan's precision in pieces of 1 and 2 transforms (several pieces, two
	 * device slots, the last piece short), in one piece, with memory for three transforms (chunks of 3, 3, 1) and for one
	 * transform at a time (pieces one after another), and from Java arrays ({@link #HOSTS}), against the device-buffer forward and adjoint of
	 * the same data.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void pipelinedHostArraysEqualDeviceBuffers(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = { 48, 40 };
		final int t = 7, px = 48 * 40;
		final Trajectory traj = TestTrajectories.make("radial", size, 4000, r);
		final int m = traj.count();
		final double[] x = Arrays2.gaussian(r, 2 * px * t), y = Arrays2.gaussian(r, 2 * m * t);
		try (GpuNufftPlan plan = backend.gpuPlan(size, options(p)); Buffer gx = TestBuffers.upload(backend, x, p);
			Buffer gy = TestBuffers.upload(backend, y, p); Buffer fx = backend.allocate(2L * m * t, p);
			Buffer ay = backend.allocate(2L * px * t, p))
		{
			plan.setPoints(traj);
			plan.forward(gx, fx);
			plan.adjoint(gy, ay);
			final double[] fRef = TestBuffers.download(backend, fx), aRef = TestBuffers.download(backend, ay);
			final long perTransform = (2L * px + 2L * m) * (p == Precision.DOUBLE ? 8 : 4);
			final long[] pieces = { 1, 2 * perTransform, Long.MAX_VALUE, 1, 1 };
			final String[] names = { "pieces of 1", "pieces of 2", "one piece", "memory for 3 transforms",
				"memory for 1 transform" };
			for (int c = 0; c < pieces.length; c++) {
				plan.pieceBytes(pieces[c]);
				if (c == 3) plan.limitBatch(3);
				if (c == 4) plan.limitBatch(1);
				final double tol = p == Precision.DOUBLE ? 1e-12 : 1e-6;
				final boolean dbl = p == Precision.DOUBLE;
				for (final String host : HOSTS) {
					final double[] f = new double[2 * m * t], a = new double[2 * px * t];
					plan.hostMirror(!host.contains("ring"));
					plan.mirrorAlways(host.contains("always"));
					if (host.contains("small")) plan.mirrorSizes(4096, 8192);
					else plan.mirrorSizes(HostMirror.UNIT, HostMirror.SEGMENT);
					if (host.equals("pinned arrays")) {
						try (PinnedArray px_ = pinned(x, dbl); PinnedArray py = pinned(y, dbl);
							PinnedArray pf = pinned(f, dbl); PinnedArray pa = pinned(a, dbl))
						{
							plan.forward(px_, pf);
							plan.adjoint(py, pa);
							System.arraycopy(values(pf), 0, f, 0, f.length);
							System.arraycopy(values(pa), 0, a, 0, a.length);
						}
					}
					else if (host.contains("float[]")) {
						final float[] ff = new float[f.length], af = new float[a.length];
						plan.forward(toFloat(x), ff);
						plan.adjoint(toFloat(y), af);
						for (int i = 0; i < ff.length; i++) f[i] = ff[i];
						for (int i = 0; i < af.length; i++) a[i] = af[i];
					}
					else {
						plan.forward(x, f);
						plan.adjoint(y, a);
					}
					final String s = " (" + p + ", " + host + ", " + names[c] + ", seed " + seed + ")";
					// mirrors where a memory chunk runs in several pieces (pieces of 1 or 2 transforms, chunks of 3), or
					// always where forced; never for pinned arrays or with the rings asked for
					final boolean severalPieces = c == 0 || c == 1 || c == 3;
					assertEquals(host.startsWith("Java") && !host.contains("rings") && (severalPieces || host.contains(
						"always")), plan.lastMirrored(), "host side that ran" + s);
					// float[] inputs are rounded to float before a double plan sees them
					final double hostTol = host.contains("float[]") ? Math.max(tol, 1e-6) : tol;
					final double ef = Arrays2.relativeError(f, fRef), ea = Arrays2.relativeError(a, aRef);
					assertTrue(ef <= hostTol, "forward from host vs device buffers: " + ef + s);
					assertTrue(ea <= hostTol, "adjoint from host vs device buffers: " + ea + s);
					assertTrue(plan.times().snapshot().containsKey("upload") && plan.times().snapshot().containsKey(
						"fft"), "stage times" + s + ": " + plan.times());
				}
			}
		}
	}

	/**
	 * Pinned arrays of the plan's precision (copied by DMA directly) and of the other one (converted through the
	 * staging slices) give the Java-array results, pipelined over T = 5 transforms.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void pinnedArraysEqualJavaArrays(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = { 32, 36 };
		final int t = 5, px = 32 * 36;
		final Trajectory traj = TestTrajectories.make("random", size, 3000, r);
		final int m = traj.count();
		final double[] x = Arrays2.gaussian(r, 2 * px * t), y = Arrays2.gaussian(r, 2 * m * t);
		try (GpuNufftPlan plan = backend.gpuPlan(size, options(p))) {
			plan.setPoints(traj);
			plan.pieceBytes(1);
			final double[] fRef = new double[2 * m * t], aRef = new double[2 * px * t];
			plan.forward(x, fRef);
			plan.adjoint(y, aRef);
			for (final boolean pinnedDouble : new boolean[] { false, true }) {
				try (PinnedArray px_ = pinned(x, pinnedDouble); PinnedArray py = pinned(y, pinnedDouble);
					PinnedArray pf = pinned(new double[2 * m * t], pinnedDouble);
					PinnedArray pa = pinned(new double[2 * px * t], pinnedDouble))
				{
					plan.forward(px_, pf);
					plan.adjoint(py, pa);
					// A float pinned array holds the results rounded to float: compare at float precision then.
					final double tol = p == Precision.DOUBLE && pinnedDouble ? 1e-13 : 1e-6;
					final String s = " (plan " + p + ", pinned " + (pinnedDouble ? "double" : "float") + ", seed " +
						seed + ")";
					final double ef = Arrays2.relativeError(values(pf), fRef), ea = Arrays2.relativeError(values(pa), aRef);
					assertTrue(ef <= tol, "forward from pinned arrays vs Java arrays: " + ef + s);
					assertTrue(ea <= tol, "adjoint from pinned arrays vs Java arrays: " + ea + s);
				}
			}
		}
	}

	/** Bad pinned arrays: a length that holds no whole number of transforms, a closed array, the wrong view, none. */
	@Test
	void badPinnedArraysAreRefusedWithAMessage() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = { 16, 16 };
		final Trajectory traj = TestTrajectories.make("random", size, 500, r);
		try (GpuNufftPlan plan = backend.gpuPlan(size, options(Precision.FLOAT));
			PinnedArray img = PinnedArray.floats(backend, 2 * 256);
			PinnedArray shortSamples = PinnedArray.floats(backend, 2 * 500 - 2))
		{
			plan.setPoints(traj);
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> plan.adjoint(shortSamples,
				img));
			assertTrue(e.getMessage().contains("transforms") && e.getMessage().contains(String.valueOf(2 * 500 - 2)),
				e.getMessage());
			final PinnedArray closed = PinnedArray.floats(backend, 2 * 500);
			closed.close();
			assertThrows(IllegalStateException.class, () -> plan.adjoint(closed, img));
			assertThrows(IllegalStateException.class, img::doubles);
			final InvalidInputException none = assertThrows(InvalidInputException.class, () -> PinnedArray.doubles(
				backend, 0));
			assertTrue(none.getMessage().contains("pinned array"), none.getMessage());
			assertEquals(512, img.length());
		}
	}

	private static PinnedArray pinned(final double[] v, final boolean dbl) {
		final PinnedArray a = dbl ? PinnedArray.doubles(backend, v.length) : PinnedArray.floats(backend, v.length);
		if (dbl) a.doubles().put(v);
		else {
			final FloatBuffer f = a.floats();
			for (int i = 0; i < v.length; i++) f.put(i, (float) v[i]);
		}
		return a;
	}

	private static double[] values(final PinnedArray a) {
		final double[] v = new double[(int) a.length()];
		if (a.isDouble()) {
			final DoubleBuffer d = a.doubles();
			d.get(v);
		}
		else {
			final FloatBuffer f = a.floats();
			for (int i = 0; i < v.length; i++) v[i] = f.get(i);
		}
		return v;
	}
}
