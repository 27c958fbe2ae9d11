package org.nufftj.command;

import org.nufftj.trajectory.TrajectoryDesign;
import org.nufftj.trajectory.TrajectoryKind;

/** Trajectory designs from the commands' keys: readout/shots 0 mean "the fully sampled default for the matrix". */
final class Designs {

	private Designs() {}

	static TrajectoryDesign design(final String trajectory, final int[] matrix, final int readout, final int shots) {
		final TrajectoryKind kind = TrajectoryKind.parse(Options.choice("trajectory", trajectory, Options.DESIGNS));
		if (readout <= 0 && shots <= 0) return kind.fullySampled(matrix);
		final org.nufftj.trajectory.Trajectory full = kind.fullySampled(matrix).build();
		return kind.designFor(matrix, readout > 0 ? readout : full.readout(), shots > 0 ? shots : full.shots());
	}
}
