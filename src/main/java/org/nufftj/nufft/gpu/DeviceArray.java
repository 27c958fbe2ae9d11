package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/** A block of device memory with its size; {@link #close()} frees it (idempotent). */
public final class DeviceArray implements AutoCloseable {

	private final Address pointer = new Address();
	private final long bytes;
	private boolean freed;

	/** Allocates {@code bytes} (≥ 1) on the current context; {@code what} names the buffer in error messages. */
	public DeviceArray(final long bytes, final String what) {
		this.bytes = Math.max(bytes, 1);
		check(JCudaDriver.cuMemAlloc(pointer, this.bytes), "cuMemAlloc(" + what + ", " + this.bytes + " bytes)");
	}

	public static DeviceArray of(final int[] a, final String what) {
		final DeviceArray d = new DeviceArray(4L * a.length, what);
		d.upload(Pointer.to(a), 4L * a.length, what);
		return d;
	}

	public static DeviceArray of(final float[] a, final String what) {
		final DeviceArray d = new DeviceArray(4L * a.length, what);
		d.upload(Pointer.to(a), 4L * a.length, what);
		return d;
	}

	public static DeviceArray of(final double[] a, final String what) {
		final DeviceArray d = new DeviceArray(8L * a.length, what);
		d.upload(Pointer.to(a), 8L * a.length, what);
		return d;
	}

	public CUdeviceptr pointer() { return pointer; }

	public long bytes() { return bytes; }

	/** The device address of the first byte, as a kernel parameter struct stores it ({@link GpuStructs}). */
	public long address() {
		return pointer.address();
	}

	/** Whether {@link #close()} has freed the memory. */
	public boolean isFreed() { return freed; }

	/** A pointer {@code offset} bytes into this array. */
	public CUdeviceptr at(final long offset) {
		return pointer.withByteOffset(offset);
	}

	/** Copies {@code count} bytes from {@code host} to the start of this array (synchronous). */
	public void upload(final Pointer host, final long count, final String what) {
		check(JCudaDriver.cuMemcpyHtoD(pointer, host, count), "cuMemcpyHtoD(" + what + ", " + count + " bytes)");
	}

	/** Copies the first {@code count} bytes of this array to {@code host} (synchronous: waits for all prior work). */
	public void download(final Pointer host, final long count, final String what) {
		check(JCudaDriver.cuMemcpyDtoH(host, pointer, count), "cuMemcpyDtoH(" + what + ", " + count + " bytes)");
	}

	@Override
	public void close() {
		if (freed) return;
		freed = true;
		JCudaDriver.cuMemFree(pointer);
	}

	/**
	 * The device address {@code p} points at (base plus byte offset) when it came from a DeviceArray ({@link #pointer},
	 * {@link #at}), else -1. (JCuda's own equals compares the base only, not the offset.)
	 */
	static long address(final CUdeviceptr p) {
		return p instanceof Address ? ((Address) p).address() : -1;
	}

	/** A device pointer whose address can be read (JCuda keeps it protected); offsets keep the type. */
	private static final class Address extends CUdeviceptr {

		Address() {}

		private Address(final Address base, final long byteOffset) {
			super(base, byteOffset);
		}

		@Override
		public Address withByteOffset(final long byteOffset) {
			return new Address(this, byteOffset);
		}

		long address() {
			return getNativePointer() + getByteOffset();
		}
	}
}
