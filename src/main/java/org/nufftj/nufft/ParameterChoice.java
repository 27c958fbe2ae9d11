package org.nufftj.nufft;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.nufftj.InvalidInputException;
import org.nufftj.NumberLists;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelType;
import org.nufftj.kernel.Kernels;
import org.nufftj.trajectory.Trajectory;

/**
 * Chooses kernel width W and oversampling σ from a tolerance ε, and holds the error model that justifies the choice.
 * <p>
 * <b>Error model</b> (docs/conventions.md). On one axis, a sample at fine-grid position t is spread to the W cells
 * l_j = ⌈t − W/2⌉ + j with weights ψ(l_j − t); after the FFT and deapodization, image position u = x/n ∈
 * [−1/(2σ), 1/(2σ)) receives, relative to the exact e^{−2πitu}, the factor 1 + ε(u, off) with
 * </p>
 * <pre>
 *   ε(u, off) = Σ_j ψ(off + j)·e^{−2πi(off + j)u} / ψ̂_d(u) − 1,   off = l_0 − t ∈ [−W/2, −W/2 + 1)
 * </pre>
 * <p>
 * exactly (ψ̂_d is the transform deapodization divides by; by Poisson summation ε is the aliasing of Beatty,
 * Nishimura &amp; Pauly, IEEE TMI 24:799, 2005, plus any deapodization mismatch). For an image whose energy is spread
 * over the field of view (random inputs, as the tests use), the
 * squared relative l2 error of the samples at offset off is the mean over u of |ε(u, off)|². Trajectories can put every
 * sample at the same offset (Cartesian axes, stack-of-stars partitions), so the model takes the worst offset:
 * E₁ = max_f rms_u |ε(u, f)|. A separable d-dimensional kernel multiplies the axes' factors (1 + ε): the model takes
 * the mean of |Π_a(1 + ε(u_a, f_a)) − 1|² over the image, maximised over the offsets of every axis (about √d·E₁, more
 * when the errors share a sign; see {@link #computeModel}). The adjoint is the conjugate transpose and has the same
 * error. A plan is accepted when E ≤ ε. Among accepted (kernel, W, σ) —
 * for an automatic kernel both Kaiser–Bessel and the exponential of semicircle are tried — the one of least
 * estimated work ({@link #cost}: on the CPU a measured time model over every FFT length from σ = 1.125 to 2, on a GPU
 * spreading ∝ M·W^d and FFT ∝ G·log G over σ ∈ {1.25, 1.5, 2}; M the point count where the caller gives it, else
 * 2 × the pixel count) is chosen. The tests check that achieved errors against the exact NUDFT stay below ε on every
 * trajectory type, Cartesian included.
 * </p>
 * <p>
 * The model is an r.m.s. over the image's own pixels (small images weigh their edge pixels more): pixels at the edge
 * of the field of view carry 1.4–5× the average error ({@link #edgeRatio}), as in every gridding method; it is
 * reported, not hidden.
 * </p>
 * <p>
 * The worst offset is what a plan must meet before its points are known. Radial, spiral and random points spread over
 * all offsets, and their achieved error is up to 2× below it; {@link #expectedError} is the model on a plan's own
 * points (the mean of the squared error over their offsets), which tracks the achieved error within 1.02–1.22×
 * (ErrorModelTest).
 * </p>
 */
public final class ParameterChoice {

	/** Least σ an option may ask for (the CPU's choice tries every FFT length from it; a GPU's from {@link #SIGMAS}). */
	public static final double MIN_SIGMA = 1.125;
	/** Largest σ an option may ask for. */
	public static final double MAX_SIGMA = 2.5;
	/** Largest σ of the CPU's automatic choice (a GPU's: {@link #SIGMAS}; larger σ only when asked or tuned). */
	static final double CPU_MAX_SIGMA = 2.0;
	public static final int MIN_WIDTH = 2;
	public static final int MAX_WIDTH = 16;
	/**
	 * The CPU's choice puts its kernel and width on the longest length whose estimated time is within this fraction of
	 * the least: the time model is no finer than that (e.g. 256², ε = 1e-4, ES W = 6: 378² and 384² are 1% apart in the
	 * model and alike in measured time, and 384² is 1.2–1.3× more accurate).
	 */
	static final double TIE = 0.02;
	/**
	 * Oversampling ratios a GPU's choice tries when σ is automatic. Not above 2: with 2.25 added (one width narrower
	 * at ε ≤ 1e-5, e.g. 128³ at 1e-5: W = 6 on 288³ instead of W = 7 on 256³) the cost model M·W^d + weight·G log G
	 * took it on every 3D row and every 2D row at ε ≤ 1e-5, and on the H200 the adjoints ran 0.86–1.08× as long, the
	 * 3D rows at ε = 1e-3 1.4–2.7× (adjoint and forward) and the other forwards 0.96–1.39×: the larger grid's FFT,
	 * pad and tile traffic, which the model does not weigh (docs/gpu-tuning.md). The tuner ({@code Tuner}) times 2.25
	 * per direction instead. The system property {@code nufftj.gpuSigmas} (comma-separated) replaces the set, for A/B
	 * runs; a malformed one is ignored with a warning on stderr.
	 */
	static final double[] SIGMAS = gpuSigmasOrDefault(System.getProperty("nufftj.gpuSigmas"));
	/** Most pixel positions per axis at which ε(u, off) is evaluated. */
	private static final int MAX_POSITIONS = 512;
	/**
	 * Margin on the model for the fluctuation of the achieved error from one random input to the next (the model is
	 * its expectation); the accuracy tests draw fresh inputs every run.
	 */
	static final double SAFETY = 1.1;
	/** Relative rounding error of a float plan (see {@link #withRounding}). */
	static final double FLOAT_ROUNDING = 3e-7;
	/**
	 * Rounding per unit of deapodization amplification A (see {@link #withRounding}), float: the grid's rounding
	 * (relative ~2⁻²⁴ of its values) is divided by ψ̂(u)/ψ̂(0) with the image. Measured 1.2–3.0e-8 × A (A = 2e3 …
	 * 2.5e5: Kaiser–Bessel W = 10…12, σ = 1.125…1.23, 52² … 64², float adjoint of BartCrossCheckTest's data against
	 * double), 2× margin.
	 */
	static final double FLOAT_ROUNDING_PER_AMPLIFICATION = 6e-8;
	/** The same for double: the float figure scaled by 2⁻²⁹ (the ratio of the two unit roundoffs). */
	static final double DOUBLE_ROUNDING_PER_AMPLIFICATION = FLOAT_ROUNDING_PER_AMPLIFICATION / (1 << 29);
	/** Sub-cell offsets f ∈ [0, 1) tried for the worst case. */
	private static final int OFFSETS = 32;
	/** Lookup-table kernels: relative interpolation error floor (see KernelTable). */
	public static final double LOOKUP_FLOOR = 1e-7;

	private static final Map<String, double[]> MODEL_CACHE = new ConcurrentHashMap<>();

	private ParameterChoice() {}

	// -- public API --

	/** Resolves options into parameters for an image of the given size. */
	public static NufftParameters choose(final int[] imageSize, final NufftOptions o) {
		for (final int n : imageSize)
			InvalidInputException.require(n >= 2, "image size: every axis needs >= 2 pixels, found " + n);
		final double eps = o.tolerance();
		final Precision precision = o.precision();
		if (o.width() == 0) {
			InvalidInputException.require(eps >= precision.smallestTolerance(), "tolerance " + eps + " is below what " +
				precision.name().toLowerCase() + " precision reaches (" + precision.smallestTolerance() + ")" +
				(precision == Precision.FLOAT ? "; use double precision" : ""));
			InvalidInputException.require(o.evaluation() != NufftOptions.Evaluation.LOOKUP || eps >= LOOKUP_FLOOR,
				"tolerance " + eps + " is below the kernel lookup table's accuracy (" + LOOKUP_FLOOR +
					"); use online kernel evaluation");
		}
		if (o.device().kind() == DeviceChoice.Kind.CPU) return chooseCpu(imageSize, o);
		// Automatic kernel: Kaiser–Bessel (Beatty's β) aliases less than the exponential of semicircle at the same W and
		// σ, so it often reaches ε one width sooner; both are tried and the cheaper plan wins (ties keep the first).
		final KernelType[] types = o.kernel() == KernelType.AUTO ?
			new KernelType[] { KernelType.KAISER_BESSEL, KernelType.EXP_SEMICIRCLE } : new KernelType[] { o.kernel() };
		final double[] sigmas = o.oversampling() > 0 ? new double[] { o.oversampling() } : SIGMAS;
		final int d = imageSize.length;
		double pixels = 1;
		for (final int n : imageSize) pixels *= n;
		final double samples = 2 * pixels;

		NufftParameters best = null;
		double bestCost = Double.POSITIVE_INFINITY;
		double closest = Double.POSITIVE_INFINITY;
		for (final KernelType type : types) for (final double sigma : sigmas) {
			int w = o.width();
			double err;
			if (w > 0) {
				err = modelError(type, w, sigma, imageSize, precision);
			}
			else {
				// The model falls with W (ParameterChoiceTest): the least W that meets ε, searched from a first guess
				// (about one width per decade of ε, as the kernels' aliasing falls) up or down, so that a choice
				// evaluates the model at two or three widths, and narrow ones (cheap), instead of bisecting from W = 16.
				w = leastWidth(type, sigma, imageSize, eps, precision);
				if (w < 0) {
					closest = Math.min(closest, modelError(type, MAX_WIDTH, sigma, imageSize, precision));
					continue;
				}
				err = modelError(type, w, sigma, imageSize, precision);
			}
			final int[] g = gridSize(imageSize, sigma, w);
			double gp = 1;
			for (final int n : g) gp *= n;
			final double cost = cost(samples, w, d, gp, o.device());
			if (cost < bestCost) {
				bestCost = cost;
				best = new NufftParameters(imageSize, g, Kernels.create(type, w, sigma), sigma, eps, err, precision);
			}
		}
		if (best == null) {
			throw new InvalidInputException("tolerance " + eps + " is not reachable with kernel " + o.kernel().key() +
				" and oversampling " + (o.oversampling() > 0 ? o.oversampling() : "in " +
					java.util.Arrays.toString(SIGMAS)) + " at width <= " + MAX_WIDTH + " (best model error " +
				String.format("%.3g", closest) + "); raise oversampling or tolerance");
		}
		return best;
	}

	/**
	 * The CPU's choice: among kernels (both families when automatic), widths and every FFT length ({@link #nextSmooth})
	 * on the largest axis from σ = {@value #MIN_SIGMA} to 2 (σ = length / largest axis; the other axes take
	 * the least length ≥ σN), the least estimated work ({@link #cost}, on the options' point count where given) whose
	 * model meets ε. Per width the least length that meets ε is found by bisection (the model falls as σ grows, as it
	 * does with W) among the lengths whose plan would cost less than the best so far; widths are tried upward from the
	 * least that meets ε at σ = 2 until even the least length costs more. Then the chosen kernel and width go to the
	 * longest length within {@link #TIE} of that time, where the model is lower. An explicit σ or W narrows the search to it.
	 */
	private static NufftParameters chooseCpu(final int[] imageSize, final NufftOptions o) {
		final double eps = o.tolerance();
		final KernelType[] types = o.kernel() == KernelType.AUTO ?
			new KernelType[] { KernelType.KAISER_BESSEL, KernelType.EXP_SEMICIRCLE } : new KernelType[] { o.kernel() };
		int largest = 0;
		double pixels = 1;
		for (final int n : imageSize) {
			largest = Math.max(largest, n);
			pixels *= n;
		}
		final double samples = o.pointCount() > 0 ? o.pointCount() : 2 * pixels;
		final double fixedSigma = o.oversampling();
		final int[] grids = fixedSigma > 0 ? new int[] { 0 } :
			fftLengths((int) Math.ceil(MIN_SIGMA * largest - 1e-9), (int) (CPU_MAX_SIGMA * largest));
		final int top = grids.length - 1;
		NufftParameters best = null;
		Model bestModel = null;
		double bestCost = Double.POSITIVE_INFINITY, closest = Double.POSITIVE_INFINITY;
		for (final KernelType type : types) {
			final Model m = new Model(type, imageSize, largest, grids, fixedSigma, samples, o);
			int w = o.width();
			if (w == 0) {
				// The least W that meets ε at the largest σ (MAX_WIDTH + 1: none does).
				w = leastWidth(type, m.sigma(top), imageSize, eps, o.precision());
				if (w < 0) w = MAX_WIDTH + 1;
			}
			if (o.width() > 0 && m.error(w, top) > eps) {
				// An explicit W overrides the tolerance (the model is reported, not enforced): the largest σ.
				final double cost = m.cost(w, top);
				if (cost < bestCost) {
					bestCost = cost;
					best = m.plan(w, top);
					bestModel = m;
				}
				continue;
			}
			if (w > MAX_WIDTH) {
				closest = Math.min(closest, m.error(MAX_WIDTH, top));
				continue;
			}
			for (; w <= (o.width() > 0 ? o.width() : MAX_WIDTH); w++) {
				if (cost(samples, w, imageSize.length, 1, o.device()) >= bestCost) break; // the spreading alone costs more
				// Lengths below 2W give the grid of 2W (gridSize), so tiny images keep their candidates.
				int lo = 0, hi = top;
				// Only lengths whose plan would cost less than the best so far (the cost grows with the length).
				while (hi >= lo && m.cost(w, hi) >= bestCost) hi--;
				if (hi < lo) break; // even the least length costs more: so do all wider kernels
				if (m.error(w, hi) > eps) continue;
				while (lo < hi) {
					final int mid = (lo + hi) >>> 1;
					if (m.error(w, mid) <= eps) hi = mid;
					else lo = mid + 1;
				}
				final double cost = m.cost(w, hi);
				if (cost < bestCost) {
					bestCost = cost;
					best = m.plan(w, hi);
					bestModel = m;
				}
				if (hi == 0) break; // already at the least σ: wider kernels only cost more
			}
		}
		// The chosen kernel and width on the longest length within TIE of its estimated time (about the time model's
		// resolution): more accuracy for no measurable time (the model falls as σ grows).
		if (best != null && best.predictedError() <= eps && fixedSigma == 0) {
			final int w = best.width();
			int hi = top;
			while (hi >= 0 && bestModel.cost(w, hi) > (1 + TIE) * bestCost) hi--;
			if (hi >= 0 && bestModel.sigma(hi) > best.oversampling() && bestModel.error(w, hi) < best.predictedError())
				best = bestModel.plan(w, hi);
		}
		if (best == null) {
			throw new InvalidInputException("tolerance " + eps + " is not reachable with kernel " + o.kernel().key() +
				" and oversampling " + (fixedSigma > 0 ? fixedSigma : "in [" + MIN_SIGMA + ", 2]") +
				" at width " + (o.width() > 0 ? "" + o.width() : "<= " + MAX_WIDTH) + " (best model error " +
				String.format("%.3g", closest) + "); raise oversampling or tolerance");
		}
		return best;
	}

	/**
	 * One kernel family's candidates for {@link #chooseCpu}: at width W and length index i (of the lengths of the
	 * largest axis, or the one fixed σ), the worst-offset model with rounding, the estimated time and the plan.
	 */
	private static final class Model {

		private final KernelType type;
		private final int[] image;
		private final int largest;
		private final int[] grids;
		private final double fixedSigma, samples;
		private final NufftOptions options;

		Model(final KernelType type, final int[] image, final int largest, final int[] grids, final double fixedSigma,
			final double samples, final NufftOptions options)
		{
			this.type = type;
			this.image = image;
			this.largest = largest;
			this.grids = grids;
			this.fixedSigma = fixedSigma;
			this.samples = samples;
			this.options = options;
		}

		/** σ of candidate i: the fixed one, else its length on the largest axis over that axis. */
		double sigma(final int i) {
			return fixedSigma > 0 ? fixedSigma : (double) grids[i] / largest;
		}

		double error(final int w, final int i) {
			return modelError(type, w, sigma(i), image, options.precision());
		}

		double cost(final int w, final int i) {
			return ParameterChoice.cost(samples, w, image.length, product(gridSize(image, sigma(i), w)),
				options.device());
		}

		NufftParameters plan(final int w, final int i) {
			final double sigma = sigma(i);
			return new NufftParameters(image, gridSize(image, sigma, w), Kernels.create(type, w, sigma), sigma,
				options.tolerance(), error(w, i), options.precision());
		}
	}

	/**
	 * Estimated work of a plan per transform. On a GPU: spreading ∝ points · W^d and the FFT ∝ G·log₂G weighted by
	 * {@link #GPU_FFT_WEIGHT}. On the CPU, in nanoseconds as measured on the build machine (2 threads, float, 2026-11-25; the
	 * engine's vector rows make the spreading cost per point nearly flat in W at small W): spreading per point
	 * 7.6 + 0.0139·W³ in 2D (8 coils, 205,824 radial points, 384², W = 3…10: 8.0–21.5 ns) and 43 + 0.138·W³ in 3D (one
	 * coil, 1,048,576 kooshball points, 128³, W = 3…8: 47–114 ns), the FFT 0.33 ns per G·log₂G (8 × 324² … 512²,
	 * 128³: 0.26–0.43; with radix 5 and 7 written out, 360² … 500² alike: 0.29–0.43).
	 */
	static double cost(final double samples, final int w, final int d, final double gridPoints,
		final DeviceChoice device)
	{
		final double fft = gridPoints * Math.log(gridPoints) / Math.log(2);
		if (device != null && device.kind() == DeviceChoice.Kind.CPU) {
			final double w3 = (double) w * w * w;
			return samples * (d == 2 ? 7.6 + 0.0139 * w3 : 43 + 0.138 * w3) + 0.33 * fft;
		}
		return samples * Math.pow(w, d) + GPU_FFT_WEIGHT * fft;
	}

	/** The σ set a GPU's automatic choice tries (a copy). */
	public static double[] gpuSigmas() {
		return SIGMAS.clone();
	}

	/** {@link #parseGpuSigmas}, or the default set with a warning where {@code spec} is malformed. */
	static double[] gpuSigmasOrDefault(final String spec) {
		try {
			return parseGpuSigmas(spec);
		}
		catch (final InvalidInputException e) {
			System.err.println("nufft-j: ignoring the system property " + e.getMessage());
			return parseGpuSigmas(null);
		}
	}

	/** The GPU's σ set: {@code spec} (comma-separated, each in [MIN_SIGMA, MAX_SIGMA]), or the default when null. */
	static double[] parseGpuSigmas(final String spec) {
		if (spec == null || spec.isBlank()) return new double[] { 1.25, 1.5, 2.0 };
		final double[] s = NumberLists.parse(spec, "nufftj.gpuSigmas", "sigma");
		for (final double sigma : s)
			InvalidInputException.require(sigma >= MIN_SIGMA && sigma <= MAX_SIGMA, "nufftj.gpuSigmas: " + sigma +
				" is outside [" + MIN_SIGMA + ", " + MAX_SIGMA + "]");
		return s;
	}

	private static double product(final int[] g) {
		double p = 1;
		for (final int n : g) p *= n;
		return p;
	}

	/** The FFT lengths ({@link #nextSmooth}) in [from, to], ascending. */
	static int[] fftLengths(final int from, final int to) {
		final java.util.List<Integer> s = new java.util.ArrayList<>();
		for (int n = nextSmooth(from); n <= to; n = nextSmooth(n + 1)) s.add(n);
		return s.stream().mapToInt(Integer::intValue).toArray();
	}

	/** The least width in [MIN_WIDTH, MAX_WIDTH] whose model (with rounding) meets ε, or −1 if none does. */
	private static int leastWidth(final KernelType type, final double sigma, final int[] imageSize, final double eps,
		final Precision precision)
	{
		final int guess = Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, (int) Math.ceil(-Math.log10(eps)) + 1));
		int w = guess;
		if (meets(type, w, sigma, imageSize, eps, precision)) {
			while (w > MIN_WIDTH && meets(type, w - 1, sigma, imageSize, eps, precision)) w--;
			return w;
		}
		while (w < MAX_WIDTH) if (meets(type, ++w, sigma, imageSize, eps, precision)) return w;
		return -1;
	}

	private static boolean meets(final KernelType type, final int width, final double sigma, final int[] imageSize,
		final double eps, final Precision precision)
	{
		return modelError(type, width, sigma, imageSize, precision) <= eps;
	}

	/**
	 * The model error (×{@value #SAFETY}, without float rounding) of a plan for an image of {@code imageSize} pixels
	 * with a kernel family at width W, built for σ, on the grid {@link #gridSize} gives.
	 */
	public static double modelError(final KernelType type, final int width, final double sigma, final int[] imageSize) {
		return cachedModel(type, width, sigma, imageSize)[0];
	}

	/** The same model with {@code precision}'s rounding ({@link #withRounding}), as {@link #choose} accepts by. */
	public static double modelError(final KernelType type, final int width, final double sigma, final int[] imageSize,
		final Precision precision)
	{
		final double[] m = cachedModel(type, width, sigma, imageSize);
		return withRounding(m[0], m[1], precision);
	}

	/** {×{@value #SAFETY} model error, deapodization amplification} of a kernel family's plan (cached). */
	private static double[] cachedModel(final KernelType type, final int width, final double sigma,
		final int[] imageSize)
	{
		final int[] grid = gridSize(imageSize, sigma, width);
		final String key = type + "/" + width + "/" + sigma + "/" + java.util.Arrays.toString(imageSize) + "/" +
			java.util.Arrays.toString(grid);
		return MODEL_CACHE.computeIfAbsent(key, k -> {
			final double[] m = computeModel(Kernels.create(type, width, sigma), imageSize, grid);
			return new double[] { SAFETY * m[0], m[2] };
		});
	}

	/**
	 * The model error (×{@value #SAFETY}, with the precision's rounding, as {@link #choose} accepts by) of a plan with
	 * {@code kernel} exactly as given — e.g. a polynomial fit's view of a kernel, as an engine evaluates it — for an
	 * image of {@code imageSize} pixels on a grid of {@code grid} points per axis. Not cached.
	 */
	public static double modelError(final Kernel kernel, final int[] imageSize, final int[] grid,
		final Precision precision)
	{
		final double[] m = computeModel(kernel, imageSize, grid);
		return withRounding(SAFETY * m[0], m[2], precision);
	}

	/**
	 * max over pixels and offsets of |ε(u, off)| over the one-axis model error, for an axis of {@code n0} pixels on
	 * {@code n} grid points: how much more than the average error a pixel at the worst place of the field of view (its
	 * edge) can carry.
	 */
	public static double edgeRatio(final Kernel kernel, final int n0, final int n) {
		final double[] m = computeModel(kernel, new int[] { n0 }, new int[] { n });
		return m[1] / m[0];
	}

	/**
	 * {model error, max_{u,off} |ε(u, off)|} of a kernel for an image of {@code image} pixels on a grid of {@code grid}
	 * points per axis.
	 * <p>
	 * On axis a, pixel x (centred index, −⌊N/2⌋ … ⌈N/2⌉ − 1) sits at u = x/n; the statistics over the image are
	 * averages over those pixels (an image of N pixels weighs its edge pixels, where the error is largest, by 1/N
	 * each; axes of more than {@value #MAX_POSITIONS} pixels are sampled at a stride that keeps the edge pixel).
	 * With e_a = ε(u_a, off_a) and the u_a independent, the d-D relative error is
	 * mean|Π_a(1 + e_a) − 1|² = Π_a(1 + α_a) − 2·Re Π_a(1 + μ_a) + 1, α = 2·Re μ + ν, μ = mean_u e, ν = mean_u |e|²;
	 * expanded over the non-empty subsets S of axes as Σ_S (Π_S α − 2·Re Π_S μ) (|S| = 1 gives ν), which keeps the
	 * small terms free of cancellation against 1. The worst offsets (off_1, …, off_d) are searched exhaustively.
	 * </p>
	 */
	static double[] computeModel(final Kernel kernel, final int[] image, final int[] grid) {
		final AxisErrors e = new AxisErrors(kernel, image, grid);
		double worst = 0;
		for (int c = 0, combos = (int) Math.pow(OFFSETS, image.length); c < combos; c++)
			worst = Math.max(worst, e.squared(c));
		return new double[] { Math.sqrt(Math.max(worst, 0)), e.worstPoint, e.amplification() };
	}

	/**
	 * The model of {@code p}'s kernel and grid for the points of {@code t}, rather than at the worst offset: the mean
	 * over the points of the squared error at each point's own sub-cell offsets (×{@value #SAFETY}, with the
	 * precision's rounding), which is what a random image (forward) or random samples (adjoint) give in expectation. At
	 * most {@link NufftParameters#predictedError()} (the worst offset, by which {@link #choose} accepts a plan), equal
	 * to it where every point sits at the worst offset; 0 for an exact plan. ErrorModelTest checks that the achieved
	 * error stays within 2× of it both ways on every trajectory design.
	 */
	public static double expectedError(final NufftParameters p, final Trajectory t) {
		if (p.exact()) return 0;
		p.requireDimensions(t);
		final int dims = p.dimensions(), w = p.width();
		final int[] grid = p.gridSize();
		final AxisErrors e = new AxisErrors(p.kernel(), p.imageSize(), grid);
		final long[] counts = new long[(int) Math.pow(OFFSETS, dims)];
		final double[] k = t.coords();
		for (int m = 0, count = t.count(); m < count; m++) {
			int c = 0;
			for (int a = dims - 1; a >= 0; a--) {
				// Fine-grid position x = k·n; the first tap l₀ = ⌈x − W/2⌉; the offset's fraction of a cell, rounded to
				// the nearest of the OFFSETS tabulated (1 ≡ 0: the same taps but the one at the kernel's edge).
				final double x = k[dims * m + a] * grid[a] - w / 2.0;
				final int q = (int) Math.round((Math.ceil(x) - x) * OFFSETS) % OFFSETS;
				c = c * OFFSETS + q;
			}
			counts[c]++;
		}
		double sum = 0;
		for (int c = 0; c < counts.length; c++) if (counts[c] > 0) sum += counts[c] * Math.max(e.squared(c), 0);
		return withRounding(SAFETY * Math.sqrt(sum / t.count()), e.amplification(), p.precision());
	}

	/**
	 * The factor by which {@link #expectedError} must undershoot ε before a plan is accepted on its points (the tuner,
	 * which knows them): that model is the expectation over random inputs, and one input's achieved error fluctuates
	 * about it, relatively by about √(2/N) with N the fewer of the outputs either way (points, pixels). 1 + 2√(2/N):
	 * 1.13 for a 24 × 20 image (CpuTunerTest: Exp-semicircle W = 6, σ = 1.25, 700 points reached 1.09× the model),
	 * 1.002 for the 128³ kooshball of docs/gpu-report.md.
	 */
	public static double onPointsMargin(final int[] imageSize, final int points) {
		double pixels = 1;
		for (final int n : imageSize) pixels *= n;
		return 1 + 2 * Math.sqrt(2 / Math.max(1, Math.min(pixels, points)));
	}

	/** Whether {@code p} meets {@code eps} on the points of {@code t}: {@link #expectedError} × {@link #onPointsMargin}. */
	public static boolean meetsOnPoints(final NufftParameters p, final Trajectory t, final double eps) {
		return meetsOnPoints(expectedError(p, t), p.imageSize(), t.count(), eps);
	}

	/** {@link #meetsOnPoints(NufftParameters, Trajectory, double)} from an {@link #expectedError} computed before. */
	public static boolean meetsOnPoints(final double expectedError, final int[] imageSize, final int points,
		final double eps)
	{
		return expectedError * onPointsMargin(imageSize, points) <= eps;
	}

	/**
	 * Per axis and tabulated offset, the statistics of ε(u, off) over the image's pixels (see {@link #computeModel}):
	 * μ = mean_u ε, ν = mean_u |ε|²; and max_{u,off} |ε|.
	 */
	private static final class AxisErrors {

		final double[][] muRe, muIm, nu2;
		/** Per axis, the mean over the pixels of (ψ̂(0)/ψ̂(u))²: the deapodization's power gain on white rounding noise. */
		final double[] gain2;
		double worstPoint;
		/** The offsets of the combination {@link #squared} decodes (one per axis; scratch). */
		private final int[] f;

		AxisErrors(final Kernel kernel, final int[] image, final int[] grid) {
			final int dims = image.length, w = kernel.width();
			f = new int[dims];
			muRe = new double[dims][OFFSETS];
			muIm = new double[dims][OFFSETS];
			nu2 = new double[dims][OFFSETS];
			gain2 = new double[dims];
			axes: for (int a = 0; a < dims; a++) {
				for (int b = 0; b < a; b++) {
					if (image[b] == image[a] && grid[b] == grid[a]) { // the same axis again (square images)
						muRe[a] = muRe[b];
						muIm[a] = muIm[b];
						nu2[a] = nu2[b];
						gain2[a] = gain2[b];
						continue axes;
					}
				}
				final int n0 = image[a], n = grid[a], stride = (n0 + MAX_POSITIONS - 1) / MAX_POSITIONS;
				final int h = n0 / 2, count = (n0 + stride - 1) / stride;
				final double[][] psi = new double[OFFSETS][w];
				final double deap0 = kernel.fourier(0);
				for (int q = 0; q < OFFSETS; q++) {
					final double off = -w / 2.0 + (double) q / OFFSETS;
					for (int j = 0; j < w; j++) psi[q][j] = kernel.value(off + j);
				}
				for (int i = 0; i < count; i++) {
					final double u = (double) (i * stride - h) / n, deap = kernel.fourier(u);
					gain2[a] += (deap0 / deap) * (deap0 / deap) / count;
					// e^{−2πi(off_q + j)u} = e^{πiWu} · (e^{−2πiu/OFFSETS})^q · (e^{−2πiu})^j: three sines and
					// cosines per pixel, the rest by products (rounding ~1e-15, far below the smallest tolerance).
					final double rr = Math.cos(2 * Math.PI * u), ri = -Math.sin(2 * Math.PI * u);
					final double sr = Math.cos(2 * Math.PI * u / OFFSETS), si = -Math.sin(2 * Math.PI * u / OFFSETS);
					double br = Math.cos(Math.PI * w * u), bi = Math.sin(Math.PI * w * u);
					for (int q = 0; q < OFFSETS; q++) {
						final double[] p = psi[q];
						double er = 0, ei = 0, pr = br, pi = bi;
						for (int j = 0; j < w; j++) {
							er += p[j] * pr;
							ei += p[j] * pi;
							final double t = pr * rr - pi * ri;
							pi = pr * ri + pi * rr;
							pr = t;
						}
						er = er / deap - 1;
						ei /= deap;
						muRe[a][q] += er / count;
						muIm[a][q] += ei / count;
						nu2[a][q] += (er * er + ei * ei) / count;
						worstPoint = Math.max(worstPoint, Math.hypot(er, ei));
						final double t = br * sr - bi * si;
						bi = br * si + bi * sr;
						br = t;
					}
				}
			}
		}

		/** RMS over the image of ψ̂(0)^d / Π_a ψ̂(u_a) (the axes independent: the product of the axes' RMS). */
		double amplification() {
			double g = 1;
			for (final double a : gain2) g *= Math.sqrt(a);
			return g;
		}

		/**
		 * mean over the image of |Π_a(1 + ε(u_a, f_a)) − 1|² at the tabulated offsets f_a = ⌊c / OFFSETS^a⌋ mod OFFSETS
		 * (one per axis, axis 0 the least significant digit of c).
		 */
		double squared(final int c) {
			final int dims = muRe.length;
			for (int a = 0, r = c; a < dims; a++, r /= OFFSETS) f[a] = r % OFFSETS;
			double e2 = 0;
			for (int subset = 1; subset < 1 << dims; subset++) {
				if (Integer.bitCount(subset) == 1) {
					final int a = Integer.numberOfTrailingZeros(subset);
					e2 += nu2[a][f[a]];
					continue;
				}
				double alpha = 1, pr = 1, pi = 0;
				for (int a = 0; a < dims; a++) {
					if ((subset & 1 << a) == 0) continue;
					final int q = f[a];
					alpha *= 2 * muRe[a][q] + nu2[a][q];
					final double r = pr * muRe[a][q] - pi * muIm[a][q];
					pi = pr * muIm[a][q] + pi * muRe[a][q];
					pr = r;
				}
				e2 += alpha - 2 * pr;
			}
			return e2;
		}
	}

	/**
	 * The model with float rounding added in power: single-precision FFTs and sums leave a relative error of about
	 * {@value #FLOAT_ROUNDING} (measured on both engines at W = 8, σ = 2 against the exact NUDFT: 2.5–2.9e-7 with an
	 * aliasing model of 1.4–1.8e-7, docs/gpu-report.md), so float plans near ε = 1e-6 take it into account.
	 */
	static double withRounding(final double model, final Precision precision) {
		return withRounding(model, 1, precision);
	}

	/**
	 * {@link #withRounding(double, Precision)} for a plan whose deapodization amplifies the grid's rounding by
	 * {@code amplification} A (RMS over the image of ψ̂(0)^d / Π_a ψ̂(u_a)): float at least {@value #FLOAT_ROUNDING},
	 * else {@value #FLOAT_ROUNDING_PER_AMPLIFICATION} × A; double {@link #DOUBLE_ROUNDING_PER_AMPLIFICATION} × A. A wide
	 * kernel on a tight grid (σ near 1.125, W ≥ 10) has A in the thousands to 10⁵ (float adjoint of 64², Kaiser–Bessel
	 * W = 12, σ = 1.125: 7.3e-3 measured against an aliasing model of 4.6e-6); the old σ ≥ 1.25 choices had A of 2–5.
	 */
	static double withRounding(final double model, final double amplification, final Precision precision) {
		return precision == Precision.FLOAT ?
			Math.hypot(model, Math.max(FLOAT_ROUNDING, FLOAT_ROUNDING_PER_AMPLIFICATION * amplification)) :
			Math.hypot(model, DOUBLE_ROUNDING_PER_AMPLIFICATION * amplification);
	}

	/**
	 * Per-axis fine-grid sizes: the smallest 2,3,5,7-smooth even integer ≥ max(σN, 2W) (both engines' FFTs have
	 * written-out passes for radices 2, 3, 4, 5, 7 and 8: on the CPU every such length costs about the same per
	 * G·log₂G, docs/benchmarks.md).
	 */
	public static int[] gridSize(final int[] imageSize, final double sigma, final int width) {
		final int[] g = new int[imageSize.length];
		for (int a = 0; a < g.length; a++)
			g[a] = nextSmooth((int) Math.max(Math.ceil(sigma * imageSize[a] - 1e-9), 2 * width));
		return g;
	}

	/** Smallest even n ≥ m whose prime factors are all in {2, 3, 5, 7}. */
	public static int nextSmooth(final int m) {
		for (int n = Math.max(2, m);; n++) {
			if (n % 2 != 0) continue;
			int r = n;
			for (final int p : new int[] { 2, 3, 5, 7 })
				while (r % p == 0) r /= p;
			if (r == 1) return n;
		}
	}

	// -- helpers --

	/**
	 * On a GPU, the cost of one FFT grid point per log₂(grid size) relative to one kernel tap of one sample (H100,
	 * docs/gpu-report.md: 768² FFT 0.017 ms, 1 M samples × 36 taps shared-memory spreading 0.35 ms; about 1.5 ps vs
	 * 9.7 ps): the FFT is nearly free, so larger σ with a narrower kernel wins.
	 */
	static final double GPU_FFT_WEIGHT = 0.15;

}
