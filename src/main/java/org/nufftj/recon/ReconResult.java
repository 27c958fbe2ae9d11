package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.data.ComplexImage;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.StageTimes;

/** What a gridding reconstruction returns: the image, optionally the coil images, the DCF used and how it ran. */
public final class ReconResult {

	private final ComplexImage image;
	private final ComplexImage coils;
	private final float[] dcf;
	private final String backend;
	private final DeviceChoice device;
	private final NufftParameters parameters;
	private final double millis;
	private final String options;
	private final StageTimes stages;

	/**
	 * @param device the device of the backend that ran it ({@link org.nufftj.nufft.Backend#device()})
	 * @param stages milliseconds per stage summed over frames (see {@link #stages()})
	 */
	public ReconResult(final ComplexImage image, final ComplexImage coils, final float[] dcf, final String backend,
		final DeviceChoice device, final NufftParameters parameters, final double millis, final String options,
		final StageTimes stages)
	{
		this.device = device;
		this.stages = stages;
		this.image = image;
		this.coils = coils;
		this.dcf = dcf;
		this.backend = backend;
		this.parameters = parameters;
		this.millis = millis;
		this.options = options;
	}

	/**
	 * The combined image: channels = 1 for SOS / Walsh (SOS: magnitude in the real part, 0 in the imaginary part;
	 * Walsh: complex), channels = coils for {@link CoilCombination#NONE}; frames = the data's frames.
	 */
	public ComplexImage image() { return image; }

	/** Per-coil complex images (channels = coils), or null unless {@link ReconOptions#withKeepCoils} was set. */
	public ComplexImage coils() { return coils; }

	/** The density-compensation weights applied (once, w) to every coil and frame, one per sample. */
	public float[] dcf() { return dcf; }

	/** The engine that ran the adjoint NUFFT (the plan's {@code backend()}, e.g. "cpu (16 threads)"). */
	public String backend() { return backend; }

	/** The device it ran on: {@code cpu} or {@code gpu:N}, never {@code auto} (what a fallback chose). */
	public DeviceChoice device() { return device; }

	/** True when it ran on a GPU. */
	public boolean ranOnGpu() { return device.kind() == DeviceChoice.Kind.GPU; }

	/** The NUFFT's parameters, or null when no NUFFT ran ({@link CartesianFft}). */
	public NufftParameters parameters() { return parameters; }

	/** Wall-clock time of the whole reconstruction. */
	public double millis() { return millis; }

	/**
	 * Milliseconds per stage after planning, in the order they ran: the density-compensation weights (e.g. "dcf weights
	 * pipe-menon"), then the frames' stages summed over frames: "write samples", "dcf" (the weights multiply),
	 * "adjoint" (the whole adjoint call, after the plan's own stages, e.g. "spread", "fft", "deapodize"), "combine sos"
	 * or "combine walsh", "read image". Wall-clock times, each taken after the backend has finished the stage's work.
	 * Empty when not recorded.
	 */
	public StageTimes stages() { return stages; }

	/** One line for logs and the CLI. */
	public String describe() {
		final String st = stages.snapshot().isEmpty() ? "" : "; stages: " + stages;
		return String.format("gridding recon %s, %d channel(s) x %d frame(s), %s, on %s, %.1f ms (%s)%s",
			Arrays.toString(image.size()), image.channels(), image.frames(), options, backend, millis, parameters == null ?
			"no gridding" : parameters, st);
	}
}
