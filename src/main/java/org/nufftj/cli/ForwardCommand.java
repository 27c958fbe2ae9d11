package org.nufftj.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.io.AtomicFiles;
import org.nufftj.io.Cfl;
import org.nufftj.io.OutputPaths;
import org.nufftj.app.BartNufft;
import org.nufftj.app.Options;
import org.nufftj.app.ScanLoader;
import org.nufftj.app.Session;
import org.nufftj.trajectory.Trajectory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nufft-j forward}: drop-in for {@code bart nufft}. */
@Command(name = "forward", mixinStandardHelpOptions = true,
	description = { "Forward NUFFT (image -> k-space), a drop-in for 'bart nufft' (same files, dims and scaling).",
		"  kspace_m = 1/sqrt(X*Y*Z) * sum_x image(x) * exp(-2*pi*i * k_m . x / N),  x = index - N/2,",
		"traj [3, readout, spokes] in cycles/FOV, image [X, Y, Z, coils, ...] -> kspace [1, readout, spokes, coils, ...].",
		"The image size comes from the image file; -d, when given, must agree with it." })
final class ForwardCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Mixin
	TuneArgs tuning;

	@Option(names = "--verbose", description = "Print plan parameters, stage times and the time " +
		"split (start-up, read, plan, transform, write) to stderr.")
	boolean verbose;

	@Parameters(index = "0", paramLabel = "<traj>", description = "Trajectory .cfl.")
	Path traj;

	@Parameters(index = "1", paramLabel = "<image>", description = "Image .cfl [X, Y, Z, coils, ...].")
	Path imagePath;

	@Parameters(index = "2", paramLabel = "<output>", description = "Output k-space .cfl.")
	Path output;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		final StepTimes times = new StepTimes();
		final var options = tuning.apply(nufft.options());
		OutputPaths.refuseOverwrite(List.of(output), List.of(traj, imagePath));
		AtomicFiles.requireFolder(output);
		InvalidInputException.require(!OutputPaths.isTiff(output), output + ": forward writes complex k-space as " +
			"BART .cfl/.hdr, not TIFF; name the output without .tif");
		final Cfl.Array img = ScanLoader.readImage(imagePath);
		final int[] size = ScanLoader.matrixOf(img);
		if (nufft.dims() != null && !Arrays.equals(nufft.dims(), size)) throw new InvalidInputException("-d " +
			nufft.dims + " does not match the image " + imagePath + " of " + Options.describeMatrix(size));
		final Trajectory t = ScanLoader.bartTrajectory(traj, size);
		times.mark("read");
		final BartNufft.Result r;
		try (Session session = new Session()) {
			r = BartNufft.forward(session, t, size, img.data(), options);
		}
		times.mark("plan", r.planMs(), "transform");
		if (verbose) spec.commandLine().getErr().println(r.description());
		final long[] out = img.dims();
		out[0] = 1;
		out[1] = t.readout();
		out[2] = t.shots();
		Cfl.write(output, out, r.data());
		times.mark("write");
		if (verbose) spec.commandLine().getErr().println(times.line());
		return Main.OK;
	}
}
