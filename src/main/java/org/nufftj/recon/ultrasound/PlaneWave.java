package org.nufftj.recon.ultrasound;

import org.nufftj.InvalidInputException;

/**
 * A linear array and its plane-wave acquisitions: {@code elements} elements at
 * x_i = (i − (N−1)/2)·pitch (m, x = 0 at the array's centre), channel data sampled at t_k = t0 + k/fs (s), in a
 * medium of sound speed c (m/s), with a pulse of centre frequency f0 (Hz). Depth z points away from the array.
 * <p>
 * A transmit steered by θ (radians, positive when element 0 fires first) is the plane wave that reaches (x, z) at
 * t = (x·sin θ + z·cos θ)/c: time zero is when its front passes the array's centre (the convention of USTB and UFF);
 * θ = 0 is all elements firing at once. Angles are limited to ±{@value #MAX_ANGLE_DEGREES}°.
 * </p>
 */
public final class PlaneWave {

	/** The largest steering angle accepted (degrees): beyond it the f-k model and the array's grating lobes fail. */
	public static final double MAX_ANGLE_DEGREES = 45;

	private final int elements, samples;
	private final double pitch, fs, c, f0, t0;

	public PlaneWave(final int elements, final int samples, final double pitch, final double fs, final double c,
		final double f0, final double t0)
	{
		InvalidInputException.require(elements >= 2, "elements: expected >= 2, found " + elements);
		InvalidInputException.require(samples >= 2, "time samples: expected >= 2, found " + samples);
		InvalidInputException.require(pitch > 0 && Double.isFinite(pitch), "pitch: expected > 0 m, found " + pitch);
		InvalidInputException.require(fs > 0 && Double.isFinite(fs), "sampling rate: expected > 0 Hz, found " + fs);
		InvalidInputException.require(c > 0 && Double.isFinite(c), "speed of sound: expected > 0 m/s, found " + c);
		InvalidInputException.require(f0 > 0 && f0 < fs / 2, "centre frequency: expected 0 < f0 < fs/2 = " + fs / 2 +
			" Hz, found " + f0);
		InvalidInputException.require(Double.isFinite(t0), "start time: expected a finite value, found " + t0);
		this.elements = elements;
		this.samples = samples;
		this.pitch = pitch;
		this.fs = fs;
		this.c = c;
		this.f0 = f0;
		this.t0 = t0;
	}

	public int elements() { return elements; }

	public int samples() { return samples; }

	public double pitch() { return pitch; }

	public double fs() { return fs; }

	public double c() { return c; }

	public double f0() { return f0; }

	public double t0() { return t0; }

	/** Lateral position of element i (m). */
	public double x(final int i) { return (i - (elements - 1) / 2.0) * pitch; }

	/** Wavelength c/f0 (m). */
	public double wavelength() { return c / f0; }

	/** Depth sample spacing of an image made from these data, c/(2·fs) (m). */
	public double dz() { return c / (2 * fs); }

	/** Time (s) at which a transmit steered by {@code angle} (radians) reaches (x, z): (x·sin θ + z·cos θ)/c. */
	public double transmitTime(final double angle, final double x, final double z) {
		return (x * Math.sin(angle) + z * Math.cos(angle)) / c;
	}

	/**
	 * Transmit angles in degrees → radians, checked: at least one, each finite and within ±{@value #MAX_ANGLE_DEGREES}°;
	 * the message names the offending index.
	 */
	public static double[] anglesFromDegrees(final double... degrees) {
		InvalidInputException.require(degrees != null && degrees.length > 0,
			"transmit angles: expected at least one angle, found none");
		final double[] out = new double[degrees.length];
		for (int i = 0; i < degrees.length; i++) {
			InvalidInputException.require(Double.isFinite(degrees[i]) && Math.abs(degrees[i]) <= MAX_ANGLE_DEGREES + 1e-9,
				"transmit angle " + i + ": expected -" + MAX_ANGLE_DEGREES + " to " + MAX_ANGLE_DEGREES + " degrees, found " +
					degrees[i]);
			out[i] = Math.toRadians(degrees[i]);
		}
		return out;
	}

	/** As {@link #anglesFromDegrees} for angles already in radians. */
	public static double[] checkAngles(final double... radians) {
		InvalidInputException.require(radians != null && radians.length > 0,
			"transmit angles: expected at least one angle, found none");
		final double[] deg = new double[radians.length];
		for (int i = 0; i < deg.length; i++) deg[i] = Math.toDegrees(radians[i]);
		anglesFromDegrees(deg);
		return radians.clone();
	}
}
