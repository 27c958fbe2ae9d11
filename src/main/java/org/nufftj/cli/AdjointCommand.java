package org.nufftj.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.nufftj.data.KSpace;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.operator.NufftOperator;
import org.nufftj.trajectory.Trajectory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nufft-j adjoint}: drop-in for {@code bart nufft -a}. */
@Command(name = "adjoint", mixinStandardHelpOptions = true,
	description = { "Adjoint NUFFT (k-space -> image), a drop-in for 'bart nufft -a': same files, dims and scaling:",
		"  image(x) = 1/sqrt(X*Y*Z) * sum_m kspace_m * exp(+2*pi*i * k_m . x / N),  x = index - N/2,",
		"traj [3, readout, spokes] in cycles/FOV, kspace [1, readout, spokes, coils, ...] -> image [X, Y, Z, coils, ...]." })
final class AdjointCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Option(names = "--verbose", description = "Print plan parameters and stage times to stderr.")
	boolean verbose;

	@Parameters(index = "0", paramLabel = "<traj>", description = "Trajectory .cfl (base name, with or without extension).")
	Path traj;

	@Parameters(index = "1", paramLabel = "<kspace>", description = "k-space .cfl.")
	Path kspace;

	@Parameters(index = "2", paramLabel = "<output>", description = "Output image .cfl.")
	Path output;

	@Override
	public Integer call() throws Exception {
		final var options = nufft.options();
		final BartFiles.TrajectoryFile tf = BartFiles.readTrajectory(traj);
		final int[] dims = nufft.dims() != null ? nufft.dims() : tf.estimateDims();
		final Trajectory t = tf.trajectory(dims);
		final Cfl.Array ka = BartFiles.readKSpace(kspace, tf);
		final KSpace k = BartFiles.kspace(ka, kspace);
		final int[] size = java.util.Arrays.copyOf(dims, t.dimensions());
		final long pixels = (long) dims[0] * dims[1] * dims[2];
		final long transforms = (long) k.coils() * k.frames();
		org.nufftj.InvalidInputException.require(2 * pixels * transforms <= Integer.MAX_VALUE - 8,
			"image of " + pixels + " pixels x " + transforms + " coils/frames is too large for one array");
		final float[] image = new float[(int) (2 * pixels * transforms)];
		try (NufftPlan plan = Nufft.plan(size, options)) {
			plan.setPoints(t);
			NufftOperator.bart(plan).adjoint(k.data(), image);
			if (verbose) System.err.println("adjoint " + plan.backend() + ": " + plan.parameters() + "; " + plan.times());
		}
		final long[] out = ka.dims();
		out[0] = dims[0];
		out[1] = dims[1];
		out[2] = dims[2];
		Cfl.write(output, out, image);
		return Main.OK;
	}
}
