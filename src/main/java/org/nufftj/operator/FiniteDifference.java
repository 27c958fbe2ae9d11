package org.nufftj.operator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * The discrete gradient of total variation (Rudin, Osher &amp; Fatemi 1992; BART's {@code linop_grad_create} under
 * {@code pics -R T}): forward differences with periodic boundaries along the selected axes,
 * (D_a x)(n) = x(n) − x(n − e_a mod N_a), of T frames of images of {@code size} (1 to 3 axes, x fastest), the frames
 * held back to back: domain [frame][pixel], range [direction][frame][pixel], directions in the order of the axes
 * (x, y, z, then time).
 * <p>
 * Spatial axes are differenced in the frequency domain, where the periodic difference is a diagonal:
 * D_a = DFT⁻¹·diag(1 − e^{−2πi k_a/N_a})·DFT (a {@link CirculantBank}: the backend's uncentred FFT, one forward FFT for
 * every spatial direction, one inverse FFT per direction), so CPU and GPU run the same composition of backend operations and need
 * no stencil kernel. The time direction (T ≥ 2) is differenced by block copies: (D_t x)_t = x_t − x_{t−1 mod T}.
 * The adjoint is Σ_a D_aᴴ y_a, D_aᴴ = DFT⁻¹·diag(1 − e^{+2πi k_a/N_a})·DFT and (D_tᴴ y)_t = y_t − y_{t+1 mod T}.
 * </p>
 * <p>
 * Axis flags are BART's: bit a selects spatial axis a (0: x, 1: y, 2: z), bit 10 time; axes of size 1 are skipped
 * (their difference is zero), so at least one selected axis must have size ≥ 2.
 * </p>
 */
public final class FiniteDifference extends AbstractOperator {

	/** BART's time dimension bit (TIME_DIM = 10). */
	public static final int TIME_BIT = 10;

	private final int[] size;
	private final int frames;
	private final long pixels;
	private final int[] spatial;
	private final boolean time;
	private final CirculantBank bank;

	/**
	 * @param size   image size (1 to 3 axes)
	 * @param frames T ≥ 1 frames
	 * @param flags  BART axis flags: bits 0–2 spatial axes, bit 10 time
	 */
	public FiniteDifference(final Backend backend, final Precision precision, final int[] size, final int frames,
		final int flags)
	{
		super("finite difference " + Arrays.toString(size) + (frames > 1 ? " x " + frames : "") + " flags " + flags,
			backend, precision, 2 * pixels(size) * Math.max(1, frames), 2 * pixels(size) * Math.max(1, frames) *
				directions(size, frames, flags));
		InvalidInputException.require(frames >= 1, "finite difference: frames is " + frames + ", expected >= 1");
		this.size = size.clone();
		this.frames = frames;
		this.pixels = pixels(size);
		final List<Integer> axes = new ArrayList<>();
		for (int a = 0; a < size.length; a++) if ((flags & 1 << a) != 0 && size[a] > 1) axes.add(a);
		spatial = axes.stream().mapToInt(Integer::intValue).toArray();
		time = (flags & 1 << TIME_BIT) != 0 && frames > 1;
		final double[][] diagonals = new double[spatial.length][];
		for (int d = 0; d < spatial.length; d++) {
			final int axis = spatial[d], n = size[axis];
			final double[] v = new double[(int) (2 * pixels)];
			for (int i = 0; i < pixels; i++) {
				int r = i;
				for (int a = 0; a < axis; a++) r /= size[a];
				final int k = r % n;
				v[2 * i] = 1 - Math.cos(2 * Math.PI * k / n);
				v[2 * i + 1] = Math.sin(2 * Math.PI * k / n); // 1 − e^{−2πik/N}
			}
			diagonals[d] = v;
		}
		bank = spatial.length > 0 ? new CirculantBank(this, size, frames, diagonals) : null;
	}

	// -- public API --

	/** Number of difference directions (range = directions × domain). */
	public int directions() { return spatial.length + (time ? 1 : 0); }

	/** The image size. */
	public int[] size() { return size.clone(); }

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		final Backend b = backend();
		final long all = 2 * pixels * frames;
		if (bank != null) bank.forward(x, y);
		if (time) {
			final Buffer out = y.slice(spatial.length * all, all);
			b.copy(x, out);
			final long f = 2 * pixels;
			for (int t = 0; t < frames; t++) {
				final int prev = (t + frames - 1) % frames;
				b.axpby(-1, x.slice(prev * f, f), 1, out.slice(t * f, f));
			}
		}
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		final Backend b = backend();
		final long all = 2 * pixels * frames;
		if (bank != null) bank.adjoint(y, x);
		else b.fill(x, 0, 0);
		if (time) {
			final Buffer in = y.slice(spatial.length * all, all);
			b.axpby(1, in, 1, x);
			final long f = 2 * pixels;
			for (int t = 0; t < frames; t++) {
				final int next = (t + 1) % frames;
				b.axpby(-1, in.slice(next * f, f), 1, x.slice(t * f, f));
			}
		}
	}

	// -- helpers --

	static long pixels(final int[] size) {
		InvalidInputException.require(size.length >= 1 && size.length <= 3, "expected an image size of 1 to 3 axes, " +
			"found " + Arrays.toString(size));
		long p = 1;
		for (final int n : size) {
			InvalidInputException.require(n >= 1, "image size " + Arrays.toString(size) + " has an axis < 1");
			p *= n;
		}
		return p;
	}

	private static int directions(final int[] size, final int frames, final int flags) {
		InvalidInputException.require((flags & ~(7 | 1 << TIME_BIT)) == 0, "finite difference: flags " + flags +
			" select axes other than 0, 1, 2 (x, y, z) and " + TIME_BIT + " (time)");
		int d = 0;
		for (int a = 0; a < size.length; a++) if ((flags & 1 << a) != 0 && size[a] > 1) d++;
		if ((flags & 1 << TIME_BIT) != 0 && frames > 1) d++;
		InvalidInputException.require(d > 0, "finite difference: flags " + flags + " select no axis of size >= 2 of " +
			Arrays.toString(size) + " x " + frames + " frames");
		return d;
	}
}
