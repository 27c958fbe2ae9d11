package org.nufftj.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.nufftj.data.FrameGroup;
import org.nufftj.InvalidInputException;
import org.nufftj.app.BartNufft;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.app.Session;
import org.nufftj.data.ComplexImage;
import org.nufftj.io.AtomicFiles;
import org.nufftj.io.Cfl;
import org.nufftj.io.OutputPaths;
import org.nufftj.trajectory.TrajectoryKind;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nufft-j adjoint}: drop-in for {@code bart nufft -a}. */
@Command(name = "adjoint", mixinStandardHelpOptions = true,
	description = { "Adjoint NUFFT (k-space -> image), a drop-in for 'bart nufft -a' (same files, dims and scaling).",
		"  image(x) = 1/sqrt(X*Y*Z) * sum_m kspace_m * exp(+2*pi*i * k_m . x / N),  x = index - N/2,",
		"traj [3, readout, spokes] in cycles/FOV, kspace [1, readout, spokes, coils, ...] -> image [X, Y, Z, coils, ...]." })
final class AdjointCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Mixin
	TuneArgs tuning;

	@Option(names = "--verbose", description = "Print plan parameters, stage times and the time " +
		"split (start-up, read, plan, transform, write) to stderr.")
	boolean verbose;

	@Parameters(index = "0", paramLabel = "<traj>", description = "Trajectory .cfl (base name, with or without extension).")
	Path traj;

	@Parameters(index = "1", paramLabel = "<kspace>", description = "k-space .cfl.")
	Path kspace;

	@Parameters(index = "2", paramLabel = "<output>", description = "Output image .cfl (complex), or a 32-bit float " +
		"TIFF of the magnitude when the name ends in .tif.")
	Path output;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		final StepTimes times = new StepTimes();
		final var options = tuning.apply(nufft.options());
		OutputPaths.refuseOverwrite(List.of(output), List.of(traj, kspace));
		AtomicFiles.requireFolder(output);
		final Scan scan = ScanLoader.load(kspace, traj, TrajectoryKind.FILE, nufft.dims());
		InvalidInputException.require(scan.parts().size() == 1, kspace + ": " + scan.parts().size() + " parts with " +
			"different trajectories; adjoint transforms one trajectory (use recon)");
		final FrameGroup part = scan.parts().get(0);
		final int[] size = scan.matrix();
		times.mark("read");
		final BartNufft.Result r;
		try (Session session = new Session()) {
			r = BartNufft.adjoint(session, part.trajectory(), size, part.kspace().data(), options);
		}
		times.mark("plan", r.planMs(), "transform");
		if (verbose) spec.commandLine().getErr().println(r.description());
		final long[] out = new long[Cfl.DIMS];
		java.util.Arrays.fill(out, 1);
		for (int a = 0; a < size.length; a++) out[a] = size[a];
		out[3] = scan.coils();
		System.arraycopy(scan.frameDims(), 0, out, 4, Math.min(scan.frameDims().length, Cfl.DIMS - 4));
		if (ImageFiles.isTiff(output)) ImageFiles.write(output, new ComplexImage(r.data(), size, scan.coils(),
			scan.frames(), null), null);
		else Cfl.write(output, out, r.data());
		times.mark("write");
		if (verbose) spec.commandLine().getErr().println(times.line());
		return Main.OK;
	}
}
