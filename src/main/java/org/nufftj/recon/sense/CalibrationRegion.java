package org.nufftj.recon.sense;

import java.util.Arrays;

import org.nufftj.InvalidInputException;

/**
 * A fully sampled, centred, Cartesian multi-coil k-space block: the input of an ESPIRiT calibration. Complex
 * interleaved (re, im), layout [coil][kz][ky][kx] with kx fastest; sample (i, j, l) is at the centred frequency
 * (i − ⌊nx/2⌋, j − ⌊ny/2⌋, l − ⌊nz/2⌋) in cycles per field of view (docs/conventions.md), so a block cut from a larger
 * k-space of size N keeps its centre: block index i ↔ k-space index i + ⌊N/2⌋ − ⌊n/2⌋ (BART's centred resize does the
 * same). 2D data have nz = 1. Immutable (the array is copied in and out).
 */
public final class CalibrationRegion {

	private final float[] data;
	private final int[] size; // x, y, z
	private final int coils;

	/**
	 * A calibration block of {@code size} (2 or 3 values: x, y[, z]) and {@code coils} coils; {@code data} holds
	 * 2·x·y·z·coils floats.
	 */
	public CalibrationRegion(final float[] data, final int[] size, final int coils) {
		this.size = size3("calibration size", size);
		InvalidInputException.require(coils >= 1, "calibration coils: expected >= 1, found " + coils);
		this.coils = coils;
		final long need = 2L * this.size[0] * this.size[1] * this.size[2] * coils;
		InvalidInputException.require(data != null && data.length == need, "calibration data: expected " + need +
			" floats (2 x " + Arrays.toString(size) + " x " + coils + " coils), found " + (data == null ? "none" :
				data.length));
		this.data = data.clone();
	}

	// -- public API --

	/**
	 * The centred block of side {@code min(side[a], matrix[a])} per axis of a Cartesian k-space of {@code matrix}
	 * (x, y[, z]) and {@code coils} coils (layout [coil][z][y][x], interleaved), as {@code bart ecalib -r} takes it.
	 * {@code side} has 1 value (every axis) or one per axis of {@code matrix} (extra values are ignored for 2D).
	 */
	public static CalibrationRegion extract(final float[] kspace, final int[] matrix, final int coils,
		final int... side)
	{
		final int[] m = size3("k-space matrix", matrix);
		InvalidInputException.require(coils >= 1, "k-space coils: expected >= 1, found " + coils);
		final long need = 2L * m[0] * m[1] * m[2] * coils;
		InvalidInputException.require(kspace != null && kspace.length == need, "k-space: expected " + need +
			" floats (2 x " + Arrays.toString(matrix) + " x " + coils + " coils), found " + (kspace == null ? "none" :
				kspace.length));
		InvalidInputException.require(side != null && side.length >= 1, "calibration size: expected 1 to 3 sides, " +
			"found none");
		final int[] n = new int[3];
		for (int a = 0; a < 3; a++) {
			final int s = side[Math.min(a, side.length - 1)];
			InvalidInputException.require(s >= 1, "calibration size: expected sides >= 1, found " +
				Arrays.toString(side));
			n[a] = Math.min(s, m[a]);
		}
		final int[] off = new int[3];
		for (int a = 0; a < 3; a++) off[a] = m[a] / 2 - n[a] / 2;
		final float[] out = new float[2 * n[0] * n[1] * n[2] * coils];
		int o = 0;
		for (int c = 0; c < coils; c++)
			for (int z = 0; z < n[2]; z++)
				for (int y = 0; y < n[1]; y++) {
					final long row = 2 * (off[0] + (long) m[0] * (y + off[1] + (long) m[1] * (z + off[2] +
						(long) m[2] * c)));
					System.arraycopy(kspace, (int) row, out, o, 2 * n[0]);
					o += 2 * n[0];
				}
		return new CalibrationRegion(out, matrix.length == 2 ? new int[] { n[0], n[1] } : n, coils);
	}

	/** Interleaved (re, im), [coil][z][y][x]. A copy. */
	public float[] data() { return data.clone(); }

	/** Sizes x, y, z (z = 1 for 2D). */
	public int[] size() { return size.clone(); }

	public int coils() { return coils; }

	/** Number of k-space positions (x·y·z). */
	public int positions() { return size[0] * size[1] * size[2]; }

	/** The data without a copy (package use). */
	float[] raw() { return data; }

	@Override
	public String toString() {
		return Arrays.toString(size) + " x " + coils + " coils";
	}

	// -- helpers --

	/** x, y[, z] → {x, y, z} (z = 1 for two values); every size ≥ 1. */
	static int[] size3(final String field, final int[] s) {
		InvalidInputException.require(s != null && (s.length == 2 || s.length == 3), field +
			": expected 2 or 3 sizes (x, y[, z]), found " + (s == null ? "none" : Arrays.toString(s)));
		for (final int n : s) InvalidInputException.require(n >= 1, field + ": expected sizes >= 1, found " +
			Arrays.toString(s));
		InvalidInputException.require((long) s[0] * s[1] * (s.length == 3 ? s[2] : 1) <= Integer.MAX_VALUE / 2,
			field + ": " + Arrays.toString(s) + " is too large");
		return new int[] { s[0], s[1], s.length == 3 ? s[2] : 1 };
	}
}
