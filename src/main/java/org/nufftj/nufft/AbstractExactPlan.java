package org.nufftj.nufft;

import org.nufftj.InvalidInputException;

/**
 * What the backends' exact plans ({@link Backend#exactPlan}) share: the image size and its
 * {@link NufftParameters#exact exact} parameters (validated once), the engine's name, the stage times, and the refusal
 * of the gridding stages, which an exact plan does not have.
 */
public abstract class AbstractExactPlan implements NufftPlan {

	protected final int[] size;
	protected final NufftParameters parameters;
	protected final StageTimes times = new StageTimes();
	private final String engine;

	/** @param backend the backend that runs the plan (its name, e.g. "cpu (2 threads), exact") */
	protected AbstractExactPlan(final Backend backend, final int[] size, final Precision precision) {
		parameters = NufftParameters.exact(size, precision);
		this.size = size.clone();
		engine = backend.name() + ", exact";
	}

	@Override
	public final String backend() { return engine; }

	@Override
	public final int[] imageSize() { return size.clone(); }

	@Override
	public final NufftParameters parameters() { return parameters; }

	@Override
	public final void spread(final Buffer samples, final Buffer grid) {
		throw new InvalidInputException("exact plan: there is no gridding stage to spread onto (use a NUFFT plan)");
	}

	@Override
	public final void interpolate(final Buffer grid, final Buffer samples) {
		throw new InvalidInputException("exact plan: there is no gridding stage to interpolate from (use a NUFFT plan)");
	}

	@Override
	public final StageTimes times() { return times; }
}
