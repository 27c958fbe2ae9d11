package org.nufftj.cli;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.Precision;

import picocli.CommandLine.Option;

/** NUFFT options shared by the subcommands (a picocli mixin). */
final class NufftArgs {

	@Option(names = { "-d", "--dims" }, paramLabel = "X:Y:Z",
		description = "Image size (as bart's -d). Default: estimated from the trajectory like bart 0.8 (2*ceil(max|k|) per axis in cycles/FOV).")
	String dims;

	@Option(names = { "-e", "--tolerance" }, paramLabel = "eps", defaultValue = "1e-4",
		description = "Requested relative accuracy (default: ${DEFAULT-VALUE}); float: 1e-1..1e-6, double: ..1e-12.")
	double tolerance;

	@Option(names = "--kernel", paramLabel = "es|kb|gauss", defaultValue = "auto",
		description = "Interpolation kernel (default: ${DEFAULT-VALUE} = es).")
	String kernel;

	@Option(names = "--oversampling", paramLabel = "sigma", defaultValue = "0",
		description = "Grid oversampling sigma in [1.25, 2] (default: 0 = chosen from the tolerance).")
	double oversampling;

	@Option(names = "--width", paramLabel = "W", defaultValue = "0",
		description = "Kernel width in grid cells, 2..16 (default: 0 = chosen from the tolerance).")
	int width;

	@Option(names = "--precision", paramLabel = "float|double", defaultValue = "float",
		description = "Arithmetic precision (default: ${DEFAULT-VALUE}).")
	String precision;

	@Option(names = "--device", paramLabel = "auto|cpu|gpu|gpu:N", defaultValue = "cpu",
		description = "Where to run (default: ${DEFAULT-VALUE}).")
	String device;

	@Option(names = "--spread", paramLabel = "auto|atomic|shared|output", defaultValue = "auto",
		description = { "GPU spreading method for the adjoint (default: ${DEFAULT-VALUE} = shared-memory tiles;",
			"output = output-driven, 2D radial trajectories only; see docs/gpu.md). The CPU ignores it." })
	String spread;

	@Option(names = "--threads", paramLabel = "n", defaultValue = "0",
		description = "CPU worker threads (default: 0 = all cores).")
	int threads;

	@Option(names = "--debug", description = "Print stack traces on errors.")
	boolean debug;

	/** The options as typed values; fails with a one-line message on any bad value. */
	NufftOptions options() {
		if (!Double.isFinite(tolerance) || tolerance <= 0 || tolerance > 0.1)
			throw new InvalidInputException("--tolerance: expected a value in (0, 0.1], found " + tolerance);
		return NufftOptions.defaults().withPrecision(Precision.parse(precision)).withTolerance(tolerance)
			.withKernel(KernelType.parse(kernel)).withOversampling(oversampling).withWidth(width)
			.withThreads(threads).withDevice(DeviceChoice.parse(device)).withSpreadMethod(SpreadMethod.parse(spread));
	}

	/** -d parsed into 3 sizes (Z = 1 when given as X:Y), or null when not given. */
	int[] dims() {
		if (dims == null) return null;
		final String[] p = dims.trim().split(":");
		if (p.length < 2 || p.length > 3) throw new InvalidInputException("-d: expected X:Y:Z, found '" + dims + "'");
		final int[] d = { 1, 1, 1 };
		for (int i = 0; i < p.length; i++) {
			try {
				d[i] = Integer.parseInt(p[i].trim());
			}
			catch (final NumberFormatException e) {
				throw new InvalidInputException("-d: '" + p[i] + "' is not an integer (expected X:Y:Z)");
			}
			if (d[i] < 1) throw new InvalidInputException("-d: sizes must be >= 1, found '" + dims + "'");
		}
		if (d[0] < 2 || d[1] < 2) throw new InvalidInputException("-d: X and Y must be >= 2, found '" + dims + "'");
		return d;
	}
}
