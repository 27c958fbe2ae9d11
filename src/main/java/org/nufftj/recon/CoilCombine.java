package org.nufftj.recon;

import org.nufftj.nufft.cpu.CoilMaths;

/**
 * Coil combination of complex coil images held in host arrays (interleaved (re, im); x fastest, then y, z; then coil):
 * a convenience over the CPU backend's maths ({@link CoilMaths}), which every backend implements
 * ({@link org.nufftj.nufft.Backend#sumOfSquares}, {@link org.nufftj.nufft.Backend#walsh}); reconstructions call the
 * backend.
 * <ul>
 * <li>{@link #sumOfSquares}: √(Σ_c |x_c|²), magnitude.</li>
 * <li>{@link #walsh}: adaptive combination of Walsh, Gmitro &amp; Marcellin, MRM 43:682 (2000), see
 * {@link CoilMaths}.</li>
 * </ul>
 */
public final class CoilCombine {

	/** Walsh window side (pixels). */
	public static final int WINDOW = CoilMaths.WINDOW;
	/** Power iterations per pixel, from the column of R with the largest diagonal. */
	public static final int POWER_ITERATIONS = CoilMaths.POWER_ITERATIONS;

	private CoilCombine() {}

	// -- public API --

	/**
	 * Root sum of squares of {@code coils} coil images of {@code pixels} pixels starting at {@code offset}: returns
	 * interleaved (magnitude, 0) of {@code pixels} pixels.
	 */
	public static float[] sumOfSquares(final float[] coilImages, final int offset, final int pixels, final int coils) {
		return CoilMaths.sumOfSquares(coilImages, offset, pixels, coils);
	}

	/** Walsh adaptive combination: complex (re, im) image of {@code size} from {@code coils} coil images. */
	public static float[] walsh(final float[] coilImages, final int offset, final int[] size, final int coils) {
		return CoilMaths.walsh(coilImages, offset, size, coils);
	}

	/**
	 * Walsh's coil sensitivities [coil][pixel] (unit norm over the coils at every pixel, reference-coil phase removed):
	 * the weights {@link #walsh} combines with.
	 */
	public static float[] walshMaps(final float[] coilImages, final int offset, final int[] size, final int coils) {
		return CoilMaths.walshMaps(coilImages, offset, size, coils);
	}
}
