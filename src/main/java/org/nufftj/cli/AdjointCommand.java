package org.nufftj.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.nufftj.data.KSpace;
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
		final long t0 = System.nanoTime();
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
		final long t1 = System.nanoTime();
		final long t2, t3;
		try (NufftPlan plan = Nufft.plan(size, options)) {
			plan.setPoints(t);
			t2 = System.nanoTime();
			try (NufftOperator op = NufftOperator.bart(Nufft.backendOf(plan), plan, NufftPlan.transforms(plan, image.length,
				k.data().length)))
			{
				Operators.applyAdjoint(op, k.data(), image);
			}
			t3 = System.nanoTime();
			if (verbose) System.err.println("adjoint " + plan.backend() + ": " + plan.parameters() + "; " + plan.times());
		}
		final long[] out = ka.dims();
		out[0] = dims[0];
		out[1] = dims[1];
		out[2] = dims[2];
		Cfl.write(output, out, image);
		if (verbose) System.err.printf("times: read %.0f ms, plan + points %.0f ms, adjoint %.0f ms, write %.0f ms " +
			"(JVM up %.0f ms before)%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (System.nanoTime() - t3) / 1e6,
			java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() - (System.nanoTime() - t0) / 1e6);
		return Main.OK;
	}
}
