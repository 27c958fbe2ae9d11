package org.nufftj.nufft;

import org.nufftj.InvalidInputException;

/**
 * How much the application may time plan candidates before a plan is made (as FFTW's planner flags: ESTIMATE,
 * MEASURE, EXHAUSTIVE). Plans themselves ignore it: the application's session resolves it, with the wisdom file, into
 * explicit kernel, σ, W, spreading method and bins (app.tune.Tuner) before it makes a plan.
 * <ul>
 * <li>{@link #OFF}: no timing; a winner already kept in the wisdom file for the same key is used, else the
 * heuristic.</li>
 * <li>{@link #QUICK}: as OFF when the wisdom has the key; else the kernels × σ at their least W meeting ε, then the
 * backend's variants (spreading methods and bins, or kernel evaluation) of the fastest, within a budget.</li>
 * <li>{@link #EXHAUSTIVE}: every kernel × σ × W ∈ {least, least + 1} × backend variant, within a budget.</li>
 * </ul>
 */
public enum TuneMode {
	OFF, QUICK, EXHAUSTIVE;

	/** Default time budget of a tuning run in this mode, in seconds. */
	public double defaultBudgetSeconds() {
		return this == EXHAUSTIVE ? 120 : 20;
	}

	public String key() {
		return name().toLowerCase();
	}

	public static TuneMode parse(final String s) {
		switch (s == null ? "" : s.trim().toLowerCase()) {
			case "off": case "none": return OFF;
			case "quick": return QUICK;
			case "exhaustive": return EXHAUSTIVE;
			default: throw new InvalidInputException("tune: expected off, quick or exhaustive, found '" + s + "'");
		}
	}
}
