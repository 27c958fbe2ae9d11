package org.nufftj.recon.sense;

import java.util.stream.IntStream;

/**
 * ESPIRiT's operator in image space (Uecker et al. 2014, eq. 13–15): at every pixel x a C×C Hermitian matrix
 * <pre>
 *   G(x) = (1/P) Σ_j a_j(x) a_j(x)ᴴ,     a_j(x)_c = Σ_δ v_j(c, δ) e^{+2πi δ·x/N}
 * </pre>
 * with v_j the orthonormal signal-subspace kernels (vectors in the patch space of {@link CalibrationMatrix}, C coils
 * × P = k₀k₁k₂ offsets δ), x the centred pixel coordinate and N the image size. It is the projection
 * W = (1/P) Σ_p R_pᴴ V Vᴴ R_p (R_p: patch extraction at k-space position p) written in image space: for a
 * multi-coil k-space y(q) = Σ_x f(x) e^{−2πi q·x/N}, (Wy)(q) = Σ_x G(x) f(x) e^{−2πi q·x/N}. Since the patch
 * vectors of data that the kernels describe satisfy V Vᴴ u = u, those data satisfy G(x)f(x) = f(x): coil sensitivity
 * vectors are eigenvectors of eigenvalue 1; and since Σ_j a_j a_jᴴ = E(x)ᴴ V Vᴴ E(x) ≤ E(x)ᴴE(x) = P·I (E(x) the
 * C·P × C matrix of the phases), every eigenvalue lies in [0, 1].
 * <p>
 * G is evaluated exactly from its Fourier coefficients: expanding a_j a_jᴴ,
 * </p>
 * <pre>
 *   G_cc'(x) = Σ_Δ g_cc'(Δ) e^{+2πi Δ·x/N},   g_cc'(Δ) = (1/P) Σ_{δ − δ' = Δ} Π[(c, δ), (c', δ')],   Π = V Vᴴ,
 * </pre>
 * a trigonometric polynomial with lags |Δ_a| &lt; k_a (BART computes the same on a 2k grid and Fourier-interpolates
 * it). The sum over Δx is done once per lag (Δy, Δz) for a whole image row; each pixel then costs
 * C(C+1)/2 · (2k_y − 1)(2k_z − 1) complex multiply-adds. Immutable once prepared; {@link #row} is thread-safe.
 */
final class ImageSpaceOperator {

	private final int coils, entries;
	private final int[] lags = new int[3]; // L_a = 2k_a − 1
	private final int[] kernel;
	private final int[] size; // image x, y, z
	// t[e][2·(x + Nx·(ly + Ly·lz))]: Σ_Δx g_e(Δ) e^{2πiΔx·x/Nx}, entry e = c(c+1)/2 + c' for c ≥ c'
	private final double[][] t;
	private final double[][] phaseY, phaseZ; // [lag][2·index]

	/**
	 * The operator of the kernels {@code v} (each 2·C·P values interleaved, orthonormal, ordered like the columns of
	 * {@link CalibrationMatrix}) for a kernel of {@code kernel} (x, y, z) and {@code coils} coils, on an image of
	 * {@code size} (x, y, z).
	 */
	ImageSpaceOperator(final int[] kernel, final int coils, final double[][] v, final int[] size) {
		this.kernel = kernel.clone();
		this.coils = coils;
		this.size = size.clone();
		entries = coils * (coils + 1) / 2;
		for (int a = 0; a < 3; a++) lags[a] = 2 * kernel[a] - 1;
		final double[][] g = coefficients(v);
		final double[][] phaseX = phases(0);
		phaseY = phases(1);
		phaseZ = phases(2);
		final int nx = size[0], lyz = lags[1] * lags[2];
		t = new double[entries][2 * nx * lyz];
		IntStream.range(0, entries).parallel().forEach(e -> {
			final double[] ge = g[e], te = t[e];
			for (int l = 0; l < lyz; l++)
				for (int lx = 0; lx < lags[0]; lx++) {
					final double gr = ge[2 * (lx + lags[0] * l)], gi = ge[2 * (lx + lags[0] * l) + 1];
					if (gr == 0 && gi == 0) continue;
					final double[] p = phaseX[lx];
					for (int x = 0; x < nx; x++) {
						te[2 * (x + nx * l)] += gr * p[2 * x] - gi * p[2 * x + 1];
						te[2 * (x + nx * l) + 1] += gr * p[2 * x + 1] + gi * p[2 * x];
					}
				}
		});
	}

	// -- package API --

	int coils() { return coils; }

	/**
	 * G(x) for the image row (y, z), every x: {@code out} gets Nx matrices of C×C, row-major, interleaved (2·C² values
	 * per pixel, pixel x at 2·C²·x). {@code w} is a work array of 2·(2k_y − 1)(2k_z − 1) values.
	 */
	void row(final int y, final int z, final double[] out, final double[] w) {
		final int nx = size[0], lyz = lags[1] * lags[2], c2 = 2 * coils * coils;
		for (int lz = 0; lz < lags[2]; lz++)
			for (int ly = 0; ly < lags[1]; ly++) {
				final double ar = phaseY[ly][2 * y], ai = phaseY[ly][2 * y + 1];
				final double br = phaseZ[lz][2 * z], bi = phaseZ[lz][2 * z + 1];
				w[2 * (ly + lags[1] * lz)] = ar * br - ai * bi;
				w[2 * (ly + lags[1] * lz) + 1] = ar * bi + ai * br;
			}
		for (int c = 0, e = 0; c < coils; c++)
			for (int d = 0; d <= c; d++, e++) {
				final double[] te = t[e];
				for (int x = 0; x < nx; x++) {
					double re = 0, im = 0;
					for (int l = 0; l < lyz; l++) {
						final double tr = te[2 * (x + nx * l)], ti = te[2 * (x + nx * l) + 1];
						re += tr * w[2 * l] - ti * w[2 * l + 1];
						im += tr * w[2 * l + 1] + ti * w[2 * l];
					}
					final int o = c2 * x;
					out[o + 2 * (c * coils + d)] = re;
					out[o + 2 * (c * coils + d) + 1] = im;
					out[o + 2 * (d * coils + c)] = re;
					out[o + 2 * (d * coils + c) + 1] = -im;
				}
			}
	}

	/** Work array size for {@link #row}. */
	int workSize() { return 2 * lags[1] * lags[2]; }

	// -- helpers --

	/** g_e(Δ) for e = (c, c'), c ≥ c': [e][2·(lx + Lx·(ly + Ly·lz))], l_a = Δ_a + k_a − 1. */
	private double[][] coefficients(final double[][] v) {
		final int p = kernel[0] * kernel[1] * kernel[2], n = coils * p, r = v.length;
		// Transposed kernels: w[i] holds component i of every kernel j (contiguous in j).
		final double[][] w = new double[n][2 * r];
		for (int j = 0; j < r; j++)
			for (int i = 0; i < n; i++) {
				w[i][2 * j] = v[j][2 * i];
				w[i][2 * j + 1] = v[j][2 * i + 1];
			}
		final double[][] g = new double[entries][2 * lags[0] * lags[1] * lags[2]];
		final double scale = 1.0 / p;
		IntStream.range(0, entries).parallel().forEach(e -> {
			final int c = (int) ((Math.sqrt(8.0 * e + 1) - 1) / 2), d = e - c * (c + 1) / 2;
			final double[] ge = g[e];
			for (int a = 0; a < p; a++) {
				final double[] wa = w[c * p + a];
				final int ax = a % kernel[0], ay = a / kernel[0] % kernel[1], az = a / (kernel[0] * kernel[1]);
				for (int b = 0; b < p; b++) {
					final double[] wb = w[d * p + b];
					double re = 0, im = 0;
					for (int j = 0; j < 2 * r; j += 2) {
						// Π[(c, δ), (c', δ')] = Σ_j v_j(c, δ) conj(v_j(c', δ'))
						re += wa[j] * wb[j] + wa[j + 1] * wb[j + 1];
						im += wa[j + 1] * wb[j] - wa[j] * wb[j + 1];
					}
					final int bx = b % kernel[0], by = b / kernel[0] % kernel[1], bz = b / (kernel[0] * kernel[1]);
					final int lag = ax - bx + kernel[0] - 1 + lags[0] * (ay - by + kernel[1] - 1 + lags[1] *
						(az - bz + kernel[2] - 1));
					ge[2 * lag] += scale * re;
					ge[2 * lag + 1] += scale * im;
				}
			}
		});
		return g;
	}

	/** e^{+2πi Δ·(i − ⌊N/2⌋)/N} for every lag Δ = l − k + 1 and index i on axis a: [l][2·i]. */
	private double[][] phases(final int axis) {
		final int nn = size[axis], k = kernel[axis];
		final double[][] p = new double[lags[axis]][2 * nn];
		for (int l = 0; l < lags[axis]; l++) {
			final long delta = l - k + 1;
			for (int i = 0; i < nn; i++) {
				// Reduce Δ·x mod N exactly in integers before the division, so large images keep full accuracy.
				final long m = Math.floorMod(delta * (i - nn / 2), (long) nn);
				final double arg = 2 * Math.PI * m / nn;
				p[l][2 * i] = Math.cos(arg);
				p[l][2 * i + 1] = Math.sin(arg);
			}
		}
		return p;
	}
}
