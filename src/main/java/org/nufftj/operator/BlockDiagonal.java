package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Buffer;

/**
 * The same operator on each of a batch of n vectors held back to back (coils, frames):
 * [x_1; …; x_n] ↦ [A x_1; …; A x_n], adjoint likewise with Aᴴ. No work buffers (views of the batch).
 */
final class BlockDiagonal extends AbstractOperator {

	private final LinearOperator a;
	private final int n;

	BlockDiagonal(final LinearOperator a, final int n) {
		super("block diagonal " + n + " x " + a, a.backend(), a.precision(), a.domainLength() * n, a.rangeLength() *
			n);
		InvalidInputException.require(n >= 1, "block diagonal: batch must be >= 1, found " + n);
		this.a = a;
		this.n = n;
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		final long d = a.domainLength(), r = a.rangeLength();
		for (int b = 0; b < n; b++) a.apply(x.slice(b * d, d), y.slice(b * r, r));
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		final long d = a.domainLength(), r = a.rangeLength();
		for (int b = 0; b < n; b++) a.applyAdjoint(y.slice(b * r, r), x.slice(b * d, d));
	}
}
