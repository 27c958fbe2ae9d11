package org.nufftj.nufft.cpu;

import java.util.function.ToDoubleFunction;

import org.nufftj.kernel.Kernels;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelPolynomial;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.Precision;

/**
 * Evaluates the W kernel weights a sample at fine-grid position t touches along one axis: grid points
 * l = start, …, start + W − 1 with start = ⌈t − W/2⌉ and weight ψ(t − l). Online (the kernel's formula, the default)
 * or from a lookup table with linear interpolation ({@value #TABLE_STEPS} samples per cell; see
 * ParameterChoice.LOOKUP_FLOOR). The table's largest error relative to ψ(0), at the midpoints between its samples,
 * is far below 1e-7 for smooth kernels but larger at the square-root edge of the exponential of semicircle: ES at
 * σ = 1.5 measured 2.0e-5 at W = 5, 2.6e-6 at W = 6, 3.4e-7 at W = 7, 4.5e-8 at W = 8 (2026-11-25) — each far below the
 * ε that width is chosen for.
 */
abstract class KernelWeights {

	static final int TABLE_STEPS = 1 << 14;
	final int width;

	KernelWeights(final int width) {
		this(width, Double.NaN);
	}

	KernelWeights(final int width, final double fittedModel) {
		this.width = width;
		this.fittedModel = fittedModel;
	}

	/**
	 * Writes W weights into {@code out[off …]} and returns the first grid index. It may also overwrite the
	 * {@link #room()} − W values after them: callers size their arrays for it and fill the axes in order (x, y, z).
	 */
	abstract int weights(double t, double[] out, int off);

	/** Values one {@link #weights} call may write from its offset: W, or W rounded up to whole vectors. */
	int room() { return width; }

	/**
	 * The weights of a point's {@code dims} (2 or 3) axes, t_a into out[a·W …] (as {@link #weights} in axis order),
	 * their first grid indices into {@code starts}.
	 */
	void weights(final double t0, final double t1, final double t2, final int dims, final double[] out,
		final int[] starts)
	{
		weights(t0, t1, t2, dims, out, 0, starts, 0);
	}

	/**
	 * {@link #weights(double, double, double, int, double[], int[])} into out[o + a·W …] and starts[so …] (it may write
	 * up to out[o + (dims − 1)·W + {@link #room()}]).
	 */
	void weights(final double t0, final double t1, final double t2, final int dims, final double[] out, final int o,
		final int[] starts, final int so)
	{
		starts[so] = weights(t0, out, o);
		starts[so + 1] = weights(t1, out, o + width);
		if (dims == 3) starts[so + 2] = weights(t2, out, o + 2 * width);
	}

	/**
	 * The error model of the plan with the kernel as the weights evaluate it: NaN where the weights are the kernel
	 * itself (a fit within {@link KernelPolynomial#toleranceFor}(ε), the formula), else the model the fit was accepted by.
	 */
	final double fittedModel;

	/**
	 * Most error (relative to ψ(0)) a stalled fit may have: float plans only, and within the 1e-5 to which the engines'
	 * float transforms agree (GpuParityTest; the GPU evaluates the formula). ES at σ = 1.5 stalls at 7.4e-6 for W = 6
	 * (accepted) and 5.7e-5 for W = 5, whose fit moved Cartesian samples 5e-5 away from the GPU's on the H100.
	 */
	static final double STALLED_FIT_LIMIT = 1e-5;

	/**
	 * The kernel's weights for a plan of tolerance ε: its piecewise-polynomial fit of the least degree within
	 * {@link KernelPolynomial#toleranceFor}(ε). Where no degree up to 24 reaches that (the exponential of semicircle's
	 * square-root edge stalls its fit: W = 6, β for σ = 1.5, at 7.4–7.9e-6 from degree 6 on; the Gaussian's jump), the
	 * best fit of a float plan when its error is within {@link #STALLED_FIT_LIMIT} and the plan's error model evaluated
	 * with the fitted weights ({@code model}) is at most {@code bound} — ε and the model of the exact kernel the plan
	 * reports, so that the report stays an upper bound and the same on every engine; else the formula (ES inlined, ~2
	 * transcendental calls per weight; Kaiser–Bessel's I0 by its power series costs tens of terms per weight).
	 * Spreading the 3D kooshball (2M points, 128³, ε = 1e-3, one thread) spent 400 of its 690 ms in degree-14 weights
	 * (docs/benchmarks.md, issue 10 round 4).
	 */
	static KernelWeights online(final Kernel k, final double tolerance, final Precision precision, final double bound,
		final ToDoubleFunction<Kernel> model, final TapKernels vector)
	{
		final double fitTolerance = KernelPolynomial.toleranceFor(tolerance);
		final KernelPolynomial p = KernelPolynomial.fitOrBest(k, fitTolerance, 2, 24);
		if (p.maxError() <= fitTolerance) return new Polynomial(p, vector, Double.NaN);
		if (precision == Precision.FLOAT && p.maxError() <= STALLED_FIT_LIMIT) {
			final double m = model.applyAsDouble(p.asKernel(k));
			if (m <= bound) return new Polynomial(p, vector, m);
		}
		return k.type() == KernelType.EXP_SEMICIRCLE ? new ExpSemicircleOnline(k) : new Generic(k);
	}

	static KernelWeights table(final Kernel k) {
		return new Table(k);
	}

	static int start(final double t, final int width) {
		return Kernels.stencilStart(t, width);
	}

	// -- implementations --

	/** ES kernel inlined: exp(β(√(1 − z²) − 1)), z = 2x/W. */
	private static final class ExpSemicircleOnline extends KernelWeights {

		private final double beta, scale;

		ExpSemicircleOnline(final Kernel k) {
			super(k.width());
			beta = k.shape();
			scale = 2.0 / k.width();
		}

		@Override
		int weights(final double t, final double[] out, final int off) {
			final int s = start(t, width);
			double x = t - s;
			for (int a = 0; a < width; a++, x -= 1) {
				final double z = x * scale;
				final double q = 1 - z * z;
				out[off + a] = q > 0 ? Math.exp(beta * (Math.sqrt(q) - 1)) : 0;
			}
			return s;
		}
	}

	/**
	 * Piecewise polynomial (Horner) weights; see {@link KernelPolynomial}. With the Vector API ({@code vector}), all W
	 * cells of an axis at once, one vector per {@link TapKernels#lanes()} cells (W ≤ 8 with AVX-512: one), as FINUFFT's
	 * "Horner" does; else four scalar chains at a time. The same sums either way.
	 */
	private static final class Polynomial extends KernelWeights {

		private final KernelPolynomial poly;
		private final TapKernels vector;
		/** The coefficients in rows of {@link #stride} (whole vectors), for {@link #vector}. */
		private final double[] rows;
		private final int stride, degree;

		Polynomial(final KernelPolynomial p, final TapKernels vector, final double fittedModel) {
			super(p.width(), fittedModel);
			poly = p;
			this.vector = vector;
			degree = p.degree();
			stride = vector == null ? width : (width + vector.lanes() - 1) / vector.lanes() * vector.lanes();
			rows = vector == null ? null : p.byPower(stride);
		}

		@Override
		int room() { return stride; }

		@Override
		int weights(final double t, final double[] out, final int off) {
			final int s = start(t, width);
			if (vector != null) vector.horner(rows, stride, degree, poly.argumentOf(s - t), out, off);
			else poly.weights(s - t, out, off);
			return s;
		}

		/** With the vector loops, the axes' Horner chains interleaved (one vector each for W ≤ the lanes). */
		@Override
		void weights(final double t0, final double t1, final double t2, final int dims, final double[] out,
			final int o, final int[] starts, final int so)
		{
			if (vector == null) {
				super.weights(t0, t1, t2, dims, out, o, starts, so);
				return;
			}
			final int s0 = start(t0, width), s1 = start(t1, width), s2 = dims == 3 ? start(t2, width) : 0;
			starts[so] = s0;
			starts[so + 1] = s1;
			starts[so + 2] = s2;
			vector.horner(rows, stride, degree, poly.argumentOf(s0 - t0), poly.argumentOf(s1 - t1), dims == 3 ? poly
				.argumentOf(s2 - t2) : 0, dims, out, o, o + width, o + 2 * width);
		}
	}

	private static final class Generic extends KernelWeights {

		private final Kernel kernel;

		Generic(final Kernel k) {
			super(k.width());
			kernel = k;
		}

		@Override
		int weights(final double t, final double[] out, final int off) {
			final int s = start(t, width);
			for (int a = 0; a < width; a++)
				out[off + a] = kernel.value(t - (s + a));
			return s;
		}
	}

	private static final class Table extends KernelWeights {

		private final double[] table;

		Table(final Kernel k) {
			super(k.width());
			final int n = (int) Math.ceil(k.width() / 2.0 * TABLE_STEPS) + 2;
			table = new double[n];
			for (int i = 0; i < n; i++)
				table[i] = k.value((double) i / TABLE_STEPS);
		}

		@Override
		int weights(final double t, final double[] out, final int off) {
			final int s = start(t, width);
			double x = t - s;
			for (int a = 0; a < width; a++, x -= 1) {
				final double p = Math.abs(x) * TABLE_STEPS;
				final int i = (int) p;
				final double f = p - i;
				out[off + a] = i + 1 < table.length ? table[i] + f * (table[i + 1] - table[i]) : 0;
			}
			return s;
		}
	}
}
