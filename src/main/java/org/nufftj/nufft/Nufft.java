package org.nufftj.nufft;

import java.util.concurrent.atomic.AtomicBoolean;

import org.nufftj.trajectory.Trajectory;

/**
 * A plan that brings its own backend: for one-off transforms (a CLI call, a test) where no session keeps a
 * {@link Backend} open. The backend is opened by {@link Backends#open} for the options' device and threads, and
 * closed with the plan. Callers that make several plans, or use buffers and vector operations, open a backend once
 * and call {@link Backend#plan} instead.
 */
public final class Nufft {

	/** The "no GPU, running on the CPU" notice of {@code --device auto} is printed once per process. */
	private static final AtomicBoolean CPU_NOTICE = new AtomicBoolean();

	private Nufft() {}

	/**
	 * A plan for images of the given size (2 or 3 axes) on the device the options name, owning a backend of its own
	 * (closed with the plan). The stage API works on buffers of {@link #backendOf(NufftPlan)}.
	 */
	public static NufftPlan plan(final int[] imageSize, final NufftOptions options) {
		final Backend backend = Backends.open(options.device(), options.threads(), notice -> {
			if (CPU_NOTICE.compareAndSet(false, true)) System.err.println(notice);
		});
		try {
			return new Owning(backend.plan(imageSize, options), backend);
		}
		catch (final RuntimeException | Error e) {
			backend.close();
			throw e;
		}
	}

	/** The backend a plan of {@link #plan} owns (for buffers to use with its stage API); null for other plans. */
	public static Backend backendOf(final NufftPlan plan) {
		return plan instanceof Owning ? ((Owning) plan).backend : null;
	}

	// -- helpers --

	/** A plan and the backend it was made on, closed together. */
	private static final class Owning implements NufftPlan {

		private final NufftPlan plan;
		private final Backend backend;

		Owning(final NufftPlan plan, final Backend backend) {
			this.plan = plan;
			this.backend = backend;
		}

		@Override public int[] imageSize() { return plan.imageSize(); }
		@Override public NufftParameters parameters() { return plan.parameters(); }
		@Override public String backend() { return plan.backend(); }
		@Override public void setPoints(final Trajectory trajectory) { plan.setPoints(trajectory); }
		@Override public int points() { return plan.points(); }
		@Override public void forward(final float[] image, final float[] samples) { plan.forward(image, samples); }
		@Override public void adjoint(final float[] samples, final float[] image) { plan.adjoint(samples, image); }
		@Override public void forward(final double[] image, final double[] samples) { plan.forward(image, samples); }
		@Override public void adjoint(final double[] samples, final double[] image) { plan.adjoint(samples, image); }
		@Override public void forward(final Buffer image, final Buffer samples) { plan.forward(image, samples); }
		@Override public void adjoint(final Buffer samples, final Buffer image) { plan.adjoint(samples, image); }
		@Override public void spread(final Buffer samples, final Buffer grid) { plan.spread(samples, grid); }
		@Override public void interpolate(final Buffer grid, final Buffer samples) { plan.interpolate(grid, samples); }
		@Override public StageTimes times() { return plan.times(); }

		@Override
		public void close() {
			try {
				plan.close();
			}
			finally {
				backend.close();
			}
		}
	}
}
