package org.nufftj.nufft;

import java.util.function.Consumer;

import org.nufftj.nufft.cpu.CpuBackend;
import org.nufftj.nufft.gpu.GpuBackend;
import org.nufftj.nufft.gpu.GpuException;
import org.nufftj.nufft.gpu.GpuInfo;

/**
 * Opens the {@link Backend} a session works on: the only place that decides CPU or GPU, and the only place that falls
 * back (device {@code auto} without a usable GPU: the CPU, with one notice saying why); also what the front ends may
 * ask about devices ({@link #describeDevices}, {@link #unusableReason}), so that nothing above the engine imports a
 * device package.
 */
public final class Backends {

	private Backends() {}

	/**
	 * The backend for {@code choice}: {@code cpu} → the CPU with {@code threads} worker threads (0: every core);
	 * {@code gpu}/{@code gpu:N} → that GPU or a {@link GpuException} naming the reason; {@code auto} → GPU 0 when it
	 * opens, else the CPU, after one line to {@code notices} (the CLI: stderr; Fiji: the LogService).
	 */
	public static Backend open(final DeviceChoice choice, final int threads, final Consumer<String> notices) {
		switch (choice.kind()) {
			case CPU:
				return new CpuBackend(threads);
			case GPU:
				return GpuBackend.open(choice.ordinal());
			default:
				try {
					return GpuBackend.open(0);
				}
				catch (final GpuException e) {
					if (notices != null) notices.accept("NUFFT-J: no usable GPU (" + e.getMessage() + "); running on the CPU");
					return new CpuBackend(threads);
				}
		}
	}

	/** The GPUs the engine finds, one or more lines (never throws; says why none is usable). */
	public static String describeDevices() {
		try {
			return GpuInfo.describe();
		}
		catch (final LinkageError e) {
			return "GPU engine classes not loadable (JCuda jars missing?): " + e;
		}
	}

	/** Why GPU {@code ordinal} cannot run plans, or null when it can (never throws). */
	public static String unusableReason(final int ordinal) {
		try {
			return GpuInfo.unusableReason(ordinal);
		}
		catch (final LinkageError e) {
			return "GPU engine classes not loadable (JCuda jars missing?): " + e;
		}
	}

	/** How many GPUs the driver reports (0 without a driver or JCuda; never throws). */
	public static int gpuCount() {
		try {
			return GpuInfo.usableCount();
		}
		catch (final LinkageError e) {
			return 0;
		}
	}
}
