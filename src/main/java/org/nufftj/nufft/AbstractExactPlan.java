package org.nufftj.nufft;

import org.nufftj.InvalidInputException;

/**
 * What the backends' exact plans ({@link Backend#exactPlan}) share: the image size and its
 * {@link NufftParameters#exact exact} parameters (validated once), the stage times, and the refusal of the gridding
 * stages, which an exact plan does not have.
 */
public abstract class AbstractExactPlan implements NufftPlan {

	protected final int[] size;
	protected final NufftParameters parameters;
	protected final StageTimes times = new StageTimes();

	protected AbstractExactPlan(final int[] size, final Precision precision) {
		parameters = NufftParameters.exact(size, precision);
		this.size = size.clone();
	}

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
