package org.nufftj.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.operator.NufftOperator;
import org.nufftj.operator.Operators;
import org.nufftj.trajectory.Trajectory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nufft-j forward}: drop-in for {@code bart nufft}. */
@Command(name = "forward", mixinStandardHelpOptions = true,
	description = { "Forward NUFFT (image -> k-space), a drop-in for 'bart nufft': same files, dims and scaling:",
		"  kspace_m = 1/sqrt(X*Y*Z) * sum_x image(x) * exp(-2*pi*i * k_m . x / N),  x = index - N/2,",
		"traj [3, readout, spokes] in cycles/FOV, image [X, Y, Z, coils, ...] -> kspace [1, readout, spokes, coils, ...].",
		"The image size comes from the image file; -d, when given, must agree with it." })
final class ForwardCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Option(names = "--verbose", description = "Print plan parameters and stage times to stderr.")
	boolean verbose;

	@Parameters(index = "0", paramLabel = "<traj>", description = "Trajectory .cfl.")
	Path traj;

	@Parameters(index = "1", paramLabel = "<image>", description = "Image .cfl [X, Y, Z, coils, ...].")
	Path imagePath;

	@Parameters(index = "2", paramLabel = "<output>", description = "Output k-space .cfl.")
	Path output;

	@Override
	public Integer call() throws Exception {
		final var options = nufft.options();
		final BartFiles.TrajectoryFile tf = BartFiles.readTrajectory(traj);
		final Cfl.Array img = Cfl.read(imagePath);
		final int[] dims = { img.dim(0), img.dim(1), img.dim(2) };
		if (nufft.dims() != null && !Arrays.equals(nufft.dims(), dims)) throw new InvalidInputException("-d " +
			nufft.dims + " does not match the image " + imagePath + " of " + dims[0] + ":" + dims[1] + ":" + dims[2]);
		InvalidInputException.require(dims[0] >= 2 && dims[1] >= 2, imagePath + ": image dims " +
			Arrays.toString(BartFiles.trim(img.dims())) + ": expected X, Y >= 2");
		BartFiles.requireFinite(img.data(), imagePath);
		final Trajectory t = tf.trajectory(dims);
		final long pixels = (long) dims[0] * dims[1] * dims[2];
		final long transforms = img.elements() / pixels;
		InvalidInputException.require(2L * tf.points() * transforms <= Integer.MAX_VALUE - 8, "k-space of " +
			tf.points() + " points x " + transforms + " coils/frames is too large for one array");
		final float[] samples = new float[(int) (2L * tf.points() * transforms)];
		try (NufftPlan plan = Nufft.plan(Arrays.copyOf(dims, t.dimensions()), options)) {
			plan.setPoints(t);
			try (NufftOperator op = NufftOperator.bart(Nufft.backendOf(plan), plan, NufftPlan.transforms(plan,
				img.data().length, samples.length)))
			{
				Operators.apply(op, img.data(), samples);
			}
			if (verbose) System.err.println("forward " + plan.backend() + ": " + plan.parameters() + "; " + plan.times());
		}
		final long[] out = img.dims();
		out[0] = 1;
		out[1] = tf.readout;
		out[2] = tf.shots;
		Cfl.write(output, out, samples);
		return Main.OK;
	}
}
