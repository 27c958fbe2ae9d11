package org.nufftj.app;

import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.gpu.GpuDevices;
import org.nufftj.nufft.gpu.GpuException;
import org.nufftj.nufft.gpu.GpuInfo;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.DensityCompensation;
import org.nufftj.recon.GriddingRecon;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;
import org.nufftj.data.KSpace;
import org.nufftj.trajectory.Trajectory;

/**
 * What one run of the command line, or one SciJava context, keeps open while it works: the devices its plans run
 * on, opened on first use and closed by {@link #close()}. Every NUFFT plan, gridding reconstruction and density
 * compensation the application makes goes through {@link #plan}, {@link #reconstruct} and {@link #densityWeights}
 * (BART-scaled transforms through {@link BartNufft}, which plans here), and everything the application asks about
 * GPUs through {@link #describeDevices}, {@link #unusableReason} and {@link #isDeviceFailure}: this class is the one
 * place above the engine that knows the engine's device types (so that the front ends never ask "is this the GPU?").
 * Thread-safe; no global state.
 */
public final class Session implements AutoCloseable {

	private final GpuDevices devices = new GpuDevices();

	// -- public API --

	/** A plan for images of {@code size} (2 or 3 sizes) with {@code options}; the caller closes it. */
	public NufftPlan plan(final int[] size, final NufftOptions options) {
		return Nufft.plan(size, options, devices);
	}

	/** Gridding reconstruction (density compensation, adjoint NUFFT, coil combination) of one trajectory's frames. */
	public ReconResult reconstruct(final Trajectory t, final KSpace k, final int[] matrix, final ReconOptions options,
		final Progress progress)
	{
		return GriddingRecon.reconstruct(t, k, matrix, options, progress, devices);
	}

	/** Density-compensation weights of {@code method} for {@code t} and an image of {@code matrix}. */
	public float[] densityWeights(final DcfMethod method, final Trajectory t, final int[] matrix, final int iterations) {
		return DensityCompensation.compute(method, t, matrix, iterations);
	}

	/** The engine's description of the GPUs it finds (never throws; says why none is usable). */
	public static String describeDevices() {
		try {
			return GpuInfo.describe();
		}
		catch (final LinkageError e) {
			return "GPU engine classes not loadable (JCuda jars missing?): " + e;
		}
	}

	/** Why GPU {@code ordinal} cannot run plans, or null when it can. */
	public static String unusableReason(final int ordinal) {
		try {
			return GpuInfo.unusableReason(ordinal);
		}
		catch (final LinkageError e) {
			return "GPU engine classes not loadable (JCuda jars missing?): " + e;
		}
	}

	/** True for a failure of a device (driver, memory, kernel launch) rather than of the input. */
	public static boolean isDeviceFailure(final Throwable t) {
		return t instanceof GpuException;
	}

	/** True when a plan or a reconstruction that reported {@code backend} ran on a GPU. */
	public static boolean ranOnGpu(final String backend) {
		return backend != null && backend.toLowerCase(java.util.Locale.ROOT).startsWith("gpu");
	}

	/** The devices opened so far (for tests and the service's own checks). */
	public GpuDevices devices() {
		return devices;
	}

	public boolean isClosed() {
		return devices.isClosed();
	}

	/** Closes every device this session opened; plans made on them must be closed first. */
	@Override
	public void close() {
		devices.close();
	}
}
