package org.nufftj.phantom;

/**
 * The Bessel function of the first kind of order one, J₁, to about 1e-15 absolute accuracy for all real x (the
 * Fourier transform of a disc is built on it), and the related "jinc" 2J₁(x)/x.
 * <ul>
 * <li>|x| &lt; 2: the power series J₁(x) = Σ (−1)^m (x/2)^{2m+1} / (m!(m+1)!) (terms fall fast, no cancellation).</li>
 * <li>2 ≤ |x| &lt; 25: Miller's backward recurrence J_{n−1} = (2n/x)J_n − J_{n+1} from far above the order, normalised
 * by J₀ + 2ΣJ_{2k} = 1 (Abramowitz &amp; Stegun 9.1.27 and 9.1.46; Numerical Recipes §6.5).</li>
 * <li>|x| ≥ 25: Hankel's asymptotic expansion J₁(x) = √(2/(πx))·(P cos χ − Q sin χ), χ = x − 3π/4 (A&amp;S 9.2.5,
 * 9.2.9, 9.2.10), summed until the terms fall below 1e-17; the error there is below e^{−2x}.</li>
 * </ul>
 */
public final class Bessel {

	private static final double SERIES_LIMIT = 2;
	private static final double ASYMPTOTIC_LIMIT = 25;

	private Bessel() {}

	// -- public API --

	/** J₁(x). */
	public static double j1(final double x) {
		if (x < 0) return -j1(-x);
		if (Double.isNaN(x)) return Double.NaN;
		if (x < SERIES_LIMIT) return 0.5 * x * jincSeries(x);
		if (x < ASYMPTOTIC_LIMIT) return miller(x);
		if (Double.isInfinite(x)) return 0;
		return asymptotic(x);
	}

	/** jinc(x) = 2·J₁(x)/x, with jinc(0) = 1: the Fourier transform of the unit disc is π·jinc(2π|p|). */
	public static double jinc(final double x) {
		final double a = Math.abs(x);
		if (a < SERIES_LIMIT) return jincSeries(a);
		return 2 * j1(a) / a;
	}

	// -- helpers --

	/** Σ (−1)^m (x/2)^{2m} / (m!(m+1)!) = 2J₁(x)/x, for small x. */
	private static double jincSeries(final double x) {
		final double q = 0.25 * x * x;
		double term = 1, sum = 1;
		for (int m = 1; m < 40; m++) {
			term *= -q / (m * (m + 1.0));
			sum += term;
			if (Math.abs(term) < 1e-18 * Math.abs(sum)) break;
		}
		return sum;
	}

	private static double miller(final double x) {
		// Start high enough that J_start(x) is negligible; even so the normalisation sum pairs up.
		int start = (int) (x + 30 + 2 * Math.sqrt(x * 40));
		if ((start & 1) == 1) start++;
		double jp = 0, j = 1e-30, norm = 0, j1 = 0;
		final double twoOverX = 2 / x;
		for (int n = start; n > 0; n--) {
			final double jm = n * twoOverX * j - jp; // J_{n-1}
			jp = j;
			j = jm;
			if (Math.abs(j) > 1e250) { // rescale to avoid overflow
				j *= 1e-250;
				jp *= 1e-250;
				norm *= 1e-250;
				j1 *= 1e-250;
			}
			final int order = n - 1;
			if (order == 1) j1 = j;
			if (order > 0 && (order & 1) == 0) norm += 2 * j;
		}
		norm += j; // J_0
		return j1 / norm;
	}

	private static double asymptotic(final double x) {
		final double mu = 4; // 4ν², ν = 1
		final double eightX = 8 * x;
		double p = 1, q = 0, term = 1;
		for (int k = 1; k < 200; k++) {
			final double next = term * (mu - (2 * k - 1) * (2 * k - 1)) / (k * eightX);
			if (Math.abs(next) > Math.abs(term) && k > 2) break; // the series started to diverge
			term = next;
			// a_k with sign (−1)^{⌊k/2⌋}: k odd → Q, k even → P
			final double signed = ((k / 2) & 1) == 0 ? term : -term;
			if ((k & 1) == 1) q += signed;
			else p += signed;
			if (Math.abs(term) < 1e-17) break;
		}
		// cos χ and sin χ for χ = x − 3π/4, without the rounding of the subtraction.
		final double s = Math.sin(x), c = Math.cos(x);
		final double cosChi = (s - c) / Math.sqrt(2), sinChi = -(s + c) / Math.sqrt(2);
		return Math.sqrt(2 / (Math.PI * x)) * (p * cosChi - q * sinChi);
	}
}
