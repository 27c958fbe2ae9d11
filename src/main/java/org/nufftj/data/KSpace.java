package org.nufftj.data;

import org.nufftj.InvalidInputException;

/**
 * Non-Cartesian k-space samples: complex, interleaved (re, im), float.
 * <p>
 * Layout: sample index fastest, then coil, then frame (slice, repetition, phase … flattened): element
 * {@code (m, c, f)} has its real part at {@code 2 * (m + points * (c + coils * f))}. One trajectory of {@code points}
 * samples is shared by every coil and frame.
 * </p>
 */
public final class KSpace {

	private final float[] data;
	private final int points;
	private final int coils;
	private final int frames;

	public KSpace(final float[] data, final int points, final int coils, final int frames) {
		InvalidInputException.require(points > 0 && coils > 0 && frames > 0,
			"k-space: sizes must be positive, found points=" + points + " coils=" + coils + " frames=" + frames);
		final long expected = 2L * points * coils * frames;
		InvalidInputException.require(data.length == expected, "k-space: expected " + expected +
			" floats (2 x points x coils x frames), found " + data.length);
		this.data = data;
		this.points = points;
		this.coils = coils;
		this.frames = frames;
	}

	/** The backing array (not a copy). */
	public float[] data() { return data; }

	public int points() { return points; }

	public int coils() { return coils; }

	public int frames() { return frames; }

	/** Coils {@code [from, to)} of every frame, copied out, as k-space of their own. */
	public KSpace coilRange(final int from, final int to) {
		InvalidInputException.require(0 <= from && from < to && to <= coils, "coil range [" + from + ", " + to +
			"): expected 0 <= from < to <= " + coils);
		final int n = to - from, per = 2 * points;
		final float[] d = new float[per * n * frames];
		for (int f = 0; f < frames; f++) System.arraycopy(data, offset(from, f), d, per * n * f, per * n);
		return new KSpace(d, points, n, frames);
	}

	/** Offset (in floats) of the first sample of coil {@code c} in frame {@code f}. */
	public int offset(final int c, final int f) {
		return 2 * points * (c + coils * f);
	}

	/** Fails with the index of the first NaN or infinite value, if any. */
	public KSpace requireFinite(final String source) {
		for (int i = 0; i < data.length; i++) {
			if (!Float.isFinite(data[i])) {
				final int s = i / 2;
				throw new InvalidInputException(source + ": k-space sample " + (s % points) + " (coil " +
					(s / points) % coils + ", frame " + s / points / coils + ") is " + data[i] +
					", expected a finite number");
			}
		}
		return this;
	}
}
