package org.nufftj.phantom;

import java.util.Locale;
import java.util.Random;

import org.nufftj.InvalidInputException;

/**
 * Complex white Gaussian noise for simulated k-space: each sample of each coil gets {@code n = σ·(g + i·h)}, g and h
 * independent standard normal numbers, so σ is the standard deviation per real and per imaginary component and
 * E|n|² = 2σ². One σ for every coil (receivers of equal noise, no noise correlation).
 * <h2>SNR</h2>
 * The signal-to-noise ratio is the ratio of root-mean-square magnitudes,
 * <pre>
 *   SNR = rms|y| / rms|n| = √(mean_{m,c} |y_c(k_m)|²) / (σ·√2),   so   σ = rms|y| / (√2·SNR),
 * </pre>
 * the mean taken over every sample of every coil of the noiseless data y. Equivalently 1/SNR is the noise standard
 * deviation per component relative to the RMS per component of the signal. In decibels SNR_dB = 20·log10(SNR) (the
 * power ratio mean|y|²/mean|n|² in dB). Note that k-space RMS is dominated by the samples near k = 0, so the SNR of a
 * reconstructed image is a different (larger) number.
 * <p>
 * The same seed gives the same noise: values are drawn from {@link Random} seeded with it, real then imaginary part,
 * in the order of the samples (sample fastest, then coil). Immutable.
 * </p>
 */
public final class Noise {

	private enum Mode { NONE, SNR, SIGMA }

	/** No noise. */
	public static final Noise NONE = new Noise(Mode.NONE, 0, 0);

	private final Mode mode;
	private final double value;
	private final long seed;

	private Noise(final Mode mode, final double value, final long seed) {
		this.mode = mode;
		this.value = value;
		this.seed = seed;
	}

	// -- public API --

	/** Noise at the given SNR (linear ratio, see the class comment); infinite SNR is {@link #NONE}. */
	public static Noise snr(final double snr, final long seed) {
		InvalidInputException.require(snr > 0 && !Double.isNaN(snr), "SNR: expected a ratio > 0, found " + snr);
		return Double.isInfinite(snr) ? NONE : new Noise(Mode.SNR, snr, seed);
	}

	/** Noise of standard deviation σ per real and imaginary component, in the units of the samples; 0 is none. */
	public static Noise sigma(final double sigma, final long seed) {
		InvalidInputException.require(sigma >= 0 && Double.isFinite(sigma), "noise sigma: expected a finite value " +
			">= 0, found " + sigma);
		return sigma == 0 ? NONE : new Noise(Mode.SIGMA, sigma, seed);
	}

	/**
	 * An SNR as a user writes it: a linear ratio ("20"), decibels ("26dB", "26 dB": 10^(dB/20)), or "inf" / "none"
	 * for no noise (returned as +∞).
	 */
	public static double parseSnr(final String text) {
		final String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		if (t.equals("inf") || t.equals("infinity") || t.equals("none")) return Double.POSITIVE_INFINITY;
		final boolean db = t.endsWith("db");
		final String number = db ? t.substring(0, t.length() - 2).trim() : t;
		final double v;
		try {
			v = Double.parseDouble(number);
		}
		catch (final NumberFormatException e) {
			throw new InvalidInputException("SNR: '" + text + "' is not a number, a number with dB, or inf");
		}
		if (db) {
			InvalidInputException.require(Double.isFinite(v), "SNR: expected a finite dB value, found '" + text + "'");
			return Math.pow(10, v / 20);
		}
		InvalidInputException.require(v > 0 && !Double.isNaN(v), "SNR: expected a ratio > 0, found '" + text + "'");
		return v;
	}

	public boolean isNone() { return mode == Mode.NONE; }

	public long seed() { return seed; }

	/** σ per component for these noiseless samples (interleaved re, im): 0 for none. */
	public double sigmaFor(final double[] noiseless) {
		switch (mode) {
			case SNR: return rms(noiseless) / (Math.sqrt(2) * value);
			case SIGMA: return value;
			default: return 0;
		}
	}

	/** Adds noise of standard deviation {@code sigma} per component to interleaved samples, from this seed. */
	public void addTo(final double[] samples, final double sigma) {
		if (sigma == 0) return;
		final Random random = new Random(seed);
		for (int i = 0; i < samples.length; i++) samples[i] += sigma * random.nextGaussian();
	}

	/** rms|y| = √(mean |y_i|²) over interleaved complex samples. */
	public static double rms(final double[] samples) {
		double s = 0;
		for (final double v : samples) s += v * v;
		return Math.sqrt(s / Math.max(1, samples.length / 2));
	}

	/** e.g. "SNR 20 (26.0 dB), seed 1", "sigma 0.5 per component, seed 1", "no noise". */
	public String describe() {
		switch (mode) {
			case SNR: return String.format(Locale.ROOT, "SNR %.4g (%.1f dB), seed %d", value, 20 * Math.log10(value), seed);
			case SIGMA: return String.format(Locale.ROOT, "sigma %.4g per component, seed %d", value, seed);
			default: return "no noise";
		}
	}

	@Override
	public String toString() { return describe(); }
}
