package org.nufftj.kernel;

import org.nufftj.InvalidInputException;

/** Interpolation kernel families. {@link #AUTO} lets the parameter choice pick (exponential of semicircle). */
public enum KernelType {
	AUTO("auto"),
	/** Exponential of semicircle, Barnett, Magland &amp; af Klinteberg 2019. */
	EXP_SEMICIRCLE("es"),
	/** Kaiser–Bessel with Beatty 2005's β. */
	KAISER_BESSEL("kb"),
	/** Truncated Gaussian (Greengard &amp; Lee 2004 style width). */
	GAUSSIAN("gauss");

	private final String key;

	KernelType(final String key) {
		this.key = key;
	}

	/** Short name used on the command line and in macros. */
	public String key() { return key; }

	public static KernelType parse(final String s) {
		final String t = s.trim().toLowerCase().replace('-', '_').replace(' ', '_');
		switch (t) {
			case "auto": return AUTO;
			case "es": case "exp_semicircle": case "exponential_of_semicircle": return EXP_SEMICIRCLE;
			case "kb": case "kaiser_bessel": case "kaiserbessel": return KAISER_BESSEL;
			case "gauss": case "gaussian": return GAUSSIAN;
			default: throw new InvalidInputException("kernel: expected one of auto, es, kb, gauss; found '" + s + "'");
		}
	}
}
