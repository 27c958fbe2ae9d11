package org.nufftj.nufft;

import java.util.Arrays;

import org.nufftj.InvalidInputException;

/**
 * The geometry of {@link Backend#copyCentred}, validated once for both backends: T images of a small size N inside T
 * images of a big size B (N_a ≤ B_a on every axis, 1 to 3 axes, x fastest), pixel i of the small image at index
 * i + ⌊B_a/2⌋ − ⌊N_a/2⌋ of the big one, so that centred indices (i − ⌊N/2⌋, docs/conventions.md) agree.
 */
public final class CentredBlock {

	/** Small and big size, padded to 3 axes with 1. */
	public final int nx, ny, nz, bx, by, bz;
	/** Offset of the small image's first pixel in the big one, per axis. */
	public final int ox, oy, oz;
	/** Images (T) and pixels per small and big image. */
	public final long transforms, smallPixels, bigPixels;
	/** True when copying small → big (padding), false big → small (cropping). */
	public final boolean pad;

	/**
	 * @param from     the source buffer's length (values) and image size
	 * @param to       the destination's
	 */
	public CentredBlock(final long fromLength, final int[] fromSize, final long toLength, final int[] toSize) {
		InvalidInputException.require(fromSize.length == toSize.length && fromSize.length >= 1 && fromSize.length <= 3,
			"copyCentred: sizes " + Arrays.toString(fromSize) + " and " + Arrays.toString(toSize) +
				" need the same 1 to 3 axes");
		boolean up = true, down = true;
		for (int a = 0; a < fromSize.length; a++) {
			InvalidInputException.require(fromSize[a] >= 1 && toSize[a] >= 1, "copyCentred: sizes " + Arrays.toString(
				fromSize) + " and " + Arrays.toString(toSize) + " need axes >= 1");
			up &= fromSize[a] <= toSize[a];
			down &= fromSize[a] >= toSize[a];
		}
		InvalidInputException.require(up || down, "copyCentred: " + Arrays.toString(fromSize) + " and " + Arrays
			.toString(toSize) + ": one size must contain the other on every axis");
		pad = up;
		final int[] small = pad ? fromSize : toSize, big = pad ? toSize : fromSize;
		nx = small[0];
		ny = small.length > 1 ? small[1] : 1;
		nz = small.length > 2 ? small[2] : 1;
		bx = big[0];
		by = big.length > 1 ? big[1] : 1;
		bz = big.length > 2 ? big[2] : 1;
		ox = bx / 2 - nx / 2;
		oy = by / 2 - ny / 2;
		oz = bz / 2 - nz / 2;
		smallPixels = (long) nx * ny * nz;
		bigPixels = (long) bx * by * bz;
		final long fromPixels = pad ? smallPixels : bigPixels, toPixels = pad ? bigPixels : smallPixels;
		InvalidInputException.require(fromLength > 0 && fromLength % (2 * fromPixels) == 0 && toLength % (2 *
			toPixels) == 0 && fromLength / (2 * fromPixels) == toLength / (2 * toPixels), "copyCentred: " + fromLength +
				" values of " + Arrays.toString(fromSize) + " images and " + toLength + " values of " + Arrays.toString(
					toSize) + " images do not hold the same number T >= 1 of complex images");
		transforms = fromLength / (2 * fromPixels);
	}

	/**
	 * Checks that a block fits a size centred (same 1 to 3 axes, 1 ≤ block ≤ size on each): the pruned FFTs'
	 * ({@link Backend#fftFromBlock}, {@link Backend#fftToBlock}) geometry, named {@code what} in the error.
	 */
	public static void requireFits(final String what, final int[] block, final int[] size) {
		InvalidInputException.require(block.length == size.length, what + ": block " + Arrays.toString(block) +
			" and size " + Arrays.toString(size) + " have different numbers of axes");
		for (int a = 0; a < size.length; a++) InvalidInputException.require(block[a] >= 1 && block[a] <= size[a], what +
			": block " + Arrays.toString(block) + " does not fit in " + Arrays.toString(size) + " on axis " + a);
	}

	/** Index (complex element) in the big images of pixel {@code i} of the small ones (both counted over all T). */
	public long bigIndex(final long i) {
		final long t = i / smallPixels, p = i % smallPixels;
		final long x = p % nx, y = p / nx % ny, z = p / ((long) nx * ny);
		return t * bigPixels + ((z + oz) * by + y + oy) * bx + x + ox;
	}
}
