package org.nufftj.nufft.gpu;

import jcuda.driver.CUdeviceptr;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * A {@link Buffer} in device memory of one {@link GpuBackend}: {@code length} values of float or double from
 * {@code offset} values into a {@link DeviceArray}. A buffer made by the backend owns its array and frees it in
 * {@link #close()}; a {@link #slice} shares its parent's array and owns nothing (valid while the parent is open).
 */
public final class GpuBuffer implements Buffer {

	private final GpuBackend backend;
	private final Precision precision;
	private final DeviceArray array;
	private final long offset, length;
	private final boolean owner;
	private boolean closed;

	GpuBuffer(final GpuBackend backend, final Precision precision, final DeviceArray array, final long offset,
		final long length, final boolean owner)
	{
		this.backend = backend;
		this.precision = precision;
		this.array = array;
		this.offset = offset;
		this.length = length;
		this.owner = owner;
	}

	// -- public API --

	@Override
	public Backend backend() { return backend; }

	@Override
	public Precision precision() { return precision; }

	@Override
	public long length() { return length; }

	@Override
	public GpuBuffer slice(final long from, final long values) {
		ensureOpen();
		if (from < 0 || values < 0 || from + values > length) {
			throw new InvalidInputException("buffer slice: values [" + from + ", " + (from + values) + ") do not fit a " +
				"buffer of " + length + " values [0, " + length + ")");
		}
		return new GpuBuffer(backend, precision, array, offset + from, values, false);
	}

	/** The device address of the first value; fails when this buffer, or the one it is a slice of, is closed. */
	public CUdeviceptr pointer() {
		ensureOpen();
		return array.at(offset * bytesPerValue());
	}

	/** The device address of the first value (for comparing buffers: JCuda's pointer equality ignores offsets). */
	long address() {
		ensureOpen();
		return array.address() + offset * bytesPerValue();
	}

	/** 4 (float) or 8 (double). */
	public int bytesPerValue() {
		return precision == Precision.DOUBLE ? 8 : 4;
	}

	/** Whether this buffer holds double values. */
	boolean isDouble() {
		return precision == Precision.DOUBLE;
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		if (owner) backend.free(this, array);
	}

	@Override
	public String toString() {
		return "gpu buffer of " + length + " " + precision.name().toLowerCase() + " values" + (owner ? "" : " (slice)") +
			(closed ? " (closed)" : "");
	}

	// -- helpers --

	private void ensureOpen() {
		if (closed || array.isFreed()) throw new IllegalStateException(this + ": used after close (of it or its parent)");
	}
}
