package org.nufftj.data;

import java.util.Arrays;

import org.nufftj.InvalidInputException;

/**
 * A stack of complex images: interleaved (re, im) float, pixel index column-major with x fastest (like BART's
 * {@code .cfl}), then channel (coil, or 1 after coil combination), then frame. Element {@code (x, y, z, c, f)} has its
 * real part at {@code 2 * (x + nx * (y + ny * (z + nz * (c + channels * f))))}. For 2D images {@code size.length == 2}.
 * {@code spacing} is the pixel size per axis in millimetres, or {@code null} when unknown.
 */
public final class ComplexImage {

	private final float[] data;
	private final int[] size;
	private final int channels;
	private final int frames;
	private final double[] spacing;

	public ComplexImage(final float[] data, final int[] size, final int channels, final int frames,
		final double[] spacing)
	{
		InvalidInputException.require(size.length == 2 || size.length == 3,
			"image: expected 2 or 3 dimensions, found " + size.length);
		final long expected = 2L * pixels(size) * channels * frames;
		InvalidInputException.require(data.length == expected, "image: expected " + expected +
			" floats (2 x " + Arrays.toString(size) + " x " + channels + " x " + frames + "), found " + data.length);
		this.data = data;
		this.size = size.clone();
		this.channels = channels;
		this.frames = frames;
		this.spacing = spacing == null ? null : spacing.clone();
	}

	public static ComplexImage zeros(final int[] size, final int channels, final int frames) {
		return new ComplexImage(new float[(int) (2L * pixels(size) * channels * frames)], size, channels, frames, null);
	}

	public ComplexImage withSpacing(final double[] mm) {
		return new ComplexImage(data, size, channels, frames, mm);
	}

	/** The backing array (not a copy). */
	public float[] data() { return data; }

	public int[] size() { return size.clone(); }

	public int dimensions() { return size.length; }

	public int channels() { return channels; }

	public int frames() { return frames; }

	/** Pixel size in mm per axis, or null. */
	public double[] spacing() { return spacing == null ? null : spacing.clone(); }

	public int pixels() { return (int) pixels(size); }

	/** Offset (in floats) of the first pixel of channel {@code c} in frame {@code f}. */
	public int offset(final int c, final int f) {
		return 2 * pixels() * (c + channels * f);
	}

	/** Magnitudes, same layout without the interleaving. */
	public float[] magnitude() {
		final float[] m = new float[data.length / 2];
		for (int i = 0; i < m.length; i++) m[i] = (float) Math.hypot(data[2 * i], data[2 * i + 1]);
		return m;
	}

	public static long pixels(final int[] size) {
		long p = 1;
		for (final int s : size) p *= s;
		return p;
	}
}
