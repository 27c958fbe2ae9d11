package org.nufftj.recon;

import org.nufftj.InvalidInputException;

/**
 * Error figures of a test image against a reference, over plain float arrays compared element by element.
 * <p>
 * Pass magnitude images to compare magnitudes, or interleaved (re, im) arrays to compare complex images (each
 * element then is one real or imaginary part, so the norms are the complex 2-norms). Definitions, with r the
 * reference and t the test:
 * </p>
 * <ul>
 * <li>NRMSE = ‖t − r‖₂ / ‖r‖₂</li>
 * <li>scaled NRMSE = min over real a of ‖a·t − r‖₂ / ‖r‖₂, a = ⟨t, r⟩/⟨t, t⟩ (like {@code bart nrmse -s}, which
 * allows a complex a; on magnitudes both agree)</li>
 * <li>max |difference| = max_i |t_i − r_i|</li>
 * <li>PSNR = 20·log10(max_i |r_i| / RMS(t − r)) in dB (infinite when equal)</li>
 * </ul>
 */
public final class ImageComparison {

	private final float[] reference;
	private final float[] test;
	private final double nrmse, scaledNrmse, scale, maxAbs, psnr;

	private ImageComparison(final float[] reference, final float[] test) {
		this.reference = reference;
		this.test = test;
		double rr = 0, tt = 0, tr = 0, dd = 0, max = 0, peak = 0;
		for (int i = 0; i < reference.length; i++) {
			final double r = reference[i], t = test[i], d = t - r;
			rr += r * r;
			tt += t * t;
			tr += t * r;
			dd += d * d;
			max = Math.max(max, Math.abs(d));
			peak = Math.max(peak, Math.abs(r));
		}
		final double norm = Math.sqrt(rr);
		nrmse = norm > 0 ? Math.sqrt(dd) / norm : (dd == 0 ? 0 : Double.POSITIVE_INFINITY);
		scale = tt > 0 ? tr / tt : 0;
		final double sd = Math.max(0, rr - 2 * scale * tr + scale * scale * tt);
		scaledNrmse = norm > 0 ? Math.sqrt(sd) / norm : 0;
		maxAbs = max;
		final double rms = Math.sqrt(dd / reference.length);
		psnr = rms == 0 ? Double.POSITIVE_INFINITY : 20 * Math.log10(peak / rms);
	}

	/** Compares {@code test} against {@code reference} (same length). */
	public static ImageComparison of(final float[] reference, final float[] test) {
		InvalidInputException.require(reference.length == test.length && reference.length > 0,
			"image comparison: reference has " + reference.length + " values, test has " + test.length);
		return new ImageComparison(reference, test);
	}

	// -- public API --

	public double nrmse() { return nrmse; }

	public double scaledNrmse() { return scaledNrmse; }

	/** The least-squares scale a of {@link #scaledNrmse()}. */
	public double scale() { return scale; }

	public double maxAbsDifference() { return maxAbs; }

	public double psnr() { return psnr; }

	/** test − reference, element by element (a new array). */
	public float[] difference() {
		final float[] d = new float[reference.length];
		for (int i = 0; i < d.length; i++) d[i] = test[i] - reference[i];
		return d;
	}

	@Override
	public String toString() {
		return String.format("NRMSE %.3g, scaled NRMSE %.3g, max |difference| %.3g, PSNR %.1f dB", nrmse, scaledNrmse,
			maxAbs, psnr);
	}
}
