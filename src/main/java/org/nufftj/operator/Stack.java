package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Buffer;

/**
 * Vertical stack: x ↦ [A_1 x; A_2 x; …] (one domain, ranges back to back); adjoint [y_1; y_2; …] ↦ Σ_i A_iᴴ y_i,
 * accumulated through one owned work buffer of the domain length.
 */
final class Stack extends AbstractOperator {

	private final LinearOperator[] ops;
	private final long[] offsets;
	private final Buffer part;

	Stack(final LinearOperator... ops) {
		super("stack of " + ops.length, ops[0].backend(), ops[0].precision(), ops[0].domainLength(), total(ops));
		requireCompatible("stack", ops);
		for (final LinearOperator o : ops)
			InvalidInputException.require(o.domainLength() == ops[0].domainLength(), "stack: operators take vectors of " +
				ops[0].domainLength() + " and " + o.domainLength() + " values; a stack needs one domain");
		this.ops = ops.clone();
		offsets = new long[ops.length];
		for (int i = 1; i < ops.length; i++) offsets[i] = offsets[i - 1] + ops[i - 1].rangeLength();
		part = ops.length > 1 ? work(domainLength()) : null;
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		for (int i = 0; i < ops.length; i++) ops[i].apply(x, y.slice(offsets[i], ops[i].rangeLength()));
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		ops[0].applyAdjoint(y.slice(0, ops[0].rangeLength()), x);
		for (int i = 1; i < ops.length; i++) {
			ops[i].applyAdjoint(y.slice(offsets[i], ops[i].rangeLength()), part);
			backend().axpby(1, part, 1, x);
		}
	}

	private static long total(final LinearOperator[] ops) {
		long r = 0;
		for (final LinearOperator o : ops) r += o.rangeLength();
		return r;
	}
}
