package org.nufftj.data;

import org.nufftj.trajectory.Trajectory;

/**
 * Consecutive frames that share one trajectory: {@code kspace.frames()} frames starting at frame {@code firstFrame} of
 * their scan. An ISMRMRD file is read into one or more (one per run of frames with the same trajectory); a BART pair is
 * one.
 */
public final class FrameGroup {

	private final Trajectory trajectory;
	private final KSpace kspace;
	private final int firstFrame;

	public FrameGroup(final Trajectory trajectory, final KSpace kspace, final int firstFrame) {
		this.trajectory = trajectory;
		this.kspace = kspace;
		this.firstFrame = firstFrame;
	}

	public Trajectory trajectory() { return trajectory; }

	public KSpace kspace() { return kspace; }

	public int firstFrame() { return firstFrame; }
}
