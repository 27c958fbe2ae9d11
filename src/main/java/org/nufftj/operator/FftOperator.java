package org.nufftj.operator;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * The centred, unitary DFT of images of {@code size} (1 to 3 axes, x fastest), for each of a batch of T images:
 * (F f)(k) = N^{−1/2} Σ_x f(x)·e^{−2πi Σ_a k_a x_a / N_a} with x and k centred, x_a = index − ⌊N_a/2⌋ and likewise
 * k_a (docs/conventions.md), N the number of pixels; Fᴴ = F⁻¹ has e^{+2πi…}.
 * <p>
 * On the backend's uncentred FFT: with c = ⌊N/2⌋, e^{−2πi(k'−c)(x'−c)/N} = e^{−2πi k'x'/N}·e^{2πi c k'/N}·
 * e^{2πi c x'/N}·e^{−2πi c²/N} per axis, so F = N^{−1/2}·Q·DFT·P with the diagonal phases P(x') = Π_a
 * e^{2πi c_a (x'_a − c_a)/N_a} and Q(k') = Π_a e^{2πi c_a k'_a/N_a} (for even N both are (−1)^index up to a sign),
 * held in two owned buffers of one image, broadcast over the batch.
 * </p>
 */
public final class FftOperator extends AbstractOperator {

	private final int[] size;
	private final double norm;
	private final Buffer pre, post;

	/** F on {@code batch} images of {@code size} held back to back, in {@code precision}. */
	public FftOperator(final Backend backend, final Precision precision, final int[] size, final int batch) {
		super("centred FFT " + Arrays.toString(size) + (batch > 1 ? " x " + batch : ""), backend, precision, 2 *
			pixels(size) * Math.max(1, batch), 2 * pixels(size) * Math.max(1, batch));
		InvalidInputException.require(batch >= 1, "FFT operator: batch must be >= 1, found " + batch);
		this.size = size.clone();
		final long px = pixels(size);
		InvalidInputException.require(px <= Integer.MAX_VALUE / 2, "FFT operator: " + px + " pixels is too many");
		this.norm = 1 / Math.sqrt(px);
		final double[] p = new double[(int) (2 * px)], q = new double[(int) (2 * px)];
		for (int i = 0; i < px; i++) {
			double pp = 0, qq = 0; // phases in turns
			for (int a = 0, r = i; a < size.length; a++) {
				final int n = size[a], c = n / 2, idx = r % n;
				r /= n;
				pp += (double) c * (idx - c) / n;
				qq += (double) c * idx / n;
			}
			p[2 * i] = Math.cos(2 * Math.PI * pp);
			p[2 * i + 1] = Math.sin(2 * Math.PI * pp);
			q[2 * i] = Math.cos(2 * Math.PI * qq);
			q[2 * i + 1] = Math.sin(2 * Math.PI * qq);
		}
		pre = work(2 * px);
		post = work(2 * px);
		if (precision == Precision.DOUBLE) {
			backend.write(p, 0, pre);
			backend.write(q, 0, post);
		}
		else {
			backend.write(toFloat(p), 0, pre);
			backend.write(toFloat(q), 0, post);
		}
	}

	/** Image size per axis. */
	public int[] size() { return size.clone(); }

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		backend().multiply(x, pre, y);
		backend().fft(y, size, -1);
		backend().multiply(y, post, y);
		backend().scale(y, norm);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		backend().multiplyConjugate(y, post, x);
		backend().fft(x, size, +1);
		backend().multiplyConjugate(x, pre, x);
		backend().scale(x, norm);
	}

	// -- helpers --

	private static long pixels(final int[] size) {
		InvalidInputException.require(size.length >= 1 && size.length <= 3, "FFT operator: expected 1 to 3 axes, found " +
			Arrays.toString(size));
		long p = 1;
		for (final int n : size) {
			InvalidInputException.require(n >= 1, "FFT operator: sizes must be >= 1, found " + Arrays.toString(size));
			p *= n;
		}
		return p;
	}

	private static float[] toFloat(final double[] a) {
		final float[] f = new float[a.length];
		for (int i = 0; i < a.length; i++) f[i] = (float) a[i];
		return f;
	}
}
