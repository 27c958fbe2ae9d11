package org.nufftj.recon.iterative;

import org.nufftj.nufft.Buffer;
import org.nufftj.operator.LinearOperator;

/**
 * A regulariser R(G x) that ADMM splits off ({@link Admm}): its transform G, the proximal map of t·R on the
 * coefficients and R's value there. One term ({@link L1Penalty}) or a sum of terms on stacked coefficients
 * ({@link PenaltySum}). Closing frees what it owns.
 */
public interface Penalty extends AutoCloseable {

	/** G. */
	LinearOperator transform();

	/** Coefficients c ← prox_{t·R}(c) in place (t > 0 the step). */
	void shrink(Buffer coefficients, double t);

	/** R from the coefficients c = G x. */
	double value(Buffer coefficients);

	@Override
	void close();
}
