package org.nufftj.recon.sense;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.nufftj.InvalidInputException;

/**
 * ESPIRiT coil sensitivity estimation (Uecker, Lai, Murphy, Virtue, Elad, Pauly, Vasanawala, Lustig: "ESPIRiT — an
 * eigenvalue approach to autocalibrating parallel MRI: where SENSE meets GRAPPA", MRM 71:990 (2014)), with the
 * parameters and defaults of {@code bart ecalib} ({@link EspiritOptions}). On host arrays, in double internally.
 * <ol>
 * <li>Calibration matrix A of the centred calibration region ({@link CalibrationMatrix}: every k-space window of the
 * kernel size, all coils) and its covariance K = Σ_p u_p u_pᴴ, K̄ = AᴴA.</li>
 * <li>Its eigen-decomposition ({@link HermitianEigen}, EJML): σ_i² = eigenvalues of K; the eigenvectors of the r
 * largest with σ_i²/σ_0² &gt; threshold span the signal subspace (BART's rule, see
 * {@link EspiritOptions#threshold()}). This is the SVD of A (its right singular vectors, conjugated) without forming
 * the left ones, as BART does.</li>
 * <li>The image-space operator G(x) on the target grid ({@link ImageSpaceOperator}), a C×C Hermitian matrix per pixel
 * with eigenvalues in [0, 1]; coil sensitivities are its eigenvectors of eigenvalue ≈ 1.</li>
 * <li>Per pixel, the eigenvectors of the {@code maps} largest eigenvalues (exact dense decomposition; BART uses 30
 * orthogonal iterations by default, which converge to the same vectors where the eigenvalues are separated).</li>
 * <li>Crop: set m is zeroed where its eigenvalue λ_m(x) &lt; crop (BART's hard crop).</li>
 * <li>Phase: each pixel's eigenvector has a free phase; every set is multiplied by conj(t)/|t| with t = rᴴs(x), so
 * that rᴴs(x) ≥ 0, where r is the reference of {@link EspiritOptions.PhaseReference}: the dominant eigenvector of the
 * calibration data's coil covariance Σ_k y(k)y(k)ᴴ (BART's default; r's own phase is fixed by making its largest
 * component real and positive) or the first coil ({@code -P}). Where t = 0 the phase is left as computed.</li>
 * </ol>
 * The maps do not depend on the scale of the data (the threshold and eigenvalues are relative).
 */
public final class Espirit {

	private Espirit() {}

	// -- public API --

	/**
	 * Maps on an image of {@code imageSize} (x, y[, z]) from the calibration region {@code region}: 2D regions (z = 1)
	 * give 2D or 3D images (the maps are then constant along z), 3D regions 3D images; every image size must be at
	 * least the region's.
	 */
	public static EspiritMaps estimate(final CalibrationRegion region, final int[] imageSize,
		final EspiritOptions options)
	{
		InvalidInputException.require(region != null, "ESPIRiT: calibration region must not be null");
		InvalidInputException.require(options != null, "ESPIRiT: options must not be null");
		final int[] size = CalibrationRegion.size3("image size", imageSize);
		final int[] cal = region.size();
		for (int a = 0; a < 3; a++)
			InvalidInputException.require(size[a] >= cal[a], "image size: " + Arrays.toString(imageSize) +
				" is smaller than the calibration region " + Arrays.toString(cal) + " on axis " + "xyz".charAt(a) +
				" (expected image >= calibration on every axis)");
		final int coils = region.coils();
		InvalidInputException.require(options.maps() <= coils, "maps (-m): expected at most " + coils +
			" (the number of coils), found " + options.maps());

		final CalibrationMatrix matrix = new CalibrationMatrix(region, options.kernel());
		final int n = matrix.columns();
		final HermitianEigen kernels = new HermitianEigen(n);
		kernels.decompose(matrix.covariance());
		final double top = kernels.value(0);
		InvalidInputException.require(top > 0 && Double.isFinite(top), "calibration data: " + (top > 0 ?
			"not finite" : "all zero (no signal in the calibration region)"));
		final double[] singular = new double[n];
		int r = 0;
		for (int i = 0; i < n; i++) {
			final double v = kernels.value(i);
			singular[i] = Math.sqrt(Math.max(0, v));
			if (v > options.threshold() * top) r++;
		}
		kernels.computeVectors(r);
		final double[][] v = new double[r][];
		for (int j = 0; j < r; j++) v[j] = kernels.vector(j).clone();

		final ImageSpaceOperator g = new ImageSpaceOperator(matrix.kernel(), coils, v, size);
		final double[] reference = reference(region, options.phase());
		final int sets = options.maps(), pixels = size[0] * size[1] * size[2];
		final float[] maps = new float[2 * sets * coils * pixels];
		final float[] eigenvalues = new float[sets * pixels];
		final ThreadLocal<Work> work = ThreadLocal.withInitial(() -> new Work(g, size[0]));
		IntStream.range(0, size[1] * size[2]).parallel().forEach(row -> {
			final Work w = work.get();
			g.row(row % size[1], row / size[1], w.matrices, w.phases);
			for (int x = 0; x < size[0]; x++) {
				System.arraycopy(w.matrices, 2 * coils * coils * x, w.pixel, 0, w.pixel.length);
				w.eigen.decompose(w.pixel, sets);
				final int p = x + size[0] * row;
				for (int m = 0; m < sets; m++) {
					final double lambda = w.eigen.value(m);
					eigenvalues[p + pixels * m] = (float) lambda;
					if (lambda < options.crop()) continue;
					final double[] s = w.eigen.vector(m);
					// t = rᴴs; rotate s by conj(t)/|t|
					double tr = 0, ti = 0;
					for (int c = 0; c < coils; c++) {
						tr += reference[2 * c] * s[2 * c] + reference[2 * c + 1] * s[2 * c + 1];
						ti += reference[2 * c] * s[2 * c + 1] - reference[2 * c + 1] * s[2 * c];
					}
					final double t = Math.hypot(tr, ti);
					final double cr = t > 0 ? tr / t : 1, ci = t > 0 ? -ti / t : 0;
					for (int c = 0; c < coils; c++) {
						final int o = 2 * (p + pixels * (c + coils * m));
						maps[o] = (float) (s[2 * c] * cr - s[2 * c + 1] * ci);
						maps[o + 1] = (float) (s[2 * c] * ci + s[2 * c + 1] * cr);
					}
				}
			}
		});
		return new EspiritMaps(maps, eigenvalues, imageSize, coils, sets, singular, r);
	}

	/**
	 * {@code bart ecalib}'s whole job: the centred calibration region of side {@link EspiritOptions#calibration()}
	 * (capped by the k-space size) of a fully sampled Cartesian k-space of {@code matrix} (x, y[, z]) and
	 * {@code coils} coils (layout [coil][z][y][x], interleaved), and maps on the same matrix.
	 */
	public static EspiritMaps fromKSpace(final float[] kspace, final int[] matrix, final int coils,
		final EspiritOptions options)
	{
		InvalidInputException.require(options != null, "ESPIRiT: options must not be null");
		return estimate(CalibrationRegion.extract(kspace, matrix, coils, options.calibration()), matrix, options);
	}

	/**
	 * The phase reference r (unit norm, interleaved): the dominant eigenvector of R = Σ_k y(k)y(k)ᴴ over the
	 * calibration region, its largest component made real and positive; or the first coil.
	 */
	static double[] reference(final CalibrationRegion region, final EspiritOptions.PhaseReference phase) {
		final int coils = region.coils(), positions = region.positions();
		final double[] r = new double[2 * coils];
		if (phase == EspiritOptions.PhaseReference.FIRST_COIL) {
			r[0] = 1;
			return r;
		}
		final float[] d = region.raw();
		final double[] cov = new double[2 * coils * coils];
		for (int c = 0; c < coils; c++)
			for (int e = 0; e <= c; e++) {
				double re = 0, im = 0;
				for (int k = 0; k < positions; k++) {
					final double ar = d[2 * (k + positions * c)], ai = d[2 * (k + positions * c) + 1];
					final double br = d[2 * (k + positions * e)], bi = d[2 * (k + positions * e) + 1];
					re += ar * br + ai * bi; // y_c conj(y_e)
					im += ai * br - ar * bi;
				}
				cov[2 * (c * coils + e)] = re;
				cov[2 * (c * coils + e) + 1] = im;
				cov[2 * (e * coils + c)] = re;
				cov[2 * (e * coils + c) + 1] = -im;
			}
		final HermitianEigen eig = new HermitianEigen(coils);
		eig.decompose(cov, 1);
		final double[] v = eig.vector(0);
		int big = 0;
		for (int c = 1; c < coils; c++)
			if (Math.hypot(v[2 * c], v[2 * c + 1]) > Math.hypot(v[2 * big], v[2 * big + 1])) big = c;
		final double a = Math.hypot(v[2 * big], v[2 * big + 1]);
		final double pr = v[2 * big] / a, pi = -v[2 * big + 1] / a; // conj of its phase
		for (int c = 0; c < coils; c++) {
			r[2 * c] = v[2 * c] * pr - v[2 * c + 1] * pi;
			r[2 * c + 1] = v[2 * c] * pi + v[2 * c + 1] * pr;
		}
		return r;
	}

	// -- helpers --

	/** Per-thread buffers: one image row of G(x) matrices, one pixel's matrix, the eigen-solver. */
	private static final class Work {

		final double[] matrices, pixel, phases;
		final HermitianEigen eigen;

		Work(final ImageSpaceOperator g, final int nx) {
			final int c = g.coils();
			matrices = new double[2 * c * c * nx];
			pixel = new double[2 * c * c];
			phases = new double[g.workSize()];
			eigen = new HermitianEigen(c);
		}
	}
}
