package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Buffer;

/**
 * A_n ∘ … ∘ A_2 ∘ A_1 (A_1 applied first): y = A_n(…A_2(A_1 x)); adjoint x = A_1ᴴ(A_2ᴴ(…A_nᴴ y)). The n − 1
 * intermediate vectors are owned work buffers, used in both directions.
 */
final class Chain extends AbstractOperator {

	private final LinearOperator[] ops;
	private final Buffer[] between;

	Chain(final LinearOperator... ops) {
		super("chain of " + ops.length, ops[0].backend(), ops[0].precision(), ops[0].domainLength(),
			ops[ops.length - 1].rangeLength());
		requireCompatible("chain", ops);
		for (int i = 1; i < ops.length; i++) {
			InvalidInputException.require(ops[i].domainLength() == ops[i - 1].rangeLength(), "chain: operator " + (i + 1) +
				" takes vectors of " + ops[i].domainLength() + " values, operator " + i + " gives " + ops[i - 1]
					.rangeLength());
		}
		this.ops = ops.clone();
		between = new Buffer[ops.length - 1];
		for (int i = 0; i < between.length; i++) between[i] = work(ops[i].rangeLength());
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		final int n = ops.length;
		for (int i = 0; i < n; i++) ops[i].apply(i == 0 ? x : between[i - 1], i == n - 1 ? y : between[i]);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		final int n = ops.length;
		for (int i = n - 1; i >= 0; i--) ops[i].applyAdjoint(i == n - 1 ? y : between[i], i == 0 ? x : between[i - 1]);
	}
}
