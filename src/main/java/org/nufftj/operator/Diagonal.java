package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;

/**
 * Element-wise multiplication by a fixed vector d, repeated over the batch when shorter than x (one coil-map set for
 * every frame; one weight per sample for every coil): complex y = x ⊙ d with adjoint x = y ⊙ conj(d), or real
 * y = x ⊙ w (w real, one value per complex element) which is self-adjoint. d is the caller's; it must stay open.
 */
final class Diagonal extends AbstractOperator {

	private final Buffer d;
	private final boolean real;

	Diagonal(final Backend backend, final Buffer d, final long length, final boolean real) {
		super((real ? "real " : "") + "diagonal", backend, d.precision(), length, length);
		InvalidInputException.require(d.backend() == backend, "diagonal: the vector belongs to backend " + d.backend()
			.name() + ", not " + backend.name());
		final long period = real ? 2 * d.length() : d.length();
		InvalidInputException.require(period > 0 && length % period == 0, "diagonal: vectors of " + length +
			" values are not a whole number of copies of the " + (real ? "real weights (2 x " + d.length() + ")" :
				"complex vector of " + d.length() + " values"));
		this.d = d;
		this.real = real;
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		if (real) backend().multiplyReal(x, d, y);
		else backend().multiply(x, d, y);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		if (real) backend().multiplyReal(y, d, x);
		else backend().multiplyConjugate(y, d, x);
	}
}
