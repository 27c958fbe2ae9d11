package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Buffer;

/** A_1 + A_2 + … (one domain, one range); adjoint Σ A_iᴴ; one owned work buffer per direction. */
final class Sum extends AbstractOperator {

	private final LinearOperator[] ops;
	private final Buffer rangePart, domainPart;

	Sum(final LinearOperator... ops) {
		super("sum of " + ops.length, ops[0].backend(), ops[0].precision(), ops[0].domainLength(), ops[0]
			.rangeLength());
		requireCompatible("sum", ops);
		for (final LinearOperator o : ops)
			InvalidInputException.require(o.domainLength() == domainLength() && o.rangeLength() == rangeLength(),
				"sum: operators of " + rangeLength() + " x " + domainLength() + " and " + o.rangeLength() + " x " + o
					.domainLength() + " values cannot be added");
		this.ops = ops.clone();
		rangePart = ops.length > 1 ? work(rangeLength()) : null;
		domainPart = ops.length > 1 ? work(domainLength()) : null;
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		ops[0].apply(x, y);
		for (int i = 1; i < ops.length; i++) {
			ops[i].apply(x, rangePart);
			backend().axpby(1, rangePart, 1, y);
		}
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		ops[0].applyAdjoint(y, x);
		for (int i = 1; i < ops.length; i++) {
			ops[i].applyAdjoint(y, domainPart);
			backend().axpby(1, domainPart, 1, x);
		}
	}
}
