package org.nufftj.kernel;

/**
 * A kernel ψ of width W as W polynomials, one per grid cell of its support, for fast evaluation of the W weights a
 * sample touches (the piecewise-polynomial evaluation of FINUFFT, Barnett et al. 2019 §5.1, "Horner" there).
 * <p>
 * A sample whose first stencil cell has kernel argument {@code off} ∈ [−W/2, −W/2 + 1) (see the engines) touches
 * cells j = 0 … W−1 with arguments x_j = off + j. With z = 2(off + W/2) − 1 ∈ [−1, 1), cell j's weight is
 * p_j(z) = Σ_d c[j][d] z^d ≈ ψ(x_j). Each p_j interpolates ψ at the D + 1 Chebyshev points of its cell (near-minimax),
 * converted to monomials in z (coefficients stay ≤ 1 for the smooth kernels here, so Horner's rule is stable).
 * </p>
 * <p>
 * Kaiser–Bessel is analytic on its closed support (I₀(β√(1 − (2x/W)²)) is an entire function of (2x/W)²) and fits
 * to double rounding; the exponential of semicircle has a square-root singularity at the support edge and the
 * truncated Gaussian a jump, which polynomials reproduce only to a looser tolerance (ES: about the size of its edge
 * value e^{−β}). {@link #maxError()} is measured against {@link Kernel#value} at construction, so {@link #fit} returns
 * only fits that reach the tolerance asked.
 * </p>
 */
public final class KernelPolynomial {

	/** Points per cell at which the fit is checked against the kernel. */
	private static final int CHECK_POINTS = 257;

	private final int width, degree;
	private final double[] coefficients;
	/** The same coefficients power-major, c[d][j] at d·W + j, for {@link #weights}. */
	private final double[] byPower;
	private final double maxError;

	private KernelPolynomial(final Kernel kernel, final int degree) {
		this.width = kernel.width();
		this.degree = degree;
		final int n = degree + 1;
		coefficients = new double[width * n];
		final double[][] cheb = chebyshevToMonomial(n);
		for (int j = 0; j < width; j++) {
			// Chebyshev interpolation: a_m = (2/n) Σ_i f(z_i) T_m(z_i), z_i = cos(π(i + ½)/n), a_0 halved.
			final double[] f = new double[n];
			for (int i = 0; i < n; i++) f[i] = kernel.value(argument(Math.cos(Math.PI * (i + 0.5) / n), j));
			for (int m = 0; m < n; m++) {
				double s = 0;
				for (int i = 0; i < n; i++) s += f[i] * Math.cos(m * Math.PI * (i + 0.5) / n);
				final double a = (m == 0 ? 1.0 : 2.0) / n * s;
				for (int d = 0; d <= m; d++) coefficients[j * n + d] += a * cheb[m][d];
			}
		}
		byPower = new double[width * n];
		for (int j = 0; j < width; j++)
			for (int d = 0; d < n; d++) byPower[d * width + j] = coefficients[j * n + d];
		double worst = 0;
		for (int j = 0; j < width; j++) {
			for (int q = 0; q < CHECK_POINTS; q++) {
				final double z = -1 + 2.0 * q / (CHECK_POINTS - 1);
				worst = Math.max(worst, Math.abs(value(j, z) - kernel.value(argument(z, j))));
			}
		}
		maxError = worst / Math.abs(kernel.value(0));
	}

	// -- public API --

	/** Least error (relative to ψ(0)) a fit for an engine is asked for: double rounding. */
	public static final double DOUBLE_ROUNDING = 2e-14;
	/**
	 * Share of a plan's tolerance ε the CPU engine's kernel fit may use: its error (relative to ψ(0), measured at
	 * construction) is at most ε/100, two orders below the kernel's own aliasing error that the parameter choice spends
	 * ε on. The degree then follows ε, as FINUFFT's "Horner" does: Kaiser–Bessel W = 5 takes degree 5 at ε = 1e-3
	 * against 14 at double rounding, and the exponential of semicircle, whose square-root edge defeats a double-accurate
	 * fit, fits at the looser ε of most float plans.
	 */
	public static final double TOLERANCE_SHARE = 0.01;

	/** The error a kernel fit for a plan of tolerance ε may have: max({@link #DOUBLE_ROUNDING}, ε/100). */
	public static double toleranceFor(final double tolerance) {
		return Math.max(DOUBLE_ROUNDING, TOLERANCE_SHARE * tolerance);
	}

	/**
	 * The fit of {@code kernel} with the least degree in [{@code minDegree}, {@code maxDegree}] whose
	 * {@link #maxError()} is ≤ {@code tolerance}, or {@code null} when none is.
	 */
	public static KernelPolynomial fit(final Kernel kernel, final double tolerance, final int minDegree,
		final int maxDegree)
	{
		final KernelPolynomial p = fitOrBest(kernel, tolerance, minDegree, maxDegree);
		return p.maxError <= tolerance ? p : null;
	}

	/**
	 * The fit of {@code kernel} of the least degree in [{@code minDegree}, {@code maxDegree}] whose error is within a
	 * quarter of the least error any of those degrees reaches: where the fit stalls (the exponential of semicircle's
	 * square-root edge), the cheapest degree at the stall.
	 */
	public static KernelPolynomial best(final Kernel kernel, final int minDegree, final int maxDegree) {
		return fitOrBest(kernel, -1, minDegree, maxDegree);
	}

	/**
	 * In one pass over the degrees: {@link #fit} when a degree reaches {@code tolerance} (its {@link #maxError()} says
	 * so), else {@link #best} — so that a caller that takes the best fit where none reaches the tolerance builds each
	 * degree once.
	 */
	public static KernelPolynomial fitOrBest(final Kernel kernel, final double tolerance, final int minDegree,
		final int maxDegree)
	{
		final KernelPolynomial[] fits = new KernelPolynomial[maxDegree - minDegree + 1];
		double least = Double.POSITIVE_INFINITY;
		for (int d = minDegree; d <= maxDegree; d++) {
			final KernelPolynomial p = new KernelPolynomial(kernel, d);
			if (p.maxError <= tolerance) return p;
			fits[d - minDegree] = p;
			least = Math.min(least, p.maxError);
		}
		for (final KernelPolynomial p : fits) if (p.maxError <= 1.25 * least) return p;
		throw new IllegalStateException("unreachable: the least error is one of the fits'");
	}

	/**
	 * This fit as a kernel: {@link Kernel#value} evaluates the polynomials (what an engine using the fit spreads with),
	 * {@link Kernel#fourier} is {@code exact}'s (what deapodization divides by). For the error model of a plan that
	 * uses the fit.
	 */
	public Kernel asKernel(final Kernel exact) {
		return new Kernel() {
			@Override public KernelType type() { return exact.type(); }

			@Override public int width() { return width; }

			@Override public double shape() { return exact.shape(); }

			@Override
			public double value(final double x) {
				final double y = x + width / 2.0;
				if (!(y >= 0 && y < width)) return 0;
				final int j = (int) y;
				return KernelPolynomial.this.value(j, 2 * (y - j) - 1);
			}

			@Override public double fourier(final double u) { return exact.fourier(u); }
		};
	}

	/** A fit of exactly {@code degree}, whatever its error (see {@link #maxError()}). */
	public static KernelPolynomial ofDegree(final Kernel kernel, final int degree) {
		return new KernelPolynomial(kernel, degree);
	}

	public int width() { return width; }

	public int degree() { return degree; }

	/** max |p_j(z) − ψ(x_j)| over the support, relative to ψ(0). */
	public double maxError() { return maxError; }

	/**
	 * The coefficients power-major with rows of {@code stride} ≥ W values, c[d][j] at d·stride + j and zeros after
	 * each row's W: for evaluating all W weights at once in vectors of a lane count that divides {@code stride}.
	 */
	public double[] byPower(final int stride) {
		if (stride < width) throw new IllegalArgumentException("stride " + stride + " < width " + width);
		final double[] c = new double[stride * (degree + 1)];
		for (int d = 0; d <= degree; d++) System.arraycopy(byPower, d * width, c, d * stride, width);
		return c;
	}

	/** The argument z ∈ [−1, 1) of every cell's polynomial for a sample whose first cell has argument {@code off}. */
	public double argumentOf(final double off) {
		return 2 * (off + width / 2.0) - 1;
	}

	/** Coefficients c[j][d] row-major (cell j, then power d = 0 … degree); a copy. */
	public double[] coefficients() { return coefficients.clone(); }

	/**
	 * The W weights of a sample whose first cell has kernel argument {@code off}, into {@code out[o …]}: Horner chains
	 * four at a time in registers, so that their multiply-adds overlap instead of each waiting on the one before (6M
	 * calls, W = 5, degree 5: 84 ms against 163 ms one chain at a time, and 111 ms with the last block overlapping
	 * the one before instead of a single chain for W mod 4; ad-hoc loop, 2026-11-25).
	 */
	public void weights(final double off, final double[] out, final int o) {
		final double z = argumentOf(off);
		final int w = width, top = degree * w;
		int j = 0;
		for (; j + 4 <= w; j += 4) {
			double v0 = byPower[top + j], v1 = byPower[top + j + 1], v2 = byPower[top + j + 2], v3 = byPower[top + j + 3];
			for (int b = top - w + j; b >= 0; b -= w) {
				v0 = v0 * z + byPower[b];
				v1 = v1 * z + byPower[b + 1];
				v2 = v2 * z + byPower[b + 2];
				v3 = v3 * z + byPower[b + 3];
			}
			out[o + j] = v0;
			out[o + j + 1] = v1;
			out[o + j + 2] = v2;
			out[o + j + 3] = v3;
		}
		for (; j < w; j++) {
			double v = byPower[top + j];
			for (int b = top - w + j; b >= 0; b -= w) v = v * z + byPower[b];
			out[o + j] = v;
		}
	}

	// -- helpers --

	private double value(final int j, final double z) {
		final int n = degree + 1;
		double v = coefficients[j * n + degree];
		for (int d = degree - 1; d >= 0; d--) v = v * z + coefficients[j * n + d];
		return v;
	}

	/** Kernel argument of cell j at z. */
	private double argument(final double z, final int j) {
		return (z + 1) / 2 - width / 2.0 + j;
	}

	/** Monomial coefficients of the Chebyshev polynomials T_0 … T_{n−1}: t[m][d] is the z^d coefficient of T_m. */
	private static double[][] chebyshevToMonomial(final int n) {
		final double[][] t = new double[n][n];
		t[0][0] = 1;
		if (n > 1) t[1][1] = 1;
		for (int m = 2; m < n; m++)
			for (int d = 0; d < n; d++) t[m][d] = -t[m - 2][d] + (d > 0 ? 2 * t[m - 1][d - 1] : 0);
		return t;
	}
}
