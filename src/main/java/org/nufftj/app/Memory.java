package org.nufftj.app;

import java.util.Locale;

import org.nufftj.InvalidInputException;

/**
 * Size checks done before allocating, in {@code long} arithmetic that cannot overflow: an array length beyond what
 * Java holds is bad input; an estimate beyond the heap left is {@link Exceeded}, naming the figure and how to raise
 * the heap (so a command fails in a moment with one line instead of grinding and throwing OutOfMemoryError).
 */
public final class Memory {

	/** The longest Java array (a little under 2^31 elements; the VM keeps a few header words). */
	public static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

	private Memory() {}

	/** An estimate that does not fit the heap: its message has the figure and the {@code -Xmx} hint. */
	public static final class Exceeded extends InvalidInputException {

		private static final long serialVersionUID = 1L;

		Exceeded(final String message) {
			super(message);
		}
	}

	// -- public API --

	/**
	 * The product of {@code factors} as an array length; fails (one line naming {@code what} and the product) when it
	 * exceeds {@link #MAX_ARRAY} or a factor is negative.
	 */
	public static int length(final String what, final long... factors) {
		final long n = product(what, factors);
		if (n > MAX_ARRAY) throw new InvalidInputException(what + ": needs " + n + " values in one array, more than the " +
			MAX_ARRAY + " a Java array holds");
		return (int) n;
	}

	/** Fails with {@link Exceeded} unless {@code bytes} fit into the heap that can still be allocated. */
	public static void require(final String what, final long bytes) {
		final Runtime rt = Runtime.getRuntime();
		final long available = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
		if (bytes > available) throw new Exceeded(String.format(Locale.ROOT, "%s needs about %s of memory, but only %s " +
			"of the %s Java heap is free; raise the heap (command line: NUFFTJ_JAVA_OPTS=-Xmx<size>; Fiji: Edit > " +
			"Options > Memory & Threads) or make the job smaller", what, size(bytes), size(available),
			size(rt.maxMemory())));
	}

	/** The product of non-negative factors, saturating at {@link Long#MAX_VALUE} instead of overflowing. */
	public static long product(final String what, final long... factors) {
		long n = 1;
		for (final long f : factors) {
			if (f < 0) throw new InvalidInputException(what + ": size " + f + " is negative");
			if (f != 0 && n > Long.MAX_VALUE / f) return Long.MAX_VALUE;
			n *= f;
		}
		return n;
	}

	/** Bytes in binary units: "512 MiB", "3.2 GiB". */
	public static String size(final long bytes) {
		if (bytes >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
		return String.format(Locale.ROOT, "%d MiB", Math.max(0, (bytes + (1 << 20) - 1) >> 20));
	}
}
