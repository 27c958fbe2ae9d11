package org.nufftj.recon.sense;

import java.util.Arrays;

import org.nufftj.InvalidInputException;

/**
 * What an ESPIRiT calibration does ({@link Espirit}); the same parameters, meaning and defaults as {@code bart ecalib}.
 * Immutable; start from {@link #defaults()} and change with {@code with*}. Every {@code with*} validates its value and
 * throws {@link InvalidInputException} naming the field, the value and what was expected.
 * <ul>
 * <li>{@code kernel} ({@code -k}, default {@value #DEFAULT_KERNEL} on every axis): the k-space kernel (patch) size
 * per axis x, y, z. Axes of size 1 (2D data) use 1.</li>
 * <li>{@code calibration} ({@code -r}, default {@value #DEFAULT_CALIBRATION}): the side of the centred calibration
 * region taken from a full k-space ({@link Espirit#fromKSpace}), capped per axis by the k-space size.</li>
 * <li>{@code threshold} ({@code -t}, default {@value #DEFAULT_THRESHOLD}, in [0, 1)): kernel i is kept in the signal
 * subspace when σ_i² / σ_0² &gt; threshold, σ the singular values of the calibration matrix in decreasing order,
 * i.e. σ_i/σ_0 &gt; √threshold. This is BART's rule (it compares σ_i/σ_0 with √t).</li>
 * <li>{@code crop} ({@code -c}, default {@value #DEFAULT_CROP}, in [0, 1]): a map set is set to zero at the pixels
 * where its eigenvalue is below {@code crop} (BART's hard crop: kept where λ ≥ c).</li>
 * <li>{@code maps} ({@code -m}, default {@value #DEFAULT_MAPS} as in BART): how many sets of maps, the eigenvectors
 * of the largest eigenvalues in decreasing order; at most the number of coils.</li>
 * <li>{@code phase} (default {@link PhaseReference#PRINCIPAL_COMPONENT}; {@code -P} gives
 * {@link PhaseReference#FIRST_COIL}): how the free phase of each pixel's eigenvector is fixed.</li>
 * </ul>
 */
public final class EspiritOptions {

	public static final int DEFAULT_KERNEL = 6, DEFAULT_CALIBRATION = 24, DEFAULT_MAPS = 2;
	public static final double DEFAULT_THRESHOLD = 0.001, DEFAULT_CROP = 0.8;

	/** How the phase of each pixel's eigenvector (free in an eigen-decomposition) is chosen. */
	public enum PhaseReference {
		/**
		 * BART's default: r is the dominant eigenvector of the coil covariance Σ_k y(k)y(k)ᴴ of the calibration data
		 * (the first virtual coil of a PCA coil compression) and every set of maps is rotated per pixel so that
		 * rᴴs(x) is real and ≥ 0: the maps then carry the phase of the coils relative to that virtual coil.
		 */
		PRINCIPAL_COMPONENT,
		/** {@code bart ecalib -P}: the same with r = the first coil, i.e. s_0(x) is real and ≥ 0. */
		FIRST_COIL
	}

	private final int[] kernel;
	private final int[] calibration;
	private final double threshold, crop;
	private final int maps;
	private final PhaseReference phase;

	private EspiritOptions(final int[] kernel, final int[] calibration, final double threshold, final double crop,
		final int maps, final PhaseReference phase)
	{
		this.kernel = kernel;
		this.calibration = calibration;
		this.threshold = threshold;
		this.crop = crop;
		this.maps = maps;
		this.phase = phase;
	}

	public static EspiritOptions defaults() {
		return new EspiritOptions(new int[] { DEFAULT_KERNEL, DEFAULT_KERNEL, DEFAULT_KERNEL }, new int[] {
			DEFAULT_CALIBRATION, DEFAULT_CALIBRATION, DEFAULT_CALIBRATION }, DEFAULT_THRESHOLD, DEFAULT_CROP,
			DEFAULT_MAPS, PhaseReference.PRINCIPAL_COMPONENT);
	}

	// -- public API --

	/** Kernel size on axes x, y, z. */
	public int[] kernel() { return kernel.clone(); }

	/** Calibration region side on axes x, y, z (before capping by the k-space size). */
	public int[] calibration() { return calibration.clone(); }

	public double threshold() { return threshold; }

	public double crop() { return crop; }

	public int maps() { return maps; }

	public PhaseReference phase() { return phase; }

	/** One size for every axis, or x, y (z keeps its current size), or x, y, z; every size ≥ 1. */
	public EspiritOptions withKernel(final int... k) {
		return new EspiritOptions(sizes("kernel size (-k)", k, kernel), calibration, threshold, crop, maps, phase);
	}

	/** One side for every axis, or x, y (z keeps its current side), or x, y, z; every side ≥ 1. */
	public EspiritOptions withCalibration(final int... r) {
		return new EspiritOptions(kernel, sizes("calibration size (-r)", r, calibration), threshold, crop, maps,
			phase);
	}

	public EspiritOptions withThreshold(final double t) {
		InvalidInputException.require(t >= 0 && t < 1, "threshold (-t): expected a value in [0, 1), found " + t);
		return new EspiritOptions(kernel, calibration, t, crop, maps, phase);
	}

	public EspiritOptions withCrop(final double c) {
		InvalidInputException.require(c >= 0 && c <= 1, "crop (-c): expected a value in [0, 1], found " + c);
		return new EspiritOptions(kernel, calibration, threshold, c, maps, phase);
	}

	public EspiritOptions withMaps(final int m) {
		InvalidInputException.require(m >= 1, "maps (-m): expected at least 1 set of maps, found " + m);
		return new EspiritOptions(kernel, calibration, threshold, crop, m, phase);
	}

	public EspiritOptions withPhase(final PhaseReference p) {
		InvalidInputException.require(p != null, "phase reference: must not be null");
		return new EspiritOptions(kernel, calibration, threshold, crop, maps, p);
	}

	@Override
	public String toString() {
		return "kernel " + Arrays.toString(kernel) + ", calibration " + Arrays.toString(calibration) + ", threshold " +
			threshold + ", crop " + crop + ", maps " + maps + ", phase " + phase;
	}

	// -- helpers --

	/** 1 value → all three axes; 2 values → x, y (z unchanged from the default); 3 values → x, y, z. */
	private static int[] sizes(final String field, final int[] v, final int[] old) {
		InvalidInputException.require(v != null && v.length >= 1 && v.length <= 3, field +
			": expected 1 to 3 sizes (x[:y[:z]]), found " + (v == null ? "none" : Arrays.toString(v)));
		for (final int n : v) InvalidInputException.require(n >= 1, field + ": expected sizes >= 1, found " +
			Arrays.toString(v));
		if (v.length == 1) return new int[] { v[0], v[0], v[0] };
		if (v.length == 3) return v.clone();
		return new int[] { v[0], v[1], old[2] };
	}
}
