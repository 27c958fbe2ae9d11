package org.nufftj.recon.sense;

import java.util.Arrays;

/**
 * The result of an ESPIRiT calibration ({@link Espirit}): sets of coil sensitivity maps and their eigenvalue maps.
 * <ul>
 * <li>{@link #maps()}: complex interleaved, layout [set][coil][z][y][x] (x fastest), i.e. BART's
 * {@code [X, Y, Z, coils, maps]}; set m is the eigenvector of the m-th largest eigenvalue of G(x), unit norm
 * (Σ_c |s_c|² = 1) where that eigenvalue is ≥ the crop and 0 elsewhere.</li>
 * <li>{@link #eigenvalues()}: real, layout [set][z][y][x] (BART's {@code [X, Y, Z, 1, maps]}), before the crop.</li>
 * <li>{@link #singularValues()}: all singular values σ of the calibration matrix, decreasing;
 * {@link #kernels()} of them span the signal subspace.</li>
 * </ul>
 * Immutable (arrays are copied out).
 */
public final class EspiritMaps {

	private final float[] maps, eigenvalues;
	private final int[] size;
	private final int coils, sets, kernels;
	private final double[] singularValues;

	EspiritMaps(final float[] maps, final float[] eigenvalues, final int[] size, final int coils, final int sets,
		final double[] singularValues, final int kernels)
	{
		this.maps = maps;
		this.eigenvalues = eigenvalues;
		this.size = size.clone();
		this.coils = coils;
		this.sets = sets;
		this.singularValues = singularValues.clone();
		this.kernels = kernels;
	}

	// -- public API --

	/** [set][coil][pixel], interleaved (re, im). A copy. */
	public float[] maps() { return maps.clone(); }

	/** [set][pixel], real. A copy. */
	public float[] eigenvalues() { return eigenvalues.clone(); }

	/** Image size x, y[, z] as given to {@link Espirit}. */
	public int[] size() { return size.clone(); }

	public int pixels() {
		int p = 1;
		for (final int n : size) p *= n;
		return p;
	}

	public int coils() { return coils; }

	/** Number of sets of maps. */
	public int sets() { return sets; }

	/** All singular values of the calibration matrix, in decreasing order. A copy. */
	public double[] singularValues() { return singularValues.clone(); }

	/** Number of kernels (singular vectors) kept in the signal subspace. */
	public int kernels() { return kernels; }

	/** BART's dims for {@link #maps()}: {@code [X, Y, Z, coils, sets]}. */
	public long[] cflDims() {
		return new long[] { size[0], size[1], size.length > 2 ? size[2] : 1, coils, sets };
	}

	/** BART's dims for {@link #eigenvalues()} written as complex: {@code [X, Y, Z, 1, sets]}. */
	public long[] eigenvalueCflDims() {
		return new long[] { size[0], size[1], size.length > 2 ? size[2] : 1, 1, sets };
	}

	@Override
	public String toString() {
		return sets + " set(s) of " + coils + "-coil maps on " + Arrays.toString(size) + ", " + kernels + " of " +
			singularValues.length + " kernels";
	}
}
