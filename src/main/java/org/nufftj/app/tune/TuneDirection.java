package org.nufftj.app.tune;

import org.nufftj.InvalidInputException;

/** Which transform a tuning run times: the forward, the adjoint, or both (the sum of their medians). */
public enum TuneDirection {
	FORWARD, ADJOINT, BOTH;

	public String key() {
		return name().toLowerCase();
	}

	public static TuneDirection parse(final String s) {
		switch (s == null ? "" : s.trim().toLowerCase()) {
			case "forward": return FORWARD;
			case "adjoint": return ADJOINT;
			case "both": return BOTH;
			default: throw new InvalidInputException("direction: expected forward, adjoint or both, found '" + s + "'");
		}
	}
}
