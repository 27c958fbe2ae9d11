package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nufftj.InvalidInputException;
import org.nufftj.TestProperties;
import org.nufftj.TestSeeds;
import org.nufftj.kernel.KernelPolynomial;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Buffer;
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
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Radial;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * GPU against the CPU engine with identical σ, W and kernel (float): relative l2 difference ≤ 1e-5, forward and
 * adjoint, 2D and 3D, every trajectory type, batched and not, every spreading method (output-driven on whole radial
 * designs); and the chunked path (batch limited below T) against one chunk. Fresh random inputs each run.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuParityTest {

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
	 * Every trajectory × {atomic, shared}, at the default kernel (Kaiser–Bessel, piecewise polynomial on the GPU) and
	 * the exponential of semicircle; single and batched; plus the Gaussian.
	 */
	static Stream<Arguments> cases() {
		final List<Arguments> cases = new ArrayList<>();
		final int[][] sizes = { { 64, 48 }, { 24, 20, 16 } };
		for (final int[] size : sizes) {
			for (final String traj : TestTrajectories.names(size.length)) {
				for (final SpreadMethod m : new SpreadMethod[] { SpreadMethod.ATOMIC, SpreadMethod.SHARED }) {
					cases.add(Arguments.of(size, traj, m, 1, 1e-3, KernelType.AUTO));
					cases.add(Arguments.of(size, traj, m, 3, 1e-3, KernelType.EXP_SEMICIRCLE));
					cases.add(Arguments.of(size, traj, m, 2, 1e-6, KernelType.AUTO));
					cases.add(Arguments.of(size, traj, m, 2, 1e-5, KernelType.KAISER_BESSEL));
				}
			}
			cases.add(Arguments.of(size, "random", SpreadMethod.SHARED, 2, 1e-5, KernelType.GAUSSIAN));
			cases.add(Arguments.of(size, "random", SpreadMethod.ATOMIC, 2, 1e-4, KernelType.GAUSSIAN));
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "{0} {1} {2} T={3} eps={4} {5}")
	@MethodSource("cases")
	void gpuMatchesCpuEngine(final int[] size, final String trajectory, final SpreadMethod method, final int batch,
		final double eps, final KernelType kernel)
	{
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final Trajectory t = TestTrajectories.make(trajectory, size, 4000, r);
		final int px = (int) Arrays2.pixels(size), m = t.count();
		final NufftOptions o = NufftOptions.defaults().withTolerance(eps).withKernel(kernel).withSpreadMethod(method);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final float[] x = Arrays2.gaussianFloat(r, 2 * px * batch), y = Arrays2.gaussianFloat(r, 2 * m * batch);
		final float[] gy = new float[2 * m * batch], gx = new float[2 * px * batch];
		final float[] cy = new float[2 * m * batch], cx = new float[2 * px * batch];
		try (GpuNufftPlan gpu = new GpuNufftPlan(backend, p, o);
			NufftPlan cpu = Nufft.plan(size, o.withDevice(DeviceChoice.CPU)))
		{
			assertEquals(p.toString(), cpu.parameters().toString(), "same parameters on both engines");
			assertEquals(method, gpu.spreadMethod());
			gpu.setPoints(t);
			cpu.setPoints(t);
			java.util.Arrays.fill(gy, Float.NaN); // every output must be written
			java.util.Arrays.fill(gx, Float.NaN);
			gpu.forward(x, gy);
			gpu.adjoint(y, gx);
			cpu.forward(x, cy);
			cpu.adjoint(y, cx);
			final String what = p + " " + t + " seed " + seed;
			final double ef = Arrays2.relativeError(gy, Nudft.toDouble(cy));
			final double ea = Arrays2.relativeError(gx, Nudft.toDouble(cx));
			assertTrue(ef <= 1e-5, "forward GPU vs CPU " + ef + " > 1e-5: " + what);
			assertTrue(ea <= 1e-5, "adjoint GPU vs CPU " + ea + " > 1e-5: " + what);
		}
	}

	/** Widths of every tap-loop shape of spread_serial_3d_* (one round up to W = 8, several from 9), both precisions. */
	static Stream<Arguments> serialCases() {
		final List<Arguments> cases = new ArrayList<>();
		for (final int w : new int[] { 2, 3, 5, 6, 7, 8, 9, 11, 16 })
			for (final Precision pr : Precision.values()) cases.add(Arguments.of(w, pr));
		return cases.stream();
	}

	/**
	 * The point-serial 3D shared-memory spreader (spread_serial_3d_*, the 3D SHARED default) at an explicit width,
	 * against the global-atomic spreader and the CPU engine on the same parameters: 30,000 random points in a 12 × 10 ×
	 * 8 image, so every bin holds thousands of points (subproblems of several staged chunks, the barrier between
	 * points exercised on overlapping stencils); adjoint of 2 transforms, outputs poisoned first. Relative l2
	 * difference ≤ 1e-5 in float; in double ≤ 1e-12 against the atomic spreader and within the CPU's kernel fit of
	 * the CPU engine. Fresh inputs each run.
	 */
	@ParameterizedTest(name = "W={0} {1}")
	@MethodSource("serialCases")
	void serialSpreadMatchesAtomicAndCpu3d(final int width, final Precision precision) {
		final DenseCase c = new DenseCase(new int[] { 12, 10, 8 }, 30000, width, precision, 2);
		final double[] serial, atomic, cpu;
		try (GpuNufftPlan s1 = new GpuNufftPlan(backend, c.p, c.o.withSpreadMethod(SpreadMethod.SHARED));
			GpuNufftPlan a1 = new GpuNufftPlan(backend, c.p, c.o.withSpreadMethod(SpreadMethod.ATOMIC));
			NufftPlan c1 = Nufft.plan(c.size, c.o.withDevice(DeviceChoice.CPU)))
		{
			assertTrue(GpuHeuristics.serial3d() && s1.backend().contains("point-serial"), s1.backend());
			serial = c.adjoint(s1);
			atomic = c.adjoint(a1);
			cpu = c.adjoint(c1);
		}
		final double ea = Arrays2.relativeError(serial, atomic), ec = Arrays2.relativeError(serial, cpu);
		assertTrue(ea <= c.gpuTolerance(), "point-serial vs atomic " + ea + " > " + c.gpuTolerance() + ": " + c);
		assertTrue(ec <= c.cpuTolerance(), "point-serial vs CPU " + ec + " > " + c.cpuTolerance() + ": " + c);
	}

	/**
	 * Tap-loop shapes of spread_coils_2d_* (several coils per warp up to W = 4, one from 5, several taps per lane from
	 * 6) with batches that fill a group partly (W = 4: two coils per warp), exactly, and over more than one group
	 * (W = 4, 17: groups of 16), both precisions.
	 */
	static Stream<Arguments> coilCases() {
		final List<Arguments> cases = new ArrayList<>();
		final int[][] wb = { { 2, 5 }, { 3, 7 }, { 4, 3 }, { 4, 8 }, { 4, 17 }, { 5, 2 }, { 6, 9 }, { 8, 8 }, { 11, 3 },
			{ 16, 2 } };
		for (final int[] c : wb)
			for (final Precision pr : Precision.values()) cases.add(Arguments.of(c[0], c[1], pr));
		return cases.stream();
	}

	/**
	 * The 2D shared-memory spreader of several transforms at once (spread_coils_2d_*: the 2D SHARED default where
	 * GpuHeuristics.coilSpread picks it, here forced at every width and batch) against the same plan with it switched
	 * off (spread_tiles_2d_* per transform), the global-atomic spreader and the CPU engine: 20,000 random points in a
	 * 40 × 36 image (bins of over a thousand points: subproblems of several staged chunks, bins of several subproblems,
	 * consecutive points on overlapping stencils), adjoint of the batch, outputs poisoned first. Relative l2 difference ≤ 1e-5 in float; in
	 * double ≤ 1e-12 between the GPU spreaders and within the CPU's kernel fit of the CPU engine. Fresh inputs each run.
	 */
	@ParameterizedTest(name = "W={0} T={1} {2}")
	@MethodSource("coilCases")
	void coilSpreadMatchesPerTransformAtomicAndCpu2d(final int width, final int batch, final Precision precision) {
		final DenseCase c = new DenseCase(new int[] { 40, 36 }, 20000, width, precision, batch);
		// forced at every width, not only those the default picks it for: {coils, atomic, CPU}
		final double[][] on = TestProperties.with("nufftj.spreadCoils", "true", () -> {
			try (GpuNufftPlan c1 = new GpuNufftPlan(backend, c.p, c.o.withSpreadMethod(SpreadMethod.SHARED));
				GpuNufftPlan a1 = new GpuNufftPlan(backend, c.p, c.o.withSpreadMethod(SpreadMethod.ATOMIC));
				NufftPlan cp = Nufft.plan(c.size, c.o.withDevice(DeviceChoice.CPU)))
			{
				assertTrue(c1.coilWarps(batch) > 0, "spread_coils_2d_* not chosen for " + batch + " transforms at W = " +
					width);
				return new double[][] { c.adjoint(c1), c.adjoint(a1), c.adjoint(cp) };
			}
		});
		final double[] tiles = TestProperties.with("nufftj.spreadCoils", "false", () -> {
			try (GpuNufftPlan t1 = new GpuNufftPlan(backend, c.p, c.o.withSpreadMethod(SpreadMethod.SHARED))) {
				assertEquals(0, t1.coilWarps(batch), "nufftj.spreadCoils=false");
				return c.adjoint(t1);
			}
		});
		final double et = Arrays2.relativeError(on[0], tiles), ea = Arrays2.relativeError(on[0], on[1]);
		final double ec = Arrays2.relativeError(on[0], on[2]), tol = c.gpuTolerance();
		assertTrue(et <= tol, "coils vs per-transform tiles " + et + " > " + tol + ": " + c);
		assertTrue(ea <= tol, "coils vs atomic " + ea + " > " + tol + ": " + c);
		assertTrue(ec <= c.cpuTolerance(), "coils vs CPU " + ec + " > " + c.cpuTolerance() + ": " + c);
	}

	/**
	 * At W = 4 a batch of 8 transforms spreads on spread_coils_2d_*'s own 16 × 8 bins (GpuHeuristics.coilBin: the plan
	 * sorts its points a second time, at the first such adjoint; forced here, as the automatic setting sorts only from
	 * 2²² points × transforms): one plan, its adjoint of a batch on one set of random points, then setPoints to another
	 * set and the adjoint again (the second sort must follow), each against the CPU engine; and a single transform on
	 * the second points (the plan's own bins). Float, fresh inputs each run.
	 */
	@Test
	void coilBinsFollowSetPointsAgain() {
		final DenseCase a = new DenseCase(new int[] { 40, 36 }, 20000, 4, Precision.FLOAT, 8);
		final DenseCase b = new DenseCase(new int[] { 40, 36 }, 15000, 4, Precision.FLOAT, 8);
		final DenseCase one = new DenseCase(new int[] { 40, 36 }, 15000, 4, Precision.FLOAT, 1);
		TestProperties.with("nufftj.spreadCoils", "true", () -> {
			try (GpuNufftPlan g = new GpuNufftPlan(backend, a.p, a.o.withSpreadMethod(SpreadMethod.SHARED));
				NufftPlan cp = Nufft.plan(a.size, a.o.withDevice(DeviceChoice.CPU)))
			{
				assertTrue(g.coilWarps(8) > 0, "spread_coils_2d_* for 8 transforms at W = 4");
				for (final DenseCase c : new DenseCase[] { a, b, one }) {
					final double e = Arrays2.relativeError(c.adjoint(g), c.adjoint(cp));
					assertTrue(e <= c.cpuTolerance(), "GPU vs CPU " + e + " > " + c.cpuTolerance() + ": " + c);
				}
			}
		});
	}

	/**
	 * A spreader comparison: {@code count} uniform random points in an image of {@code size} (so many per bin that
	 * subproblems span several staged chunks), exponential-of-semicircle options at width {@code width} and σ = 2 in
	 * {@code precision}, their parameters, and Gaussian samples for {@code batch} transforms, from a fresh seed; the
	 * adjoint of a plan on them, and the bounds between results.
	 */
	private static final class DenseCase {

		final long seed = TestSeeds.fresh();
		final int[] size;
		final int pixels, batch;
		final Precision precision;
		final Trajectory t;
		final NufftOptions o;
		final NufftParameters p;
		final double[] y;

		DenseCase(final int[] size, final int count, final int width, final Precision precision, final int batch) {
			final Random r = new Random(seed);
			this.size = size;
			this.batch = batch;
			this.precision = precision;
			pixels = (int) Arrays2.pixels(size);
			t = TestTrajectories.make("random", size, count, r);
			o = NufftOptions.defaults().withPrecision(precision).withWidth(width).withOversampling(2).withKernel(
				KernelType.EXP_SEMICIRCLE);
			p = ParameterChoice.choose(size, o);
			y = Arrays2.gaussian(r, 2 * t.count() * batch);
		}

		/** The plan's adjoint of the batch, its output poisoned first ({@link #poisonedAdjoint}). */
		double[] adjoint(final NufftPlan plan) {
			return poisonedAdjoint(plan, t, y, 2 * pixels * batch, precision);
		}

		/** Two GPU spreaders evaluate the same kernel: float round-off apart, or double's. */
		double gpuTolerance() {
			return precision == Precision.FLOAT ? 1e-5 : 1e-12;
		}

		/**
		 * Against the CPU engine: it evaluates the kernel by a polynomial fitted to the plan's tolerance
		 * (KernelPolynomial.toleranceFor: ε/100 per axis), so in double that fit, three axes of it, away (the first
		 * device run, 2026-11-28, measured 1.1e-8 to 2.3e-7 at ε = 1e-4 in 3D, with 1e-12 between the GPU spreaders).
		 */
		double cpuTolerance() {
			return precision == Precision.FLOAT ? 1e-5 : 3 * KernelPolynomial.toleranceFor(o.tolerance());
		}

		@Override
		public String toString() {
			return p + " " + precision + " T=" + batch + " seed " + seed;
		}
	}

	/**
	 * The plan's adjoint of y at its points t in the given precision (y rounded to float for a float plan), into an
	 * output of {@code length} values filled with NaN first (every value must be written), as doubles.
	 */
	private static double[] poisonedAdjoint(final NufftPlan plan, final Trajectory t, final double[] y, final int length,
		final Precision precision)
	{
		plan.setPoints(t);
		if (precision == Precision.FLOAT) {
			final float[] x = new float[length];
			java.util.Arrays.fill(x, Float.NaN);
			plan.adjoint(Nudft.toFloat(y), x);
			return Nudft.toDouble(x);
		}
		final double[] x = new double[length];
		java.util.Arrays.fill(x, Double.NaN);
		plan.adjoint(y, x);
		return x;
	}

	@Test
	void chunkedBatchEqualsOneChunk() {
		final Random r = new Random();
		final int[] size = { 40, 36, 12 };
		final int batch = 5;
		final Trajectory t = TestTrajectories.make("3d radial", size, 3000, r);
		final int px = (int) Arrays2.pixels(size), m = t.count();
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-4);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final float[] x = Arrays2.gaussianFloat(r, 2 * px * batch), y = Arrays2.gaussianFloat(r, 2 * m * batch);
		try (GpuNufftPlan whole = new GpuNufftPlan(backend, p, o);
			GpuNufftPlan chunked = new GpuNufftPlan(backend, p, o))
		{
			whole.setPoints(t);
			chunked.setPoints(t);
			chunked.limitBatch(2);
			final float[] y1 = new float[2 * m * batch], y2 = new float[2 * m * batch];
			final float[] x1 = new float[2 * px * batch], x2 = new float[2 * px * batch];
			whole.forward(x, y1);
			chunked.forward(x, y2);
			whole.adjoint(y, x1);
			chunked.adjoint(y, x2);
			assertTrue(Arrays2.relativeError(y2, Nudft.toDouble(y1)) <= 1e-6, "chunked forward");
			assertTrue(Arrays2.relativeError(x2, Nudft.toDouble(x1)) <= 1e-6, "chunked adjoint");
			assertTrue(chunked.predictDeviceBytes(2) < whole.predictDeviceBytes(5), "memory prediction grows with batch");
		}
	}

	// -- output-driven spreading (2D radial lines) --

	/**
	 * Whole radial designs (TestTrajectories.make subsamples points, which would break the spokes): uniform over 180°
	 * and 360°, BART's half-sample shift, golden and tiny golden angle, a readout of N (coarser spacing) and
	 * float-rounded cycles/FOV coordinates as a file holds them; square and anisotropic images.
	 */
	static Trajectory radialDesign(final String name, final int[] size) {
		final int n = Math.max(size[0], size[1]);
		switch (name) {
			case "radial": return new Radial(2 * n, 61, false).build();
			case "radial 360": return new Radial(2 * n, 40, true).build();
			case "half-shift radial": return new Radial(2 * n, 50, false).withHalfSampleShift().build();
			case "golden angle": return new GoldenAngleRadial(2 * n, 89).build();
			case "tiny golden": return new GoldenAngleRadial(2 * n, 77, TrajectoryKind.DEFAULT_TINY_GOLDEN).build();
			case "short readout": return new GoldenAngleRadial(n - 1, 70, 1, 13).build();
			case "float file": {
				final Trajectory t = new GoldenAngleRadial(2 * n, 64).build();
				final double[] k = t.coords().clone();
				for (int i = 0; i < k.length; i++) {
					final int len = size[i % 2];
					k[i] = (float) (k[i] * len) / (double) len;
				}
				return new Trajectory(2, k, t.readout(), t.shots(), "golden angle (float cycles/FOV)");
			}
			default: throw new IllegalArgumentException(name);
		}
	}

	/**
	 * Output-driven against the CPU engine: every radial design × {64×64, 64×48, 48×80}, at the default kernel (KB) and
	 * ES, ε 1e-3 and 1e-6, 1 transform and several (9 spans two groups of 8 per block); plus KB at σ = 2, W = 4, where
	 * the axis-aligned spokes put t − W/2 on integers (the ⌈·⌉ ties) and ψ(±W/2) ≠ 0; plus double precision.
	 */
	static Stream<Arguments> outputDrivenCases() {
		final List<Arguments> cases = new ArrayList<>();
		final String[] designs = { "radial", "radial 360", "half-shift radial", "golden angle", "tiny golden",
			"short readout", "float file" };
		for (final int[] size : new int[][] { { 64, 64 }, { 64, 48 }, { 48, 80 } }) {
			for (final String d : designs) {
				cases.add(Arguments.of(size, d, 1, 1e-3, KernelType.AUTO, Precision.FLOAT));
				cases.add(Arguments.of(size, d, 3, 1e-3, KernelType.EXP_SEMICIRCLE, Precision.FLOAT));
				cases.add(Arguments.of(size, d, 3, 1e-6, KernelType.AUTO, Precision.FLOAT));
				cases.add(Arguments.of(size, d, 1, 1e-6, KernelType.EXP_SEMICIRCLE, Precision.FLOAT));
			}
			cases.add(Arguments.of(size, "golden angle", 9, 1e-4, KernelType.AUTO, Precision.FLOAT));
			cases.add(Arguments.of(size, "radial", 2, 0.0, KernelType.KAISER_BESSEL, Precision.FLOAT));
			cases.add(Arguments.of(size, "golden angle", 5, 1e-9, KernelType.AUTO, Precision.DOUBLE));
			cases.add(Arguments.of(size, "radial", 2, 1e-9, KernelType.EXP_SEMICIRCLE, Precision.DOUBLE));
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "output-driven {0} {1} T={2} eps={3} {4} {5}")
	@MethodSource("outputDrivenCases")
	void outputDrivenMatchesCpuEngine(final int[] size, final String design, final int batch, final double eps,
		final KernelType kernel, final Precision precision)
	{
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final Trajectory t = radialDesign(design, size);
		final int px = (int) Arrays2.pixels(size), m = t.count();
		NufftOptions o = NufftOptions.defaults().withKernel(kernel).withPrecision(precision)
			.withSpreadMethod(SpreadMethod.OUTPUT_DRIVEN);
		// eps 0: KB at σ = 2, W = 4 (ties of ⌈t − W/2⌉ on the axis-aligned spokes, nonzero edge weight)
		o = eps == 0 ? o.withOversampling(2).withWidth(4) : o.withTolerance(eps);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final boolean dbl = precision == Precision.DOUBLE;
		final double limit = dbl ? 1e-10 : 1e-5;
		try (GpuNufftPlan gpu = new GpuNufftPlan(backend, p, o);
			NufftPlan cpu = Nufft.plan(size, o.withDevice(DeviceChoice.CPU)))
		{
			assertEquals(p.toString(), cpu.parameters().toString(), "same parameters on both engines");
			gpu.setPoints(t);
			cpu.setPoints(t);
			assertEquals(SpreadMethod.OUTPUT_DRIVEN, gpu.spreadMethod());
			gpu.reserve(batch);
			gpu.poisonGrid(); // the output-driven spreader skips the clearing pass: it must write every cell
			final String what = p + " " + t + " seed " + seed;
			final double ef, ea;
			if (dbl) {
				final double[] x = Arrays2.gaussian(r, 2 * px * batch), y = Arrays2.gaussian(r, 2 * m * batch);
				final double[] gy = new double[2 * m * batch], gx = new double[2 * px * batch];
				final double[] cy = new double[2 * m * batch], cx = new double[2 * px * batch];
				java.util.Arrays.fill(gy, Double.NaN);
				java.util.Arrays.fill(gx, Double.NaN);
				gpu.adjoint(y, gx);
				gpu.forward(x, gy);
				cpu.forward(x, cy);
				cpu.adjoint(y, cx);
				ef = Arrays2.relativeError(gy, cy);
				ea = Arrays2.relativeError(gx, cx);
			}
			else {
				final float[] x = Arrays2.gaussianFloat(r, 2 * px * batch), y = Arrays2.gaussianFloat(r, 2 * m * batch);
				final float[] gy = new float[2 * m * batch], gx = new float[2 * px * batch];
				final float[] cy = new float[2 * m * batch], cx = new float[2 * px * batch];
				java.util.Arrays.fill(gy, Float.NaN);
				java.util.Arrays.fill(gx, Float.NaN);
				gpu.adjoint(y, gx);
				gpu.forward(x, gy);
				cpu.forward(x, cy);
				cpu.adjoint(y, cx);
				ef = Arrays2.relativeError(gy, Nudft.toDouble(cy));
				ea = Arrays2.relativeError(gx, Nudft.toDouble(cx));
			}
			assertTrue(ef <= limit, "forward GPU vs CPU " + ef + " > " + limit + ": " + what);
			assertTrue(ea <= limit, "adjoint GPU vs CPU " + ea + " > " + limit + ": " + what);
		}
	}

	@Test
	void outputDrivenEqualsSharedSpreadingOnTheSameGrid() {
		// Same weights (same host stencils), only the summation order differs: closer than to the CPU engine.
		final Random r = new Random();
		final int[] size = { 80, 56 };
		final Trajectory t = new GoldenAngleRadial(160, 151, 1, r.nextInt(1000)).build();
		final int px = (int) Arrays2.pixels(size), m = t.count(), batch = 4;
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-5);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final float[] y = Arrays2.gaussianFloat(r, 2 * m * batch);
		final float[] a = new float[2 * px * batch], b = new float[2 * px * batch];
		try (GpuNufftPlan out = new GpuNufftPlan(backend, p, o.withSpreadMethod(SpreadMethod.OUTPUT_DRIVEN));
			GpuNufftPlan shared = new GpuNufftPlan(backend, p, o.withSpreadMethod(SpreadMethod.SHARED)))
		{
			out.setPoints(t);
			shared.setPoints(t);
			out.adjoint(y, a);
			shared.adjoint(y, b);
			final double e = Arrays2.relativeError(a, Nudft.toDouble(b));
			assertTrue(e <= 2e-6, "output-driven vs shared " + e);
		}
	}

	@Test
	void outputDrivenRefusesOtherTrajectoriesNamingMethodAndTrajectory() {
		final Random r = new Random();
		final int[] size = { 48, 40 };
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-4).withSpreadMethod(SpreadMethod.OUTPUT_DRIVEN);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final Trajectory radial = new Radial(96, 40, false).build();
		final int px = (int) Arrays2.pixels(size);
		try (GpuNufftPlan gpu = new GpuNufftPlan(backend, p, o)) {
			gpu.setPoints(radial);
			final float[] y = Arrays2.gaussianFloat(r, 2 * radial.count()), before = new float[2 * px];
			gpu.adjoint(y, before);
			for (final Trajectory bad : new Trajectory[] { TrajectoryKind.SPIRAL.fullySampled(size).build(),
				TestTrajectories.make("random", size, 3000, r), TestTrajectories.make("radial", size, 3000, r),
				TrajectoryKind.PROPELLER.fullySampled(size).build() })
			{
				final InvalidInputException e = assertThrows(InvalidInputException.class, () -> gpu.setPoints(bad));
				assertTrue(e.getMessage().contains("output-driven") && e.getMessage().contains(bad.name()) &&
					e.getMessage().contains("radial lines"), e.getMessage());
			}
			// A refused trajectory leaves the radial points in place.
			assertEquals(radial.count(), gpu.points());
			final float[] after = new float[2 * px];
			gpu.adjoint(y, after);
			assertTrue(Arrays2.relativeError(after, Nudft.toDouble(before)) <= 1e-7, "points kept");
		}
		final int[] size3 = { 16, 16, 8 };
		final InvalidInputException e = assertThrows(InvalidInputException.class,
			() -> new GpuNufftPlan(backend, ParameterChoice.choose(size3, o), o).close());
		assertTrue(e.getMessage().contains("output-driven") && e.getMessage().contains("3D"), e.getMessage());
		assertTrue(GpuHeuristics.outputDrivenApplicable(new GoldenAngleRadial(64, 30).build()));
		assertTrue(!GpuHeuristics.outputDrivenApplicable(TrajectoryKind.SPIRAL.fullySampled(size).build()));
	}

	/**
	 * Trajectory × method × kernel: the tolerance's choice (W = 0), or the exponential of semicircle at W = 4, σ = 2
	 * (Pipe–Menon's gridding, whose edge weight e^{−β} ≈ 1e-4 a float argument on the support's edge would drop: the
	 * uniform radial design has a spoke along y, its x coordinates r·cos(π/2) ≈ 1e-17 off the cell boundaries).
	 */
	static Stream<Arguments> stageCases() {
		final List<Arguments> cases = new ArrayList<>();
		for (final SpreadMethod m : new SpreadMethod[] { SpreadMethod.ATOMIC, SpreadMethod.SHARED }) {
			cases.add(Arguments.of(new int[] { 64, 48 }, "golden angle", m, 0));
			cases.add(Arguments.of(new int[] { 64, 48 }, "random", m, 0));
			cases.add(Arguments.of(new int[] { 24, 20, 16 }, "3d radial", m, 0));
			cases.add(Arguments.of(new int[] { 64, 48 }, "radial spokes", m, 4));
			cases.add(Arguments.of(new int[] { 24, 20, 16 }, "stack of stars", m, 4));
		}
		cases.add(Arguments.of(new int[] { 64, 48 }, "golden angle spokes", SpreadMethod.OUTPUT_DRIVEN, 0));
		cases.add(Arguments.of(new int[] { 64, 48 }, "radial spokes", SpreadMethod.OUTPUT_DRIVEN, 4));
		return cases.stream();
	}

	/**
	 * The stage API alone ({@link GpuNufftPlan#spread}, {@link GpuNufftPlan#interpolate} on device buffers: no FFT, no
	 * deapodization, the caller's grid) against direct double sums over each point's W^d stencil on the periodic
	 * oversampled grid, g[l] = Σ_m s_m·Π_a ψ(l_a − t_ma) and c_m = Σ_l g[l]·Π_a ψ(l_a − t_ma), t = k·n: relative l2
	 * ≤ 1e-5 (float sums and float kernel values, as the whole transforms above), 2 transforms at once; the grid starts
	 * as NaN, so a cell spreading does not clear or write shows.
	 */
	@ParameterizedTest(name = "{0} {1} {2} W={3}")
	@MethodSource("stageCases")
	void spreadAndInterpolateStagesMatchDirectSums(final int[] size, final String trajectory,
		final SpreadMethod method, final int width)
	{
		final Random r = new Random();
		final Trajectory t = trajectory.equals("golden angle spokes") ? new GoldenAngleRadial(2 * size[0], 40, 1,
			r.nextInt(1000)).build() : trajectory.equals("radial spokes") ? new Radial(2 * size[0], 2 * (20 + r.nextInt(
				20)), false).build() : TestTrajectories.make(trajectory, size, 3000, r);
		NufftOptions o = NufftOptions.defaults().withTolerance(1e-4).withSpreadMethod(method);
		if (width > 0) o = o.withKernel(KernelType.EXP_SEMICIRCLE).withOversampling(2.0).withWidth(width);
		final NufftParameters p = ParameterChoice.choose(size, o);
		final int batch = 2, m = t.count();
		final int grid = (int) p.gridPoints();
		final float[] s = Arrays2.gaussianFloat(r, 2 * m * batch), g = Arrays2.gaussianFloat(r, 2 * grid * batch);
		final float[] nan = new float[g.length];
		java.util.Arrays.fill(nan, Float.NaN);
		final float[] spread = new float[g.length], interp = new float[s.length];
		try (GpuNufftPlan plan = new GpuNufftPlan(backend, p, o); Buffer ds = backend.wrap(s);
			Buffer dg = backend.wrap(nan); Buffer dc = backend.allocate(s.length, Precision.FLOAT))
		{
			plan.setPoints(t);
			assertEquals(method, plan.spreadMethod());
			plan.spread(ds, dg);
			backend.read(dg, spread, 0);
			backend.write(g, 0, dg);
			plan.interpolate(dg, dc);
			backend.read(dc, interp, 0);
		}
		final double[] refSpread = new double[g.length], refInterp = new double[s.length];
		directStages(t, p, batch, s, refSpread, g, refInterp);
		final String what = p + " " + t + " " + method;
		final double es = Arrays2.relativeError(spread, refSpread), ei = Arrays2.relativeError(interp, refInterp);
		assertTrue(es <= 1e-5, "spread vs direct sums " + es + ": " + what);
		assertTrue(ei <= 1e-5, "interpolate vs direct sums " + ei + ": " + what);
	}

	/** Spreading of s into spread and interpolation of g into interp by direct double sums (batch transforms). */
	private static void directStages(final Trajectory t, final NufftParameters p, final int batch, final float[] s,
		final double[] spread, final float[] g, final double[] interp)
	{
		final int d = t.dimensions(), m = t.count(), w = p.kernel().width();
		final int[] n = java.util.Arrays.copyOf(p.gridSize(), 3);
		if (d == 2) n[2] = 1;
		final long grid = p.gridPoints();
		final double[][] psi = new double[3][w];
		final int[][] cell = new int[3][w];
		for (int i = 0; i < m; i++) {
			for (int a = 0; a < 3; a++) {
				if (a >= d) {
					psi[a][0] = 1;
					cell[a][0] = 0;
					continue;
				}
				final double u = t.k(i, a) * n[a];
				final int i0 = (int) Math.ceil(u - w / 2.0);
				for (int j = 0; j < w; j++) {
					psi[a][j] = p.kernel().value(i0 + j - u);
					cell[a][j] = Math.floorMod(i0 + j, n[a]);
				}
			}
			final int wz = d == 3 ? w : 1;
			for (int b = 0; b < batch; b++) {
				final double sr = s[2 * (b * m + i)], si = s[2 * (b * m + i) + 1];
				double cr = 0, ci = 0;
				for (int jz = 0; jz < wz; jz++)
					for (int jy = 0; jy < w; jy++)
						for (int jx = 0; jx < w; jx++) {
							final double v = psi[0][jx] * psi[1][jy] * psi[2][jz];
							final long l = b * grid + ((long) cell[2][jz] * n[1] + cell[1][jy]) * n[0] + cell[0][jx];
							spread[(int) (2 * l)] += v * sr;
							spread[(int) (2 * l + 1)] += v * si;
							cr += v * g[(int) (2 * l)];
							ci += v * g[(int) (2 * l + 1)];
						}
				interp[2 * (b * m + i)] = cr;
				interp[2 * (b * m + i) + 1] = ci;
			}
		}
	}
}
