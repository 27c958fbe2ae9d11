package org.nufftj.operator;

/**
 * A linear map A between complex vector spaces, stored as interleaved (re, im) float arrays, that knows its adjoint
 * (BART's linop, sigpy's {@code Linop} with {@code .H} and {@code .N}).
 * <p>
 * {@link #domainLength()} and {@link #rangeLength()} are the lengths (in floats) of ONE vector; an operator may
 * accept arrays that hold several vectors back to back (coils, frames), applying itself to each.
 * </p>
 */
public interface LinearOperator {

	/** Floats in one domain vector (2 × complex elements). */
	long domainLength();

	/** Floats in one range vector (2 × complex elements). */
	long rangeLength();

	/** y = A x. */
	void forward(float[] x, float[] y);

	/** x = Aᴴ y, the conjugate transpose of {@link #forward}. */
	void adjoint(float[] y, float[] x);

	/** x_out = Aᴴ A x (the normal operator). */
	default void normal(final float[] x, final float[] out) {
		final long vectors = x.length / domainLength();
		final float[] y = new float[(int) (rangeLength() * vectors)];
		forward(x, y);
		adjoint(y, out);
	}
}
