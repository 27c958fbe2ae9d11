package org.nufftj.nufft.cpu;

import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.StageTimes;
import org.nufftj.trajectory.Trajectory;

/** TEMPORARY: exact-NUDFT placeholder while the gridding engine is written (same contract, slow). */
public final class CpuNufftPlan implements NufftPlan {

	private final NufftParameters params;
	private final NufftOptions options;
	private Trajectory traj;
	private final StageTimes times = new StageTimes();

	public CpuNufftPlan(final NufftParameters params, final NufftOptions options) {
		this.params = params;
		this.options = options;
	}

	@Override public int[] imageSize() { return params.imageSize(); }
	@Override public NufftParameters parameters() { return params; }
	@Override public String backend() { return "cpu-nudft"; }
	@Override public void setPoints(final Trajectory t) { traj = t; }
	@Override public int points() { return traj == null ? 0 : traj.count(); }
	@Override public void forward(final float[] image, final float[] samples) {
		NufftPlan.transforms(this, image.length, samples.length);
		System.arraycopy(Nudft.forward(params.imageSize(), traj, image, options.resolvedThreads()), 0, samples, 0, samples.length);
	}
	@Override public void adjoint(final float[] samples, final float[] image) {
		NufftPlan.transforms(this, image.length, samples.length);
		System.arraycopy(Nudft.adjoint(params.imageSize(), traj, samples, options.resolvedThreads()), 0, image, 0, image.length);
	}
	@Override public void forward(final double[] image, final double[] samples) {
		NufftPlan.transforms(this, image.length, samples.length);
		System.arraycopy(Nudft.forward(params.imageSize(), traj, image, options.resolvedThreads()), 0, samples, 0, samples.length);
	}
	@Override public void adjoint(final double[] samples, final double[] image) {
		NufftPlan.transforms(this, image.length, samples.length);
		System.arraycopy(Nudft.adjoint(params.imageSize(), traj, samples, options.resolvedThreads()), 0, image, 0, image.length);
	}
	@Override public StageTimes times() { return times; }
	@Override public void close() {}
}
