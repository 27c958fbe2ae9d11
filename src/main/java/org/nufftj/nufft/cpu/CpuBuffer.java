package org.nufftj.nufft.cpu;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * A {@link Buffer} of the {@link CpuBackend}: values [offset, offset + length) of a Java {@code float[]} or
 * {@code double[]}. A buffer made by {@link CpuBackend#wrap} is the caller's array itself; a {@link #slice} is a view
 * of the same array. Closing releases nothing (the garbage collector owns Java arrays).
 */
final class CpuBuffer implements Buffer {

	private final CpuBackend backend;
	final float[] f;
	final double[] d;
	final int offset;
	final int length;

	CpuBuffer(final CpuBackend backend, final float[] f, final double[] d, final int offset, final int length) {
		this.backend = backend;
		this.f = f;
		this.d = d;
		this.offset = offset;
		this.length = length;
	}

	// -- public API --

	@Override
	public Backend backend() { return backend; }

	@Override
	public Precision precision() { return f != null ? Precision.FLOAT : Precision.DOUBLE; }

	@Override
	public long length() { return length; }

	@Override
	public Buffer slice(final long off, final long len) {
		if (off < 0 || len < 0 || off + len > length) {
			throw new InvalidInputException("buffer slice: values [" + off + ", " + (off + len) + ") do not fit a buffer " +
				"of values [0, " + length + ")");
		}
		return new CpuBuffer(backend, f, d, offset + (int) off, (int) len);
	}

	@Override
	public void close() { /* the array belongs to the garbage collector (or to the caller who wrapped it) */ }

	@Override
	public String toString() {
		return precision().name().toLowerCase() + " buffer of " + length + " values on " + backend.name();
	}

	// -- element access (i in [0, length)) --

	double get(final int i) {
		return f != null ? f[offset + i] : d[offset + i];
	}

	void set(final int i, final double v) {
		if (f != null) f[offset + i] = (float) v;
		else d[offset + i] = v;
	}
}
