package org.nufftj.recon.iterative;

import java.util.Locale;

/** What an iterative solve did: iterations run, the last residual, and whether the tolerance stopped it. */
public final class SolverResult {

	private final String solver;
	private final int iterations;
	private final double residual;
	private final boolean converged;

	public SolverResult(final String solver, final int iterations, final double residual, final boolean converged) {
		this.solver = solver;
		this.iterations = iterations;
		this.residual = residual;
		this.converged = converged;
	}

	public String solver() { return solver; }

	public int iterations() { return iterations; }

	public double residual() { return residual; }

	public boolean converged() { return converged; }

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "%s: %d iterations, residual %.3e%s", solver, iterations, residual,
			converged ? " (converged)" : "");
	}
}
