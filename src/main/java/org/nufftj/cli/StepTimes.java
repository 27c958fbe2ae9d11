package org.nufftj.cli;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The {@code --verbose} time split of one subcommand: start-up (from the JVM's start until the command began: JVM,
 * class loading, argument parsing), then the command's own steps in order (read, plan, transform, write, …), each in
 * milliseconds of wall time, printed as one line {@code times: start-up 310 ms, read 42 ms, …, total 1203 ms}.
 */
final class StepTimes {

	/** When the {@link Daemon}'s current request arrived (System.nanoTime), or 0 outside a daemon. */
	private static volatile long requestStart;

	private final long begin = System.nanoTime();
	private long last = begin;
	private final StringBuilder steps = new StringBuilder();

	/** Ends the step running since the previous mark (or since the command began) and names it. */
	void mark(final String step) {
		final long now = System.nanoTime();
		add(step, (now - last) / 1e6);
		last = now;
	}

	/**
	 * Ends the step running since the previous mark as two: {@code first}, measured inside it ({@code firstMs}, e.g.
	 * the plan of a transform call), and {@code rest}, the remainder.
	 */
	void mark(final String first, final double firstMs, final String rest) {
		final long now = System.nanoTime();
		add(first, firstMs);
		add(rest, (now - last) / 1e6 - firstMs);
		last = now;
	}

	private void add(final String step, final double ms) {
		steps.append(String.format(Locale.ROOT, ", %s %.0f ms", step, ms));
	}

	/** In a {@link Daemon}: the arrival of the request being served (System.nanoTime), or 0 when it is done. */
	static void requestStarted(final long nanos) {
		requestStart = nanos;
	}

	/**
	 * The line; the start-up is the JVM's uptime when the command began (reading it loads java.management), or in a
	 * {@link Daemon} the time from the request's arrival.
	 */
	String line() {
		final double sinceBegin = (System.nanoTime() - begin) / 1e6;
		final long request = requestStart;
		final double startUp = request != 0 ? (begin - request) / 1e6 : ManagementFactory.getRuntimeMXBean()
			.getUptime() - sinceBegin;
		return String.format(Locale.ROOT, "times: start-up %.0f ms%s, total %.0f ms", startUp, steps,
			startUp + sinceBegin);
	}
}
