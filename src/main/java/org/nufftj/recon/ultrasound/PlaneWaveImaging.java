package org.nufftj.recon.ultrasound;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * Images of 0° plane-wave channel data ([sample][element], element fastest; {@link PlaneWave}) as the envelope on a
 * grid of Z = samples rows at z_m = m·c/(2fs) and W = elements·up columns at x_j = x_0 + j·pitch/up, row-major (x
 * fastest):
 * <ul>
 * <li>{@link #fk}: Stolt's f-k migration for plane waves (Garcia et al., IEEE UFFC 60:1853 (2013)) at 0°: the echoes
 * are those of exploding reflectors in a medium of speed v = c/√2 at depth √2·z (to second order in the lateral
 * offset), so the 2D spectrum S(f, k_x) (time zero-padded to 2·samples, x to 2·elements; e^{−2πi f t0} for the start
 * time) is mapped to P(k_x, k_z) = S(v√(k_x² + k_z²), k_x)·v k_z/√(k_x² + k_z²) for k_z &gt; 0 (linear interpolation in
 * f; negative k_z dropped: the image is analytic, its modulus the envelope), k_x zero-padded by {@code up}, and
 * inverse-transformed; rows of the ERM depth grid v/fs are rows of z = c/(2fs). The FFTs run on the backend, the
 * mapping on the host.</li>
 * <li>{@link #delayAndSum}: the baseline, Σ_i s_i((z + √((x − x_i)² + z²))/c) (linear interpolation in time, full
 * aperture or a dynamic receive f-number, no apodisation), envelope by the analytic signal along z.</li>
 * </ul>
 */
public final class PlaneWaveImaging {

	private PlaneWaveImaging() {}

	// -- public API --

	/** f-k migration (see the class comment): the envelope, [Z][W]. */
	public static float[] fk(final Backend backend, final PlaneWave p, final float[] channels, final int up) {
		check(p, channels, up);
		final int n = p.elements(), t = p.samples(), nx = 2 * n, nt = 2 * t, wx = nx * up;
		final double v = p.c() / Math.sqrt(2);
		final float[] a = new float[2 * nx * nt];
		for (int k = 0; k < t; k++)
			for (int i = 0; i < n; i++) a[2 * (k * nx + i)] = channels[k * n + i];
		final float[] b = new float[2 * wx * nt];
		try (Buffer g = backend.allocate(a.length, Precision.FLOAT)) {
			backend.write(a, 0, g);
			backend.fft(g, new int[] { nx, nt }, -1);
			backend.read(g, a, 0);
		}
		for (int jx = 0; jx < nx; jx++) {
			final int sx = jx < nx / 2 ? jx : jx - nx;
			final double kx = sx / (nx * p.pitch());
			final int col = Math.floorMod(sx, wx);
			for (int m = 1; m < nt / 2; m++) {
				final double kz = m * p.fs() / (nt * v), r = Math.sqrt(kx * kx + kz * kz), f = v * r;
				final double fi = f * nt / p.fs();
				final int f0 = (int) Math.floor(fi);
				if (f0 + 1 >= nt / 2) continue;
				final double w = fi - f0, jac = v * kz / r;
				final double re = (1 - w) * a[2 * (f0 * nx + jx)] + w * a[2 * ((f0 + 1) * nx + jx)];
				final double im = (1 - w) * a[2 * (f0 * nx + jx) + 1] + w * a[2 * ((f0 + 1) * nx + jx) + 1];
				// S(f) of data starting at t0: the spectrum of the echoes from t = 0 is S·e^{−2πi f t0}.
				final double ph = -2 * Math.PI * f * p.t0(), c = Math.cos(ph), s = Math.sin(ph);
				b[2 * (m * wx + col)] = (float) (jac * (re * c - im * s));
				b[2 * (m * wx + col) + 1] = (float) (jac * (re * s + im * c));
			}
		}
		try (Buffer g = backend.allocate(b.length, Precision.FLOAT)) {
			backend.write(b, 0, g);
			backend.fft(g, new int[] { wx, nt }, +1);
			backend.read(g, b, 0);
		}
		final int width = n * up;
		final float[] out = new float[t * width];
		for (int m = 0; m < t; m++)
			for (int j = 0; j < width; j++) out[m * width + j] = (float) Math.hypot(b[2 * (m * wx + j)],
				b[2 * (m * wx + j) + 1]);
		return out;
	}

	/**
	 * Delay-and-sum (see the class comment) with a dynamic receive aperture of f-number {@code fNumber}: element i
	 * contributes to depth z when |x − x_i| ≤ z/(2·F#) (0: the full aperture); the envelope, [Z][W].
	 */
	public static float[] delayAndSum(final Backend backend, final PlaneWave p, final float[] channels, final int up,
		final double fNumber)
	{
		check(p, channels, up);
		InvalidInputException.require(fNumber >= 0 && Double.isFinite(fNumber), "f-number: expected >= 0, found " +
			fNumber);
		final int n = p.elements(), t = p.samples(), width = n * up;
		final float[] rf = new float[t * width];
		for (int m = 0; m < t; m++) {
			final double z = m * p.dz();
			for (int j = 0; j < width; j++) {
				final double x = p.x(0) + j * p.pitch() / up;
				double sum = 0;
				for (int i = 0; i < n; i++) {
					final double dx = x - p.x(i);
					if (fNumber > 0 && Math.abs(dx) > z / (2 * fNumber)) continue;
					final double k = ((z + Math.sqrt(dx * dx + z * z)) / p.c() - p.t0()) * p.fs();
					final int k0 = (int) Math.floor(k);
					if (k0 < 0 || k0 + 1 >= t) continue;
					final double w = k - k0;
					sum += (1 - w) * channels[k0 * n + i] + w * channels[(k0 + 1) * n + i];
				}
				rf[m * width + j] = (float) sum;
			}
		}
		return envelopeAlongZ(backend, rf, t, width);
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

	private static void check(final PlaneWave p, final float[] channels, final int up) {
		InvalidInputException.require(channels.length == (long) p.elements() * p.samples(), "channel data: expected " +
			p.samples() + " samples x " + p.elements() + " elements = " + (long) p.elements() * p.samples() +
			" values, found " + channels.length);
		InvalidInputException.require(up >= 1 && up <= 16, "lateral upsampling: expected 1 to 16, found " + up);
	}
}
