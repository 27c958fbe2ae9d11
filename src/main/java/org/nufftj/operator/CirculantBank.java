package org.nufftj.operator;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;

/**
 * A bank of circular convolutions of T frames of images of one size, applied as diagonals in the frequency domain with
 * the backend's uncentred FFT — the spatial part of {@link FiniteDifference} and every band of
 * {@link UndecimatedWavelet}: forward y_b = DFT⁻¹(H_b ⊙ DFT x) for each filter b (one forward FFT for all of them),
 * adjoint x = DFT⁻¹(Σ_b conj(H_b) ⊙ DFT y_b) (one inverse FFT). The responses H_b (one image each, broadcast over the
 * frames) are stored divided by the pixel count, so the inverse FFT's normalisation costs no pass. Its buffers are
 * work buffers of the owning operator (freed with it).
 */
final class CirculantBank {

	private final Backend backend;
	private final int[] size;
	private final long length;
	private final Buffer[] filters;
	private final Buffer spectrum;

	/**
	 * @param owner     the operator whose work buffers these are
	 * @param size      image size
	 * @param frames    T ≥ 1
	 * @param responses H_b, the uncentred DFT of each filter on the image grid, complex interleaved
	 */
	CirculantBank(final AbstractOperator owner, final int[] size, final int frames, final double[][] responses) {
		backend = owner.backend();
		this.size = size.clone();
		final long pixels = FiniteDifference.pixels(size);
		length = 2 * pixels * frames;
		filters = new Buffer[responses.length];
		for (int b = 0; b < responses.length; b++) {
			final double[] h = new double[responses[b].length];
			for (int i = 0; i < h.length; i++) h[i] = responses[b][i] / pixels;
			filters[b] = owner.work(2 * pixels);
			owner.upload(h, filters[b]);
		}
		spectrum = owner.work(length);
	}

	/** y_b = H_b x for every filter: y holds the bands back to back, [band][frame][pixel], from its start. */
	void forward(final Buffer x, final Buffer y) {
		backend.copy(x, spectrum);
		backend.fft(spectrum, size, -1);
		for (int b = 0; b < filters.length; b++) {
			final Buffer out = y.slice(b * length, length);
			backend.multiply(spectrum, filters[b], out);
			backend.fft(out, size, +1);
		}
	}

	/** x = Σ_b H_bᴴ y_b (overwritten), y as {@link #forward} writes it. */
	void adjoint(final Buffer y, final Buffer x) {
		for (int b = 0; b < filters.length; b++) {
			backend.copy(y.slice(b * length, length), spectrum);
			backend.fft(spectrum, size, -1);
			if (b == 0) backend.multiplyConjugate(spectrum, filters[b], x);
			else {
				backend.multiplyConjugate(spectrum, filters[b], spectrum);
				backend.axpby(1, spectrum, 1, x);
			}
		}
		backend.fft(x, size, +1);
	}
}
