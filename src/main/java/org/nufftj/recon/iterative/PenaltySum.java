package org.nufftj.recon.iterative;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Buffer;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.Operators;

/**
 * R(x) = Σ_j R_j(G_j x) as one {@link Penalty} on stacked coefficients: G = [G_1; G_2; …] ({@link Operators#stack}),
 * and since the terms act on disjoint parts of the coefficients, the proximal map is each term's on its own part.
 * ADMM with this penalty is ADMM with one split per term and a shared ρ (BART's {@code pics} with several {@code -R}
 * terms). Owns its terms (closed with it) and the stack.
 */
public final class PenaltySum implements Penalty {

	private final Penalty[] terms;
	private final long[] offsets;
	private final LinearOperator stack;

	/** @param terms two or more penalties on transforms of one domain (owned) */
	public PenaltySum(final Penalty... terms) {
		InvalidInputException.require(terms.length >= 2, "penalty sum: " + terms.length + " terms, expected >= 2");
		this.terms = terms.clone();
		final LinearOperator[] ops = new LinearOperator[terms.length];
		offsets = new long[terms.length];
		for (int j = 0; j < terms.length; j++) {
			ops[j] = terms[j].transform();
			if (j > 0) offsets[j] = offsets[j - 1] + ops[j - 1].rangeLength();
		}
		stack = Operators.stack(ops);
	}

	// -- public API --

	@Override
	public LinearOperator transform() { return stack; }

	@Override
	public void shrink(final Buffer coefficients, final double t) {
		Buffer.requireLength(coefficients, stack.rangeLength(), this + ": coefficients");
		for (int j = 0; j < terms.length; j++) terms[j].shrink(part(coefficients, j), t);
	}

	@Override
	public double value(final Buffer coefficients) {
		double s = 0;
		for (int j = 0; j < terms.length; j++) s += terms[j].value(part(coefficients, j));
		return s;
	}

	@Override
	public String toString() {
		return Arrays.stream(terms).map(Object::toString).collect(Collectors.joining(" + "));
	}

	/** The stack and every term; idempotent as its parts are. */
	@Override
	public void close() {
		stack.close();
		for (final Penalty p : terms) p.close();
	}

	// -- helpers --

	private Buffer part(final Buffer c, final int j) {
		return c.slice(offsets[j], terms[j].transform().rangeLength());
	}
}
