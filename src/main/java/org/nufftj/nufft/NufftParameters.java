package org.nufftj.nufft;

import java.util.Arrays;

import org.nufftj.kernel.Kernel;

/**
 * Resolved plan parameters: kernel (with its width W and shape), oversampling σ, the fine-grid size per axis and the
 * error model's prediction for them (the maximum aliasing amplitude, see {@link ParameterChoice}). An exact plan
 * ({@link Backend#exactPlan}: direct sums, no gridding) has {@link #exact()} parameters: no kernel, σ = 1, the grid is
 * the image and the model error 0.
 */
public final class NufftParameters {

	private final int[] imageSize;
	private final int[] gridSize;
	private final Kernel kernel;
	private final double oversampling;
	private final double tolerance;
	private final double predictedError;
	private final Precision precision;

	public NufftParameters(final int[] imageSize, final int[] gridSize, final Kernel kernel, final double oversampling,
		final double tolerance, final double predictedError, final Precision precision)
	{
		this.imageSize = imageSize.clone();
		this.gridSize = gridSize.clone();
		this.kernel = kernel;
		this.oversampling = oversampling;
		this.tolerance = tolerance;
		this.predictedError = predictedError;
		this.precision = precision;
	}

	/**
	 * The parameters of an exact plan of {@code imageSize} (direct sums: no kernel, no grid, no model error); refuses a
	 * size of other than 2 or 3 axes or with an axis below 1, naming it.
	 */
	public static NufftParameters exact(final int[] imageSize, final Precision precision) {
		org.nufftj.InvalidInputException.require(imageSize.length == 2 || imageSize.length == 3,
			"exact plan: image size needs 2 or 3 axes, found " + imageSize.length);
		for (final int n : imageSize) org.nufftj.InvalidInputException.require(n >= 1, "exact plan: image size " + Arrays
			.toString(imageSize) + " has an axis < 1");
		return new NufftParameters(imageSize, imageSize, null, 1, 0, 0, precision);
	}

	/** Refuses {@code t} unless it has as many axes as the image (exact plans' setPoints). */
	public void requireDimensions(final org.nufftj.trajectory.Trajectory t) {
		org.nufftj.InvalidInputException.require(t.dimensions() == imageSize.length, "exact plan: a " + t.dimensions() +
			"D trajectory for a " + imageSize.length + "D image " + Arrays.toString(imageSize));
	}

	/** True for an exact plan's parameters ({@link #exact(int[], Precision)}). */
	public boolean exact() { return kernel == null; }

	public int[] imageSize() { return imageSize.clone(); }

	public int[] gridSize() { return gridSize.clone(); }

	public int dimensions() { return imageSize.length; }

	public Kernel kernel() { return kernel; }

	/** Kernel width W; 0 for an exact plan. */
	public int width() { return kernel == null ? 0 : kernel.width(); }

	/** The nominal σ asked for; the actual per-axis ratio is gridSize/imageSize (grid sizes are 2,3,5,7-smooth). */
	public double oversampling() { return oversampling; }

	public double tolerance() { return tolerance; }

	/** The error model's bound for these parameters (relative, worst-case aliasing amplitude). */
	public double predictedError() { return predictedError; }

	public Precision precision() { return precision; }

	public long imagePixels() {
		long p = 1;
		for (final int n : imageSize) p *= n;
		return p;
	}

	public long gridPoints() {
		long p = 1;
		for (final int n : gridSize) p *= n;
		return p;
	}

	@Override
	public String toString() {
		if (exact()) return "exact (direct sums, no gridding, " + precision.name().toLowerCase() + ")";
		return "kernel=" + kernel.type().key() + " W=" + kernel.width() + String.format(" shape=%.4g", kernel.shape()) +
			" sigma=" + oversampling + " grid=" + Arrays.toString(gridSize) + String.format(" model error=%.3g", predictedError) +
			" (tolerance " + tolerance + ", " + precision.name().toLowerCase() + ")";
	}
}
