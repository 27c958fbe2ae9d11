package org.nufftj.nufft;

/** Arithmetic precision of a plan's grids and FFTs. Inputs and outputs of either type are accepted by every plan. */
public enum Precision {
	FLOAT, DOUBLE;

	/** Smallest tolerance a plan of this precision accepts. */
	public double smallestTolerance() {
		return this == FLOAT ? 1e-6 : 1e-12;
	}

	public static Precision parse(final String s) {
		switch (s.trim().toLowerCase()) {
			case "float": case "single": case "32": case "float32": return FLOAT;
			case "double": case "64": case "float64": return DOUBLE;
			default: throw new org.nufftj.InvalidInputException("precision: expected float or double, found '" + s + "'");
		}
	}
}
