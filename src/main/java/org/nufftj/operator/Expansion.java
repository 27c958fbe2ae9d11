package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;

/**
 * One vector to a batch of weighted copies: x (n values) ↦ d ⊙ [x; x; …; x] (d of k·n values: k copies), with adjoint
 * [y_1; …; y_k] ↦ Σ_j conj(d_j) ⊙ y_j — the coil expansion of SENSE, x ↦ (S_c ⊙ x)_c, in one backend operation each
 * way (a broadcast product; a conjugate product and a sum over the batch), where chain(stack(I, …, I), diagonal(d))
 * launches k copies forward and 2k − 1 operations back. d is the caller's; it must stay open.
 */
final class Expansion extends AbstractOperator {

	private final Buffer d, products;
	private final int copies;

	Expansion(final Buffer d, final long domainLength) {
		super("expansion", d.backend(), d.precision(), domainLength, d.length());
		InvalidInputException.require(domainLength > 0 && domainLength % 2 == 0 && d.length() % domainLength == 0,
			"expansion: " + d.length() + " weights are not a whole number of copies of vectors of " + domainLength +
				" values");
		final long k = d.length() / domainLength;
		InvalidInputException.require(k <= Integer.MAX_VALUE, "expansion: " + k + " copies, expected at most " +
			Integer.MAX_VALUE);
		this.d = d;
		copies = (int) k;
		products = copies > 1 ? work(d.length()) : null;
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		backend().multiply(d, x, y);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		if (copies == 1) {
			backend().multiplyConjugate(y, d, x);
			return;
		}
		final Backend b = backend();
		b.multiplyConjugate(y, d, products);
		b.sumBatch(products, copies, x);
	}
}
