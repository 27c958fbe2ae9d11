package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.NufftPlan;

/**
 * The NUFFT as a {@link LinearOperator}: A = s · W^{1/2} · F, with F the plan's unscaled forward transform
 * (y_m = Σ_x f(x)·e^{−2πi k_m·x}, x = index − N/2), s a scalar and W = diag(w) optional non-negative sample weights.
 * The adjoint is Aᴴ = s · Fᴴ · W^{1/2}, the exact conjugate transpose, so the weighted operator stays self-consistent
 * for iterative solvers (weighted least squares ‖W^{1/2}(F x − y)‖²).
 * <p>
 * {@link #bart(NufftPlan)} gives BART 0.8's scaling s = 1/√(number of image pixels): {@code bart nufft} is
 * {@link #forward} and {@code bart nufft -a} is {@link #adjoint}. Gridding reconstruction (density compensation applied
 * once, as w) is {@link org.nufftj.recon.GriddingRecon}, not this operator.
 * </p>
 * <p>
 * The operator does not own the plan: closing the plan is the caller's business. Arrays may hold T vectors (coils,
 * frames) back to back; one plan execute transforms them all.
 * </p>
 */
public final class NufftOperator implements LinearOperator {

	private final NufftPlan plan;
	private final double scale;
	private final float[] sqrtWeights;
	private final long pixels;

	/**
	 * @param plan    a plan whose points are set
	 * @param scale   s, any finite non-zero number
	 * @param weights w (one per sample, ≥ 0, finite) or null for none
	 */
	public NufftOperator(final NufftPlan plan, final double scale, final float[] weights) {
		InvalidInputException.require(plan.points() > 0, "NUFFT operator: the plan has no points; call setPoints first");
		InvalidInputException.require(Double.isFinite(scale) && scale != 0,
			"NUFFT operator: scale must be finite and non-zero, found " + scale);
		long p = 1;
		for (final int n : plan.imageSize()) p *= n;
		this.pixels = p;
		this.plan = plan;
		this.scale = scale;
		if (weights != null) {
			InvalidInputException.require(weights.length == plan.points(), "NUFFT operator: expected " + plan.points() +
				" weights (one per sample), found " + weights.length);
			sqrtWeights = new float[weights.length];
			for (int i = 0; i < weights.length; i++) {
				final float w = weights[i];
				if (!(w >= 0) || !Float.isFinite(w)) throw new InvalidInputException("NUFFT operator: weight " + i +
					" is " + w + ", expected a finite number >= 0");
				sqrtWeights[i] = (float) Math.sqrt(w);
			}
		}
		else sqrtWeights = null;
	}

	/** Unscaled, unweighted: the plan's own maths. */
	public static NufftOperator unscaled(final NufftPlan plan) {
		return new NufftOperator(plan, 1, null);
	}

	/** BART 0.8's {@code nufft} scaling, 1/√(image pixels). */
	public static NufftOperator bart(final NufftPlan plan) {
		return new NufftOperator(plan, bartScale(plan.imageSize()), null);
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
	public long domainLength() { return 2 * pixels; }

	@Override
	public long rangeLength() { return 2L * plan.points(); }

	@Override
	public void forward(final float[] x, final float[] y) {
		plan.forward(x, y);
		finish(y);
	}

	@Override
	public void adjoint(final float[] y, final float[] x) {
		if (sqrtWeights == null) {
			plan.adjoint(y, x);
			if (scale != 1) multiply(x, scale);
		}
		else {
			final float[] wy = y.clone();
			finish(wy);
			plan.adjoint(wy, x);
		}
	}

	/** Double-precision forward (for tests against exact references). */
	public void forward(final double[] x, final double[] y) {
		plan.forward(x, y);
		final int m = plan.points();
		for (int i = 0; i < y.length; i++) {
			final double w = sqrtWeights == null ? 1 : sqrtWeights[(i / 2) % m];
			y[i] *= scale * w;
		}
	}

	/** Double-precision adjoint. */
	public void adjoint(final double[] y, final double[] x) {
		final double[] wy = y.clone();
		final int m = plan.points();
		for (int i = 0; i < wy.length; i++) {
			final double w = sqrtWeights == null ? 1 : sqrtWeights[(i / 2) % m];
			wy[i] *= scale * w;
		}
		plan.adjoint(wy, x);
	}

	// -- helpers --

	/** Multiplies samples (T vectors of M points) by s·√w in place. */
	private void finish(final float[] y) {
		if (sqrtWeights == null) {
			if (scale != 1) multiply(y, scale);
			return;
		}
		final int m = plan.points();
		for (int i = 0, p = 0; i < y.length; i += 2) {
			final float f = (float) (scale * sqrtWeights[p]);
			y[i] *= f;
			y[i + 1] *= f;
			if (++p == m) p = 0;
		}
	}

	private static void multiply(final float[] a, final double s) {
		final float f = (float) s;
		for (int i = 0; i < a.length; i++) a[i] *= f;
	}
}
