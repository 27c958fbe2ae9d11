package org.nufftj.command;

import org.nufftj.app.Options;
import org.nufftj.nufft.NufftOptions;
import org.scijava.plugin.Parameter;

/**
 * The NUFFT keys shared by Reconstruct k-space, Compare CPU and GPU and Benchmark (field names are the macro keys;
 * the command line's options of the same names take the same values: {@link Options}).
 */
public abstract class AbstractNufftCommand extends NufftCommand {

	@Parameter(persist = false, label = "kernel", choices = { "auto", "es", "kb", "gauss" })
	public String kernel = "auto";

	@Parameter(persist = false, label = "oversampling", description = "grid oversampling sigma, 0 = auto, else 1.125 to 2")
	public double oversampling = 0;

	@Parameter(persist = false, label = "width", description = "kernel width W in grid cells, 0 = auto, else 2 to 16")
	public int width = 0;

	@Parameter(persist = false, label = "tolerance", description = "requested NUFFT accuracy, up to 0.1")
	public double tolerance = NufftOptions.DEFAULT_TOLERANCE;

	@Parameter(persist = false, label = "precision", choices = { "float", "double" })
	public String precision = "float";

	@Parameter(persist = false, label = "spread", description = "GPU spreading method (the CPU ignores it)",
		choices = { "auto", "atomic", "shared", "output" })
	public String spread = "auto";

	@Parameter(persist = false, label = "threads", description = "CPU threads, 0 = all cores")
	public int threads = 0;

	@Parameter(persist = false, label = "tune", description = "auto-tuning: off = use the wisdom file's winner when " +
		"it has one (else the heuristic); quick/exhaustive = time candidates when it has none (as nufft-j --tune)",
		choices = { "off", "quick", "exhaustive" })
	public String tune = "off";

	/** The NUFFT options of these keys on {@code device}; a thread count above the cores is capped with a warning. */
	protected NufftOptions nufftOptions(final String device) {
		final String notice = Options.threadsNotice("threads", threads);
		if (notice != null && logService() != null) logService().warn(PREFIX + notice);
		return Options.nufft(kernel, oversampling, width, tolerance, precision, device, spread, threads)
			.withTuning(Options.tune(tune), 0);
	}
}
