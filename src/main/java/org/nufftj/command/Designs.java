package org.nufftj.command;

import org.nufftj.app.Options;
import org.nufftj.trajectory.TrajectoryDesign;
import org.nufftj.trajectory.TrajectoryKind;

/** Trajectory designs from the commands' keys: readout/shots 0 mean "the fully sampled default for the matrix". */
final class Designs {

	private Designs() {}

	static TrajectoryDesign design(final String trajectory, final int[] matrix, final int readout, final int shots) {
		return TrajectoryKind.parse(Options.choice("trajectory", trajectory, Options.DESIGNS)).design(matrix, readout,
			shots);
	}
}
