package org.nufftj.phantom;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;

/**
 * Receive-coil sensitivities that are short sums of complex exponentials, so that the k-space of an analytic phantom
 * seen through them is exact too:
 * <pre>
 *   s_c(x) = Σ_j a_cj · e^{+2πi q_cj·x}    ⇒    y_c(k) = Σ_x f(x)·s_c(x)·e^{−2πi k·x} → Σ_j a_cj · F(k − q_cj)
 * </pre>
 * with x the centred pixel coordinate (x = index − ⌊N/2⌋ per axis, continuous between pixels), q in cycles per
 * pixel like k, and F the phantom's continuous Fourier transform ({@link AnalyticPhantom#kspace(double[], int[])}).
 * Nothing is rasterised, so simulated data carry no "inverse crime".
 * <h2>The synthetic model</h2>
 * {@link #synthetic} gives, for {@code C ≥ 2} coils, coil c = 0 … C−1
 * <pre>
 *   s_c(x) = e^{iφ_c} · (0.6 + 0.4·cos(2π q_c·x + β_c)),   φ_c = 0.7c,  β_c = 0.9c,  |q_c| = 1/(2n),
 * </pre>
 * n the largest matrix size, i.e. half a cycle across the field of view (smooth), direction at azimuth α_c = 2πc/8
 * in the x–y plane (2D), tilted by an elevation ±π/6 (+ for even c) out of it in 3D. It is the sum of the three terms
 * 0.6e^{iφ_c}, 0.2e^{i(φ_c+β_c)}e^{+2πi q_c·x} and 0.2e^{i(φ_c−β_c)}e^{−2πi q_c·x}; |s_c| lies in [0.2, 1]. The 2D
 * model is that of the ISMRMRD fixture writer (src/test/c/ismrmrd_noncart_fixture.c, {@code coil_ft}), which made
 * sample-data/ismrmrd. Directions repeat every 8 coils (with other φ and β, so the maps stay distinct). One coil is a
 * unit sensitivity. Immutable and thread-safe.
 * </p>
 */
public final class CoilSensitivities {

	/** Amplitudes and frequencies of the synthetic model (see the class comment). */
	public static final double MEAN = 0.6, SWING = 0.4, PHASE_STEP = 0.7, BETA_STEP = 0.9, ELEVATION = Math.PI / 6;

	private final int[] matrix;
	private final int d;
	private final double[][] re, im; // [coil][term]
	private final double[][][] q; // [coil][term][axis], cycles/pixel
	// Distinct frequencies over all coils (the k-space of each is evaluated once per sample point) and, per coil and
	// term, the index of its frequency in that list.
	private final double[][] shifts;
	private final int[][] shiftOf;

	/**
	 * Sensitivities from their terms: coil c has terms j with amplitude {@code (re[c][j], im[c][j])} and frequency
	 * {@code q[c][j]} (cycles/pixel, one value per axis of {@code matrix}).
	 */
	public CoilSensitivities(final int[] matrix, final double[][] re, final double[][] im, final double[][][] q) {
		InvalidInputException.require(matrix != null && (matrix.length == 2 || matrix.length == 3),
			"coil sensitivities: expected a 2D or 3D matrix, found " + Arrays.toString(matrix));
		for (final int n : matrix) InvalidInputException.require(n >= 1, "coil sensitivities: matrix sizes must be " +
			">= 1, found " + Arrays.toString(matrix));
		InvalidInputException.require(re.length >= 1 && im.length == re.length && q.length == re.length,
			"coil sensitivities: expected at least one coil and as many amplitude and frequency lists, found " +
				re.length + ", " + im.length + ", " + q.length);
		this.matrix = matrix.clone();
		d = matrix.length;
		this.re = new double[re.length][];
		this.im = new double[re.length][];
		this.q = new double[re.length][][];
		final List<double[]> distinct = new ArrayList<>();
		shiftOf = new int[re.length][];
		for (int c = 0; c < re.length; c++) {
			final int terms = re[c].length;
			InvalidInputException.require(terms >= 1 && im[c].length == terms && q[c].length == terms, "coil " + c +
				": expected at least one term and as many amplitudes and frequencies, found " + terms + ", " +
				im[c].length + ", " + q[c].length);
			this.re[c] = re[c].clone();
			this.im[c] = im[c].clone();
			this.q[c] = new double[terms][];
			shiftOf[c] = new int[terms];
			for (int j = 0; j < terms; j++) {
				InvalidInputException.require(q[c][j].length == d, "coil " + c + " term " + j + ": expected a " + d +
					"D frequency, found " + q[c][j].length + " values");
				for (final double v : q[c][j]) InvalidInputException.require(Double.isFinite(v), "coil " + c + " term " +
					j + ": frequency " + Arrays.toString(q[c][j]) + " is not finite");
				InvalidInputException.require(Double.isFinite(re[c][j]) && Double.isFinite(im[c][j]), "coil " + c +
					" term " + j + ": amplitude is not finite");
				this.q[c][j] = q[c][j].clone();
				int found = -1;
				for (int u = 0; u < distinct.size() && found < 0; u++) if (Arrays.equals(distinct.get(u), q[c][j])) found = u;
				if (found < 0) {
					found = distinct.size();
					distinct.add(q[c][j].clone());
				}
				shiftOf[c][j] = found;
			}
		}
		shifts = distinct.toArray(new double[0][]);
	}

	// -- public API --

	/** The synthetic model of the class comment for {@code coils} coils on {@code matrix} (2D or 3D). */
	public static CoilSensitivities synthetic(final int coils, final int[] matrix) {
		InvalidInputException.require(coils >= 1, "coils: expected >= 1, found " + coils);
		InvalidInputException.require(matrix != null && (matrix.length == 2 || matrix.length == 3),
			"coil sensitivities: expected a 2D or 3D matrix, found " + Arrays.toString(matrix));
		final int d = matrix.length;
		if (coils == 1) return new CoilSensitivities(matrix, new double[][] { { 1 } }, new double[][] { { 0 } },
			new double[][][] { { new double[d] } });
		int n = 1;
		for (final int s : matrix) n = Math.max(n, s);
		final double[][] re = new double[coils][3], im = new double[coils][3];
		final double[][][] q = new double[coils][3][d];
		for (int c = 0; c < coils; c++) {
			final double alpha = 2 * Math.PI * c / 8, beta = BETA_STEP * c, phi = PHASE_STEP * c;
			final double[] dir = d == 2 ? new double[] { Math.cos(alpha), Math.sin(alpha) } : tilted(alpha,
				(c & 1) == 0 ? ELEVATION : -ELEVATION);
			final double[] amp = { MEAN, SWING / 2, SWING / 2 }, arg = { phi, phi + beta, phi - beta };
			final int[] sign = { 0, 1, -1 };
			for (int j = 0; j < 3; j++) {
				re[c][j] = amp[j] * Math.cos(arg[j]);
				im[c][j] = amp[j] * Math.sin(arg[j]);
				for (int a = 0; a < d; a++) q[c][j][a] = sign[j] * dir[a] / (2.0 * n);
			}
		}
		return new CoilSensitivities(matrix, re, im, q);
	}

	public int coils() { return re.length; }

	public int dimensions() { return d; }

	/** The image size the maps and the k-space scaling refer to. */
	public int[] matrix() { return matrix.clone(); }

	public int terms(final int coil) { return re[coil].length; }

	/** Amplitude a_cj: {re, im}. */
	public double[] amplitude(final int coil, final int term) {
		return new double[] { re[coil][term], im[coil][term] };
	}

	/** Frequency q_cj in cycles/pixel. */
	public double[] frequency(final int coil, final int term) {
		return q[coil][term].clone();
	}

	/** s_c(x) at a centred pixel position x (continuous): {re, im}. */
	public double[] value(final int coil, final double[] x) {
		InvalidInputException.require(x.length == d, "coil sensitivities: expected a " + d + "D position, found " +
			x.length + " values");
		double sr = 0, si = 0;
		for (int j = 0; j < re[coil].length; j++) {
			double dot = 0;
			for (int a = 0; a < d; a++) dot += q[coil][j][a] * x[a];
			final double c = Math.cos(2 * Math.PI * dot), s = Math.sin(2 * Math.PI * dot);
			sr += re[coil][j] * c - im[coil][j] * s;
			si += re[coil][j] * s + im[coil][j] * c;
		}
		return new double[] { sr, si };
	}

	/** The maps on the pixel grid, one channel per coil (pixel centres x = index − ⌊N/2⌋). */
	public ComplexImage maps() {
		final int nx = matrix[0], ny = matrix[1], nz = d == 3 ? matrix[2] : 1;
		final long pixels = (long) nx * ny * nz;
		InvalidInputException.require(2 * pixels * coils() <= Integer.MAX_VALUE - 8, "coil maps of " + pixels +
			" pixels x " + coils() + " coils are too large for one array");
		final float[] data = new float[(int) (2 * pixels * coils())];
		final double[] x = new double[d];
		for (int c = 0; c < coils(); c++)
			for (int z = 0; z < nz; z++)
				for (int y = 0; y < ny; y++)
					for (int i = 0; i < nx; i++) {
						x[0] = i - nx / 2;
						x[1] = y - ny / 2;
						if (d == 3) x[2] = z - nz / 2;
						final double[] v = value(c, x);
						final long o = 2 * (i + nx * (y + (long) ny * (z + (long) nz * c)));
						data[(int) o] = (float) v[0];
						data[(int) o + 1] = (float) v[1];
					}
		return new ComplexImage(data, matrix, coils(), 1, null);
	}

	/** y_c(k) = Σ_j a_cj·F(k − q_cj) for the phantom's transform F on this matrix: {re, im}. */
	public double[] kspace(final AnalyticPhantom phantom, final int coil, final double[] k) {
		requireCompatible(phantom);
		final double[] out = new double[2], p = new double[d], kq = new double[d];
		for (int j = 0; j < re[coil].length; j++) {
			for (int a = 0; a < d; a++) kq[a] = k[a] - q[coil][j][a];
			final double[] f = { 0, 0 };
			phantom.addKSpace(kq, matrix, p, f, 0);
			out[0] += re[coil][j] * f[0] - im[coil][j] * f[1];
			out[1] += re[coil][j] * f[1] + im[coil][j] * f[0];
		}
		return out;
	}

	@Override
	public String toString() {
		return coils() == 1 && re[0].length == 1 && re[0][0] == 1 && im[0][0] == 0 ? "1 coil (unit sensitivity)" :
			coils() + " coils";
	}

	// -- helpers --

	void requireCompatible(final AnalyticPhantom phantom) {
		InvalidInputException.require(phantom.dimensions() == d, "phantom " + phantom.name() + " is " +
			phantom.dimensions() + "D, coil sensitivities are " + d + "D");
	}

	/** Distinct frequencies over all coils. Not copies. */
	double[][] shifts() { return shifts; }

	/** Index into {@link #shifts()} of coil c's term j. */
	int shiftOf(final int coil, final int term) { return shiftOf[coil][term]; }

	double re(final int coil, final int term) { return re[coil][term]; }

	double im(final int coil, final int term) { return im[coil][term]; }

	private static double[] tilted(final double azimuth, final double elevation) {
		final double c = Math.cos(elevation);
		return new double[] { Math.cos(azimuth) * c, Math.sin(azimuth) * c, Math.sin(elevation) };
	}
}
