package org.nufftj.nufft.cpu;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * The CPU engine's Vector API loops against its scalar loops on fresh random inputs: forward and adjoint of one
 * transform (the row kernels) and of several (the batch tap loops), 2D and 3D, float and double, agree to rounding (relative l2 ≤ 1e-6 float, ≤ 1e-12 double) and
 * both meet the tolerance against the exact NUDFT. Skipped, with the reason, where the JVM has no vector module.
 */
class VectorScalarParityTest {

	@ParameterizedTest
	@CsvSource({ "2, 8, FLOAT, 1e-3", "2, 5, DOUBLE, 1e-9", "3, 3, FLOAT, 1e-4", "3, 8, FLOAT, 1e-3", "2, 32, FLOAT, 1e-5", "2, 1, FLOAT, 1e-4",
		"3, 1, DOUBLE, 1e-6", "3, 1, FLOAT, 1e-3", "2, 1, FLOAT, 1e-3", "2, 1, DOUBLE, 1e-7" })
	void vectorAndScalarLoopsAgree(final int dims, final int transforms, final Precision p, final double eps) {
		final String why = VectorSupport.unavailableReason();
		Assumptions.assumeTrue(why == null, "no Vector API loops in this JVM: " + why);
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = dims == 2 ? new int[] { 36, 28 } : new int[] { 14, 12, 10 };
		final Trajectory t = TestTrajectories.make(dims == 2 ? "radial" : "random", size, 1500, r);
		final long px = Arrays2.pixels(size);
		final double[] x = Arrays2.gaussian(r, (int) (2 * px * transforms));
		final double[] y = Arrays2.gaussian(r, 2 * t.count() * transforms);
		final NufftOptions o = NufftOptions.defaults().withPrecision(p).withTolerance(eps).withThreads(2);
		final double[][] out = new double[4][];
		for (int pass = 0; pass < 2; pass++) {
			final String before = System.getProperty("nufftj.vector");
			System.setProperty("nufftj.vector", pass == 0 ? "true" : "false");
			try {
				if (pass == 0) assertNotNull(VectorSupport.kernels(), "vector loops on");
				else assertNull(VectorSupport.kernels(), "scalar loops");
				try (NufftPlan plan = new CpuNufftPlan(org.nufftj.nufft.ParameterChoice.choose(size, o), o)) {
					plan.setPoints(t);
					out[2 * pass] = new double[y.length];
					out[2 * pass + 1] = new double[x.length];
					plan.forward(x, out[2 * pass]);
					plan.adjoint(y, out[2 * pass + 1]);
				}
			}
			finally {
				if (before == null) System.clearProperty("nufftj.vector");
				else System.setProperty("nufftj.vector", before);
			}
		}
		final double limit = p == Precision.DOUBLE ? 1e-12 : 1e-6;
		final String what = dims + "D, " + transforms + " transforms, " + p + ", eps " + eps + ", seed " + seed;
		final double ef = Arrays2.relativeError(out[0], out[2]), ea = Arrays2.relativeError(out[1], out[3]);
		assertTrue(ef <= limit, "forward vector vs scalar " + ef + ": " + what);
		assertTrue(ea <= limit, "adjoint vector vs scalar " + ea + ": " + what);
		final double nf = Arrays2.relativeError(out[0], Nudft.forward(size, t, x, 0));
		final double na = Arrays2.relativeError(out[1], Nudft.adjoint(size, t, y, 0));
		assertTrue(nf <= eps && na <= eps, "vector loops vs the NUDFT: forward " + nf + ", adjoint " + na + ": " + what);
	}

	/**
	 * A float plan spreads several transforms on float subgrids with the vector loops (Subgrids.spreadFloat), a double
	 * plan on double ones: with the same kernel, width and grid the two adjoints differ by float rounding only. At ε =
	 * 1e-3, where both plans evaluate the same weights (at 1e-4 the float plan's ES W = 6 takes its stalled fit,
	 * KernelWeights.STALLED_FIT_LIMIT, and the double plan the formula: 1.5–1.7e-6 apart).
	 */
	@ParameterizedTest
	@CsvSource({ "2, 8", "2, 32", "3, 4", "3, 8", "3, 16", "2, 3" })
	void floatSubgridsAddOnlyRounding(final int dims, final int transforms) {
		final String why = VectorSupport.unavailableReason();
		Assumptions.assumeTrue(why == null, "no Vector API loops in this JVM: " + why);
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = dims == 2 ? new int[] { 40, 36 } : new int[] { 14, 12, 10 };
		final Trajectory t = TestTrajectories.make(dims == 2 ? "radial" : "random", size, 3000, r);
		final double[] y = Arrays2.gaussian(r, 2 * t.count() * transforms);
		final NufftOptions f = NufftOptions.defaults().withPrecision(Precision.FLOAT).withTolerance(1e-3)
			.withThreads(2);
		final org.nufftj.nufft.NufftParameters pf = org.nufftj.nufft.ParameterChoice.choose(size, f);
		final NufftOptions d = f.withPrecision(Precision.DOUBLE).withKernel(pf.kernel().type()).withWidth(pf.width())
			.withOversampling(pf.oversampling());
		final NufftOptions[] both = { f, d };
		final double[][] out = new double[2][];
		for (int i = 0; i < 2; i++) {
			final org.nufftj.nufft.NufftParameters p = org.nufftj.nufft.ParameterChoice.choose(size, both[i]);
			assertTrue(java.util.Arrays.equals(p.gridSize(), pf.gridSize()), "same grid: " + p + " / " + pf);
			try (NufftPlan plan = new CpuNufftPlan(p, both[i])) {
				plan.setPoints(t);
				out[i] = new double[(int) (2 * Arrays2.pixels(size) * transforms)];
				plan.adjoint(y, out[i]);
			}
		}
		final double e = Arrays2.relativeError(out[0], out[1]);
		assertTrue(e <= 1e-6, "float-subgrid vs double-subgrid adjoint " + e + ": " + dims + "D, " + transforms +
			" transforms, seed " + seed);
	}

	/**
	 * The vector Horner gives every kernel weight with the scalar Horner's bits, W = 2 … 16, at fresh random z, one axis
	 * and two or three at once.
	 */
	@org.junit.jupiter.api.Test
	void vectorHornerIsTheScalarHorner() {
		final TapKernels vector = VectorSupport.kernels();
		Assumptions.assumeTrue(vector != null, "no Vector API loops in this JVM: " + VectorSupport.unavailableReason());
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		for (final org.nufftj.kernel.KernelType type : new org.nufftj.kernel.KernelType[] {
			org.nufftj.kernel.KernelType.KAISER_BESSEL, org.nufftj.kernel.KernelType.EXP_SEMICIRCLE }) {
			for (int w = 2; w <= 16; w++) {
				final org.nufftj.kernel.KernelPolynomial p = org.nufftj.kernel.KernelPolynomial.ofDegree(
					org.nufftj.kernel.Kernels.create(type, w, 1.5), 3 + r.nextInt(12));
				final int stride = (w + vector.lanes() - 1) / vector.lanes() * vector.lanes();
				final double[] rows = p.byPower(stride), scalar = new double[w], out = new double[stride + 3];
				for (int i = 0; i < 50; i++) {
					final double off = -w / 2.0 + r.nextDouble();
					p.weights(off, scalar, 0);
					vector.horner(rows, stride, p.degree(), p.argumentOf(off), out, 3);
					for (int j = 0; j < w; j++)
						assertTrue(Double.compare(scalar[j], out[3 + j]) == 0, type + " W=" + w + " degree " + p.degree() +
							" cell " + j + ": " + out[3 + j] + " vs " + scalar[j] + " (seed " + seed + ")");
					// Two and three axes at once, interleaved, stored in axis order: each axis its own scalar Horner.
					final int n = 2 + r.nextInt(2);
					final double[] offs = { off, -w / 2.0 + r.nextDouble(), -w / 2.0 + r.nextDouble() };
					final double[] all = new double[2 * w + stride];
					vector.horner(rows, stride, p.degree(), p.argumentOf(offs[0]), p.argumentOf(offs[1]), p.argumentOf(
						offs[2]), n, all, 0, w, 2 * w);
					for (int a = 0; a < n; a++) {
						p.weights(offs[a], scalar, 0);
						for (int j = 0; j < w; j++)
							assertTrue(Double.compare(scalar[j], all[a * w + j]) == 0, type + " W=" + w + " axis " + a +
								" of " + n + " cell " + j + " (seed " + seed + ")");
					}
				}
			}
		}
	}

	/** The vector tap list is the scalar one, weight by weight (same bits) and offset by offset, 2D and 3D, W = 3 … 8. */
	@org.junit.jupiter.api.Test
	void vectorTapListIsTheScalarOne() {
		final TapKernels vector = VectorSupport.kernels();
		Assumptions.assumeTrue(vector != null, "no Vector API loops in this JVM: " + VectorSupport.unavailableReason());
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		for (int w = 3; w <= Math.min(8, vector.lanes()); w++) {
			for (final int wz : new int[] { 1, w }) {
				final int len = 2 * (1 + r.nextInt(16));
				final double[] kw = new double[3 * w + 16];
				for (int i = 0; i < 3 * w; i++) kw[i] = r.nextDouble();
				if (wz == 1) kw[2 * w] = 1;
				final int[] cells = new int[w + w * w];
				for (int i = 0; i < cells.length; i++) cells[i] = r.nextInt(1 << 20);
				final double[] tw = new double[w * w * w + 16];
				final int[] ti = new int[w * w * w + 16];
				final int n = vector.taps(kw, w, wz, cells, len, tw, ti);
				assertTrue(n == w * w * wz, "W=" + w + " wz=" + wz + ": " + n + " taps");
				int t = 0;
				for (int e = 0; e < wz; e++) {
					for (int b = 0; b < w; b++) {
						final double kyz = kw[w + b] * kw[2 * w + e];
						for (int a = 0; a < w; a++, t++) {
							assertTrue(Double.compare(kyz * kw[a], tw[t]) == 0 && len * (cells[w + e * w + b] + cells[a]) ==
								ti[t], "W=" + w + " wz=" + wz + " tap " + t + " (seed " + seed + ")");
						}
					}
				}
			}
		}
	}
}
