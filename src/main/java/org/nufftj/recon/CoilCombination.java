package org.nufftj.recon;

import org.nufftj.InvalidInputException;

/**
 * How per-coil images become one image (see {@link CoilCombine}).
 * <ul>
 * <li>{@link #SOS}: root sum of squares, magnitude only (real part holds it, imaginary part 0).</li>
 * <li>{@link #WALSH}: adaptive combination (Walsh, Gmitro &amp; Marcellin 2000), complex.</li>
 * <li>{@link #NONE}: no combination; the per-coil complex images are the result.</li>
 * </ul>
 */
public enum CoilCombination {
	SOS("sos"), WALSH("walsh"), NONE("none");

	private final String key;

	CoilCombination(final String key) {
		this.key = key;
	}

	public String key() { return key; }

	/** Parses "sos" / "sum of squares" / "rss", "walsh" / "adaptive", "none". */
	public static CoilCombination parse(final String s) {
		final String t = s.trim().toLowerCase().replace('_', ' ').replace('-', ' ');
		switch (t) {
			case "sos": case "sum of squares": case "rss": case "root sum of squares": return SOS;
			case "walsh": case "adaptive": case "adaptive combine": return WALSH;
			case "none": case "per coil": return NONE;
			default: throw new InvalidInputException("coil combination: expected sos, walsh or none; found '" + s + "'");
		}
	}
}
