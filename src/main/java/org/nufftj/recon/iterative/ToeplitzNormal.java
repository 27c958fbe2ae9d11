package org.nufftj.recon.iterative;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.FftOperator;
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
 *   s²FᴴWF x = crop( Fᴴ( P̂ ⊙ F( zero-pad₂N x ) ) ),   P̂ = √(pixels of 2N) · F P
 * </pre>
 * with F the centred unitary DFT on the 2N grid ({@link FftOperator}) and pixel n of x (centred index
 * n = index − ⌊N/2⌋, docs/conventions.md) at centred index n of the 2N grid.
 * <p>
 * P is computed once, when the operator is made, by an adjoint NUFFT of the weights (w_m, 0) onto the 2N grid (a
 * plan of the given options, to their ε, closed at once), or, by {@link #exact}, by the backend's exact plan (direct
 * sums, Stone et al. 2008's Q: the normal operator then carries no gridding error, only the precision's round-off); per application the work is two FFTs of 2^d·N pixels and
 * one multiply, plus the padding and cropping ({@link Backend#copyCentred}, one operation each way for all T).
 * Pruned FFTs (skipping the zero half of the input and the discarded half of the output) are not
 * done. T transforms (coils) at once: domain and range [T][pixels], the FFTs batched.
 * </p>
 * <p>
 * Self-adjoint. It owns its buffers (the 2N FFT operator, P̂ and two 2N work grids), freed by {@link #close()}.
 * </p>
 */
public final class ToeplitzNormal implements LinearOperator {

	private final Backend backend;
	private final Precision precision;
	private final int[] size, big;
	private final int transforms;
	private final long pixels, bigPixels;
	private final FftOperator fft;
	private final Buffer kernel, padded, spectrum, result;
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
		this(backend, trajectory, size, options.precision(), big -> backend.plan(big, options), scale, weights,
			transforms);
	}

	/**
	 * The exact normal operator: as the constructor, with P by direct sums ({@link Backend#exactPlan}) in
	 * {@code precision}, so s²FᴴWF x is the NUDFT's to round-off.
	 */
	public static ToeplitzNormal exact(final Backend backend, final Trajectory trajectory, final int[] size,
		final Precision precision, final double scale, final float[] weights, final int transforms)
	{
		return new ToeplitzNormal(backend, trajectory, size, precision, big -> backend.exactPlan(big, precision), scale,
			weights, transforms);
	}

	private ToeplitzNormal(final Backend backend, final Trajectory trajectory, final int[] size,
		final Precision precision, final java.util.function.Function<int[], NufftPlan> psfPlan, final double scale,
		final float[] weights, final int transforms)
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
		// P = s²·Σ_m w_m e^{+2πi k_m·d} on the centred 2N grid, by one adjoint NUFFT.
		final double[] psf = new double[(int) (2 * bpx)];
		try (NufftPlan plan = psfPlan.apply(big)) {
			exact = plan.parameters().exact();
			plan.setPoints(trajectory);
			final double[] w = new double[2 * m];
			for (int i = 0; i < m; i++) {
				final double wi = weights == null ? 1 : weights[i];
				InvalidInputException.require(wi >= 0 && Double.isFinite(wi), "Toeplitz normal: weight " + i + " is " +
					wi + ", expected a finite number >= 0");
				w[2 * i] = wi;
			}
			plan.adjoint(w, psf);
		}
		final double f = scale * scale * Math.sqrt(bpx);
		for (int i = 0; i < psf.length; i++) psf[i] *= f;
		fft = new FftOperator(backend, precision, big, transforms);
		padded = backend.allocate(2 * bpx * transforms, precision);
		spectrum = backend.allocate(2 * bpx * transforms, precision);
		result = backend.allocate(2 * bpx * transforms, precision);
		kernel = backend.allocate(2 * bpx, precision);
		// P̂ = √(2N pixels)·F P, through the same FFT operator (batch 1: the first image of the work grids).
		try (Buffer p = upload(psf); FftOperator one = new FftOperator(backend, precision, big, 1)) {
			one.apply(p, kernel);
		}
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
		backend.copyCentred(x, size, padded, big); // the border of padded is never written: it stays zero
		fft.apply(padded, spectrum);
		backend.multiply(spectrum, kernel, spectrum);
		fft.applyAdjoint(spectrum, result);
		backend.copyCentred(result, big, y, size);
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
		fft.close();
		kernel.close();
		padded.close();
		spectrum.close();
		result.close();
	}

	// -- helpers --

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
