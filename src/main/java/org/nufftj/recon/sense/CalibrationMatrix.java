package org.nufftj.recon.sense;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.nufftj.InvalidInputException;

/**
 * The calibration (block-Hankel) matrix A of ESPIRiT (Uecker et al., MRM 71:990 (2014), section "Theory"): one row
 * per position of a k₀×k₁×k₂ kernel window that fits inside the calibration region, holding the window's samples of
 * every coil. With the window's first corner at p = (px, py, pz), 0 ≤ p_a ≤ n_a − k_a:
 * <pre>
 *   row    r(p)    = px + Px·(py + Py·pz),                    P_a = n_a − k_a + 1 positions per axis
 *   column j(c, δ) = δx + kx·(δy + ky·(δz + kz·c)),           0 ≤ δ_a &lt; k_a, coil c
 *   A[r(p), j(c, δ)] = y_c(p + δ)
 * </pre>
 * i.e. the columns are ordered like a [coil][kz][ky][kx] kernel, x fastest. The window's sample vector ("patch")
 * u_p ∈ ℂ^{C·k₀k₁k₂} is row r(p) read as a column vector (not conjugated).
 * <p>
 * Axes on which the calibration region has size 1 (z for 2D data) use a kernel size of 1, as {@code bart ecalib}
 * does. Elsewhere the kernel must fit: k_a ≤ n_a.
 * </p>
 * <h2>Covariance</h2>
 * {@link #covariance()} is K = Σ_p u_p u_pᴴ = Aᵀ·conj(A) (so K̄ = AᴴA): its eigenvalues are the squared singular values
 * σ_i² of A and its eigenvectors span the patches themselves, i.e. they are the conjugated right singular vectors of
 * A. The data's patches lie in the span of the eigenvectors of the large eigenvalues (the signal subspace) and are
 * orthogonal to the others (the null space: annihilating kernels, A·conj(v) = 0).
 */
public final class CalibrationMatrix {

	/** Largest number of columns C·k₀k₁k₂ accepted: the eigen-decomposition works on a real matrix of twice it. */
	public static final int MAX_COLUMNS = 2048;
	/** Largest number of matrix entries (rows × columns) accepted (the matrix is formed in double). */
	public static final long MAX_ENTRIES = 1L << 25;

	private final CalibrationRegion region;
	private final int[] kernel; // effective, x, y, z
	private final int[] positions; // P_a per axis
	private final int rows, columns;

	/** The matrix of {@code region} for a kernel of size {@code kernel} (x, y, z; 1 value = every axis). */
	public CalibrationMatrix(final CalibrationRegion region, final int... kernel) {
		InvalidInputException.require(region != null, "calibration region: must not be null");
		InvalidInputException.require(kernel != null && kernel.length >= 1 && kernel.length <= 3,
			"kernel size: expected 1 to 3 sizes, found " + (kernel == null ? "none" : Arrays.toString(kernel)));
		this.region = region;
		final int[] n = region.size();
		this.kernel = new int[3];
		positions = new int[3];
		long p = 1;
		for (int a = 0; a < 3; a++) {
			final int k = kernel[Math.min(a, kernel.length - 1)];
			InvalidInputException.require(k >= 1, "kernel size: expected sizes >= 1, found " + Arrays.toString(kernel));
			this.kernel[a] = n[a] == 1 ? 1 : k;
			InvalidInputException.require(this.kernel[a] <= n[a], "calibration size: " + Arrays.toString(trim(n)) +
				" is smaller than the kernel " + Arrays.toString(trim(this.kernel)) + " on axis " + "xyz".charAt(a) +
				" (expected calibration >= kernel on every axis)");
			positions[a] = n[a] - this.kernel[a] + 1;
			p *= positions[a];
		}
		final long cols = (long) region.coils() * this.kernel[0] * this.kernel[1] * this.kernel[2];
		InvalidInputException.require(cols <= MAX_COLUMNS, "kernel size " + Arrays.toString(trim(this.kernel)) +
			" x " + region.coils() + " coils: " + cols + " calibration matrix columns, expected at most " +
			MAX_COLUMNS + " (use a smaller kernel or compress the coils)");
		InvalidInputException.require(p * cols <= MAX_ENTRIES, "calibration " + Arrays.toString(trim(n)) +
			" with kernel " + Arrays.toString(trim(this.kernel)) + ": " + p + " x " + cols + " calibration matrix, " +
			"expected at most " + MAX_ENTRIES + " entries (use a smaller calibration region)");
		rows = (int) p;
		columns = (int) cols;
	}

	// -- public API --

	public int rows() { return rows; }

	/** C·k₀k₁k₂. */
	public int columns() { return columns; }

	/** The effective kernel size x, y, z (1 on axes where the calibration has size 1). */
	public int[] kernel() { return kernel.clone(); }

	/** Kernel window positions per axis, P_a = n_a − k_a + 1. */
	public int[] positions() { return positions.clone(); }

	public CalibrationRegion region() { return region; }

	/** A, rows × columns, row-major, interleaved (re, im), in double. */
	public double[] matrix() {
		final double[] a = new double[2 * rows * columns];
		final double[] col = new double[2 * rows];
		for (int j = 0; j < columns; j++) {
			column(j, col);
			for (int r = 0; r < rows; r++) {
				a[2 * (r * columns + j)] = col[2 * r];
				a[2 * (r * columns + j) + 1] = col[2 * r + 1];
			}
		}
		return a;
	}

	/**
	 * K = Σ_p u_p u_pᴴ, columns × columns, row-major, interleaved: K[i][j] = Σ_r A[r][i]·conj(A[r][j]). Hermitian
	 * positive semi-definite.
	 */
	public double[] covariance() {
		final double[][] cols = new double[columns][2 * rows];
		for (int j = 0; j < columns; j++) column(j, cols[j]);
		final double[] k = new double[2 * columns * columns];
		IntStream.range(0, columns).parallel().forEach(i -> {
			final double[] ci = cols[i];
			for (int j = 0; j <= i; j++) {
				final double[] cj = cols[j];
				double re = 0, im = 0;
				for (int r = 0; r < 2 * rows; r += 2) {
					// a · conj(b)
					re += ci[r] * cj[r] + ci[r + 1] * cj[r + 1];
					im += ci[r + 1] * cj[r] - ci[r] * cj[r + 1];
				}
				k[2 * (i * columns + j)] = re;
				k[2 * (i * columns + j) + 1] = im;
				k[2 * (j * columns + i)] = re;
				k[2 * (j * columns + i) + 1] = -im;
			}
		});
		return k;
	}

	// -- helpers --

	/** Column j(c, δ) of A into {@code out} (2·rows values). */
	private void column(final int j, final double[] out) {
		final int dx = j % kernel[0], dy = j / kernel[0] % kernel[1], dz = j / (kernel[0] * kernel[1]) % kernel[2];
		final int c = j / (kernel[0] * kernel[1] * kernel[2]);
		final int[] n = region.size();
		final float[] d = region.raw();
		int r = 0;
		for (int pz = 0; pz < positions[2]; pz++)
			for (int py = 0; py < positions[1]; py++) {
				final int base = 2 * (dx + n[0] * (py + dy + n[1] * (pz + dz + n[2] * c)));
				for (int px = 0; px < positions[0]; px++, r++) {
					out[2 * r] = d[base + 2 * px];
					out[2 * r + 1] = d[base + 2 * px + 1];
				}
			}
	}

	private static int[] trim(final int[] s) {
		return s[2] == 1 ? new int[] { s[0], s[1] } : s;
	}
}
