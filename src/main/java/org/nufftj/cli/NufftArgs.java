package org.nufftj.cli;

import org.nufftj.app.Options;
import org.nufftj.nufft.NufftOptions;

import picocli.CommandLine.Option;

/** NUFFT options shared by the subcommands (a picocli mixin), parsed by {@link Options} like Fiji's keys. */
final class NufftArgs {

	@Option(names = { "-d", "--dims" }, paramLabel = "X:Y:Z",
		description = "Image size (as bart's -d; X:Y is 2D). Default: from the file (ISMRMRD recon space; BART: 2*ceil(max|k|) per axis in cycles/FOV, see docs/conventions.md).")
	String dims;

	@Option(names = { "-e", "--tolerance", "--eps" }, paramLabel = "eps", defaultValue = "1e-4",
		description = "Requested relative accuracy (default: ${DEFAULT-VALUE}); float: 1e-1..1e-6, double: ..1e-12.")
	double tolerance;

	@Option(names = "--kernel", paramLabel = "es|kb|gauss", defaultValue = "auto",
		description = "Interpolation kernel (default: ${DEFAULT-VALUE} = the cheaper that meets the tolerance).")
	String kernel;

	@Option(names = "--oversampling", paramLabel = "sigma", defaultValue = "0",
		description = "Grid oversampling sigma in [1.125, 2.5] (default: 0 = chosen from the tolerance).")
	double oversampling;

	@Option(names = "--width", paramLabel = "W", defaultValue = "0",
		description = "Kernel width in grid cells, 2..16 (default: 0 = chosen from the tolerance).")
	int width;

	@Option(names = "--precision", paramLabel = "float|double", defaultValue = "float",
		description = "Arithmetic precision (default: ${DEFAULT-VALUE}).")
	String precision;

	@Option(names = "--device", paramLabel = "auto|cpu|gpu|gpu:N", defaultValue = "cpu",
		description = { "Where to run (default: ${DEFAULT-VALUE}). recon also takes gpu:all or a list (gpu:0,1;",
			"cpu,cpu): the frames are split over the devices, one contiguous range each; other commands use the first." })
	String device;

	@Option(names = "--spread", paramLabel = "auto|atomic|shared|output", defaultValue = "auto",
		description = { "GPU spreading method for the adjoint (default: ${DEFAULT-VALUE} = shared-memory tiles;",
			"output = output-driven, 2D radial trajectories only; see docs/gpu.md). The CPU ignores it." })
	String spread;

	@picocli.CommandLine.Mixin
	FftOption fft = new FftOption();

	@Option(names = "--threads", paramLabel = "n", defaultValue = "0",
		description = "CPU worker threads (default: 0 = all cores).")
	int threads;

	@Option(names = "--debug", description = "Print stack traces on errors.")
	boolean debug;

	@picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
	picocli.CommandLine.Model.CommandSpec mixee;

	private boolean noticed;

	/**
	 * The options as typed values; fails with a one-line message on any bad value. More threads than cores are capped
	 * ({@link Options#threads}) with one notice on stderr.
	 */
	NufftOptions options() {
		final String notice = Options.threadsNotice("--threads", threads);
		if (notice != null && !noticed && mixee != null) {
			noticed = true;
			mixee.commandLine().getErr().println("nufft-j: " + notice);
		}
		fft.apply();
		return Options.nufft(kernel, oversampling, width, tolerance, precision, device, spread, threads);
	}

	/** -d parsed into 2 sizes (2D) or 3, or null when not given. */
	int[] dims() {
		return dims == null ? null : Options.matrix("-d", dims);
	}
}
