package org.nufftj.cli;

import org.nufftj.app.Options;
import org.nufftj.nufft.NufftOptions;

import picocli.CommandLine.Option;

/** {@code --tune} and {@code --tune-budget} of recon, adjoint, forward and bench (a picocli mixin). */
final class TuneArgs {

	@Option(names = "--tune", paramLabel = "off|quick|exhaustive", defaultValue = "off",
		description = { "Auto-tune the plan (default: ${DEFAULT-VALUE}). A winner kept in the wisdom file for the same",
			"device, size, points, batch, precision and eps is always used (no timing); quick/exhaustive time candidates",
			"when the wisdom lacks the key and record the winner. Explicit --kernel/--oversampling/--width/--spread are",
			"never overridden. Wisdom: $NUFFTJ_WISDOM, else $XDG_CONFIG_HOME/nufft-j/wisdom.json, else",
			"~/.config/nufft-j/wisdom.json (docs/gpu-tuning.md)." })
	String tune;

	@Option(names = "--tune-budget", paramLabel = "s", defaultValue = "0",
		description = "Time budget of a tuning run in seconds (default: 0 = 20 s quick, 120 s exhaustive).")
	double budget;

	/** {@code options} with the tuning asked for. */
	NufftOptions apply(final NufftOptions options) {
		return options.withTuning(Options.tune(tune), budget);
	}
}
