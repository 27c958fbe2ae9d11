package org.nufftj.nufft;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelType;
import org.nufftj.kernel.Kernels;

/**
 * Chooses kernel width W and oversampling σ from a tolerance ε, and holds the error model that justifies the choice.
 * <p>
 * <b>Error model</b> (docs/conventions.md): gridding with kernel ψ on a grid of n = σN points and deapodization by
 * ψ̂_d leaves, at centred image position x (u = x/n ∈ [−1/(2σ), 1/(2σ))), the relative error
 * </p>
 * <pre>
 *   E(u) = ( Σ_{p≠0} |ψ̂(u + p)| + |ψ̂(u) − ψ̂_d(u)| ) / |ψ̂_d(u)|
 * </pre>
 * <p>
 * where ψ̂ is the exact transform of the truncated kernel (quadrature). The first term is Beatty's maximum aliasing
 * amplitude with the aliases added in magnitude (a worst case: they may add coherently), the second the deapodization
 * mismatch (non-zero only for the Gaussian's closed form). The model error is max_u E(u); a plan is accepted when it is
 * ≤ ε. Among accepted (W, σ) the one of least estimated work (spreading ∝ M·W^d, FFT ∝ G·log G with M taken as 2 × the
 * pixel count, weighted per engine by {@link #fftWeight}) is chosen. The tests check that achieved errors against the exact NUDFT stay below ε.
 * </p>
 */
public final class ParameterChoice {

	public static final double MIN_SIGMA = 1.25;
	public static final double MAX_SIGMA = 2.0;
	public static final int MIN_WIDTH = 2;
	public static final int MAX_WIDTH = 16;
	/** Oversampling ratios tried when σ is automatic. */
	static final double[] SIGMAS = { 1.25, 1.5, 2.0 };
	/** Aliases summed on each side; beyond this they are far below double rounding for every kernel here. */
	private static final int ALIASES = 6;
	/** Points in [0, 1/(2σ)] at which E(u) is evaluated. */
	private static final int SAMPLES = 65;
	/** Lookup-table kernels: relative interpolation error floor (see KernelTable). */
	public static final double LOOKUP_FLOOR = 1e-7;

	private static final Map<String, Double> MODEL_CACHE = new ConcurrentHashMap<>();

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
			InvalidInputException.require(o.evaluation() == NufftOptions.Evaluation.ONLINE || eps >= LOOKUP_FLOOR,
				"tolerance " + eps + " is below the kernel lookup table's accuracy (" + LOOKUP_FLOOR +
					"); use online kernel evaluation");
		}
		final KernelType type = o.kernel() == KernelType.AUTO ? KernelType.EXP_SEMICIRCLE : o.kernel();
		final double[] sigmas = o.oversampling() > 0 ? new double[] { o.oversampling() } : SIGMAS;
		final int d = imageSize.length;
		double pixels = 1;
		for (final int n : imageSize) pixels *= n;

		NufftParameters best = null;
		double bestCost = Double.POSITIVE_INFINITY;
		double closest = Double.POSITIVE_INFINITY;
		for (final double sigma : sigmas) {
			final int[] grid = gridSize(imageSize, sigma, Math.max(o.width(), MIN_WIDTH));
			final double actual = smallestRatio(imageSize, grid);
			int w = o.width();
			double err;
			if (w > 0) {
				err = modelError(type, w, actual, sigma);
			}
			else {
				w = MIN_WIDTH;
				err = modelError(type, w, actual, sigma);
				while (err > eps && w < MAX_WIDTH) {
					w++;
					err = modelError(type, w, actual, sigma);
				}
				closest = Math.min(closest, err);
				if (err > eps) continue;
			}
			final int[] g = gridSize(imageSize, sigma, w);
			double gp = 1;
			for (final int n : g) gp *= n;
			final double cost = 2 * pixels * Math.pow(w, d) + fftWeight(o.device()) * gp * Math.log(gp) / Math.log(2);
			if (cost < bestCost) {
				bestCost = cost;
				best = new NufftParameters(imageSize, g, Kernels.create(type, w, sigma), sigma, eps, err, precision);
			}
		}
		if (best == null) {
			throw new InvalidInputException("tolerance " + eps + " is not reachable with kernel " + type.key() +
				" and oversampling " + (o.oversampling() > 0 ? o.oversampling() : "in [1.25, 2]") + " at width <= " +
				MAX_WIDTH + " (best model error " + String.format("%.3g", closest) + "); raise oversampling or tolerance");
		}
		return best;
	}

	/**
	 * The model error max_u E(u) for a kernel family at width W, built for nominal σ and used on a grid whose smallest
	 * per-axis ratio n/N is {@code actualSigma} (≥ σ).
	 */
	public static double modelError(final KernelType type, final int width, final double actualSigma,
		final double sigma)
	{
		final String key = type + "/" + width + "/" + actualSigma + "/" + sigma;
		return MODEL_CACHE.computeIfAbsent(key, k -> computeModel(Kernels.create(type, width, sigma), actualSigma));
	}

	/** The model error of a given kernel on a grid oversampled by {@code actualSigma}. */
	public static double computeModel(final Kernel kernel, final double actualSigma) {
		final double umax = 1 / (2 * actualSigma);
		double worst = 0;
		for (int i = 0; i < SAMPLES; i++) {
			final double u = umax * i / (SAMPLES - 1);
			final double used = kernel.fourier(u);
			double alias = Math.abs(Kernels.truncatedFourier(kernel, u) - used);
			for (int p = 1; p <= ALIASES; p++) {
				alias += Math.abs(Kernels.truncatedFourier(kernel, u + p)) + Math.abs(Kernels.truncatedFourier(kernel, u - p));
			}
			worst = Math.max(worst, alias / Math.abs(used));
		}
		return worst;
	}

	/** Per-axis fine-grid sizes: the smallest 2,3,5,7-smooth even integer ≥ max(σN, 2W). */
	public static int[] gridSize(final int[] imageSize, final double sigma, final int width) {
		final int[] g = new int[imageSize.length];
		for (int a = 0; a < g.length; a++) g[a] = nextSmooth((int) Math.max(Math.ceil(sigma * imageSize[a] - 1e-9), 2 * width));
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
	 * Cost of one FFT grid point per log₂(grid size), relative to one kernel tap of one sample, measured per engine:
	 * CPU (2D radial, 32 coils, 2 threads) about 0.55 ns vs 0.8 ns; GPU (H100, docs/gpu-report.md: 768² FFT 0.017 ms,
	 * 1 M samples × 36 taps shared-memory spreading 0.35 ms) about 1.5 ps vs 9.7 ps. On the GPU the FFT is nearly free,
	 * so larger σ with a narrower kernel wins.
	 */
	static double fftWeight(final DeviceChoice device) {
		return device.kind() == DeviceChoice.Kind.CPU ? 0.7 : 0.15;
	}

	private static double smallestRatio(final int[] image, final int[] grid) {
		double r = Double.POSITIVE_INFINITY;
		for (int a = 0; a < image.length; a++) r = Math.min(r, (double) grid[a] / image[a]);
		return r;
	}
}
