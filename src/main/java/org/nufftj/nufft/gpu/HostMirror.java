package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadPoolExecutor;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * The host side of a plan's Java-array executes whose memory chunk runs in several pieces: pinned (page-locked)
 * mirrors of the whole chunk's inputs and outputs, filled and drained by a pool of host threads in units of at most
 * {@link #UNIT} bytes.
 * <p>
 * Every unit of the chunk's input is queued to the pool at once; the plan queues the DMA of each run of finished units
 * as soon as it is ready and transforms each piece once its input is up, so the copies overlap the DMA and the
 * transforms of earlier pieces with no wait for a staging slice to come free ({@link PinnedStaging}'s ring refills a
 * slice only after its DMA has left). The outputs come back by segments of at most {@link #SEGMENT} bytes, each drained
 * by the pool as soon as its DMA has landed, while the next ones are in flight. The copies and the DMA share the host's
 * memory bandwidth, which bounds both (docs/gpu-tuning.md, 2026-11-29 sixth session: on the H200 machine 64 MiB from a
 * Java float[] reach the device in 2.1–2.2 ms with 8 copy threads, where the DMA alone takes 1.22 ms and 15 threads
 * copy alone in 1.04); with several pieces the mirrors beat the rings in 12 of 16 same-run comparisons, with one piece
 * the rings were as fast or faster, and keep those chunks.
 * </p>
 * <p>
 * Memory: a mirror holds one chunk's transfers (at most {@link #MAX_BYTES} each way; a plan whose single transform
 * needs more uses the ring). Made by the first execute that uses it, grown by a larger one, freed by {@link #close()}.
 * Owned by one plan on one context; create and use it with the device's context current.
 * </p>
 */
final class HostMirror implements AutoCloseable {

	/** Most bytes of a mirror, each way. */
	static final long MAX_BYTES = 512L << 20;
	/** Most bytes one pool task copies, and the least (a chunk is cut into about four units per thread). */
	static final int UNIT = 1 << 20, MIN_UNIT = 64 << 10;
	/** Most bytes of one output segment (one DMA and one event, drained as a whole). */
	static final long SEGMENT = 8L << 20;

	private final ThreadPoolExecutor pool;
	private final int threads;
	private final Mirror in = new Mirror("input"), out = new Mirror("output");
	private final List<CUevent> segmentEvents = new ArrayList<>();
	private int unitBytes = UNIT;
	private long segmentBytes = SEGMENT;
	private boolean closed;

	/** A mirror whose copies run on {@code pool} (units sized for its most threads). */
	HostMirror(final ThreadPoolExecutor pool) {
		this.pool = pool;
		this.threads = Math.max(1, pool.getMaximumPoolSize());
	}

	/** Smaller units and segments than the defaults, for tests of runs that span several of them (multiples of 16). */
	void sizes(final int unit, final long segment) {
		if (unit < 16 || unit % 16 != 0 || segment < 16 || segment % 16 != 0) {
			throw new IllegalArgumentException("host mirror: unit " + unit + " and segment " + segment +
				" bytes, expected positive multiples of 16");
		}
		unitBytes = unit;
		segmentBytes = segment;
	}

	/**
	 * Makes the mirrors hold {@code inBytes} and {@code outBytes}; false (and nothing held) when either exceeds
	 * {@link #MAX_BYTES} or the pinned memory cannot be had, so the caller takes the ring instead.
	 */
	boolean ensure(final long inBytes, final long outBytes) {
		if (closed) throw new IllegalStateException("host mirror closed");
		if (inBytes > MAX_BYTES || outBytes > MAX_BYTES) return false;
		try {
			in.ensure(inBytes);
			out.ensure(outBytes);
			return true;
		}
		catch (final GpuException e) {
			// no pinned memory left: give back what was made, the ring needs far less
			in.free();
			out.free();
			return false;
		}
	}

	// -- input --

	/**
	 * The copies of one input into the mirror: unit k holds bytes [k·unit, end(k)) of the mirror (from 0), and
	 * {@link #await} waits for it; {@link #uploadNextRun} queues the DMAs in order as the units are done.
	 */
	final class Fill {

		final long bytes;
		final int unit;
		private final CompletableFuture<?>[] done;
		/** Units whose DMA is queued, and their bytes. */
		private int next;
		private long uploaded;

		private Fill(final PinnedStaging.Host src, final long offset, final long count, final boolean dbl) {
			final int size = dbl ? 8 : 4;
			bytes = count * size;
			unit = unitBytes(bytes);
			final int units = (int) ((bytes + unit - 1) / unit);
			done = new CompletableFuture<?>[units];
			final ByteBuffer b = in.buffer;
			for (int k = 0; k < units; k++) {
				final int at = (int) ((long) k * unit / size), n = (int) ((end(k) - (long) k * unit) / size);
				final int from = (int) (offset + at);
				done[k] = CompletableFuture.runAsync(() -> src.fill(from, at, n, dbl, b), pool);
			}
		}

		int units() {
			return done.length;
		}

		long end(final int k) {
			return Math.min(bytes, (long) (k + 1) * unit);
		}

		/** Waits for unit k's copy; a failure of the copy is thrown as it was. */
		void await(final int k) {
			join(done[k]);
		}

		boolean isDone(final int k) {
			return done[k].isDone();
		}

		/** Bytes from the mirror's start whose DMA is queued. */
		long uploaded() {
			return uploaded;
		}

		/**
		 * Waits for the next unit's copy, then queues one DMA to {@code dst} (at the same offset) on {@code stream} for
		 * it and the units after it already copied, at most {@link #SEGMENT} bytes in all.
		 */
		void uploadNextRun(final CUdeviceptr dst, final CUstream stream) {
			await(next);
			long end = end(next++);
			while (next < done.length && isDone(next) && end(next) - uploaded <= SEGMENT) end = end(next++);
			upload(uploaded, end, dst, stream);
			uploaded = end;
		}

		/** Waits for every copy, ignoring failures (before the mirror is reused or the call returns). */
		void quiesce() {
			HostMirror.quiesce(done);
		}
	}

	/** Queues the copies of {@code count} values of {@code src} from {@code offset} into the input mirror. */
	Fill fill(final PinnedStaging.Host src, final long offset, final long count, final boolean dbl) {
		return new Fill(src, offset, count, dbl);
	}

	/** Queues the DMA of input mirror bytes [from, to) to {@code dst + from} on {@code stream}. */
	void upload(final long from, final long to, final CUdeviceptr dst, final CUstream stream) {
		check(JCudaDriver.cuMemcpyHtoDAsync(dst.withByteOffset(from), in.host.withByteOffset(from), to - from, stream),
			"cuMemcpyHtoDAsync(" + (to - from) + " bytes, host mirror)");
	}

	// -- output --

	/** Output segments queued by {@link #download} and not yet drained. */
	final class Drain {

		private final PinnedStaging.Host dst;
		private final long offset;
		private final boolean dbl;
		private final List<long[]> segments = new ArrayList<>();
		private final List<CompletableFuture<?>> copies = new ArrayList<>();

		private Drain(final PinnedStaging.Host dst, final long offset, final boolean dbl) {
			this.dst = dst;
			this.offset = offset;
			this.dbl = dbl;
		}

		/**
		 * Queues the DMA of {@code src} (device) into output mirror bytes [from, to), in segments of at most
		 * {@link #SEGMENT} bytes, each followed by an event on {@code stream}.
		 */
		void download(final CUdeviceptr src, final long from, final long to, final CUstream stream) {
			download(src, from, to, stream, segmentBytes);
		}

		/** As {@link #download(CUdeviceptr, long, long, CUstream)} in segments of at most {@code segment} bytes. */
		void download(final CUdeviceptr src, final long from, final long to, final CUstream stream, final long segment) {
			for (long s = from, e; s < to; s = e) {
				e = s + Math.min(segment, to - s);
				check(JCudaDriver.cuMemcpyDtoHAsync(out.host.withByteOffset(s), src.withByteOffset(s - from), e - s,
					stream), "cuMemcpyDtoHAsync(" + (e - s) + " bytes, host mirror)");
				final CUevent ev = segmentEvent(segments.size());
				check(JCudaDriver.cuEventRecord(ev, stream), "cuEventRecord (output segment)");
				segments.add(new long[] { s, e });
			}
		}

		/**
		 * Waits for each segment's DMA in turn and hands it to the pool's copies into the destination (value offset
		 * + byte / value size); returns when every value is there.
		 */
		void finish() {
			final int size = dbl ? 8 : 4;
			final ByteBuffer b = out.buffer;
			try {
				for (int i = 0; i < segments.size(); i++) {
					check(JCudaDriver.cuEventSynchronize(segmentEvents.get(i)), "cuEventSynchronize (output segment)");
					final long s = segments.get(i)[0], e = segments.get(i)[1];
					final int unit = unitBytes(e - s);
					for (long u = s; u < e; u += unit) {
						final int at = (int) (u / size), n = (int) ((Math.min(e, u + unit) - u) / size);
						final int to = (int) (offset + at);
						copies.add(CompletableFuture.runAsync(() -> dst.drain(b, to, at, n, dbl), pool));
					}
				}
				for (final CompletableFuture<?> c : copies) join(c);
			}
			finally {
				quiesce(copies.toArray(new CompletableFuture<?>[0]));
			}
		}
	}

	/** Output to {@code dst} from value {@code offset}, stored on the device as {@code dbl ? double : float}. */
	Drain drain(final PinnedStaging.Host dst, final long offset, final boolean dbl) {
		return new Drain(dst, offset, dbl);
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		in.free();
		out.free();
		for (final CUevent e : segmentEvents) JCudaDriver.cuEventDestroy(e);
		segmentEvents.clear();
	}

	// -- helpers --

	/** Units of about a quarter of a thread's share, within [MIN_UNIT, unitBytes], a multiple of 16 bytes. */
	private int unitBytes(final long bytes) {
		final long quarter = bytes / (4L * threads) / 16 * 16;
		return (int) Math.max(Math.min(MIN_UNIT, unitBytes), Math.min(unitBytes, quarter));
	}

	private CUevent segmentEvent(final int i) {
		while (segmentEvents.size() <= i) {
			final CUevent e = new CUevent();
			check(JCudaDriver.cuEventCreate(e, jcuda.driver.CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
			segmentEvents.add(e);
		}
		return segmentEvents.get(i);
	}

	private static void join(final CompletableFuture<?> f) {
		try {
			f.join();
		}
		catch (final CompletionException e) {
			if (e.getCause() instanceof RuntimeException) throw (RuntimeException) e.getCause();
			if (e.getCause() instanceof Error) throw (Error) e.getCause();
			throw e;
		}
	}

	private static void quiesce(final CompletableFuture<?>[] fs) {
		for (final CompletableFuture<?> f : fs) {
			try {
				f.join();
			}
			catch (final RuntimeException e) {
				// reported by the first join that saw it
			}
		}
	}

	/** One pinned buffer, grown by replacing it. */
	private static final class Mirror {

		final String what;
		Pointer host;
		ByteBuffer buffer;
		long capacity;

		Mirror(final String what) {
			this.what = what;
		}

		void ensure(final long bytes) {
			if (bytes <= capacity) return;
			free();
			final Pointer p = new Pointer();
			check(JCudaDriver.cuMemHostAlloc(p, bytes, 0), "cuMemHostAlloc(" + bytes + " bytes, host mirror " + what +
				")");
			host = p;
			buffer = p.getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
			capacity = bytes;
		}

		void free() {
			if (host != null) JCudaDriver.cuMemFreeHost(host);
			host = null;
			buffer = null;
			capacity = 0;
		}
	}
}
