package org.nufftj.recon.gpu;

import jcuda.driver.CUdeviceptr;

import org.nufftj.nufft.gpu.DeviceArray;
import org.nufftj.nufft.gpu.GpuDevice;

/**
 * Density-compensation weights w (one float per sample) resident on a GPU, with the same values on the host: made by
 * {@link GpuPipeMenon#weights}, used by {@link GpuGridding} for the DCF multiply without an upload, and by the
 * caller's result (the host copy). Owns the device array and frees it in {@link #close()}; the device stays open.
 */
public final class GpuWeights implements AutoCloseable {

	private final GpuDevice device;
	private final float[] host;
	private DeviceArray weights;

	GpuWeights(final GpuDevice device, final DeviceArray weights, final float[] host) {
		this.device = device;
		this.weights = weights;
		this.host = host;
	}

	// -- public API --

	/** The weights on the host: the array itself (bit-identical to the device copy), not a copy. */
	public float[] host() { return host; }

	/** Number of weights (samples). */
	public int count() { return host.length; }

	/** The GPU the weights live on. */
	public GpuDevice device() { return device; }

	@Override
	public void close() {
		if (weights == null) return;
		device.makeCurrent();
		weights.close();
		weights = null;
	}

	// -- helpers --

	/** The device array (float[count]); valid until {@link #close()}. */
	CUdeviceptr pointer() {
		if (weights == null) throw new IllegalStateException("GPU weights are closed");
		return weights.pointer();
	}
}
