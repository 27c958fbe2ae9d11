package org.nufftj.operator;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/** y = x. */
final class Identity extends AbstractOperator {

	Identity(final Backend backend, final Precision precision, final long length) {
		super("identity", backend, precision, length, length);
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		backend().copy(x, y);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		apply(y, x);
	}
}
