package org.nufftj.imglib;

/**
 * Test helper: docs/conventions.md's display orientation written out independently of the code under test. An array
 * plane of {@code n0 × n1} values (axis 0 fastest, as NUFFT-J and BART store images) shows as an image {@code n1}
 * pixels wide and {@code n0} high: pixel (x, y) = array (i0 = y, i1 = x).
 */
public final class DisplayOrder {

	private DisplayOrder() {}

	/** Consecutive array planes of n0 × n1 values → the same planes in display (row-major, width n1) order. */
	public static float[] toDisplay(final float[] array, final int n0, final int n1) {
		final float[] out = new float[array.length];
		final int plane = n0 * n1;
		for (int s = 0; s < array.length / plane; s++)
			for (int i1 = 0; i1 < n1; i1++)
				for (int i0 = 0; i0 < n0; i0++)
					out[s * plane + i0 * n1 + i1] = array[s * plane + i0 + n0 * i1];
		return out;
	}

	/** The array index (axis 0 fastest) of display pixel (x, y) in an image {@code n0} pixels high. */
	public static int arrayIndex(final int x, final int y, final int n0) {
		return y + n0 * x;
	}
}
