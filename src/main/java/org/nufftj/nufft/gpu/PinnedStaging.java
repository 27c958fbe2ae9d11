package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * Copies between Java arrays and device memory through two pinned (page-locked) host slices, so that the CPU copy
 * of one slice (with any float ↔ double conversion) overlaps the DMA of the other: transfers run at pinned-DMA speed
 * instead of the driver's pageable path. Owned by one user (a plan, a GPU recon) on one context; {@link #close()} frees
 * the pinned memory. Create it with the device's context current.
 */
public final class PinnedStaging implements AutoCloseable {

	/** Bytes per slice: large enough for full DMA speed, small enough to keep both slices in flight. */
	static final int SLICE = 4 << 20;

	private final Pointer[] host = { new Pointer(), new Pointer() };
	private final ByteBuffer[] buffers = new ByteBuffer[2];
	private final CUevent[] done = { new CUevent(), new CUevent() };
	private boolean closed;

	public PinnedStaging() {
		boolean ok = false;
		try {
			for (int i = 0; i < 2; i++) {
				check(JCudaDriver.cuMemHostAlloc(host[i], SLICE, 0), "cuMemHostAlloc(" + SLICE + " bytes, pinned staging)");
				buffers[i] = host[i].getByteBuffer(0, SLICE).order(ByteOrder.nativeOrder());
				check(JCudaDriver.cuEventCreate(done[i], 0), "cuEventCreate");
			}
			ok = true;
		}
		finally {
			if (!ok) close();
		}
	}

	/**
	 * Uploads {@code count} values of {@code src} (float[] or double[]) from {@code offset} to {@code dst}, stored as
	 * {@code dbl ? double : float}; asynchronous on {@code stream} (returns when the last slice is queued).
	 */
	public void upload(final Object src, final long offset, final long count, final boolean dbl, final CUdeviceptr dst,
		final CUstream stream)
	{
		final int size = dbl ? 8 : 4;
		final int perSlice = SLICE / size;
		int slot = 0;
		for (long done0 = 0; done0 < count; done0 += perSlice, slot ^= 1) {
			final int n = (int) Math.min(perSlice, count - done0);
			check(JCudaDriver.cuEventSynchronize(done[slot]), "cuEventSynchronize(pinned staging)");
			final ByteBuffer b = buffers[slot];
			b.clear();
			fill(src, offset + done0, n, dbl, b);
			check(JCudaDriver.cuMemcpyHtoDAsync(dst.withByteOffset(done0 * size), host[slot], (long) n * size, stream),
				"cuMemcpyHtoDAsync(" + (long) n * size + " bytes)");
			check(JCudaDriver.cuEventRecord(done[slot], stream), "cuEventRecord");
		}
	}

	/**
	 * Downloads {@code count} values from {@code src} (device, float or double) into {@code dst} from {@code offset};
	 * queued on {@code stream} after the work already there, and returns when the last value has arrived.
	 */
	public void download(final CUdeviceptr src, final Object dst, final long offset, final long count, final boolean dbl,
		final CUstream stream)
	{
		final int size = dbl ? 8 : 4;
		final int perSlice = SLICE / size;
		final int slices = (int) ((count + perSlice - 1) / perSlice);
		for (int s = 0; s < Math.min(2, slices); s++) queueDownload(src, s, perSlice, count, size, stream);
		for (int s = 0; s < slices; s++) {
			final int slot = s & 1;
			check(JCudaDriver.cuEventSynchronize(done[slot]), "cuEventSynchronize(pinned staging)");
			final long first = (long) s * perSlice;
			final int n = (int) Math.min(perSlice, count - first);
			final ByteBuffer b = buffers[slot];
			b.clear();
			drain(b, dst, offset + first, n, dbl);
			if (s + 2 < slices) queueDownload(src, s + 2, perSlice, count, size, stream);
		}
	}

	private void queueDownload(final CUdeviceptr src, final int s, final int perSlice, final long count, final int size,
		final CUstream stream)
	{
		final int slot = s & 1;
		final long first = (long) s * perSlice;
		final int n = (int) Math.min(perSlice, count - first);
		check(JCudaDriver.cuMemcpyDtoHAsync(host[slot], src.withByteOffset(first * size), (long) n * size, stream),
			"cuMemcpyDtoHAsync(" + (long) n * size + " bytes)");
		check(JCudaDriver.cuEventRecord(done[slot], stream), "cuEventRecord");
	}

	private static void fill(final Object src, final long from, final int n, final boolean dbl, final ByteBuffer b) {
		final int o = (int) from;
		if (src instanceof float[]) {
			final float[] a = (float[]) src;
			if (!dbl) b.asFloatBuffer().put(a, o, n);
			else {
				final java.nio.DoubleBuffer d = b.asDoubleBuffer();
				for (int i = 0; i < n; i++) d.put(i, a[o + i]);
			}
		}
		else {
			final double[] a = (double[]) src;
			if (dbl) b.asDoubleBuffer().put(a, o, n);
			else {
				final java.nio.FloatBuffer f = b.asFloatBuffer();
				for (int i = 0; i < n; i++) f.put(i, (float) a[o + i]);
			}
		}
	}

	private static void drain(final ByteBuffer b, final Object dst, final long from, final int n, final boolean dbl) {
		final int o = (int) from;
		if (dst instanceof float[]) {
			final float[] a = (float[]) dst;
			if (!dbl) b.asFloatBuffer().get(a, o, n);
			else {
				final java.nio.DoubleBuffer d = b.asDoubleBuffer();
				for (int i = 0; i < n; i++) a[o + i] = (float) d.get(i);
			}
		}
		else {
			final double[] a = (double[]) dst;
			if (dbl) b.asDoubleBuffer().get(a, o, n);
			else {
				final java.nio.FloatBuffer f = b.asFloatBuffer();
				for (int i = 0; i < n; i++) a[o + i] = f.get(i);
			}
		}
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		for (int i = 0; i < 2; i++) {
			JCudaDriver.cuEventDestroy(done[i]);
			JCudaDriver.cuMemFreeHost(host[i]);
		}
	}
}
