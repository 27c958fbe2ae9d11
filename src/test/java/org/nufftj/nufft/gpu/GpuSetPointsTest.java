package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * Points set on the device (GpuSetpts, kernels/setpts.cu) against the host oracle {@link GpuPoints}: same bins, bin
 * starts and subproblem lists, per bin the same set of points, the same stencil starts and offsets (double: within
 * 1e-12; float: exactly GpuPointSet.floatOffsets of the host's double); transforms of a plan equal the CPU engine
 * (float, 1e-5 as GpuParityTest) and the NUDFT (double, ≤ ε); setPoints again on a live plan (fewer points: no
 * reallocation; more: growth) equals a fresh plan; 1000 setPoints/execute cycles leave device memory flat. Fresh random
 * inputs; every message names the sizes, bin and indices, and the seed.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuSetPointsTest {

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

	/**
	 * 2D and 3D trajectories (random, radial, spiral, golden angle, Cartesian — points on cell boundaries —, stack of
	 * stars, 3D radial kooshball), two widths (ε 1e-3, 1e-6), the heuristic's bins and others, both precisions; plus
	 * many-bin plans (bins of 8×8 and 4×4×4 cells: several scan tiles; 2×2 on a 2048² grid: 2^20 bins, 512 scan tiles,
	 * the tile-offset scan's loop) and a cluster of points in one bin (several subproblems per bin).
	 */
	static Stream<Arguments> layouts() {
		final List<Arguments> c = new ArrayList<>();
		for (final Precision pr : Precision.values()) {
			for (final String traj : new String[] { "random", "radial", "spiral", "golden angle", "cartesian" }) {
				c.add(Arguments.of(new int[] { 64, 48 }, traj, 6000, 1e-3, null, pr));
				c.add(Arguments.of(new int[] { 64, 48 }, traj, 6000, 1e-6, new int[] { 16, 16 }, pr));
			}
			for (final String traj : new String[] { "random", "3d radial", "stack of stars" }) {
				c.add(Arguments.of(new int[] { 24, 20, 16 }, traj, 8000, 1e-3, null, pr));
				c.add(Arguments.of(new int[] { 24, 20, 16 }, traj, 8000, 1e-6, new int[] { 4, 4, 4 }, pr));
			}
			c.add(Arguments.of(new int[] { 256, 192 }, "random", 40000, 1e-3, new int[] { 8, 8 }, pr));
			c.add(Arguments.of(new int[] { 48, 48, 48 }, "3d radial", 40000, 1e-4, new int[] { 4, 4, 4 }, pr));
			c.add(Arguments.of(new int[] { 40, 36, 12 }, "random", 5000, 1e-5, new int[] { 16, 8, 8 }, pr));
			c.add(Arguments.of(new int[] { 64, 48 }, "cluster", 5000, 1e-3, null, pr));
		}
		c.add(Arguments.of(new int[] { 1024, 1024 }, "random", 200000, 1e-3, new int[] { 2, 2 }, Precision.FLOAT));
		return c.stream();
	}

	@ParameterizedTest(name = "{0} {1} M={2} eps={3} bins={4} {5}")
	@MethodSource("layouts")
	void deviceSortEqualsHostOracle(final int[] size, final String traj, final int points, final double eps,
		final int[] bins, final Precision precision)
	{
		final long seed = TestSeeds.fresh();
		final Trajectory t = trajectory(traj, size, points, new Random(seed));
		final NufftOptions o = NufftOptions.defaults().withTolerance(eps).withPrecision(precision);
		final NufftParameters p = ParameterChoice.choose(size, o);
		try (GpuNufftPlan plan = new GpuNufftPlan(backend, p, o, bins)) {
			plan.setPoints(t);
			assertSameAsHost(plan, t, p + " " + t + " bins " + Arrays.toString(plan.bins()) + " seed " + seed);
		}
	}

	/** Transforms with device-set points: float against the CPU engine (1e-5), double against the NUDFT (≤ ε). */
	static Stream<Arguments> transforms() {
		final List<Arguments> c = new ArrayList<>();
		for (final SpreadMethod m : new SpreadMethod[] { SpreadMethod.ATOMIC, SpreadMethod.SHARED }) {
			for (final String traj : new String[] { "random", "radial", "spiral" }) {
				c.add(Arguments.of(new int[] { 64, 48 }, traj, m, Precision.FLOAT, 1e-4));
			}
			c.add(Arguments.of(new int[] { 64, 48 }, "random", m, Precision.DOUBLE, 1e-8));
			for (final String traj : new String[] { "random", "3d radial" }) {
				c.add(Arguments.of(new int[] { 24, 20, 16 }, traj, m, Precision.FLOAT, 1e-4));
			}
			c.add(Arguments.of(new int[] { 24, 20, 16 }, "3d radial", m, Precision.DOUBLE, 1e-8));
		}
		return c.stream();
	}

	@ParameterizedTest(name = "{0} {1} {2} {3} eps={4}")
	@MethodSource("transforms")
	void transformsMatchReference(final int[] size, final String traj, final SpreadMethod method,
		final Precision precision, final double eps)
	{
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final Trajectory t = trajectory(traj, size, 3000, r);
		final NufftOptions o = NufftOptions.defaults().withTolerance(eps).withPrecision(precision)
			.withSpreadMethod(method);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final String what = p + " " + t + " " + method + " seed " + seed;
		try (GpuNufftPlan gpu = new GpuNufftPlan(backend, p, o)) {
			gpu.setPoints(t);
			if (precision == Precision.FLOAT) {
				final float[][] g = run(gpu, size, t, seed);
				try (NufftPlan cpu = Nufft.plan(size, o.withDevice(DeviceChoice.CPU))) {
					cpu.setPoints(t);
					final float[][] c = run(cpu, size, t, seed);
					assertRelative(g[0], c[0], 1e-5, "forward GPU vs CPU engine: " + what);
					assertRelative(g[1], c[1], 1e-5, "adjoint GPU vs CPU engine: " + what);
				}
			}
			else {
				final Random in = new Random(seed);
				final double[] x = Arrays2.gaussian(in, 2 * (int) Arrays2.pixels(size));
				final double[] y = Arrays2.gaussian(in, 2 * t.count());
				final double[] gy = new double[y.length], gx = new double[x.length];
				gpu.forward(x, gy);
				gpu.adjoint(y, gx);
				final double ef = Arrays2.relativeError(gy, Nudft.forward(size, t, x, 0));
				final double ea = Arrays2.relativeError(gx, Nudft.adjoint(size, t, y, 0));
				assertTrue(ef <= eps, "forward vs NUDFT " + ef + " > " + eps + ": " + what);
				assertTrue(ea <= eps, "adjoint vs NUDFT " + ea + " > " + eps + ": " + what);
			}
		}
	}

	/**
	 * setPoints three times on one plan — 6000 random points, then another trajectory of (at most) 2500 (fits: the
	 * per-point arrays are kept, same address), then 9000 other random points (grows) — equals a fresh plan each time (float summation order aside:
	 * relative l2 ≤ 1e-6), and each time the device sort equals the host oracle (nothing left over from a larger set).
	 */
	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("resetCases")
	void setPointsAgainEqualsAFreshPlan(final int[] size, final SpreadMethod method) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final String[] trajs = { "random", size.length == 2 ? "spiral" : "3d radial", "random" };
		final int[] counts = { 6000, 2500, 9000 };
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-4).withSpreadMethod(method);
		final NufftParameters p = ParameterChoice.choose(size, o);
		try (GpuNufftPlan live = new GpuNufftPlan(backend, p, o)) {
			for (int i = 0; i < trajs.length; i++) {
				final Trajectory t = trajectory(trajs[i], size, counts[i], r);
				final GpuSetpts s = live.sortedPoints();
				final long address = s.permAddress();
				final int capacity = s.pointCapacity();
				live.setPoints(t);
				final String what = p + " " + method + " set " + (i + 1) + ": " + t + " seed " + seed;
				if (i == 1) {
					assertTrue(t.count() <= capacity, "the second set must be smaller: " + t.count() + " vs " + capacity);
					assertEquals(address, s.permAddress(), "fewer points must reuse the arrays: " + what);
					assertEquals(capacity, s.pointCapacity(), "capacity kept: " + what);
				}
				if (i == 2) {
					assertTrue(t.count() > capacity, "the third set must be larger: " + t.count() + " vs " + capacity);
					assertEquals(t.count(), s.pointCapacity(), "capacity grown: " + what);
				}
				assertSameAsHost(live, t, what);
				final float[][] got = run(live, size, t, seed + i);
				try (GpuNufftPlan fresh = new GpuNufftPlan(backend, p, o)) {
					fresh.setPoints(t);
					final float[][] want = run(fresh, size, t, seed + i);
					assertRelative(got[0], want[0], 1e-6, "forward, reused plan vs fresh: " + what);
					assertRelative(got[1], want[1], 1e-6, "adjoint, reused plan vs fresh: " + what);
				}
			}
		}
	}

	static Stream<Arguments> resetCases() {
		return Stream.of(Arguments.of(new int[] { 64, 48 }, SpreadMethod.SHARED), Arguments.of(new int[] { 64, 48 },
			SpreadMethod.ATOMIC), Arguments.of(new int[] { 24, 20, 16 }, SpreadMethod.SHARED));
	}

	/**
	 * 1000 cycles of setPoints (three random trajectories of 3000, 5000 and 4000 points in turn, as a trajectory changing
	 * every frame) / forward / adjoint on one plan leave the device's free memory unchanged (± 1 MiB) and the per-point
	 * capacity at the largest set.
	 */
	@Test
	void thousandSetPointsCyclesLeaveDeviceMemoryFlat() {
		final Random r = new Random();
		final int[] size = { 32, 24 };
		final Trajectory[] ts = { trajectory("random", size, 3000, r), trajectory("random", size, 5000, r),
			trajectory("random", size, 4000, r) };
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-3);
		final float[] x = Arrays2.gaussianFloat(r, 2 * 32 * 24);
		final float[] y = Arrays2.gaussianFloat(r, 2 * 5000);
		try (GpuNufftPlan plan = new GpuNufftPlan(backend, ParameterChoice.choose(size, o), o)) {
			for (final Trajectory t : ts) cycle(plan, t, x, y); // warm-up: the largest set and the batch buffers
			final long before = backend.gpu().memoryInfo()[0];
			for (int i = 0; i < 1000; i++) cycle(plan, ts[i % 3], x, y);
			final long after = backend.gpu().memoryInfo()[0];
			assertTrue(Math.abs(after - before) <= 1 << 20, "free device memory before " + before + " B, after 1000 " +
				"setPoints cycles " + after + " B");
			assertEquals(5000, plan.sortedPoints().pointCapacity(), "per-point capacity");
		}
	}

	// -- helpers --

	private static void cycle(final GpuNufftPlan plan, final Trajectory t, final float[] x, final float[] y) {
		plan.setPoints(t);
		plan.forward(x, new float[2 * t.count()]);
		plan.adjoint(Arrays.copyOf(y, 2 * t.count()), new float[x.length]);
	}

	/** A test trajectory, or "cluster": every point within a quarter cell of k = 0 (one bin, several subproblems). */
	private static Trajectory trajectory(final String name, final int[] size, final int points, final Random r) {
		if (!name.equals("cluster")) return TestTrajectories.make(name, size, points, r);
		final int d = size.length;
		final double[] c = new double[d * points];
		for (int i = 0; i < c.length; i++) c[i] = (r.nextDouble() - 0.5) * 0.5 / size[i % d] / 2;
		return new Trajectory(d, c, "cluster at k = 0");
	}

	/** Forward and adjoint of fresh inputs (from {@code seed}) on {@code plan}: {forward samples, adjoint image}. */
	private static float[][] run(final NufftPlan plan, final int[] size, final Trajectory t, final long seed) {
		final Random in = new Random(seed);
		final float[] x = Arrays2.gaussianFloat(in, 2 * (int) Arrays2.pixels(size));
		final float[] y = Arrays2.gaussianFloat(in, 2 * t.count());
		final float[] gy = new float[y.length], gx = new float[x.length];
		Arrays.fill(gy, Float.NaN); // every output must be written
		Arrays.fill(gx, Float.NaN);
		plan.forward(x, gy);
		plan.adjoint(y, gx);
		return new float[][] { gy, gx };
	}

	private static void assertRelative(final float[] got, final float[] want, final double tol, final String what) {
		final double e = Arrays2.relativeError(got, Nudft.toDouble(want));
		assertTrue(e <= tol, what + ": relative l2 difference " + e + " > " + tol);
	}

	/**
	 * The plan's device-sorted points equal GpuPoints on the same trajectory, grid, width and bins: subproblem lists
	 * identical (so bin starts and counts are), each sorted index covered by exactly one subproblem of ≤ maxSub points,
	 * per bin the same set of point indices, and per point the same stencil starts and offsets.
	 */
	static void assertSameAsHost(final GpuNufftPlan plan, final Trajectory t, final String what) {
		final NufftParameters p = plan.parameters();
		final int d = p.dimensions(), w = p.kernel().width(), maxSub = GpuHeuristics.MAX_SUBPROBLEM;
		final boolean dbl = p.precision() == Precision.DOUBLE;
		final GpuPoints host = new GpuPoints(t, p.gridSize(), w, plan.bins(), maxSub);
		final GpuSetpts dev = plan.sortedPoints();
		final int m = t.count();
		assertEquals(m, dev.count(), "points: " + what);
		assertArrayEquals(host.binsPerAxis, dev.binsPerAxis(), "bins per axis: " + what);
		final int[] subBin = dev.subBin(), subStart = dev.subStart(), subCount = dev.subCount();
		assertEquals(host.subBin.length, subBin.length, "subproblems (host vs device): " + what);
		final int[] binAt = new int[m];
		Arrays.fill(binAt, -1);
		for (int s = 0; s < subBin.length; s++) {
			if (subBin[s] != host.subBin[s] || subStart[s] != host.subStart[s] || subCount[s] != host.subCount[s]) {
				fail("subproblem " + s + ": device (bin " + subBin[s] + ", start " + subStart[s] + ", count " +
					subCount[s] + ") vs host (bin " + host.subBin[s] + ", start " + host.subStart[s] + ", count " +
					host.subCount[s] + "): " + what);
			}
			assertTrue(subCount[s] >= 1 && subCount[s] <= maxSub, "subproblem " + s + " of bin " + subBin[s] + " has " +
				subCount[s] + " points, expected 1.." + maxSub + ": " + what);
			for (int i = subStart[s]; i < subStart[s] + subCount[s]; i++) {
				assertTrue(i >= 0 && i < m, "subproblem " + s + " of bin " + subBin[s] + " covers sorted index " + i +
					" outside [0, " + m + "): " + what);
				if (binAt[i] >= 0) fail("sorted index " + i + " is in two subproblems (bins " + binAt[i] + " and " +
					subBin[s] + "): " + what);
				binAt[i] = subBin[s];
			}
		}
		for (int i = 0; i < m; i++) if (binAt[i] < 0) fail("sorted index " + i + " is in no subproblem: " + what);
		// Per bin the same set of points: each point's bin by the host, and the device's place of it.
		final int[] hostBinOf = new int[m], hostPos = new int[m];
		for (int i = 0; i < m; i++) {
			hostBinOf[host.perm[i]] = binAt[i];
			hostPos[host.perm[i]] = i;
		}
		final int[] perm = dev.perm();
		final boolean[] seen = new boolean[m];
		for (int i = 0; i < m; i++) {
			final int q = perm[i];
			assertTrue(q >= 0 && q < m, "device perm[" + i + "] = " + q + " outside [0, " + m + "): " + what);
			if (seen[q]) fail("point " + q + " appears twice in the device order (again at sorted index " + i + "): " +
				what);
			seen[q] = true;
			if (hostBinOf[q] != binAt[i]) fail("point " + q + " (k = " + k(t, q) + ") at sorted index " + i +
				" is in bin " + binAt[i] + " on the device, bin " + hostBinOf[q] + " on the host: " + what);
		}
		for (int a = 0; a < d; a++) {
			final int[] first = dev.first(a);
			final double[] off = dev.offset(a);
			for (int i = 0; i < m; i++) {
				final int q = perm[i], h = hostPos[q];
				if (first[i] != host.first[a][h]) fail("point " + q + " (k = " + k(t, q) + ") axis " + a +
					": stencil start " + first[i] + " on the device, " + host.first[a][h] + " on the host: " + what);
				final double want = host.offset[a][h];
				if (dbl) {
					if (!(Math.abs(off[i] - want) <= 1e-12)) fail("point " + q + " (k = " + k(t, q) + ") axis " + a +
						": offset " + off[i] + " on the device, " + want + " on the host: " + what);
				}
				else {
					final float f = GpuPointSet.floatOffsets(new double[] { want }, w)[0];
					if ((float) off[i] != f) fail("point " + q + " (k = " + k(t, q) + ") axis " + a + ": float offset " +
						(float) off[i] + " on the device, " + f + " from the host's " + want + ": " + what);
				}
			}
		}
	}

	private static String k(final Trajectory t, final int q) {
		final double[] k = new double[t.dimensions()];
		for (int a = 0; a < k.length; a++) k[a] = t.k(q, a);
		return Arrays.toString(k);
	}
}
