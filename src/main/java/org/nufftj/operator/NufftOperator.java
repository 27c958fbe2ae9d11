package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;

/**
 * The NUFFT as a {@link LinearOperator}: A = s · W^{1/2} · F on T transforms (coils, frames) at once, with F the
 * plan's unscaled forward transform (y_m = Σ_x f(x)·e^{−2πi k_m·x}, x = index − N/2), s a real scalar and W = diag(w)
 * optional non-negative sample weights, applied to every transform. The adjoint is Aᴴ = s · Fᴴ · W^{1/2}, the exact
 * conjugate transpose, so the weighted operator stays self-consistent for iterative solvers (weighted least squares
 * ‖W^{1/2}(F x − y)‖²).
 * <p>
 * Domain: T images [T][pixels]; range: T sample vectors [T][points], complex, in the plan's precision, on the backend
 * that made the plan. {@link #bart} gives BART 0.8's scaling s = 1/√(number of image pixels): {@code bart nufft} is
 * {@link #apply} and {@code bart nufft -a} is {@link #applyAdjoint}. Gridding reconstruction (density compensation
 * applied once, as w) is {@link org.nufftj.recon.GriddingRecon}, not this operator.
 * </p>
 * <p>
 * The operator does not own the plan (its maker closes it, after the operator); it owns √w and, with weights, one
 * work vector of the range length (the adjoint weights a copy of y, never y itself).
 * </p>
 */
public final class NufftOperator extends AbstractOperator {

	private final NufftPlan plan;
	private final double scale;
	private final Buffer sqrtWeights;
	private final Buffer weighted;

	/**
	 * @param backend    the backend that made {@code plan}
	 * @param plan       a plan whose points are set
	 * @param scale      s, any finite non-zero number
	 * @param weights    w (one per sample, ≥ 0, finite) or null for none
	 * @param transforms T ≥ 1, the images (and sample vectors) one application takes
	 */
	public NufftOperator(final Backend backend, final NufftPlan plan, final double scale, final float[] weights,
		final int transforms)
	{
		super("NUFFT operator", backend, plan.parameters().precision(), 2 * pixels(plan) * positive(transforms), 2L *
			points(plan) * transforms);
		InvalidInputException.require(Double.isFinite(scale) && scale != 0,
			"NUFFT operator: scale must be finite and non-zero, found " + scale);
		this.plan = plan;
		this.scale = scale;
		if (weights != null) {
			InvalidInputException.require(weights.length == plan.points(), "NUFFT operator: expected " + plan.points() +
				" weights (one per sample), found " + weights.length);
			final double[] s = new double[weights.length];
			for (int i = 0; i < weights.length; i++) {
				final float w = weights[i];
				if (!(w >= 0) || !Float.isFinite(w)) throw new InvalidInputException("NUFFT operator: weight " + i +
					" is " + w + ", expected a finite number >= 0");
				s[i] = Math.sqrt(w);
			}
			sqrtWeights = work(s.length);
			if (precision() == Precision.DOUBLE) backend.write(s, 0, sqrtWeights);
			else {
				final float[] f = new float[s.length];
				for (int i = 0; i < f.length; i++) f[i] = (float) s[i];
				backend.write(f, 0, sqrtWeights);
			}
			weighted = work(rangeLength());
		}
		else {
			sqrtWeights = null;
			weighted = null;
		}
	}

	/** Unscaled, unweighted, one transform: the plan's own maths. */
	public static NufftOperator unscaled(final Backend backend, final NufftPlan plan) {
		return new NufftOperator(backend, plan, 1, null, 1);
	}

	/** BART 0.8's {@code nufft} scaling, 1/√(image pixels), one transform. */
	public static NufftOperator bart(final Backend backend, final NufftPlan plan) {
		return bart(backend, plan, 1);
	}

	/** BART 0.8's {@code nufft} scaling, 1/√(image pixels), on {@code transforms} images (coils) at once. */
	public static NufftOperator bart(final Backend backend, final NufftPlan plan, final int transforms) {
		return new NufftOperator(backend, plan, bartScale(plan.imageSize()), null, transforms);
	}

	/** 1/√(product of the image size). */
	public static double bartScale(final int[] imageSize) {
		double p = 1;
		for (final int n : imageSize) p *= n;
		return 1 / Math.sqrt(p);
	}

	// -- public API --

	public NufftPlan plan() { return plan; }

	public double scale() { return scale; }

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		plan.forward(x, y);
		if (sqrtWeights != null) backend().multiplyReal(y, sqrtWeights, y);
		if (scale != 1) backend().scale(y, scale);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		if (sqrtWeights != null) {
			backend().multiplyReal(y, sqrtWeights, weighted);
			plan.adjoint(weighted, x);
		}
		else plan.adjoint(y, x);
		if (scale != 1) backend().scale(x, scale);
	}

	// -- helpers --

	private static long pixels(final NufftPlan plan) {
		long p = 1;
		for (final int n : plan.imageSize()) p *= n;
		return p;
	}

	private static long points(final NufftPlan plan) {
		InvalidInputException.require(plan.points() > 0, "NUFFT operator: the plan has no points; call setPoints first");
		return plan.points();
	}

	private static int positive(final int transforms) {
		InvalidInputException.require(transforms >= 1, "NUFFT operator: transforms must be >= 1, found " + transforms);
		return transforms;
	}
}
