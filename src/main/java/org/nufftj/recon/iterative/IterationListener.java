package org.nufftj.recon.iterative;

/**
 * Sees every iteration of a solver ({@link Fista}, {@link Admm}): its number (1, 2, …), a residual (what the solver
 * stops on; each solver's javadoc says which) and the objective ½‖A x − y‖² + R(x) of the iterate (NaN when the solver
 * was asked not to compute it, see {@link #wantsObjective()}). Returning normally continues; a listener may throw
 * (e.g. {@link java.util.concurrent.CancellationException}) to stop the solve.
 */
@FunctionalInterface
public interface IterationListener {

	void iteration(int iteration, double residual, double objective);

	/**
	 * Whether the objective should be computed for this listener: it costs one more application of the normal
	 * operator per iteration. Default true.
	 */
	default boolean wantsObjective() { return true; }

	/** A listener that only counts on residuals (no objective: no extra work). */
	static IterationListener residualsOnly(final IterationListener l) {
		return new IterationListener() {
			@Override
			public void iteration(final int k, final double residual, final double objective) {
				l.iteration(k, residual, objective);
			}

			@Override
			public boolean wantsObjective() { return false; }
		};
	}
}
