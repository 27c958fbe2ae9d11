package org.nufftj.nufft;

import org.nufftj.trajectory.Trajectory;

/**
 * A non-uniform FFT plan: {@code plan(image size, options) → setPoints(trajectory) → forward / adjoint … → close()}.
 * <p>
 * Maths (docs/conventions.md), with x the centred pixel index (x = index − N/2 per axis) and k in cycles per pixel:
 * </p>
 * <ul>
 * <li>forward (image → samples, "type 2"): y_m = Σ_x f(x)·e^{−2πi k_m·x}</li>
 * <li>adjoint (samples → image, "type 1"): f(x) = Σ_m y_m·e^{+2πi k_m·x}, the exact conjugate transpose of forward.</li>
 * </ul>
 * <p>
 * Unscaled (no 1/√N): BART's scaling is applied by the operator layer. Arrays are complex interleaved (re, im); images
 * column-major with x fastest. One call transforms as many vectors as the arrays hold (coils × frames): the image
 * array holds {@code 2·pixels·T} values and the sample array {@code 2·points·T}, for the same T ≥ 1. Both float and
 * double arrays are accepted; the plan's {@link Precision} governs its internal arithmetic.
 * </p>
 */
public interface NufftPlan extends AutoCloseable {

	/** Image size per axis (2 or 3 axes). */
	int[] imageSize();

	/** Resolved kernel, width, oversampling, grid and the error model's prediction. */
	NufftParameters parameters();

	/** A short name of the engine that runs this plan, e.g. "cpu (2 threads)" or "gpu 0: NVIDIA H100". */
	String backend();

	/** Sets (or replaces) the sample positions; they are kept for every later execute. */
	void setPoints(Trajectory trajectory);

	/** Number of sample positions set. */
	int points();

	void forward(float[] image, float[] samples);

	void adjoint(float[] samples, float[] image);

	void forward(double[] image, double[] samples);

	void adjoint(double[] samples, double[] image);

	// -- on backend buffers (the plan's backend and precision) --

	/**
	 * Forward on buffers of the backend that made this plan, in the plan's precision: image [T][pixels] and samples
	 * [T][points] complex, T from the lengths as for the array forms. No host round trip on a GPU.
	 */
	void forward(Buffer image, Buffer samples);

	/** Adjoint on buffers; as {@link #forward(Buffer, Buffer)}. */
	void adjoint(Buffer samples, Buffer image);

	/**
	 * The adjoint's first stage alone: g_b[l] = Σ_m s_b[m]·ψ(l − t_m) on the periodic oversampled grid (t_m = k_m·n),
	 * no FFT, no deapodization. {@code grid} holds T grids of {@link NufftParameters#gridPoints()} complex cells, x
	 * fastest ([T][grid]); it is overwritten. For iterative methods on the grid (Pipe–Menon density compensation).
	 */
	void spread(Buffer samples, Buffer grid);

	/** The forward's last stage alone, the transpose of {@link #spread}: s_b[m] = Σ_l g_b[l]·ψ(l − t_m). */
	void interpolate(Buffer grid, Buffer samples);

	/** Per-stage times of the most recent execute. */
	StageTimes times();

	/** Frees what the plan holds (device memory, thread pools); idempotent. */
	@Override
	void close();

	/** Number of transforms T held by arrays of the given lengths; fails naming both sizes if they disagree. */
	static int transforms(final NufftPlan plan, final long imageLength, final long sampleLength) {
		long pixels = 1;
		for (final int n : plan.imageSize()) pixels *= n;
		final long m = plan.points();
		if (m == 0) throw new IllegalStateException("NUFFT plan: setPoints must be called before forward/adjoint");
		if (imageLength == 0 || imageLength % (2 * pixels) != 0 || sampleLength % (2 * m) != 0 ||
			imageLength / (2 * pixels) != sampleLength / (2 * m))
		{
			throw new org.nufftj.InvalidInputException("NUFFT: image array of " + imageLength + " values (2 x " + pixels +
				" pixels x T) and sample array of " + sampleLength + " values (2 x " + m +
				" points x T) do not hold the same number T >= 1 of transforms");
		}
		return (int) (imageLength / (2 * pixels));
	}
}
