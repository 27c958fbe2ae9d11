package org.nufftj.operator;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/** Aᴴ of an operator A: a view that swaps apply and applyAdjoint; owns nothing. */
final class AdjointOperator implements LinearOperator {

	private final LinearOperator a;

	AdjointOperator(final LinearOperator a) {
		this.a = a;
	}

	@Override public Backend backend() { return a.backend(); }
	@Override public Precision precision() { return a.precision(); }
	@Override public long domainLength() { return a.rangeLength(); }
	@Override public long rangeLength() { return a.domainLength(); }
	@Override public void apply(final Buffer x, final Buffer y) { a.applyAdjoint(x, y); }
	@Override public void applyAdjoint(final Buffer y, final Buffer x) { a.apply(y, x); }
	@Override public LinearOperator adjoint() { return a; }
	@Override public String toString() { return "adjoint of " + a; }
}
