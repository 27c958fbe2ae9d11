package org.nufftj.nufft.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GPUs a session uses, each opened once and kept: {@link #get} opens GPU {@code ordinal} on its first request
 * (primary context retained; kernel modules load as plans first need them) and hands the same {@link GpuDevice} to
 * every later plan, which borrows it ({@code ownsDevice = false}); {@link #close()} closes them all. So the set-up of
 * a device is paid once per session instead of once per plan. No global state: whoever makes one owns it (a SciJava
 * service for the life of its Context, a CLI command for one process run, a test) and must close it after every plan
 * made on it is closed. Thread-safe.
 */
public final class GpuDevices implements AutoCloseable {

	private final Map<Integer, GpuDevice> open = new TreeMap<>();
	private boolean closed;

	// -- public API --

	/**
	 * GPU {@code ordinal}, opened on the first request and kept until {@link #close()}. A device that fails to open
	 * throws {@link GpuException} with the reason and is not kept (a later request tries again).
	 */
	public synchronized GpuDevice get(final int ordinal) {
		if (closed) throw new IllegalStateException("GPU devices are closed (their owner was disposed)");
		GpuDevice d = open.get(ordinal);
		if (d == null) {
			d = new GpuDevice(ordinal);
			open.put(ordinal, d);
		}
		return d;
	}

	/** The ordinals of the GPUs opened so far (and not yet closed), ascending. */
	public synchronized List<Integer> opened() {
		return new ArrayList<>(open.keySet());
	}

	public synchronized boolean isClosed() { return closed; }

	/**
	 * Closes every device opened here (modules unloaded, primary context released) and refuses further requests;
	 * idempotent. Plans made on these devices must be closed first.
	 */
	@Override
	public synchronized void close() {
		if (closed) return;
		closed = true;
		RuntimeException first = null;
		for (final GpuDevice d : open.values()) {
			try {
				d.close();
			}
			catch (final RuntimeException e) {
				if (first == null) first = e;
				else first.addSuppressed(e);
			}
		}
		open.clear();
		if (first != null) throw first;
	}

	@Override
	public synchronized String toString() {
		return closed ? "GPU devices (closed)" : "GPU devices " + open.values();
	}
}
