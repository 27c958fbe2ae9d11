package org.nufftj.nufft.cpu;

import java.util.function.IntConsumer;
import java.util.stream.IntStream;

import org.nufftj.InvalidInputException;

/**
 * Coil combination maths of the CPU backend ({@link CpuBackend#sumOfSquares}, {@link CpuBackend#walsh}), on complex
 * coil images [coil][pixel] (x fastest, then y, z):
 * <ul>
 * <li>sum of squares: out_p = (√Σ_c |x_c,p|², 0).</li>
 * <li>Walsh's adaptive combination (Walsh, Gmitro &amp; Marcellin, MRM 43:682 (2000)): at every pixel the dominant
 * eigenvector v of the coil covariance R = Σ_{window} x xᴴ over a {@value #WINDOW}×{@value #WINDOW} neighbourhood
 * (clipped at the image border), found by {@value #POWER_ITERATIONS} power iterations from the column of R with the
 * largest diagonal, phase-referenced so that v_ref is real and positive (ref: the coil of largest total energy),
 * and the combined value vᴴx. For noise-free data with smooth sensitivities s, |vᴴx| = ‖s‖·|ρ|, the same magnitude as
 * sum of squares, with the object's phase kept. 3D volumes are combined slice by slice (2D windows).</li>
 * </ul>
 * Arithmetic in double whatever the storage. The GPU backend implements the same maths.
 */
public final class CoilMaths {

	/** Walsh window side (pixels). */
	public static final int WINDOW = 7;
	/** Power iterations per pixel, from the column of R with the largest diagonal. */
	public static final int POWER_ITERATIONS = 12;

	/** Runs row(i) for i in [0, n), possibly in parallel. */
	interface Rows {
		void run(int n, IntConsumer row);
	}

	private CoilMaths() {}

	// -- public API (host arrays) --

	/**
	 * Root sum of squares of {@code coils} coil images of {@code pixels} pixels starting at {@code offset}: returns
	 * interleaved (magnitude, 0) of {@code pixels} pixels.
	 */
	public static float[] sumOfSquares(final float[] coilImages, final int offset, final int pixels, final int coils) {
		final float[] out = new float[2 * pixels];
		sumOfSquares(Complex.of(coilImages, offset, 2 * pixels * coils), pixels, coils, Complex.of(out), parallel());
		return out;
	}

	/** Walsh adaptive combination: complex (re, im) image of {@code size} from {@code coils} coil images. */
	public static float[] walsh(final float[] coilImages, final int offset, final int[] size, final int coils) {
		int pixels = 1;
		for (final int n : size) pixels *= n;
		final float[] out = new float[2 * pixels];
		walsh(Complex.of(coilImages, offset, 2 * pixels * coils), size, coils, Complex.of(out), parallel());
		return out;
	}

	// -- on the backend's storage --

	/**
	 * Walsh's coil sensitivities: at every pixel the unit dominant eigenvector v of the windowed coil covariance, with
	 * the phase of the reference coil (largest energy) removed — the weights {@link #walsh} combines with
	 * (combined = Σ_c conj(v_c)·x_c), as maps [coil][pixel] (Σ_c |v_c|² = 1 at every pixel).
	 */
	public static float[] walshMaps(final float[] coilImages, final int offset, final int[] size, final int coils) {
		int pixels = 1;
		for (final int n : size) pixels *= n;
		final float[] out = new float[2 * pixels], maps = new float[2 * pixels * coils];
		walsh(Complex.of(coilImages, offset, 2 * pixels * coils), size, coils, Complex.of(out), parallel(), Complex.of(
			maps));
		return maps;
	}

	static void sumOfSquares(final Complex in, final int pixels, final int coils, final Complex out, final Rows rows) {
		final int chunk = 4096;
		rows.run((pixels + chunk - 1) / chunk, part -> {
			final int end = Math.min(pixels, (part + 1) * chunk);
			for (int p = part * chunk; p < end; p++) {
				double s = 0;
				for (int c = 0; c < coils; c++) {
					final double re = in.re(p + pixels * c), im = in.im(p + pixels * c);
					s += re * re + im * im;
				}
				out.set(p, Math.sqrt(s), 0);
			}
		});
	}

	static void walsh(final Complex in, final int[] size, final int coils, final Complex out, final Rows rows) {
		walsh(in, size, coils, out, rows, null);
	}

	private static void walsh(final Complex in, final int[] size, final int coils, final Complex out, final Rows rows,
		final Complex maps)
	{
		InvalidInputException.require(coils >= 1, "Walsh combination: needs at least one coil");
		final int nx = size[0], ny = size[1], nz = size.length > 2 ? size[2] : 1;
		final int pixels = nx * ny * nz;
		// Reference coil: largest energy, so the reference phase is defined where the object is.
		int ref = 0;
		double best = -1;
		for (int c = 0; c < coils; c++) {
			double e = 0;
			for (int p = 0; p < pixels; p++) {
				final double re = in.re(p + pixels * c), im = in.im(p + pixels * c);
				e += re * re + im * im;
			}
			if (e > best) {
				best = e;
				ref = c;
			}
		}
		final int refCoil = ref;
		rows.run(ny * nz, row -> combineRow(in, nx, ny, pixels, coils, refCoil, row / ny, row % ny, out, maps));
	}

	// -- helpers --

	private static Rows parallel() {
		return (n, row) -> IntStream.range(0, n).parallel().forEach(row);
	}

	/** Combines one row (z, y): covariance column sums over the window rows, slid along x. */
	private static void combineRow(final Complex img, final int nx, final int ny, final int pixels, final int coils,
		final int ref, final int z, final int y, final Complex out, final Complex maps)
	{
		final int h = WINDOW / 2;
		final int cc = coils * coils;
		// col[x][c][d] (re, im) = Σ_{|dy|≤h} x_c(x, y+dy) · conj(x_d(x, y+dy)), Hermitian, stored full.
		final double[] col = new double[2 * cc * nx];
		final int y0 = Math.max(0, y - h), y1 = Math.min(ny - 1, y + h);
		final double[] v = new double[2 * coils];
		for (int yy = y0; yy <= y1; yy++) {
			for (int x = 0; x < nx; x++) {
				final int p = x + nx * (yy + ny * z);
				for (int c = 0; c < coils; c++) {
					v[2 * c] = img.re(p + pixels * c);
					v[2 * c + 1] = img.im(p + pixels * c);
				}
				final int b = 2 * cc * x;
				for (int c = 0; c < coils; c++) {
					final double ar = v[2 * c], ai = v[2 * c + 1];
					for (int d = 0; d < coils; d++) {
						final double br = v[2 * d], bi = -v[2 * d + 1];
						col[b + 2 * (c * coils + d)] += ar * br - ai * bi;
						col[b + 2 * (c * coils + d) + 1] += ar * bi + ai * br;
					}
				}
			}
		}
		final double[] r = new double[2 * cc];
		final double[] u = new double[2 * coils], w = new double[2 * coils];
		// Window sum along x: start with columns [0, h-1], then add x+h and drop x-h-1 as x advances.
		for (int x = 0; x < Math.min(h, nx); x++) add(r, col, x, cc, 1);
		for (int x = 0; x < nx; x++) {
			if (x + h < nx) add(r, col, x + h, cc, 1);
			if (x - h - 1 >= 0) add(r, col, x - h - 1, cc, -1);
			dominantEigenvector(r, coils, u, w);
			// Phase reference: make u_ref real and positive.
			final double rr = u[2 * ref], ri = u[2 * ref + 1], rm = Math.hypot(rr, ri);
			final double pr = rm > 0 ? rr / rm : 1, pi = rm > 0 ? -ri / rm : 0;
			final int p = x + nx * (y + ny * z);
			double sr = 0, si = 0;
			for (int c = 0; c < coils; c++) {
				// v_c = u_c · e^{-i φ_ref}; combined = Σ conj(v_c) x_c
				final double vr = u[2 * c] * pr - u[2 * c + 1] * pi, vi = u[2 * c] * pi + u[2 * c + 1] * pr;
				if (maps != null) maps.set(p + pixels * c, vr, vi);
				final double xr = img.re(p + pixels * c), xi = img.im(p + pixels * c);
				sr += vr * xr + vi * xi;
				si += vr * xi - vi * xr;
			}
			out.set(p, sr, si);
		}
	}

	private static void add(final double[] r, final double[] col, final int x, final int cc, final int sign) {
		final int b = 2 * cc * x;
		for (int i = 0; i < 2 * cc; i++) r[i] += sign * col[b + i];
	}

	/** Unit dominant eigenvector of the Hermitian matrix r (row-major, interleaved) into u; w is scratch. */
	private static void dominantEigenvector(final double[] r, final int n, final double[] u, final double[] w) {
		// Start from the column of largest diagonal: close to the dominant direction for rank-1-like R.
		int start = 0;
		for (int c = 1; c < n; c++)
			if (r[2 * (c * n + c)] > r[2 * (start * n + start)]) start = c;
		for (int c = 0; c < n; c++) {
			u[2 * c] = r[2 * (c * n + start)];
			u[2 * c + 1] = r[2 * (c * n + start) + 1];
		}
		normalise(u, n);
		for (int it = 0; it < POWER_ITERATIONS; it++) {
			for (int c = 0; c < n; c++) {
				double sr = 0, si = 0;
				for (int d = 0; d < n; d++) {
					final double ar = r[2 * (c * n + d)], ai = r[2 * (c * n + d) + 1];
					sr += ar * u[2 * d] - ai * u[2 * d + 1];
					si += ar * u[2 * d + 1] + ai * u[2 * d];
				}
				w[2 * c] = sr;
				w[2 * c + 1] = si;
			}
			System.arraycopy(w, 0, u, 0, 2 * n);
			normalise(u, n);
		}
	}

	private static void normalise(final double[] u, final int n) {
		double s = 0;
		for (int i = 0; i < 2 * n; i++) s += u[i] * u[i];
		if (s == 0) {
			u[0] = 1;
			return;
		}
		final double f = 1 / Math.sqrt(s);
		for (int i = 0; i < 2 * n; i++) u[i] *= f;
	}
}
