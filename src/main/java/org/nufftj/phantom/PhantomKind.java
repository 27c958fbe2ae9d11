package org.nufftj.phantom;

import java.util.Arrays;
import java.util.Locale;

import org.nufftj.InvalidInputException;

/** The phantoms a user can choose by name (menus, macros, CLI). */
public enum PhantomKind {

	/** Toft's modified Shepp–Logan (2D ellipses) or its 3D ellipsoid version, as {@code bart phantom [-3]}. */
	SHEPP_LOGAN("shepp-logan"),
	/** A uniform disc (2D) or ball (3D) of intensity 1 and radius {@value #DISC_RADIUS} of the half field of view. */
	DISC("disc");

	/** Radius of {@link #DISC} in field-of-view units u (u = ±1 at the image edges). */
	public static final double DISC_RADIUS = 0.6;

	private final String label;

	PhantomKind(final String label) {
		this.label = label;
	}

	/** The menu word, e.g. "shepp-logan". */
	public String label() { return label; }

	@Override
	public String toString() { return label; }

	// -- public API --

	/** Reads a kind from its menu word or enum name, ignoring case, spaces, '-' and '_'. */
	public static PhantomKind parse(final String text) {
		final String t = text == null ? "" : text.toLowerCase(Locale.ROOT).replaceAll("[\\s_\\-]+", "");
		switch (t) {
			case "shepplogan": case "shepp": case "sl": return SHEPP_LOGAN;
			case "disc": case "disk": case "ball": return DISC;
			default:
				throw new InvalidInputException("phantom: unknown '" + text + "', expected one of " + choices());
		}
	}

	/** The menu words, for messages and choice lists. */
	public static String choices() {
		return Arrays.toString(Arrays.stream(values()).map(PhantomKind::label).toArray());
	}

	/** The phantom in 2 or 3 dimensions. */
	public AnalyticPhantom phantom(final int dimensions) {
		InvalidInputException.require(dimensions == 2 || dimensions == 3, "phantom " + label +
			": expected 2 or 3 dimensions, found " + dimensions);
		if (this == DISC) return AnalyticPhantom.disc(dimensions, DISC_RADIUS, 1);
		return dimensions == 3 ? AnalyticPhantom.sheppLogan3d() : AnalyticPhantom.sheppLogan2d();
	}
}
