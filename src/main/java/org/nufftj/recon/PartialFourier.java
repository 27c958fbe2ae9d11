package org.nufftj.recon;

import org.nufftj.InvalidInputException;

/**
 * What {@link CartesianFft} does with Cartesian k-space sampled asymmetrically about k = 0 on one axis (partial
 * Fourier along a phase-encode axis, or an asymmetric echo along the readout).
 * <ul>
 * <li>{@link #ZERO} (default): the unsampled side stays zero (zero-filled FFT; resolution lost along that axis, the
 * image scale that of the full data).</li>
 * <li>{@link #HOMODYNE}: homodyne detection (Noll, Nishimura &amp; Macovski, IEEE TMI 10(2):154–163, 1991), per coil,
 * see {@link CartesianFft}.</li>
 * </ul>
 */
public enum PartialFourier {
	ZERO("zero"), HOMODYNE("homodyne");

	private final String key;

	PartialFourier(final String key) {
		this.key = key;
	}

	public String key() { return key; }

	/** "zero" (also "zero-filled") or "homodyne". */
	public static PartialFourier parse(final String s) {
		final String t = s == null ? "" : s.trim().toLowerCase(java.util.Locale.ROOT);
		switch (t) {
			case "zero": case "zero-filled": case "zero filled": return ZERO;
			case "homodyne": return HOMODYNE;
			default: throw new InvalidInputException("partial Fourier: expected zero or homodyne; found '" + s + "'");
		}
	}
}
