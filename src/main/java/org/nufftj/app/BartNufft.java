package org.nufftj.app;

import org.nufftj.InvalidInputException;
import org.nufftj.app.tune.TuneDirection;
import org.nufftj.data.ComplexImage;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.operator.NufftOperator;
import org.nufftj.operator.Operators;
import org.nufftj.trajectory.Trajectory;

/**
 * The NUFFT with BART's scaling, as {@code nufft-j adjoint / forward} and Fiji's Forward NUFFT write it:
 * adjoint = (1/√pixels)·Σ_m y_m e^{+2πi k_m·x}, forward = (1/√pixels)·Σ_x f(x) e^{−2πi k_m·x} (docs/conventions.md),
 * over a batch of coils × frames with one plan.
 */
public final class BartNufft {

	/** A transform's output and what ran (plan parameters and stage times). */
	public static final class Result {

		private final float[] data;
		private final String description;
		private final double planMs;
		private final double transformMs;

		Result(final float[] data, final String description, final double planMs, final double transformMs) {
			this.data = data;
			this.description = description;
			this.planMs = planMs;
			this.transformMs = transformMs;
		}

		public float[] data() { return data; }

		/** Wall time of opening the backend, making the plan and setting its points (ms). */
		public double planMs() { return planMs; }

		/** Wall time of the transform of the whole batch (ms). */
		public double transformMs() { return transformMs; }

		/** The backend, the plan's parameters and its stage times. */
		public String description() { return description; }
	}

	private BartNufft() {}

	// -- public API --

	/** Images {@code [size, transforms]} from samples {@code [points, transforms]} (interleaved complex). */
	public static Result adjoint(final Session session, final Trajectory t, final int[] size, final float[] samples,
		final NufftOptions options)
	{
		final long pixels = ComplexImage.pixels(size), points = t.count();
		InvalidInputException.require(samples.length % (2 * points) == 0, "adjoint: " + samples.length / 2 +
			" samples are not a multiple of the trajectory's " + points + " points");
		final long transforms = samples.length / (2 * points);
		InvalidInputException.require(2 * pixels * transforms <= Integer.MAX_VALUE - 8, "image of " + pixels +
			" pixels x " + transforms + " coils/frames is too large for one array");
		final float[] image = new float[(int) (2 * pixels * transforms)];
		final long t0 = System.nanoTime();
		final Backend backend = session.backend(options);
		final NufftOptions tuned = session.tuned(t, size, (int) transforms, options, TuneDirection.ADJOINT);
		try (NufftPlan plan = backend.plan(size, tuned.withPointCount(t.count()))) {
			plan.setPoints(t);
			final long t1 = System.nanoTime();
			try (NufftOperator op = NufftOperator.bart(backend, plan, (int) transforms)) {
				Operators.applyAdjoint(op, samples, image);
			}
			return new Result(image, "adjoint " + plan.backend() + ": " + plan.parameters() + "; " + plan.times(),
				(t1 - t0) / 1e6, (System.nanoTime() - t1) / 1e6);
		}
	}

	/** Samples {@code [points, transforms]} from images {@code [size, transforms]} (interleaved complex). */
	public static Result forward(final Session session, final Trajectory t, final int[] size, final float[] image,
		final NufftOptions options)
	{
		final long pixels = ComplexImage.pixels(size), points = t.count();
		InvalidInputException.require(image.length % (2 * pixels) == 0, "forward: " + image.length / 2 +
			" image values are not a multiple of the " + pixels + " pixels of " + Options.describeMatrix(size));
		final long transforms = image.length / (2 * pixels);
		InvalidInputException.require(2L * points * transforms <= Integer.MAX_VALUE - 8, "k-space of " + points +
			" points x " + transforms + " coils/frames is too large for one array");
		final float[] samples = new float[(int) (2 * points * transforms)];
		final long t0 = System.nanoTime();
		final Backend backend = session.backend(options);
		final NufftOptions tuned = session.tuned(t, size, (int) transforms, options, TuneDirection.FORWARD);
		try (NufftPlan plan = backend.plan(size, tuned.withPointCount(t.count()))) {
			plan.setPoints(t);
			final long t1 = System.nanoTime();
			try (NufftOperator op = NufftOperator.bart(backend, plan, (int) transforms)) {
				Operators.apply(op, image, samples);
			}
			return new Result(samples, "forward " + plan.backend() + ": " + plan.parameters() + "; " + plan.times(),
				(t1 - t0) / 1e6, (System.nanoTime() - t1) / 1e6);
		}
	}
}
