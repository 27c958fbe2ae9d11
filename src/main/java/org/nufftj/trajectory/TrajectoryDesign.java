package org.nufftj.trajectory;

/**
 * A named sampling pattern with its parameters, which makes a {@link Trajectory} in normalised units (cycles per
 * pixel, {@code k ∈ [−½, ½]} per axis). Designs are immutable values; {@link #build()} computes the points each time.
 */
public interface TrajectoryDesign {

	/** The points, in acquisition order, shaped readout × shots. */
	Trajectory build();

	/** One line for people: the kind and its parameters, e.g. "radial, 256 samples x 201 spokes over 180°". */
	String describe();
}
