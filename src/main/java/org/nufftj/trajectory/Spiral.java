package org.nufftj.trajectory;

import java.util.Locale;

import org.nufftj.InvalidInputException;

/**
 * Variable-density Archimedean spiral, 2D, designed under gradient amplitude and slew-rate limits.
 * <p>
 * Curve (Kim, Adalsteinsson, Nishimura, "Simple analytic variable density spiral design", MRM 50:214, 2003):
 * {@code k(τ) = k_max·τ^α·e^{iωτ}}, τ ∈ [0, 1], with {@code k_max = ½} cycles/pixel (= N/(2·FOV)) and α the density
 * factor (α = 1: uniform-density Archimedean spiral; α > 1 oversamples the centre). ω is chosen so that the outer edge
 * meets Nyquist for the field of view: the radial step per turn at τ = 1, {@code 2π·k_max·α/ω}, equals
 * {@code interleaves/N} cycles/pixel (interleaves/FOV), i.e. {@code α·N/(2·interleaves)} turns.
 * </p>
 * <p>
 * Traversal: time-optimal along that fixed curve (Lustig, Kim, Pauly, "A fast method for designing time-optimal
 * gradient waveforms for arbitrary k-space trajectories", IEEE TMI 27:866, 2008). With speed v = |dk/dt| and curvature
 * κ of the curve, the gradient is {@code G = (dk/dt)/γ} and the slew {@code dG/dt = (a·T + v²κ·N)/γ}, so the limits
 * are {@code v ≤ γ·G_max}, {@code v²κ ≤ γ·S_max} and {@code a² + v⁴κ² ≤ (γ·S_max)²}. The speed limit curve is
 * integrated forward at maximum tangential acceleration and backward at maximum deceleration on a fine grid of τ;
 * the curvature bound uses 90% of the slew rate, which leaves room for the tangential acceleration needed to follow
 * it, and both limits are applied with a 1% design margin so that the sampled waveform (finite differences of
 * the k samples at the dwell time) stays within G_max and S_max. γ converts with the field of view: normalised
 * k (cycles/pixel) moves at {@code γ·G·FOV/N} per second.
 * </p>
 * <p>
 * Samples are taken every dwell time from t = 0 (k = 0, G = 0) to the end of the curve (the last sample is within one
 * dwell step of |k| = ½, never beyond). Interleaf j is rotated by {@code 2π·j/interleaves}. Order: readout fastest,
 * then interleaf. {@link #withReadoutSamples} resamples the same waveform to a given number of samples (for data
 * stored without coordinates).
 * </p>
 */
public final class Spiral implements TrajectoryDesign {

	/** Proton gyromagnetic ratio, MHz/T. */
	public static final double GAMMA_PROTON_MHZ_PER_T = 42.577;

	private static final double MARGIN = 0.995;
	private static final double CURVATURE_SHARE = 0.97;

	private final double fovMm;
	private final int matrix;
	private final int interleaves;
	private final double maxGradientMtPerM;
	private final double maxSlewTPerMPerS;
	private final double dwellUs;
	private final double alpha;
	private final double gammaMhzPerT;
	private final int samples;

	/** Defaults: 40 mT/m, 150 T/m/s, 2 µs dwell, uniform density, proton γ. */
	public Spiral(final double fovMm, final int matrix, final int interleaves) {
		this(fovMm, matrix, interleaves, 40, 150, 2, 1, GAMMA_PROTON_MHZ_PER_T, 0);
	}

	public Spiral(final double fovMm, final int matrix, final int interleaves, final double maxGradientMtPerM,
		final double maxSlewTPerMPerS, final double dwellUs, final double alpha, final double gammaMhzPerT)
	{
		this(fovMm, matrix, interleaves, maxGradientMtPerM, maxSlewTPerMPerS, dwellUs, alpha, gammaMhzPerT, 0);
	}

	private Spiral(final double fovMm, final int matrix, final int interleaves, final double maxGradientMtPerM,
		final double maxSlewTPerMPerS, final double dwellUs, final double alpha, final double gammaMhzPerT,
		final int samples)
	{
		check(fovMm > 0 && fovMm <= 1e4, "field of view", fovMm + " mm", "0 to 10000 mm");
		check(matrix >= 2 && matrix <= 8192, "matrix", "" + matrix, "2 to 8192");
		check(interleaves >= 1 && interleaves <= 100000, "interleaves", "" + interleaves, "1 to 100000");
		check(maxGradientMtPerM > 0 && maxGradientMtPerM <= 1000, "max gradient", maxGradientMtPerM + " mT/m",
			"0 to 1000 mT/m");
		check(maxSlewTPerMPerS > 0 && maxSlewTPerMPerS <= 10000, "max slew rate", maxSlewTPerMPerS + " T/m/s",
			"0 to 10000 T/m/s");
		check(dwellUs > 0 && dwellUs <= 1000, "dwell time", dwellUs + " us", "0 to 1000 us");
		check(alpha >= 1 && alpha <= 8, "density factor alpha", "" + alpha, "1 (uniform) to 8");
		check(gammaMhzPerT > 0 && gammaMhzPerT <= 100, "gyromagnetic ratio", gammaMhzPerT + " MHz/T", "0 to 100 MHz/T");
		check(samples == 0 || samples >= 2, "readout samples", "" + samples, ">= 2");
		this.fovMm = fovMm;
		this.matrix = matrix;
		this.interleaves = interleaves;
		this.maxGradientMtPerM = maxGradientMtPerM;
		this.maxSlewTPerMPerS = maxSlewTPerMPerS;
		this.dwellUs = dwellUs;
		this.alpha = alpha;
		this.gammaMhzPerT = gammaMhzPerT;
		this.samples = samples;
	}

	/**
	 * The same waveform sampled at {@code n} equally spaced times from its start to its end (the effective dwell time
	 * is the duration / (n − 1)); the limits still hold, since they hold for the continuous waveform.
	 */
	public Spiral withReadoutSamples(final int n) {
		return new Spiral(fovMm, matrix, interleaves, maxGradientMtPerM, maxSlewTPerMPerS, dwellUs, alpha,
			gammaMhzPerT, n);
	}

	// -- public API --

	public double fovMm() { return fovMm; }

	public int matrix() { return matrix; }

	public int interleaves() { return interleaves; }

	public double maxGradientMtPerM() { return maxGradientMtPerM; }

	public double maxSlewTPerMPerS() { return maxSlewTPerMPerS; }

	public double dwellUs() { return dwellUs; }

	public double alpha() { return alpha; }

	public double gammaMhzPerT() { return gammaMhzPerT; }

	/** Number of turns of each interleaf, α·N/(2·interleaves). */
	public double turns() {
		return alpha * matrix / (2.0 * interleaves);
	}

	/** Normalised k (cycles/pixel) per second per T/m of gradient: γ·FOV/N. */
	public double kRatePerTesla() {
		return gammaMhzPerT * 1e6 * fovMm * 1e-3 / matrix;
	}

	/** Duration of one interleaf's readout in seconds (the time-optimal traversal of the curve). */
	public double duration() {
		return traverse().duration;
	}

	/** The dwell time between output samples in seconds (the set dwell, or duration/(n−1) when resampled). */
	public double sampleInterval() {
		final Traversal t = traverse();
		return samples > 0 ? t.duration / (samples - 1) : dwellUs * 1e-6;
	}

	@Override
	public Trajectory build() {
		final Traversal tr = traverse();
		final double dt = samples > 0 ? tr.duration / (samples - 1) : dwellUs * 1e-6;
		final long nl = samples > 0 ? samples : (long) Math.floor(tr.duration / dt * (1 + 1e-12)) + 1;
		InvalidInputException.require(nl * interleaves * 2 <= Integer.MAX_VALUE - 8, "spiral: " + nl + " samples x " +
			interleaves + " interleaves is too many points (longer dwell time or more interleaves?)");
		final int n = (int) nl;
		// τ at each sample time, by linear interpolation of the traversal's τ(t).
		final double[] tau = new double[n];
		int j = 0;
		for (int i = 0; i < n; i++) {
			final double t = Math.min(i * dt, tr.duration);
			while (j < tr.time.length - 2 && tr.time[j + 1] < t) j++;
			final double t0 = tr.time[j], t1 = tr.time[j + 1];
			final double f = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
			tau[i] = Math.min(1, tr.tau[j] + f * (tr.tau[j + 1] - tr.tau[j]));
		}
		final double omega = omega();
		final double[] c = new double[2 * n * interleaves];
		for (int l = 0; l < interleaves; l++) {
			final double rot = 2 * Math.PI * l / interleaves;
			for (int i = 0; i < n; i++) {
				final double r = 0.5 * Math.pow(tau[i], alpha), th = omega * tau[i] + rot;
				c[2 * (l * n + i)] = r * Math.cos(th);
				c[2 * (l * n + i) + 1] = r * Math.sin(th);
			}
		}
		return new Trajectory(2, c, n, interleaves, "spiral");
	}

	@Override
	public String describe() {
		return String.format(Locale.ROOT,
			"spiral, FOV %.1f mm, matrix %d, %d interleaves, alpha %.2f, %.1f mT/m, %.0f T/m/s, dwell %.2f us%s",
			fovMm, matrix, interleaves, alpha, maxGradientMtPerM, maxSlewTPerMPerS, dwellUs,
			samples > 0 ? ", resampled to " + samples + " samples" : "");
	}

	// -- helpers --

	private static void check(final boolean ok, final String what, final String found, final String expected) {
		if (!ok) throw new InvalidInputException("spiral: " + what + " must be " + expected + ", found " + found);
	}

	private double omega() {
		return 2 * Math.PI * turns();
	}

	/** τ grid with the time at each node. */
	private static final class Traversal {
		final double[] tau;
		final double[] time;
		final double duration;

		Traversal(final double[] tau, final double[] time) {
			this.tau = tau;
			this.time = time;
			this.duration = time[time.length - 1];
		}
	}

	private Traversal cached;

	private synchronized Traversal traverse() {
		if (cached == null) cached = computeTraversal();
		return cached;
	}

	private Traversal computeTraversal() {
		final double omega = omega();
		final double rate = kRatePerTesla();
		final double vG = MARGIN * rate * maxGradientMtPerM * 1e-3; // max speed, cycles/pixel/s
		final double aS = MARGIN * rate * maxSlewTPerMPerS; // max |d²k/dt²|
		final int m = (int) Math.min(20_000_000, Math.max(100_000, Math.ceil(4000 * turns())));
		// Nodes τ_j = (j/m)²: fine steps near the centre, where the curvature is highest and the speed builds up.
		final double[] taus = new double[m + 1];
		final double[] ds = new double[m]; // chord length from node j to j+1
		final double[] kappa = new double[m + 1];
		final double[] vmax2 = new double[m + 1];
		double px = 0, py = 0;
		for (int j = 0; j <= m; j++) {
			final double u = j / (double) m, tau = u * u;
			taus[j] = tau;
			final double r = 0.5 * Math.pow(tau, alpha), th = omega * tau;
			final double x = r * Math.cos(th), y = r * Math.sin(th);
			if (j > 0) ds[j - 1] = Math.hypot(x - px, y - py);
			px = x;
			py = y;
			// Curvature of a polar curve r(τ), θ = ωτ: |r'·2r'ω − rω(r'' − rω²)| / (r'² + r²ω²)^{3/2}.
			final double r1 = 0.5 * alpha * Math.pow(tau, alpha - 1);
			final double r2 = alpha == 1 ? 0 : 0.5 * alpha * (alpha - 1) * Math.pow(tau, alpha - 2);
			final double speed2 = r1 * r1 + r * r * omega * omega;
			final double cross = Math.abs(2 * omega * r1 * r1 - r * omega * r2 + r * r * omega * omega * omega);
			kappa[j] = speed2 > 0 ? cross / Math.pow(speed2, 1.5) : Double.POSITIVE_INFINITY;
			if (!Double.isFinite(kappa[j])) kappa[j] = 1e30;
			vmax2[j] = Math.min(vG * vG, CURVATURE_SHARE * aS / kappa[j]);
		}
		final double[] v2 = new double[m + 1];
		v2[0] = 0;
		for (int j = 0; j < m; j++) {
			final double cent = v2[j] * kappa[j];
			final double at = Math.sqrt(Math.max(0, aS * aS - cent * cent));
			v2[j + 1] = Math.min(vmax2[j + 1], v2[j] + 2 * at * ds[j]);
		}
		for (int j = m - 1; j >= 0; j--) {
			final double cent = v2[j + 1] * kappa[j + 1];
			final double at = Math.sqrt(Math.max(0, aS * aS - cent * cent));
			v2[j] = Math.min(v2[j], v2[j + 1] + 2 * at * ds[j]);
		}
		final double[] time = new double[m + 1];
		for (int j = 0; j < m; j++) {
			final double vs = Math.sqrt(v2[j]) + Math.sqrt(v2[j + 1]);
			time[j + 1] = time[j] + (ds[j] > 0 ? 2 * ds[j] / vs : 0);
		}
		return new Traversal(taus, time);
	}
}
