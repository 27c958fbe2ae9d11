package org.nufftj.operator;

import org.nufftj.nufft.Buffer;

/** The normal operator AᴴA (self-adjoint), through one owned work buffer of A's range length. */
final class NormalOperator extends AbstractOperator {

	private final LinearOperator a;
	private final Buffer y;

	NormalOperator(final LinearOperator a) {
		super("normal operator of " + a, a.backend(), a.precision(), a.domainLength(), a.domainLength());
		this.a = a;
		this.y = work(a.rangeLength());
	}

	@Override
	public void apply(final Buffer x, final Buffer out) {
		check(x, out);
		a.apply(x, y);
		a.applyAdjoint(y, out);
	}

	@Override
	public void applyAdjoint(final Buffer x, final Buffer out) {
		apply(x, out);
	}

	@Override
	public LinearOperator adjoint() { return this; }
}
