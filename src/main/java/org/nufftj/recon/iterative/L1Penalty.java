package org.nufftj.recon.iterative;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.FiniteDifference;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.UndecimatedWavelet;

/**
 * A sparsity penalty R(x) = λ·Σ_b w_b·‖(T x)_b‖₁ on the coefficients of a transform T whose range is B bands of equal
 * length ([band][element]), with per-band weights w_b (0: not penalised), or, {@code joint}, the mixed norm
 * λ·Σ_p √(Σ_b |(T x)_{b,p}|²) over the bands at each element (isotropic total variation: the bands are the gradient's
 * directions; BART's joint-threshold flag over the gradient dimension).
 * <p>
 * {@link #shrink} is the proximal map of t·R in the coefficient domain: per band complex soft thresholding at t·λ·w_b,
 * or jointly c ↦ c·max(0, 1 − tλ/‖c_p‖), all as backend operations (the joint magnitude by the backend's root sum of
 * squares over the bands), so CPU and GPU run one code path. The penalty owns the transform and its work buffers.
 * </p>
 */
public final class L1Penalty implements Penalty {

	private final LinearOperator transform;
	private final double lambda;
	private final double[] weights;
	private final boolean joint;
	private final long bandLength;
	private final String name;
	private final Buffer magnitude, factor, ones;

	/**
	 * @param transform T (owned: closed with this penalty)
	 * @param lambda    λ ≥ 0
	 * @param weights   w_b ≥ 0, one per band (range = bands × band length)
	 * @param joint     the mixed (isotropic) norm over bands instead of the per-band l1 norm
	 */
	public L1Penalty(final String name, final LinearOperator transform, final double lambda, final double[] weights,
		final boolean joint)
	{
		InvalidInputException.require(lambda >= 0 && Double.isFinite(lambda), name + ": lambda is " + lambda +
			", expected a finite number >= 0");
		InvalidInputException.require(weights.length >= 1 && transform.rangeLength() % weights.length == 0 &&
			transform.rangeLength() / weights.length % 2 == 0, name + ": " + weights.length + " bands do not split " +
				transform.rangeLength() + " values");
		this.name = name;
		this.transform = transform;
		this.lambda = lambda;
		this.weights = weights.clone();
		this.joint = joint;
		this.bandLength = transform.rangeLength() / weights.length;
		final Backend b = transform.backend();
		final Precision p = transform.precision();
		magnitude = b.allocate(bandLength, p);
		factor = b.allocate(bandLength, p);
		ones = b.allocate(bandLength, p);
		b.fill(ones, 1, 0);
	}

	/**
	 * l1-wavelet (BART's {@code -l1} / {@code -R W:flags:0:λ}): the {@link UndecimatedWavelet} of the selected axes,
	 * detail bands weighted 2^{−j·d/2}, the approximation not penalised.
	 */
	public static L1Penalty wavelet(final Backend backend, final Precision precision, final int[] size, final int frames,
		final int flags, final double lambda)
	{
		final UndecimatedWavelet w = new UndecimatedWavelet(backend, precision, size, frames, flags);
		final double[] weights = new double[w.bands()];
		for (int b = 0; b < weights.length; b++) weights[b] = w.bandWeight(b);
		return new L1Penalty("l1-wavelet", w, lambda, weights, false);
	}

	/**
	 * Total variation (BART's {@code -R T:flags:0:λ}): the {@link FiniteDifference} of the selected axes (bit 10:
	 * time), isotropic (joint over directions, BART's T) or anisotropic (each direction its own l1 norm).
	 */
	public static L1Penalty totalVariation(final Backend backend, final Precision precision, final int[] size,
		final int frames, final int flags, final double lambda, final boolean isotropic)
	{
		final FiniteDifference d = new FiniteDifference(backend, precision, size, frames, flags);
		final double[] weights = new double[d.directions()];
		java.util.Arrays.fill(weights, 1);
		return new L1Penalty((isotropic ? "isotropic" : "anisotropic") + " total variation", d, lambda, weights,
			isotropic);
	}

	// -- public API --

	@Override
	public LinearOperator transform() { return transform; }

	public double lambda() { return lambda; }

	public boolean joint() { return joint; }

	/** Coefficients c ← prox_{t·R}(c) in place (t > 0 the step). */
	@Override
	public void shrink(final Buffer coefficients, final double t) {
		final Backend b = transform.backend();
		Buffer.requireLength(coefficients, transform.rangeLength(), name + ": coefficients");
		final double tau = t * lambda;
		if (tau == 0) return;
		if (joint) {
			b.sumOfSquares(coefficients, weights.length, magnitude); // (‖c_p‖, 0)
			b.softThreshold(magnitude, tau, factor); // ((‖c_p‖ − τ)₊, 0)
			b.divide(factor, magnitude, factor); // (1 − τ/‖c_p‖)₊, 0 where ‖c_p‖ = 0
			b.multiply(coefficients, factor, coefficients); // broadcast over the bands
			return;
		}
		for (int k = 0; k < weights.length; k++) {
			if (weights[k] == 0) continue;
			final Buffer band = coefficients.slice(k * bandLength, bandLength);
			b.softThreshold(band, tau * weights[k], band);
		}
	}

	/** R(x) from the coefficients c = T x. */
	@Override
	public double value(final Buffer coefficients) {
		final Backend b = transform.backend();
		if (lambda == 0) return 0;
		if (joint) {
			b.sumOfSquares(coefficients, weights.length, magnitude);
			return lambda * b.dot(ones, magnitude)[0];
		}
		double s = 0;
		for (int k = 0; k < weights.length; k++) {
			if (weights[k] == 0) continue;
			b.sumOfSquares(coefficients.slice(k * bandLength, bandLength), 1, magnitude);
			s += weights[k] * b.dot(ones, magnitude)[0];
		}
		return lambda * s;
	}

	@Override
	public String toString() {
		return name + " (lambda " + lambda + ")";
	}

	/** Frees the transform and the work buffers; idempotent. */
	@Override
	public void close() {
		transform.close();
		magnitude.close();
		factor.close();
		ones.close();
	}
}
