package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.StageTimes;
import org.nufftj.nufft.gpu.GpuDevices;
import org.nufftj.trajectory.Trajectory;

/**
 * Gridding reconstruction: density compensation → adjoint NUFFT → coil combination, for every frame.
 * <p>
 * Per frame f and coil c: x_{c,f} = Fᴴ (w ⊙ y_{c,f}), with F the unscaled NUFFT forward (NufftPlan maths,
 * x = index − N/2) and w the {@link DensityCompensation} weights applied once and normalised. So data
 * that follow NUFFT-J's convention y = Σ_x f(x)e^{−2πi k·x} (e.g. analytic k-space of a phantom in pixel units)
 * reconstruct at the object's own scale; BART-scaled data (×1/√pixels) come out ×1/√pixels.
 * </p>
 * <p>
 * One plan serves every coil and frame (points set once); the coils of a frame go through one execute. Progress is
 * reported per frame; {@link Progress#cancelled()} stops with a {@link java.util.concurrent.CancellationException}.
 * </p>
 * <p>
 * TRANSIENT (branch gpu): the device-resident GPU path (recon/gpu) is gone with the vector kernels' move into the GPU
 * backend; every plan runs the host path below until recon is written against {@code Backend} (branch core).
 * </p>
 * <p>
 * GPU plans open their device for the reconstruction alone, or borrow it from a caller's {@link GpuDevices} (one per
 * session: the device's set-up is then paid once, not per reconstruction).
 * </p>
 */
public final class GriddingRecon {

	private GriddingRecon() {}

	// -- public API --

	/**
	 * @param matrix image size (2 or 3 axes, as many as the trajectory has); {@link ReconOptions#matrix()}, when set,
	 *               takes precedence
	 */
	public static ReconResult reconstruct(final Trajectory traj, final KSpace data, final int[] matrix,
		final ReconOptions o, final Progress p)
	{
		return reconstruct(traj, data, matrix, o, p, null);
	}

	/**
	 * As {@link #reconstruct(Trajectory, KSpace, int[], ReconOptions, Progress)}, with GPU plans made on
	 * {@code devices} (kept open there for later reconstructions; null: opened and closed here).
	 */
	public static ReconResult reconstruct(final Trajectory traj, final KSpace data, final int[] matrix,
		final ReconOptions o, final Progress p, final GpuDevices devices)
	{
		final long t0 = System.nanoTime();
		final Progress progress = p == null ? Progress.NONE : p;
		final int[] size = o.matrix() != null ? o.matrix() : matrix;
		InvalidInputException.require(size != null, "recon: no image matrix given");
		InvalidInputException.require(size.length == traj.dimensions(), "recon: matrix " + Arrays.toString(size) +
			" has " + size.length + " axes but the trajectory is " + traj.dimensions() + "D");
		InvalidInputException.require(data.points() == traj.count(), "recon: k-space has " + data.points() +
			" samples per coil and frame, the trajectory " + traj.count() + " points");
		data.requireFinite("recon");
		final int coils = data.coils(), frames = data.frames();
		final long pixels = ComplexImage.pixels(size);
		InvalidInputException.require(2L * pixels * coils * frames <= Integer.MAX_VALUE - 8, "recon: " + pixels +
			" pixels x " + coils + " coils x " + frames + " frames is too large for one array");

		Progress.step(progress, 0, "planning");
		try (NufftPlan plan = Nufft.plan(size, o.nufft(), devices)) {
			plan.setPoints(traj);
			Progress.step(progress, 0.02, "density compensation (" + o.dcf().key() + ")");
			final StageTimes stages = new StageTimes();
			final long tw = System.nanoTime();
			{
				final float[] w = DensityCompensation.compute(o.dcf(), traj, size, o.dcfIterations());
				stages.add("dcf weights " + o.dcf().key() + " (host)", (System.nanoTime() - tw) / 1e6);

				final int channels = o.combine() == CoilCombination.NONE ? coils : 1;
				final float[] out = new float[(int) (2 * pixels * channels * frames)];
				final float[] kept = o.keepCoils() ? new float[(int) (2 * pixels * coils * frames)] : null;
				final int outLength = (int) (2 * pixels * channels), coilLength = (int) (2 * pixels * coils);
				final HostFrame host = new HostFrame(plan, w, data.points(), coils, (int) pixels, size, o.combine());
				for (int f = 0; f < frames; f++) {
					Progress.step(progress, 0.1 + 0.9 * f / frames, "adjoint NUFFT, frame " + (f + 1) + " of " + frames);
					host.frame(data.data(), data.offset(0, f), out, f * outLength, kept, f * coilLength, stages);
					if (progress.cancelled()) throw new java.util.concurrent.CancellationException("reconstruction " +
						"cancelled");
				}
				progress.update(1, "done");
				final ComplexImage image = new ComplexImage(out, size, channels, frames, null);
				final ComplexImage coilsImage = kept == null ? null : new ComplexImage(kept, size, coils, frames, null);
				final double ms = (System.nanoTime() - t0) / 1e6;
				return new ReconResult(image, coilsImage, w, plan.backend(), plan.parameters(), ms, o.toString(), stages);
			}
		}
	}

	// -- helpers --

	/** One frame on the host: weighted = w ⊙ y, the plan's host-array adjoint, then {@link CoilCombine}. */
	private static final class HostFrame {

		private final NufftPlan plan;
		private final float[] w;
		private final int m, coils, pixels;
		private final int[] size;
		private final CoilCombination combine;
		private final float[] weighted, coilImages;

		HostFrame(final NufftPlan plan, final float[] w, final int m, final int coils, final int pixels,
			final int[] size, final CoilCombination combine)
		{
			this.plan = plan;
			this.w = w;
			this.m = m;
			this.coils = coils;
			this.pixels = pixels;
			this.size = size;
			this.combine = combine;
			weighted = new float[2 * m * coils];
			coilImages = new float[2 * pixels * coils];
		}

		void frame(final float[] y, final int off, final float[] out, final int outOffset, final float[] kept,
			final int keptOffset, final StageTimes times)
		{
			long t = System.nanoTime();
			for (int c = 0, i = 0; c < coils; c++) {
				for (int s = 0; s < m; s++, i += 2) {
					weighted[i] = y[off + i] * w[s];
					weighted[i + 1] = y[off + i + 1] * w[s];
				}
			}
			times.add("dcf (host)", (System.nanoTime() - t) / 1e6);
			plan.adjoint(weighted, coilImages);
			plan.times().snapshot().forEach(times::add);
			if (kept != null) System.arraycopy(coilImages, 0, kept, keptOffset, coilImages.length);
			t = System.nanoTime();
			final float[] combined;
			switch (combine) {
				case SOS: combined = CoilCombine.sumOfSquares(coilImages, 0, pixels, coils); break;
				case WALSH: combined = CoilCombine.walsh(coilImages, 0, size, coils); break;
				default: combined = coilImages;
			}
			System.arraycopy(combined, 0, out, outOffset, combined.length);
			if (combine != CoilCombination.NONE) times.add("combine " + combine.key() + " (host)",
				(System.nanoTime() - t) / 1e6);
		}
	}
}
