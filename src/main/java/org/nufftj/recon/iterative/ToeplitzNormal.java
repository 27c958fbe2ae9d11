package org.nufftj.recon.iterative;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.LinearOperator;
import org.nufftj.trajectory.Trajectory;

/**
 * The normal operator AᴴA of a weighted NUFFT operator A = s·W^{1/2}·F (as {@link org.nufftj.operator.NufftOperator})
 * by Toeplitz embedding (Wajer &amp; Pruessmann 2001; Fessler et al. 2005): s²·FᴴWF is a convolution,
 * (s²FᴴWF x)(n) = Σ_n' P(n − n')·x(n') with the point-spread function P(d) = s²·Σ_m w_m·e^{+2πi k_m·d}, and with
 * |d_a| ≤ N_a − 1 it is a circular convolution on any grid of B ≥ 2N per axis — here B the smallest even
 * 2,3,5,7-smooth size ≥ 2N (2N itself when it is smooth; smooth sizes are what every FFT engine, the project's own GPU
 * FFT included, does fast), written "2N" below:
 * <pre>
 *   s²FᴴWF x = crop( IDFT( K ⊙ DFT( zero-pad₂N x ) ) ),   K = (s²/B) · DFT( P wrapped )
 * </pre>
 * with DFT/IDFT the backend's plain unnormalised FFTs on the 2N grid ({@link Backend#fft}), B its pixel count, pixel
 * i of x at index i + ⌊B_a/2⌋ − ⌊N_a/2⌋ of the 2N grid (centred indices agree, {@link Backend#copyCentred}) and P
 * wrapped: P(d) at index d mod B_a per axis. (A circular convolution is shift-invariant, so where x sits does not
 * matter as long as the result is read at the same place; the wrapped PSF saves the centring phases and the unitary
 * scale a centred FFT would apply on each side of every application.)
 * <p>
 * P is computed once, when the operator is made, by adjoint NUFFTs of image size N of modulated weights, one per
 * window of N of the centred 2N grid (four in 2D; a plan of the given options, to their ε, or the caller's plan,
 * {@link #onPlan}), or, by {@link #exact}, by the backend's exact plan (direct sums, Stone et al. 2008's Q: the normal
 * operator then carries no gridding error, only the precision's round-off).
 * Per application: zero the grid, place x, two FFTs of 2^d·N pixels, one multiply, crop — one grid for all T
 * transforms (coils), the FFTs batched and pruned ({@link Backend#fftFromBlock}: the forward FFT skips the lines that
 * are all zero padding; {@link Backend#fftToBlock}: the inverse skips those that only feed pixels the crop discards —
 * in 2D 3 of the 4 line passes of a plain pair remain, on the CPU; the GPU runs the plain FFTs).
 * </p>
 * <p>
 * Self-adjoint. It owns its buffers (K and one 2N work grid for the T transforms), freed by {@link #close()}.
 * </p>
 */
public final class ToeplitzNormal implements LinearOperator {

	private final Backend backend;
	private final Precision precision;
	private final int[] size, big;
	private final int transforms;
	private final long pixels, bigPixels;
	private final Buffer kernel, grid;
	private final boolean exact;

	/**
	 * @param backend    where it runs
	 * @param trajectory the sample points (as set on the forward operator's plan)
	 * @param size       the image size N (2 or 3 axes)
	 * @param options    NUFFT options of the PSF's adjoint (precision and ε)
	 * @param scale      s, finite and non-zero
	 * @param weights    w (one per sample, ≥ 0, finite) or null for all ones
	 * @param transforms T ≥ 1 images at once
	 */
	public ToeplitzNormal(final Backend backend, final Trajectory trajectory, final int[] size,
		final NufftOptions options, final double scale, final float[] weights, final int transforms)
	{
		this(backend, trajectory, size, options.precision(), () -> backend.plan(size, options), true, scale, weights,
			transforms);
	}

	/**
	 * As the constructor, with P computed by {@code plan} — a plan of this backend for the image size {@code size}
	 * with {@code trajectory}'s points already set, e.g. the forward operator's own (not closed here; an exact plan
	 * gives the exact operator): no second plan, no second sort of the points.
	 */
	public static ToeplitzNormal onPlan(final Backend backend, final NufftPlan plan, final Trajectory trajectory,
		final int[] size, final double scale, final float[] weights, final int transforms)
	{
		InvalidInputException.require(Arrays.equals(plan.imageSize(), size), "Toeplitz normal: a plan of image size " +
			Arrays.toString(plan.imageSize()) + " for size " + Arrays.toString(size));
		InvalidInputException.require(plan.points() == trajectory.count(), "Toeplitz normal: a plan with " + plan
			.points() + " points for a trajectory of " + trajectory.count());
		return new ToeplitzNormal(backend, trajectory, size, plan.parameters().precision(), () -> plan, false, scale,
			weights, transforms);
	}

	/**
	 * The exact normal operator: as the constructor, with P by direct sums ({@link Backend#exactPlan}) in
	 * {@code precision}, so s²FᴴWF x is the NUDFT's to round-off.
	 */
	public static ToeplitzNormal exact(final Backend backend, final Trajectory trajectory, final int[] size,
		final Precision precision, final double scale, final float[] weights, final int transforms)
	{
		return new ToeplitzNormal(backend, trajectory, size, precision, () -> backend.exactPlan(size, precision), true,
			scale, weights, transforms);
	}

	/**
	 * {@code psfPlan}: a plan of image size {@code size}; {@code own}: made here (points set and closed here), else
	 * with the points set and kept open.
	 */
	private ToeplitzNormal(final Backend backend, final Trajectory trajectory, final int[] size,
		final Precision precision, final java.util.function.Supplier<NufftPlan> psfPlan, final boolean own,
		final double scale, final float[] weights, final int transforms)
	{
		InvalidInputException.require(size.length == trajectory.dimensions(), "Toeplitz normal: a " + trajectory
			.dimensions() + "D trajectory needs a " + trajectory.dimensions() + "D image size, found " + Arrays.toString(
				size));
		InvalidInputException.require(transforms >= 1, "Toeplitz normal: transforms is " + transforms +
			", expected >= 1");
		InvalidInputException.require(Double.isFinite(scale) && scale != 0, "Toeplitz normal: scale is " + scale +
			", expected a finite non-zero number");
		final int m = trajectory.count();
		InvalidInputException.require(weights == null || weights.length == m, "Toeplitz normal: " + (weights == null ?
			0 : weights.length) + " weights for " + m + " samples");
		this.backend = backend;
		this.precision = precision;
		this.size = size.clone();
		this.transforms = transforms;
		big = new int[size.length];
		long px = 1, bpx = 1;
		for (int a = 0; a < size.length; a++) {
			InvalidInputException.require(size[a] >= 1, "Toeplitz normal: image size " + Arrays.toString(size) +
				" has an axis < 1");
			big[a] = org.nufftj.nufft.ParameterChoice.nextSmooth(2 * size[a]); // B ≥ 2N, FFT-friendly
			px *= size[a];
			bpx *= big[a];
		}
		pixels = px;
		bigPixels = bpx;
		// P = s²·Σ_m w_m e^{+2πi k_m·d} on the centred 2N grid, by adjoint NUFFTs of image size N (windows()).
		final double[] w = new double[m];
		for (int i = 0; i < m; i++) {
			final double wi = weights == null ? 1 : weights[i];
			InvalidInputException.require(wi >= 0 && Double.isFinite(wi), "Toeplitz normal: weight " + i + " is " + wi +
				", expected a finite number >= 0");
			w[i] = wi;
		}
		final NufftPlan plan = psfPlan.get();
		final double[] psf;
		try {
			exact = plan.parameters().exact();
			if (own) plan.setPoints(trajectory);
			psf = windows(plan, trajectory, size, big, w);
		}
		finally {
			if (own) plan.close();
		}
		// The kernel K = DFT(P wrapped) · s²/B: P(d) moved from centred index d + ⌊B/2⌋ to d mod B, so that the
		// circular convolution P ⊛ z = IDFT(DFT(P)·DFT(z))/B needs the backend's plain (uncentred, unnormalised) FFTs
		// and no phase or scale passes per application.
		final double[] wrapped = new double[psf.length];
		final int bx = big[0], by = big.length > 1 ? big[1] : 1, bz = big.length > 2 ? big[2] : 1;
		final double f = scale * scale / bpx;
		for (int z = 0; z < bz; z++) {
			final int jz = Math.floorMod(z - bz / 2, bz);
			for (int y = 0; y < by; y++) {
				final int jy = Math.floorMod(y - by / 2, by);
				for (int x = 0; x < bx; x++) {
					final int jx = Math.floorMod(x - bx / 2, bx);
					final int from = 2 * ((z * by + y) * bx + x), to = 2 * ((jz * by + jy) * bx + jx);
					wrapped[to] = f * psf[from];
					wrapped[to + 1] = f * psf[from + 1];
				}
			}
		}
		grid = backend.allocate(2 * bpx * transforms, precision);
		kernel = upload(wrapped);
		backend.fft(kernel, big, -1);
	}

	// -- public API --

	@Override
	public Backend backend() { return backend; }

	@Override
	public Precision precision() { return precision; }

	@Override
	public long domainLength() { return 2 * pixels * transforms; }

	@Override
	public long rangeLength() { return domainLength(); }

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, "x");
		check(y, "y");
		backend.fill(grid, 0, 0);
		backend.copyCentred(x, size, grid, big);
		// FFT, K ⊙ (broadcast over the T images), inverse FFT: the zero padding's lines and those only the discarded
		// part feeds skipped where the backend prunes, the middle fused where it can
		backend.convolveBlock(grid, big, size, kernel);
		backend.copyCentred(grid, big, y, size);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		apply(y, x);
	}

	@Override
	public LinearOperator adjoint() { return this; }

	@Override
	public String toString() {
		return (exact ? "exact " : "") + "Toeplitz normal " + Arrays.toString(size) + (transforms > 1 ? " x " + transforms : "") + " (" + precision
			.name().toLowerCase() + ")";
	}

	@Override
	public void close() {
		kernel.close();
		grid.close();
	}

	// -- helpers --

	/** Most weight values (complex, double) one batch of windows holds at once (64 MB). */
	private static final long WINDOW_VALUES = 1L << 22;

	/**
	 * P(d) = Σ_m w_m e^{+2πi k_m·d} at every centred index d of the {@code big} grid, from adjoints of image size N:
	 * the big grid is cut into windows of N per axis (⌈B/N⌉ of them; the last may stick out), and window j, whose
	 * centred indices are d = d' + o_j with d' the N-image's (i − ⌊N/2⌋) and o_j = j·N − ⌊B/2⌋ + ⌊N/2⌋ per axis, is the
	 * adjoint of the modulated weights w_m e^{+2πi k_m·o_j}. The windows go through the plan in batches. One plan of
	 * the operator's own size, instead of one of 2N with its own grid, sort and FFT lengths.
	 */
	private static double[] windows(final NufftPlan plan, final Trajectory t, final int[] n, final int[] big,
		final double[] w)
	{
		final int d = n.length, m = t.count();
		final int[] q = new int[d];
		int count = 1, px = 1, bpx = 1;
		for (int a = 0; a < d; a++) {
			q[a] = (big[a] + n[a] - 1) / n[a];
			count *= q[a];
			px *= n[a];
			bpx *= big[a];
		}
		final double[] psf = new double[2 * bpx];
		final int per = (int) Math.max(1, Math.min(count, WINDOW_VALUES / Math.max(1, m)));
		for (int first = 0; first < count; first += per) {
			final int batch = Math.min(per, count - first);
			final double[] c = new double[2 * m * batch];
			final double[] img = new double[2 * px * batch];
			for (int b = 0; b < batch; b++) {
				final int[] j = window(first + b, q);
				for (int i = 0; i < m; i++) {
					double phase = 0;
					for (int a = 0; a < d; a++) phase += t.k(i, a) * (j[a] * n[a] - big[a] / 2 + n[a] / 2);
					c[2 * (b * m + i)] = w[i] * Math.cos(2 * Math.PI * phase);
					c[2 * (b * m + i) + 1] = w[i] * Math.sin(2 * Math.PI * phase);
				}
			}
			plan.adjoint(c, img);
			for (int b = 0; b < batch; b++) {
				final int[] j = window(first + b, q);
				for (int i = 0; i < px; i++) {
					int to = 0, stride = 1, rest = i;
					boolean inside = true;
					for (int a = 0; a < d; a++) {
						final int x = j[a] * n[a] + rest % n[a];
						rest /= n[a];
						inside &= x < big[a];
						to += x * stride;
						stride *= big[a];
					}
					if (!inside) continue;
					psf[2 * to] = img[2 * (b * px + i)];
					psf[2 * to + 1] = img[2 * (b * px + i) + 1];
				}
			}
		}
		return psf;
	}

	/** The multi-index of window {@code index} (axis 0 fastest) among q[a] per axis. */
	private static int[] window(final int index, final int[] q) {
		final int[] j = new int[q.length];
		for (int a = 0, r = index; a < q.length; r /= q[a], a++) j[a] = r % q[a];
		return j;
	}

	private void check(final Buffer b, final String what) {
		InvalidInputException.require(b.backend() == backend && b.precision() == precision, this + ": " + what +
			" is a " + b.precision().name().toLowerCase() + " buffer of " + b.backend().name());
		Buffer.requireLength(b, domainLength(), this + " " + what);
	}

	private Buffer upload(final double[] v) {
		if (precision == Precision.DOUBLE) return backend.wrap(v.clone());
		final float[] f = new float[v.length];
		for (int i = 0; i < v.length; i++) f[i] = (float) v[i];
		return backend.wrap(f);
	}
}
