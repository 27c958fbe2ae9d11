package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.StageTimes;
import org.nufftj.trajectory.Trajectory;

/**
 * Gridding reconstruction: density compensation → adjoint NUFFT → coil combination, for every frame, on the
 * {@link Backend} the caller opened (the same code on every device).
 * <p>
 * Per frame f and coil c: x_{c,f} = Fᴴ (w ⊙ y_{c,f}), with F the unscaled NUFFT forward (NufftPlan maths,
 * x = index − N/2) and w the {@link DensityCompensation} weights applied once and normalised. So data
 * that follow NUFFT-J's convention y = Σ_x f(x)e^{−2πi k·x} (e.g. analytic k-space of a phantom in pixel units)
 * reconstruct at the object's own scale; BART-scaled data (×1/√pixels) come out ×1/√pixels. Then
 * {@link CoilCombination}: {@link Backend#sumOfSquares}, {@link Backend#walsh}, or none.
 * </p>
 * <p>
 * One plan serves every coil and frame (points set once). A frame lives in backend buffers from the write of its
 * samples (every coil) to the read of its image: weights multiply (w, one real buffer for every coil), one adjoint
 * call for all coils (a plan that must split them does so itself), combination. Arithmetic in the NUFFT options'
 * precision. Progress is reported per frame; {@link Progress#cancelled()} stops with a
 * {@link java.util.concurrent.CancellationException}.
 * </p>
 */
public final class GriddingRecon {

	private GriddingRecon() {}

	// -- public API --

	/**
	 * @param backend where the reconstruction runs (opened and closed by the caller, e.g. by
	 *                {@link org.nufftj.nufft.Backends#open}); the options' device is not consulted
	 * @param matrix  image size (2 or 3 axes, as many as the trajectory has); {@link ReconOptions#matrix()}, when set,
	 *                takes precedence
	 */
	public static ReconResult reconstruct(final Backend backend, final Trajectory traj, final KSpace data,
		final int[] matrix, final ReconOptions o, final Progress p)
	{
		final long t0 = System.nanoTime();
		final Progress progress = p == null ? Progress.NONE : p;
		final int[] size = o.matrix() != null ? o.matrix() : matrix;
		InvalidInputException.require(backend != null, "recon: no backend given");
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

		if (o.cartesianFft() && o.dcf() == DcfMethod.NONE) {
			final CartesianFft.Grid grid = CartesianFft.grid(traj, size);
			if (grid != null) return CartesianFft.reconstruct(backend, grid, data, size, o, progress);
		}
		if (o.partialFourier() == PartialFourier.HOMODYNE) throw new InvalidInputException("partial-fourier homodyne " +
			"needs Cartesian data reconstructed by FFT (samples on a Cartesian grid, dcf none or auto, the FFT path on); " +
			"this data goes through the NUFFT: use partial-fourier zero");
		Progress.step(progress, 0, "planning");
		try (NufftPlan plan = backend.plan(size, o.nufft().withPointCount(traj.count()))) {
			plan.setPoints(traj);
			Progress.step(progress, 0.02, "density compensation (" + o.dcf().key() + ")");
			final StageTimes stages = new StageTimes();
			final long tw = System.nanoTime();
			final float[] w = DensityCompensation.compute(backend, o.dcf(), traj, size, o.dcfIterations(), o.nufft());
			stages.add("dcf weights " + o.dcf().key(), (System.nanoTime() - tw) / 1e6);

			final int channels = o.combine() == CoilCombination.NONE ? coils : 1;
			final float[] out = new float[(int) (2 * pixels * channels * frames)];
			final float[] kept = o.keepCoils() ? new float[(int) (2 * pixels * coils * frames)] : null;
			final int outLength = (int) (2 * pixels * channels), coilLength = (int) (2 * pixels * coils);
			try (Frame frame = new Frame(backend, plan, w, data.points(), coils, size, o)) {
				for (int f = 0; f < frames; f++) {
					Progress.step(progress, 0.1 + 0.9 * f / frames, "adjoint NUFFT, frame " + (f + 1) + " of " + frames);
					frame.run(data.data(), data.offset(0, f), out, f * outLength, kept, f * coilLength, stages);
					if (progress.cancelled()) throw new java.util.concurrent.CancellationException("reconstruction " +
						"cancelled");
				}
			}
			progress.update(1, "done");
			final ComplexImage image = new ComplexImage(out, size, channels, frames, null);
			final ComplexImage coilsImage = kept == null ? null : new ComplexImage(kept, size, coils, frames, null);
			final double ms = (System.nanoTime() - t0) / 1e6;
			return new ReconResult(image, coilsImage, w, plan.backend(), backend.device(), plan.parameters(), ms, o.toString(), stages);
		}
	}

	/**
	 * The coil images {@code coils} (channels = coils) combined by {@code combine} on {@code backend}, frame by frame, in
	 * {@code precision}: the same buffers and backend operations as a reconstruction's own combination, so that coil
	 * images made elsewhere (e.g. coil ranges on several devices) combine to the numbers one device gives.
	 * {@link CoilCombination#NONE} returns {@code coils} itself.
	 */
	public static ComplexImage combine(final Backend backend, final ComplexImage coils, final CoilCombination combine,
		final Precision precision)
	{
		if (combine == CoilCombination.NONE) return coils;
		final int[] size = coils.size();
		final int n = coils.channels(), frames = coils.frames();
		final long pixels = ComplexImage.pixels(size);
		final int in = (int) (2 * pixels * n), out = (int) (2 * pixels);
		final float[] result = new float[out * frames];
		final boolean dbl = precision == Precision.DOUBLE;
		final double[] hostIn = dbl ? new double[in] : null, hostOut = dbl ? new double[out] : null;
		try (Buffer images = backend.allocate(in, precision); Buffer combined = backend.allocate(out, precision)) {
			for (int f = 0; f < frames; f++) {
				if (dbl) backend.write(toDouble(coils.data(), f * in, in, hostIn), 0, images);
				else backend.write(coils.data(), f * in, images);
				combine(backend, combine, images, size, n, combined);
				if (dbl) {
					backend.read(combined, hostOut, 0);
					for (int i = 0; i < out; i++) result[f * out + i] = (float) hostOut[i];
				}
				else backend.read(combined, result, f * out);
			}
		}
		return new ComplexImage(result, size, 1, frames, coils.spacing());
	}

	// -- helpers --

	/** out = the coil images combined by {@code c} (sos or walsh) on the backend. */
	private static void combine(final Backend backend, final CoilCombination c, final Buffer images, final int[] size,
		final int coils, final Buffer out)
	{
		if (c == CoilCombination.SOS) backend.sumOfSquares(images, coils, out);
		else backend.walsh(images, size, coils, out);
	}

	private static double[] toDouble(final float[] a, final int off, final int n, final double[] out) {
		for (int i = 0; i < n; i++) out[i] = a[off + i];
		return out;
	}

	/**
	 * The buffers of one frame, allocated once for every frame: samples [coil][sample], the weights (real, one per
	 * sample), the coil images [coil][pixel] and the combined image; host arrays for the precision conversion of a
	 * double plan.
	 */
	private static final class Frame implements AutoCloseable {

		private final Backend backend;
		private final NufftPlan plan;
		private final int[] size;
		private final int coils;
		private final CoilCombination combine;
		private final Precision precision;
		private final Buffer samples, weights, coilImages, combined;
		private final double[] hostSamples, hostImage, hostCoils;

		Frame(final Backend backend, final NufftPlan plan, final float[] w, final int m, final int coils,
			final int[] size, final ReconOptions o)
		{
			this.backend = backend;
			this.plan = plan;
			this.size = size;
			this.coils = coils;
			this.combine = o.combine();
			this.precision = o.nufft().precision();
			final long pixels = ComplexImage.pixels(size);
			final boolean dbl = precision == Precision.DOUBLE;
			Buffer s = null, wb = null, ci = null, cb = null;
			try {
				s = backend.allocate(2L * m * coils, precision);
				wb = backend.allocate(m, precision);
				ci = backend.allocate(2 * pixels * coils, precision);
				cb = combine == CoilCombination.NONE ? null : backend.allocate(2 * pixels, precision);
			}
			catch (final RuntimeException | Error e) {
				for (final Buffer b : new Buffer[] { s, wb, ci, cb }) if (b != null) b.close();
				throw e;
			}
			samples = s;
			weights = wb;
			coilImages = ci;
			combined = cb;
			if (dbl) backend.write(toDouble(w, 0, w.length, new double[w.length]), 0, weights);
			else backend.write(w, 0, weights);
			hostSamples = dbl ? new double[2 * m * coils] : null;
			hostImage = dbl && cb != null ? new double[(int) (2 * pixels)] : null;
			hostCoils = dbl ? new double[(int) (2 * pixels * coils)] : null;
		}

		/** One frame from y[off …] into out[outOffset …] (and its coil images into kept, if kept). */
		void run(final float[] y, final int off, final float[] out, final int outOffset, final float[] kept,
			final int keptOffset, final StageTimes times)
		{
			long t = System.nanoTime();
			if (hostSamples != null) backend.write(toDouble(y, off, hostSamples.length, hostSamples), 0, samples);
			else backend.write(y, off, samples);
			t = lap(times, "write samples", t);
			backend.multiplyReal(samples, weights, samples);
			t = lap(times, "dcf", t);
			plan.adjoint(samples, coilImages);
			backend.synchronize();
			plan.times().snapshot().forEach(times::add);
			t = lap(times, "adjoint", t);
			if (kept != null) read(coilImages, hostCoils, kept, keptOffset);
			if (combine == CoilCombination.NONE) {
				read(coilImages, hostCoils, out, outOffset);
				lap(times, "read image", t);
				return;
			}
			if (kept != null) t = lap(times, "read coil images", t);
			combine(backend, combine, coilImages, size, coils, combined);
			t = lap(times, "combine " + combine.key(), t);
			read(combined, hostImage, out, outOffset);
			lap(times, "read image", t);
		}

		@Override
		public void close() {
			for (final Buffer b : new Buffer[] { samples, weights, coilImages, combined }) if (b != null) b.close();
		}

		private void read(final Buffer b, final double[] scratch, final float[] dst, final int offset) {
			if (scratch == null) {
				backend.read(b, dst, offset);
				return;
			}
			backend.read(b, scratch, 0);
			for (int i = 0; i < b.length(); i++) dst[offset + i] = (float) scratch[i];
		}

		/** Adds the time since t (after the queued work completes) to the stage; returns now. */
		private long lap(final StageTimes times, final String stage, final long t) {
			backend.synchronize();
			final long now = System.nanoTime();
			times.add(stage, (now - t) / 1e6);
			return now;
		}
	}
}
