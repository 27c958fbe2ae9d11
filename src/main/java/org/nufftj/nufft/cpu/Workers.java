package org.nufftj.nufft.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The plan's own worker threads (daemon, shut down on close): static ranges and dynamically shared task lists. */
final class Workers implements AutoCloseable {

	interface Range {
		/** Runs items [from, to) on worker {@code worker} (0 ≤ worker &lt; threads). */
		void run(int worker, int from, int to);
	}

	interface Task {
		void run(int worker, int item);
	}

	/** No threads of its own: everything runs on the calling thread (never closed; holds nothing). */
	static final Workers SERIAL = new Workers(1);

	private final int threads;
	private final ExecutorService pool;

	Workers(final int threads) {
		this.threads = Math.max(1, threads);
		final AtomicInteger count = new AtomicInteger();
		final ThreadFactory factory = r -> {
			final Thread t = new Thread(r, "nufft-j-cpu-" + count.incrementAndGet());
			t.setDaemon(true);
			return t;
		};
		this.pool = this.threads > 1 ? Executors.newFixedThreadPool(this.threads, factory) : null;
	}

	int threads() { return threads; }

	/** Splits [0, n) into one contiguous range per worker. */
	void ranges(final int n, final Range body) {
		if (pool == null || n < 2) {
			body.run(0, 0, n);
			return;
		}
		final int t = Math.min(threads, n);
		final List<Future<?>> fs = new ArrayList<>(t);
		for (int i = 0; i < t; i++) {
			final int w = i, from = (int) ((long) n * i / t), to = (int) ((long) n * (i + 1) / t);
			fs.add(pool.submit(() -> body.run(w, from, to)));
		}
		join(fs);
	}

	/** Runs items [0, n) handed out one at a time to whichever worker is free (load balancing). */
	void each(final int n, final Task body) {
		if (pool == null || n < 2) {
			for (int i = 0; i < n; i++) body.run(0, i);
			return;
		}
		final AtomicInteger next = new AtomicInteger();
		final int t = Math.min(threads, n);
		final List<Future<?>> fs = new ArrayList<>(t);
		for (int i = 0; i < t; i++) {
			final int w = i;
			fs.add(pool.submit(() -> {
				for (int item; (item = next.getAndIncrement()) < n;)
					body.run(w, item);
			}));
		}
		join(fs);
	}

	@Override
	public void close() {
		if (pool != null) pool.shutdownNow();
	}

	private static void join(final List<Future<?>> fs) {
		try {
			for (final Future<?> f : fs) f.get();
		}
		catch (final InterruptedException e) {
			for (final Future<?> f : fs) f.cancel(true);
			Thread.currentThread().interrupt();
			throw new IllegalStateException("NUFFT interrupted", e);
		}
		catch (final ExecutionException e) {
			final Throwable c = e.getCause();
			if (c instanceof RuntimeException) throw (RuntimeException) c;
			if (c instanceof Error) throw (Error) c;
			throw new IllegalStateException(c);
		}
	}
}
