package org.nufftj.recon.ultrasound;

import java.util.Locale;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * Images of plane-wave channel data ([sample][element], element fastest; {@link PlaneWave}) for transmits steered by
 * θ, as the envelope on a grid of Z = samples rows at z_m = m·c/(2fs) and W = elements·up columns at
 * x_j = x_0 + j·pitch/up, row-major (x fastest):
 * <ul>
 * <li>{@link Method#FK}: Stolt's f-k migration for plane waves (Garcia et al., IEEE UFFC 60:1853 (2013)). The echoes
 * of a steered plane wave are, to second order in the lateral offset, those of exploding reflectors in a medium of
 * the "ERM" speed v = c/√(1 + cos θ + sin²θ) (their eq. 9). Each element's trace is first shifted by its transmit
 * delay and the start time, e^{−2πi f (t0 − x_i sin θ / c)} (time zero of the data is when the front passes the
 * array's centre); the 2D spectrum S(f, k_x) (time zero-padded to 2·samples, x to 2·elements) is mapped to
 * P(k_x, k_z) = S(f', k_x)·f/f' with k_z = 2f/c and f' = v·√(k_x² + k_z²/β²), β = (1 + cos θ)^{3/2}/(1 + cos θ + sin²θ)
 * (linear interpolation in f; evanescent f' &lt; c|k_x| dropped; negative k_z dropped: the image is analytic, its
 * modulus the envelope); after the inverse transform along k_z, each depth z is shifted laterally by
 * γz, γ = sin θ/(2 − cos θ) (the steering compensation e^{+2πi k_x γ z}), k_x zero-padded by {@code up} and
 * inverse-transformed. At θ = 0 this is v = c/√2, β = √2. Every step runs on the backend ({@link FkMigration}): the
 * four batched 1D FFTs (time, x, z, x) and, between them, the transposes, phases, Stolt interpolation and crop as
 * sparse-matrix products made once per geometry.</li>
 * <li>{@link Method#DAS}: the baseline, Σ_i s_i((x sin θ + z cos θ + √((x − x_i)² + z²))/c) (linear interpolation in
 * time, full aperture or a dynamic receive f-number, no apodisation), envelope by the analytic signal along z.</li>
 * </ul>
 * Coherent compounding ({@link #image}) adds the complex f-k images, or the delay-and-sum RF images, of every angle
 * before taking the envelope.
 */
public final class PlaneWaveImaging {

	/** The reconstruction. */
	public enum Method {
		/** Stolt's f-k migration. */
		FK("fk"),
		/** Delay-and-sum beamforming. */
		DAS("das");

		private final String key;

		Method(final String key) {
			this.key = key;
		}

		/** The lowercase name used on the command line and in macros. */
		public String key() { return key; }

		/** The method named {@code s} (fk or das, any case). */
		public static Method parse(final String s) {
			for (final Method m : values())
				if (m.key.equals(s == null ? "" : s.trim().toLowerCase(Locale.ROOT))) return m;
			throw new InvalidInputException("method: expected fk or das, found '" + s + "'");
		}
	}

	private PlaneWaveImaging() {}

	// -- public API --

	/**
	 * The envelope, [Z][W], of the coherent compound of {@code channels[a]} acquired with transmit angle
	 * {@code angles[a]} (radians), by {@code method}; {@code fNumber} is delay-and-sum's receive f-number (0: full
	 * aperture; ignored by f-k).
	 */
	public static float[] image(final Backend backend, final PlaneWave p, final double[] angles,
		final float[][] channels, final Method method, final int up, final double fNumber)
	{
		PlaneWave.checkAngles(angles);
		InvalidInputException.require(channels.length == angles.length, "channel data: expected one frame per angle (" +
			angles.length + "), found " + channels.length);
		for (int a = 0; a < angles.length; a++) check(p, channels[a], up, "channel data frame " + a);
		checkFNumber(fNumber);
		final int t = p.samples(), width = p.elements() * up;
		if (method == Method.DAS) {
			final float[] rf = new float[t * width];
			for (int a = 0; a < angles.length; a++) {
				final float[] one = delayAndSumRf(p, angles[a], channels[a], up, fNumber);
				for (int i = 0; i < rf.length; i++) rf[i] += one[i];
			}
			return envelopeAlongZ(backend, rf, t, width);
		}
		final float[] sum = new float[2 * t * width];
		for (int a = 0; a < angles.length; a++) {
			final float[] one = fkAnalytic(backend, p, angles[a], channels[a], up);
			for (int i = 0; i < sum.length; i++) sum[i] += one[i];
		}
		return modulus(sum);
	}

	/** f-k migration of a 0° transmit: the envelope, [Z][W]. */
	public static float[] fk(final Backend backend, final PlaneWave p, final float[] channels, final int up) {
		return fk(backend, p, 0, channels, up);
	}

	/** f-k migration of a transmit steered by {@code angle} (radians): the envelope, [Z][W]. */
	public static float[] fk(final Backend backend, final PlaneWave p, final double angle, final float[] channels,
		final int up)
	{
		PlaneWave.checkAngles(angle);
		check(p, channels, up, "channel data");
		return modulus(fkAnalytic(backend, p, angle, channels, up));
	}

	/**
	 * Delay-and-sum of a 0° transmit with a dynamic receive aperture of f-number {@code fNumber}: element i
	 * contributes to depth z when |x − x_i| ≤ z/(2·F#) (0: the full aperture); the envelope, [Z][W].
	 */
	public static float[] delayAndSum(final Backend backend, final PlaneWave p, final float[] channels, final int up,
		final double fNumber)
	{
		return delayAndSum(backend, p, 0, channels, up, fNumber);
	}

	/** As {@link #delayAndSum(Backend, PlaneWave, float[], int, double)} for a transmit steered by {@code angle}. */
	public static float[] delayAndSum(final Backend backend, final PlaneWave p, final double angle,
		final float[] channels, final int up, final double fNumber)
	{
		PlaneWave.checkAngles(angle);
		check(p, channels, up, "channel data");
		checkFNumber(fNumber);
		return envelopeAlongZ(backend, delayAndSumRf(p, angle, channels, up, fNumber), p.samples(), p.elements() * up);
	}

	/** |analytic signal| of each column of {@code rf} [rows][width] along the rows (FFT, one-sided spectrum, IFFT). */
	public static float[] envelopeAlongZ(final Backend backend, final float[] rf, final int rows, final int width) {
		final int nz = 2 * rows;
		final float[] a = new float[2 * nz * width];
		for (int m = 0; m < rows; m++)
			for (int j = 0; j < width; j++) a[2 * (j * nz + m)] = rf[m * width + j];
		try (Buffer g = backend.allocate(a.length, Precision.FLOAT)) {
			backend.write(a, 0, g);
			backend.fft(g, new int[] { nz }, -1);
			backend.read(g, a, 0);
			for (int j = 0; j < width; j++)
				for (int q = 0; q < nz; q++) {
					final float s = q == 0 || q == nz / 2 ? 1 : q < nz / 2 ? 2 : 0;
					a[2 * (j * nz + q)] *= s;
					a[2 * (j * nz + q) + 1] *= s;
				}
			backend.write(a, 0, g);
			backend.fft(g, new int[] { nz }, +1);
			backend.read(g, a, 0);
		}
		final float[] out = new float[rows * width];
		for (int m = 0; m < rows; m++)
			for (int j = 0; j < width; j++) out[m * width + j] = (float) (Math.hypot(a[2 * (j * nz + m)],
				a[2 * (j * nz + m) + 1]) / nz);
		return out;
	}

	// -- helpers --

	/** The analytic f-k image (see the class comment), complex interleaved [Z][W]: {@link FkMigration}. */
	private static float[] fkAnalytic(final Backend backend, final PlaneWave p, final double angle,
		final float[] channels, final int up)
	{
		try (FkMigration fk = new FkMigration(backend, p, angle, up)) {
			return fk.analytic(new float[][] { channels })[0];
		}
	}

	/**
	 * f-k migration of many frames of one transmit angle (each [sample][element]): the envelopes, [Z][W] per frame.
	 * The tables are made once and the frames run in batches ({@link FkMigration}); on a GPU backend every step runs
	 * on the device.
	 */
	public static float[][] fkFrames(final Backend backend, final PlaneWave p, final double angle,
		final float[][] frames, final int up)
	{
		PlaneWave.checkAngles(angle);
		for (int i = 0; i < frames.length; i++) check(p, frames[i], up, "channel data frame " + i);
		try (FkMigration fk = new FkMigration(backend, p, angle, up)) {
			return fk.envelopes(frames);
		}
	}

	/** Delay-and-sum RF image [Z][W] of one steered transmit. */
	private static float[] delayAndSumRf(final PlaneWave p, final double angle, final float[] channels, final int up,
		final double fNumber)
	{
		final int n = p.elements(), t = p.samples(), width = n * up;
		final float[] rf = new float[t * width];
		for (int m = 0; m < t; m++) {
			final double z = m * p.dz();
			for (int j = 0; j < width; j++) {
				final double x = p.x(0) + j * p.pitch() / up, tx = p.transmitTime(angle, x, z);
				double sum = 0;
				for (int i = 0; i < n; i++) {
					final double dx = x - p.x(i);
					if (fNumber > 0 && Math.abs(dx) > z / (2 * fNumber)) continue;
					final double k = (tx + Math.sqrt(dx * dx + z * z) / p.c() - p.t0()) * p.fs();
					final int k0 = (int) Math.floor(k);
					if (k0 < 0 || k0 + 1 >= t) continue;
					final double w = k - k0;
					sum += (1 - w) * channels[k0 * n + i] + w * channels[(k0 + 1) * n + i];
				}
				rf[m * width + j] = (float) sum;
			}
		}
		return rf;
	}

	private static float[] modulus(final float[] z) {
		final float[] out = new float[z.length / 2];
		for (int i = 0; i < out.length; i++) out[i] = (float) Math.hypot(z[2 * i], z[2 * i + 1]);
		return out;
	}

	private static void checkFNumber(final double fNumber) {
		InvalidInputException.require(fNumber >= 0 && Double.isFinite(fNumber), "f-number: expected >= 0, found " +
			fNumber);
	}

	private static void check(final PlaneWave p, final float[] channels, final int up, final String what) {
		InvalidInputException.require(channels != null && channels.length == (long) p.elements() * p.samples(), what +
			": expected " + p.samples() + " samples x " + p.elements() + " elements = " + (long) p.elements() *
				p.samples() + " values, found " + (channels == null ? 0 : channels.length));
		InvalidInputException.require(up >= 1 && up <= 16, "lateral upsampling: expected 1 to 16, found " + up);
	}
}
