package org.nufftj.nufft;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.KernelType;

/**
 * What a caller asks of a plan. Immutable; change with the {@code with*} methods. "Auto" values (kernel
 * {@link KernelType#AUTO}, oversampling 0, width 0, spread method AUTO) are resolved by {@link ParameterChoice} into
 * {@link NufftParameters}; explicit σ / W / kernel override the tolerance-driven choice.
 */
public final class NufftOptions {

	/**
	 * Kernel evaluation: computed per sample (default), read from a lookup table, or every weight precomputed at
	 * setPoints into a sparse interpolation matrix ({@link MatrixNufftPlan}: exact kernel values, memory W^d entries per
	 * point, for a trajectory transformed many times).
	 */
	public enum Evaluation { ONLINE, LOOKUP, MATRIX }

	public static final double DEFAULT_TOLERANCE = 1e-4;

	private final Precision precision;
	private final double tolerance;
	private final KernelType kernel;
	private final double oversampling;
	private final int width;
	private final Evaluation evaluation;
	private final int threads;
	private final DeviceChoice device;
	private final SpreadMethod spreadMethod;
	/** GPU bin (tile) of the binned kernels per axis, or null for the heuristic's choice. */
	private final int[] bins;
	/** Tuning the application does before making a plan (never read by plans); budget in s, 0 = the mode's. */
	private final TuneMode tuneMode;
	private final double tuneBudget;
	/** How many points the plan will transform, when the caller knows it before planning; 0: not known. */
	private final long pointCount;

	private NufftOptions(final Precision precision, final double tolerance, final KernelType kernel,
		final double oversampling, final int width, final Evaluation evaluation, final int threads,
		final DeviceChoice device, final SpreadMethod spreadMethod)
	{
		this(precision, tolerance, kernel, oversampling, width, evaluation, threads, device, spreadMethod, null,
			TuneMode.OFF, 0, 0);
	}

	private NufftOptions(final Precision precision, final double tolerance, final KernelType kernel,
		final double oversampling, final int width, final Evaluation evaluation, final int threads,
		final DeviceChoice device, final SpreadMethod spreadMethod, final int[] bins, final TuneMode tuneMode,
		final double tuneBudget, final long pointCount)
	{
		this.pointCount = pointCount;
		this.tuneMode = tuneMode;
		this.tuneBudget = tuneBudget;
		this.bins = bins == null ? null : bins.clone();
		this.precision = precision;
		this.tolerance = tolerance;
		this.kernel = kernel;
		this.oversampling = oversampling;
		this.width = width;
		this.evaluation = evaluation;
		this.threads = threads;
		this.device = device;
		this.spreadMethod = spreadMethod;
	}

	public static NufftOptions defaults() {
		return new NufftOptions(Precision.FLOAT, DEFAULT_TOLERANCE, KernelType.AUTO, 0, 0, Evaluation.ONLINE, 0,
			DeviceChoice.CPU, SpreadMethod.AUTO);
	}

	// -- public API --

	public Precision precision() { return precision; }

	public double tolerance() { return tolerance; }

	public KernelType kernel() { return kernel; }

	/** σ, or 0 for automatic. */
	public double oversampling() { return oversampling; }

	/** W, or 0 for automatic. */
	public int width() { return width; }

	public Evaluation evaluation() { return evaluation; }

	/** Worker threads, or 0 for all available processors. */
	public int threads() { return threads; }

	public int resolvedThreads() {
		return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
	}

	public DeviceChoice device() { return device; }

	public SpreadMethod spreadMethod() { return spreadMethod; }

	/**
	 * The GPU bin (tile, cells per axis) of the binned spreading and interpolation kernels, or null for the
	 * heuristic's choice; set by a tuner (the GPU plan checks it against the device's shared memory), ignored by the
	 * CPU.
	 */
	public int[] bins() { return bins == null ? null : bins.clone(); }

	public NufftOptions withPrecision(final Precision p) {
		return new NufftOptions(p, tolerance, kernel, oversampling, width, evaluation, threads, device,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withTolerance(final double eps) {
		InvalidInputException.require(Double.isFinite(eps) && eps > 0 && eps <= 0.1,
			"tolerance: expected a value in (0, 0.1], found " + eps);
		return new NufftOptions(precision, eps, kernel, oversampling, width, evaluation, threads, device,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withKernel(final KernelType k) {
		return new NufftOptions(precision, tolerance, k, oversampling, width, evaluation, threads, device,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withOversampling(final double sigma) {
		InvalidInputException.require(sigma == 0 || (sigma >= ParameterChoice.MIN_SIGMA && sigma <= ParameterChoice.MAX_SIGMA),
			"oversampling: expected 0 (auto) or a value in [" + ParameterChoice.MIN_SIGMA + ", " +
				ParameterChoice.MAX_SIGMA + "], found " + sigma);
		return new NufftOptions(precision, tolerance, kernel, sigma, width, evaluation, threads, device,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withWidth(final int w) {
		InvalidInputException.require(w == 0 || (w >= ParameterChoice.MIN_WIDTH && w <= ParameterChoice.MAX_WIDTH),
			"kernel width: expected 0 (auto) or an integer in [" + ParameterChoice.MIN_WIDTH + ", " +
				ParameterChoice.MAX_WIDTH + "], found " + w);
		return new NufftOptions(precision, tolerance, kernel, oversampling, w, evaluation, threads, device,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withEvaluation(final Evaluation e) {
		return new NufftOptions(precision, tolerance, kernel, oversampling, width, e, threads, device,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withThreads(final int n) {
		InvalidInputException.require(n >= 0, "threads: expected >= 0, found " + n);
		return new NufftOptions(precision, tolerance, kernel, oversampling, width, evaluation, n, device,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withDevice(final DeviceChoice d) {
		return new NufftOptions(precision, tolerance, kernel, oversampling, width, evaluation, threads, d,
			spreadMethod, bins, tuneMode, tuneBudget, pointCount);
	}

	public NufftOptions withSpreadMethod(final SpreadMethod m) {
		return new NufftOptions(precision, tolerance, kernel, oversampling, width, evaluation, threads, device,
			m, bins, tuneMode, tuneBudget, pointCount);
	}

	/** As these options with the GPU bin {@code b} (one size ≥ 1 per image axis), or null for the heuristic's. */
	public NufftOptions withBins(final int[] b) {
		InvalidInputException.require(b == null || (b.length >= 2 && b.length <= 3 &&
			java.util.Arrays.stream(b).allMatch(x -> x >= 1)), "bins: expected 2 or 3 sizes >= 1, found " +
				java.util.Arrays.toString(b));
		return new NufftOptions(precision, tolerance, kernel, oversampling, width, evaluation, threads, device,
			spreadMethod, b, tuneMode, tuneBudget, pointCount);
	}

	/**
	 * As these options for a plan that will transform {@code m} points (0: not known). {@link ParameterChoice#choose}
	 * weighs the spreading by this count instead of its guess (twice the pixels); the accuracy is unaffected.
	 */
	public NufftOptions withPointCount(final long m) {
		InvalidInputException.require(m >= 0, "point count: expected >= 0, found " + m);
		return new NufftOptions(precision, tolerance, kernel, oversampling, width, evaluation, threads, device,
			spreadMethod, bins, tuneMode, tuneBudget, m);
	}

	/** The count given by {@link #withPointCount}, or 0. */
	public long pointCount() { return pointCount; }

	/** The tuning the application does before it makes a plan of these options ({@link TuneMode}). */
	public TuneMode tuneMode() { return tuneMode; }

	/** The tuning budget in seconds ({@link TuneMode#defaultBudgetSeconds()} unless set). */
	public double tuneBudgetSeconds() { return tuneBudget > 0 ? tuneBudget : tuneMode.defaultBudgetSeconds(); }

	/** As these options with tuning {@code mode} within {@code budgetSeconds} (0: the mode's default). */
	public NufftOptions withTuning(final TuneMode mode, final double budgetSeconds) {
		InvalidInputException.require(Double.isFinite(budgetSeconds) && budgetSeconds >= 0 && budgetSeconds <= 86400,
			"tune budget: expected 0 (the mode's default) to 86400 s, found " + budgetSeconds);
		return new NufftOptions(precision, tolerance, kernel, oversampling, width, evaluation, threads, device,
			spreadMethod, bins, mode, budgetSeconds, pointCount);
	}

	/**
	 * True when every knob a tuner sets is automatic (kernel auto, σ and W 0, spreading auto, no bins, online kernel
	 * evaluation): only then may tuned parameters replace the heuristic's; explicit choices are never overridden.
	 */
	public boolean tunable() {
		return kernel == KernelType.AUTO && oversampling == 0 && width == 0 && spreadMethod == SpreadMethod.AUTO &&
			bins == null && evaluation == Evaluation.ONLINE;
	}

	@Override
	public String toString() {
		return "precision=" + precision.name().toLowerCase() + " tolerance=" + tolerance + " kernel=" + kernel.key() +
			" oversampling=" + (oversampling == 0 ? "auto" : oversampling) + " width=" + (width == 0 ? "auto" : width) +
			" evaluation=" + evaluation.name().toLowerCase() + " device=" + device;
	}
}
