package org.nufftj;

/**
 * Bad input from a user: a file, a field, an option or an array that is not what it must be. The message is one line
 * that names what is wrong, where, and what was expected versus found; callers (CLI, Fiji commands) show it as is.
 */
public class InvalidInputException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public InvalidInputException(final String message) {
		super(message);
	}

	public InvalidInputException(final String message, final Throwable cause) {
		super(message, cause);
	}

	/** Fails with a message naming {@code what} unless {@code condition} holds. */
	public static void require(final boolean condition, final String what) {
		if (!condition) throw new InvalidInputException(what);
	}
}
