package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.data.ComplexImage;
import org.nufftj.nufft.NufftParameters;

/** What a gridding reconstruction returns: the image, optionally the coil images, the DCF used and how it ran. */
public final class ReconResult {

	private final ComplexImage image;
	private final ComplexImage coils;
	private final float[] dcf;
	private final String backend;
	private final NufftParameters parameters;
	private final double millis;
	private final String options;

	public ReconResult(final ComplexImage image, final ComplexImage coils, final float[] dcf, final String backend,
		final NufftParameters parameters, final double millis, final String options)
	{
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

	/** The engine that ran the adjoint NUFFT. */
	public String backend() { return backend; }

	public NufftParameters parameters() { return parameters; }

	/** Wall-clock time of the whole reconstruction. */
	public double millis() { return millis; }

	/** One line for logs and the CLI. */
	public String describe() {
		return String.format("gridding recon %s, %d channel(s) x %d frame(s), %s, on %s, %.1f ms (%s)",
			Arrays.toString(image.size()), image.channels(), image.frames(), options, backend, millis, parameters);
	}
}
