package org.nufftj.operator;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * A linear map A between complex vector spaces, on buffers of one {@link Backend} in one {@link Precision}, that knows
 * its adjoint (BART's linop, sigpy's {@code Linop} with {@code .H} and {@code .N}).
 * <p>
 * Vectors are complex interleaved (re, im); {@link #domainLength()} and {@link #rangeLength()} are the number of
 * values (2 × complex elements) of the one domain and range vector an application takes (batches of coils or frames
 * are operators of their own: {@link Operators#blockDiagonal}, or a NUFFT operator of T transforms). Outputs must not
 * alias inputs. An application allocates nothing: the work buffers an operator needs are allocated once, when it is
 * made, and freed by {@link #close()} — which frees what this operator allocated itself, never the operators, plans or
 * buffers it was made from (their makers close those).
 * </p>
 */
public interface LinearOperator extends AutoCloseable {

	/** The backend whose buffers this operator takes. */
	Backend backend();

	/** The precision of the buffers this operator takes. */
	Precision precision();

	/** Values in the domain vector x (2 × complex elements). */
	long domainLength();

	/** Values in the range vector y (2 × complex elements). */
	long rangeLength();

	/** y = A x (y overwritten). */
	void apply(Buffer x, Buffer y);

	/** x = Aᴴ y, the conjugate transpose of {@link #apply} (x overwritten). */
	void applyAdjoint(Buffer y, Buffer x);

	/** Aᴴ as an operator (a view: it owns nothing; its adjoint is this operator). */
	default LinearOperator adjoint() {
		return new AdjointOperator(this);
	}

	/** AᴴA as an operator, with its work buffer (one range vector) owned: close it when done. */
	default LinearOperator normal() {
		return new NormalOperator(this);
	}

	/** Frees the work buffers this operator allocated (none by default); idempotent. */
	@Override
	default void close() {}
}
