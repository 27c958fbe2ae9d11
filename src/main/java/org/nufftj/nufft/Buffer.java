package org.nufftj.nufft;

/**
 * A vector of real numbers of one {@link Precision} held by a {@link Backend}: a Java array on the CPU, device memory on
 * a GPU. Complex vectors are stored interleaved (re, im), so a complex vector of n elements is a buffer of 2n values.
 * Batches (coils, frames) are stored back to back: [batch][element].
 * <p>
 * A buffer made by {@link Backend#allocate} or {@link Backend#wrap} is owned by its maker, who closes it; a
 * {@link #slice} is a view that owns nothing (closing it is a no-op) and is valid while its parent is open.
 * Every operation on buffers is asynchronous on the backend's stream where the backend has one;
 * {@link Backend#read} and {@link Backend#synchronize} wait.
 * </p>
 */
public interface Buffer extends AutoCloseable {

	/** The backend that holds this buffer; buffers of one backend only are combined. */
	Backend backend();

	/** Float or double. */
	Precision precision();

	/** Number of real values held (2 × complex elements). */
	long length();

	/**
	 * A view of {@code length} values from {@code offset} (in values) of this buffer, sharing its storage; it owns
	 * nothing. Fails naming both ranges when it does not fit.
	 */
	Buffer slice(long offset, long length);

	/** Frees the storage (a view: nothing); idempotent. */
	@Override
	void close();

	/** Checks that {@code b} holds exactly {@code values} values; the message names {@code what}. */
	static void requireLength(final Buffer b, final long values, final String what) {
		if (b.length() != values) {
			throw new org.nufftj.InvalidInputException(what + ": expected a buffer of " + values + " values, found " +
				b.length());
		}
	}
}
