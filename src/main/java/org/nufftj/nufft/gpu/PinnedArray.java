package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;

import org.nufftj.InvalidInputException;

import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * Page-locked (pinned) host memory of float or double values, seen from Java as a {@link FloatBuffer} or
 * {@link DoubleBuffer}: the host side of a {@link GpuNufftPlan} execute that needs no copy. A plan's Java-array calls
 * copy every value into pinned memory (its mirrors or staging slices) on the CPU before the DMA (and out after it); a
 * pinned array of the plan's precision is handed to the DMA engine as it is, so an execute from it runs at the PCIe
 * bound and its transfers overlap the transforms of neighbouring batch pieces. Of another precision it is converted through the
 * staging slices like an array. Allocated portable (usable from every context); at most 2³¹ − 1 bytes (one Java
 * buffer view). {@link #close()} frees it; no execute may be running on it then.
 */
public final class PinnedArray implements AutoCloseable {

	private final Pointer host = new Pointer();
	private final ByteBuffer bytes;
	private final long length;
	private final boolean dbl;
	private boolean closed;

	private PinnedArray(final GpuBackend backend, final long length, final boolean dbl) {
		final long size = length * (dbl ? 8 : 4);
		InvalidInputException.require(length >= 1 && size <= Integer.MAX_VALUE, "pinned array: " + length + " " +
			(dbl ? "double" : "float") + " values, expected 1 to " + Integer.MAX_VALUE / (dbl ? 8 : 4) +
			" (one Java buffer view)");
		backend.ensureOpen();
		backend.gpu().makeCurrent();
		check(JCudaDriver.cuMemHostAlloc(host, size, JCudaDriver.CU_MEMHOSTALLOC_PORTABLE),
			"cuMemHostAlloc(" + size + " bytes, pinned array)");
		this.bytes = host.getByteBuffer(0, size).order(ByteOrder.nativeOrder());
		this.length = length;
		this.dbl = dbl;
	}

	/** {@code length} float values (zero) in pinned memory, allocated on {@code backend}'s context. */
	public static PinnedArray floats(final GpuBackend backend, final long length) {
		return new PinnedArray(backend, length, false);
	}

	/** {@code length} double values (zero) in pinned memory. */
	public static PinnedArray doubles(final GpuBackend backend, final long length) {
		return new PinnedArray(backend, length, true);
	}

	/** Number of values. */
	public long length() { return length; }

	/** Whether the values are double (else float). */
	public boolean isDouble() { return dbl; }

	/** A view of the float values (index 0 … length − 1); only for a float array. */
	public FloatBuffer floats() {
		ensureOpen();
		if (dbl) throw new IllegalStateException("pinned array of doubles: use doubles()");
		return bytes.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer();
	}

	/** A view of the double values; only for a double array. */
	public DoubleBuffer doubles() {
		ensureOpen();
		if (!dbl) throw new IllegalStateException("pinned array of floats: use floats()");
		return bytes.duplicate().order(ByteOrder.nativeOrder()).asDoubleBuffer();
	}

	/** This array as the host side of a staged transfer. */
	PinnedStaging.Host host() {
		ensureOpen();
		final PinnedArray a = this;
		return new PinnedStaging.Host() {

			@Override
			void fill(final int o, final int at, final int n, final boolean d, final ByteBuffer b) {
				if (a.dbl) {
					final DoubleBuffer src = a.doubles();
					if (d) b.asDoubleBuffer().put(at, src, o, n);
					else {
						final FloatBuffer f = b.asFloatBuffer();
						for (int i = 0; i < n; i++) f.put(at + i, (float) src.get(o + i));
					}
				}
				else {
					final FloatBuffer src = a.floats();
					if (!d) b.asFloatBuffer().put(at, src, o, n);
					else {
						final DoubleBuffer f = b.asDoubleBuffer();
						for (int i = 0; i < n; i++) f.put(at + i, src.get(o + i));
					}
				}
			}

			@Override
			void drain(final ByteBuffer b, final int o, final int at, final int n, final boolean d) {
				if (a.dbl) {
					final DoubleBuffer dst = a.doubles();
					if (d) dst.put(o, b.asDoubleBuffer(), at, n);
					else {
						final FloatBuffer f = b.asFloatBuffer();
						for (int i = 0; i < n; i++) dst.put(o + i, f.get(at + i));
					}
				}
				else {
					final FloatBuffer dst = a.floats();
					if (!d) dst.put(o, b.asFloatBuffer(), at, n);
					else {
						final DoubleBuffer f = b.asDoubleBuffer();
						for (int i = 0; i < n; i++) dst.put(o + i, (float) f.get(at + i));
					}
				}
			}

			@Override
			Pointer pinned(final long o, final boolean d) {
				return d == a.dbl ? host.withByteOffset(o * (d ? 8 : 4)) : null;
			}
		};
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("pinned array is closed");
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		JCudaDriver.cuMemFreeHost(host);
	}
}
