package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * Copies between Java arrays and device memory through a ring of pinned (page-locked) host slices, so that the CPU
 * copy of one slice (with any float ↔ double conversion) overlaps the DMA of the others: transfers run at pinned-DMA
 * speed instead of the driver's pageable path. A {@link PinnedArray} of the transfer's precision needs no slice: its
 * memory is copied from or into directly. Owned by one user (a plan, a GPU recon) on one context; {@link #close()}
 * frees the pinned memory. Create it with the device's context current.
 */
public final class PinnedStaging implements AutoCloseable {

	/** Bytes per slice by default: large enough for full DMA speed, small enough to keep several in flight. */
	static final int SLICE = 4 << 20;

	private final int slice;

	private final Pointer[] host;
	private final ByteBuffer[] buffers;
	private final CUevent[] done;
	private boolean closed;

	/** Two slices. */
	public PinnedStaging() {
		this(2);
	}

	/** {@code slices} slices of {@link #SLICE} bytes (at least 2). */
	public PinnedStaging(final int slices) {
		this(slices, SLICE);
	}

	/** {@code slices} slices (at least 2) of {@code sliceBytes} bytes (a multiple of 8). */
	public PinnedStaging(final int slices, final int sliceBytes) {
		if (slices < 2) throw new IllegalArgumentException("pinned staging: " + slices + " slices, at least 2");
		if (sliceBytes < 8 || sliceBytes % 8 != 0) {
			throw new IllegalArgumentException("pinned staging: slices of " + sliceBytes + " bytes, a multiple of 8");
		}
		slice = sliceBytes;
		host = new Pointer[slices];
		buffers = new ByteBuffer[slices];
		done = new CUevent[slices];
		boolean ok = false;
		try {
			for (int i = 0; i < slices; i++) {
				host[i] = new Pointer();
				check(JCudaDriver.cuMemHostAlloc(host[i], slice, 0), "cuMemHostAlloc(" + slice + " bytes, pinned staging)");
				buffers[i] = host[i].getByteBuffer(0, slice).order(ByteOrder.nativeOrder());
				done[i] = new CUevent();
				check(JCudaDriver.cuEventCreate(done[i], 0), "cuEventCreate");
			}
			ok = true;
		}
		finally {
			if (!ok) close();
		}
	}

	/**
	 * A Java array on the host side of a transfer: float[] or double[], each value converted to the device's precision
	 * as it is copied into or out of a pinned slice.
	 */
	abstract static class Host {

		/** Copies a[o … o + n) into the slice from value index {@code at}, as double ({@code dbl}) or float. */
		abstract void fill(int o, int at, int n, boolean dbl, ByteBuffer b);

		/** Copies n values of the slice from value index {@code at} into a[o …). */
		abstract void drain(ByteBuffer b, int o, int at, int n, boolean dbl);

		/**
		 * Page-locked memory of value {@code o} when the array is pinned and stored as {@code dbl ? double : float}
		 * (a transfer then needs no slice), else null.
		 */
		Pointer pinned(final long o, final boolean dbl) {
			return null;
		}

		static Host of(final float[] a) {
			return new Host() {

				@Override
				void fill(final int o, final int at, final int n, final boolean dbl, final ByteBuffer b) {
					if (!dbl) b.asFloatBuffer().put(at, a, o, n);
					else {
						final DoubleBuffer d = b.asDoubleBuffer();
						for (int i = 0; i < n; i++) d.put(at + i, a[o + i]);
					}
				}

				@Override
				void drain(final ByteBuffer b, final int o, final int at, final int n, final boolean dbl) {
					if (!dbl) b.asFloatBuffer().get(at, a, o, n);
					else {
						final DoubleBuffer d = b.asDoubleBuffer();
						for (int i = 0; i < n; i++) a[o + i] = (float) d.get(at + i);
					}
				}
			};
		}

		static Host of(final double[] a) {
			return new Host() {

				@Override
				void fill(final int o, final int at, final int n, final boolean dbl, final ByteBuffer b) {
					if (dbl) b.asDoubleBuffer().put(at, a, o, n);
					else {
						final FloatBuffer f = b.asFloatBuffer();
						for (int i = 0; i < n; i++) f.put(at + i, (float) a[o + i]);
					}
				}

				@Override
				void drain(final ByteBuffer b, final int o, final int at, final int n, final boolean dbl) {
					if (dbl) b.asDoubleBuffer().get(at, a, o, n);
					else {
						final FloatBuffer f = b.asFloatBuffer();
						for (int i = 0; i < n; i++) a[o + i] = f.get(at + i);
					}
				}
			};
		}
	}

	/**
	 * Uploads {@code count} values of {@code src} from {@code offset} to {@code dst}, stored as
	 * {@code dbl ? double : float}; asynchronous on {@code stream} (returns when the last slice is queued).
	 */
	public void upload(final float[] src, final long offset, final long count, final boolean dbl,
		final CUdeviceptr dst, final CUstream stream)
	{
		upload(Host.of(src), offset, count, dbl, dst, stream);
	}

	/** As {@link #upload(float[], long, long, boolean, CUdeviceptr, CUstream)} from a double array. */
	public void upload(final double[] src, final long offset, final long count, final boolean dbl,
		final CUdeviceptr dst, final CUstream stream)
	{
		upload(Host.of(src), offset, count, dbl, dst, stream);
	}

	/**
	 * Downloads {@code count} values from {@code src} (device, float or double) into {@code dst} from {@code offset};
	 * queued on {@code stream} after the work already there, and returns when the last value has arrived.
	 */
	public void download(final CUdeviceptr src, final float[] dst, final long offset, final long count,
		final boolean dbl, final CUstream stream)
	{
		download(src, Host.of(dst), offset, count, dbl, stream);
	}

	/** As {@link #download(CUdeviceptr, float[], long, long, boolean, CUstream)} into a double array. */
	public void download(final CUdeviceptr src, final double[] dst, final long offset, final long count,
		final boolean dbl, final CUstream stream)
	{
		download(src, Host.of(dst), offset, count, dbl, stream);
	}

	void upload(final Host src, final long offset, final long count, final boolean dbl, final CUdeviceptr dst,
		final CUstream stream)
	{
		final int size = dbl ? 8 : 4;
		final Pointer direct = src.pinned(offset, dbl);
		if (direct != null) {
			check(JCudaDriver.cuMemcpyHtoDAsync(dst, direct, count * size, stream),
				"cuMemcpyHtoDAsync(" + count * size + " bytes, pinned array)");
			return;
		}
		final int perSlice = slice / size;
		int slot = 0;
		for (long done0 = 0; done0 < count; done0 += perSlice, slot = (slot + 1) % host.length) {
			final int n = (int) Math.min(perSlice, count - done0);
			check(JCudaDriver.cuEventSynchronize(done[slot]), "cuEventSynchronize(pinned staging)");
			final ByteBuffer b = buffers[slot];
			b.clear();
			final long from = offset + done0;
			parts(n, (start, len) -> src.fill((int) from + start, start, len, dbl, b));
			check(JCudaDriver.cuMemcpyHtoDAsync(dst.withByteOffset(done0 * size), host[slot], (long) n * size, stream),
				"cuMemcpyHtoDAsync(" + (long) n * size + " bytes)");
			check(JCudaDriver.cuEventRecord(done[slot], stream), "cuEventRecord");
		}
	}

	void download(final CUdeviceptr src, final Host dst, final long offset, final long count, final boolean dbl,
		final CUstream stream)
	{
		final int size = dbl ? 8 : 4;
		final Pointer direct = dst.pinned(offset, dbl);
		if (direct != null) {
			check(JCudaDriver.cuMemcpyDtoHAsync(direct, src, count * size, stream),
				"cuMemcpyDtoHAsync(" + count * size + " bytes, pinned array)");
			check(JCudaDriver.cuEventRecord(done[0], stream), "cuEventRecord");
			check(JCudaDriver.cuEventSynchronize(done[0]), "cuEventSynchronize(pinned array download)");
			return;
		}
		final int perSlice = slice / size;
		final int slices = (int) ((count + perSlice - 1) / perSlice);
		final int ring = host.length;
		for (int s = 0; s < Math.min(ring, slices); s++) queueDownload(src, s, perSlice, count, size, stream);
		for (int s = 0; s < slices; s++) {
			final int slot = s % ring;
			check(JCudaDriver.cuEventSynchronize(done[slot]), "cuEventSynchronize(pinned staging)");
			final long first = (long) s * perSlice;
			final int n = (int) Math.min(perSlice, count - first);
			final ByteBuffer b = buffers[slot];
			b.clear();
			final long to = offset + first;
			parts(n, (start, len) -> dst.drain(b, (int) to + start, start, len, dbl));
			if (s + ring < slices) queueDownload(src, s + ring, perSlice, count, size, stream);
		}
	}

	private void queueDownload(final CUdeviceptr src, final int s, final int perSlice, final long count, final int size,
		final CUstream stream)
	{
		final int slot = s % host.length;
		final long first = (long) s * perSlice;
		final int n = (int) Math.min(perSlice, count - first);
		check(JCudaDriver.cuMemcpyDtoHAsync(host[slot], src.withByteOffset(first * size), (long) n * size, stream),
			"cuMemcpyDtoHAsync(" + (long) n * size + " bytes)");
		check(JCudaDriver.cuEventRecord(done[slot], stream), "cuEventRecord");
	}

	/**
	 * Values copied per task: a slice is copied by up to {@code slice / (4·PART)} threads at once, since one thread's
	 * memory copy (~5–10 GB/s) is slower than the pinned DMA it feeds.
	 */
	static final int PART = 1 << 16;

	/** Runs {@code part(start, length)} over [0, n) in pieces of {@link #PART}, in parallel when there are several. */
	private static void parts(final int n, final java.util.function.BiConsumer<Integer, Integer> part) {
		final int pieces = (n + PART - 1) / PART;
		if (pieces <= 1) {
			part.accept(0, n);
			return;
		}
		java.util.stream.IntStream.range(0, pieces).parallel().forEach(i -> part.accept(i * PART, Math.min(PART, n - i *
			PART)));
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		for (int i = 0; i < host.length; i++) {
			if (done[i] != null) JCudaDriver.cuEventDestroy(done[i]);
			if (host[i] != null && buffers[i] != null) JCudaDriver.cuMemFreeHost(host[i]);
		}
	}
}
