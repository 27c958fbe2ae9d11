package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Buffer;

/** s·A for a real s; adjoint s·Aᴴ. */
final class Scaled extends AbstractOperator {

	private final LinearOperator a;
	private final double s;

	Scaled(final LinearOperator a, final double s) {
		super(s + " x " + a, a.backend(), a.precision(), a.domainLength(), a.rangeLength());
		InvalidInputException.require(Double.isFinite(s), "scale: expected a finite number, found " + s);
		this.a = a;
		this.s = s;
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		a.apply(x, y);
		if (s != 1) backend().scale(y, s);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		a.applyAdjoint(y, x);
		if (s != 1) backend().scale(x, s);
	}
}
