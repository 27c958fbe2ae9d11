package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.StageTimes;
import org.nufftj.trajectory.Trajectory;

/**
 * The exact reconstruction of Cartesian data by FFT: when every sample lies on a grid of G_a = m_a·N_a points per
 * axis (N the image matrix, m = 1, 2 or 4: readout oversampling), k_a·G_a an integer in [−G_a/2, G_a/2), the adjoint
 * NUDFT at the image's pixels, Σ_j y_j e^{+2πi Σ_a k_a x_a} (x_a = index − ⌊N_a/2⌋), is an inverse FFT of the samples
 * put on that grid (duplicates added), cropped to the N_a central pixels: no kernel, no ε, no density compensation.
 * {@link GriddingRecon} takes this path for data on such a grid when the density compensation is none (what
 * {@code dcf=auto} chooses for Cartesian designs) unless {@link ReconOptions#withCartesianFft} turns it off. The FFT and
 * the coil combination run on the backend, the scatter and the crop on the host (one upload and one download of the
 * grids per frame).
 */
public final class CartesianFft {

	/** A trajectory's place on the grid: G per axis and each sample's flat grid index (x fastest, k = 0 at index 0). */
	public static final class Grid {

		private final int[] size;
		private final int[] index;

		Grid(final int[] size, final int[] index) {
			this.size = size;
			this.index = index;
		}

		/** G per axis. */
		public int[] size() { return size.clone(); }
	}

	private static final int[] FACTORS = { 1, 2, 4 };
	private static final double ON_GRID = 1e-6;

	private CartesianFft() {}

	// -- public API --

	/** The grid {@code t} lies on for an image of {@code matrix}, or null when it is not Cartesian on any. */
	public static Grid grid(final Trajectory t, final int[] matrix) {
		final int d = t.dimensions(), m = t.count();
		if (matrix.length != d) return null;
		final double[] c = t.coords();
		final int[] g = new int[d];
		for (int a = 0; a < d; a++) {
			g[a] = -1;
			for (final int f : FACTORS) {
				if (onGrid(c, d, a, m, (long) f * matrix[a])) {
					g[a] = f * matrix[a];
					break;
				}
			}
			if (g[a] < 0) return null;
		}
		final int[] index = new int[m];
		for (int j = 0; j < m; j++) {
			long flat = 0, stride = 1;
			for (int a = 0; a < d; a++) {
				final long i = Math.round(c[d * j + a] * g[a]);
				flat += stride * Math.floorMod(i, g[a]);
				stride *= g[a];
			}
			index[j] = (int) flat;
		}
		return new Grid(g, index);
	}

	/**
	 * Per-coil images by FFT, combined as {@code o} says, for every frame of {@code data} on {@code grid}
	 * ({@link #grid}); the result is that of {@link GriddingRecon} with no density compensation and an exact adjoint.
	 */
	public static ReconResult reconstruct(final Backend backend, final Grid grid, final KSpace data, final int[] size,
		final ReconOptions o, final Progress progress)
	{
		final long t0 = System.nanoTime();
		final int coils = data.coils(), frames = data.frames(), m = data.points();
		final int pixels = (int) ComplexImage.pixels(size);
		long gp = 1;
		for (final int n : grid.size) gp *= n;
		final int gridPoints = (int) gp;
		final int channels = o.combine() == CoilCombination.NONE ? coils : 1;
		final float[] out = new float[2 * pixels * channels * frames];
		final float[] kept = o.keepCoils() ? new float[2 * pixels * coils * frames] : null;
		final StageTimes stages = new StageTimes();
		final float[] hostGrid = new float[2 * gridPoints * coils], hostCoils = new float[2 * pixels * coils];
		final int[] pixelIndex = crop(size, grid.size);
		try (Buffer g = backend.allocate(2L * gridPoints * coils, Precision.FLOAT);
			Buffer ci = backend.allocate(2L * pixels * coils, Precision.FLOAT);
			Buffer cb = backend.allocate(2L * pixels, Precision.FLOAT))
		{
			for (int f = 0; f < frames; f++) {
				Progress.step(progress, (double) f / frames, "FFT, frame " + (f + 1) + " of " + frames);
				long t = System.nanoTime();
				Arrays.fill(hostGrid, 0);
				final float[] y = data.data();
				for (int c = 0; c < coils; c++) {
					final int from = data.offset(c, f), base = 2 * gridPoints * c;
					for (int j = 0; j < m; j++) {
						hostGrid[base + 2 * grid.index[j]] += y[from + 2 * j];
						hostGrid[base + 2 * grid.index[j] + 1] += y[from + 2 * j + 1];
					}
				}
				backend.write(hostGrid, 0, g);
				t = lap(backend, stages, "grid samples", t);
				backend.fft(g, grid.size, +1);
				t = lap(backend, stages, "fft", t);
				backend.read(g, hostGrid, 0);
				for (int c = 0; c < coils; c++) {
					final int gb = 2 * gridPoints * c, ib = 2 * pixels * c;
					for (int p = 0; p < pixels; p++) {
						hostCoils[ib + 2 * p] = hostGrid[gb + 2 * pixelIndex[p]];
						hostCoils[ib + 2 * p + 1] = hostGrid[gb + 2 * pixelIndex[p] + 1];
					}
				}
				if (kept != null) System.arraycopy(hostCoils, 0, kept, f * hostCoils.length, hostCoils.length);
				t = lap(backend, stages, "crop", t);
				if (channels == coils) {
					System.arraycopy(hostCoils, 0, out, f * hostCoils.length, hostCoils.length);
					continue;
				}
				backend.write(hostCoils, 0, ci);
				if (o.combine() == CoilCombination.SOS) backend.sumOfSquares(ci, coils, cb);
				else backend.walsh(ci, size, coils, cb);
				backend.read(cb, out, f * 2 * pixels);
				lap(backend, stages, "combine " + o.combine().key(), t);
				if (progress != null && progress.cancelled()) throw new java.util.concurrent.CancellationException(
					"reconstruction cancelled");
			}
		}
		if (progress != null) progress.update(1, "done");
		final ComplexImage image = new ComplexImage(out, size, channels, frames, null);
		final ComplexImage coilsImage = kept == null ? null : new ComplexImage(kept, size, coils, frames, null);
		final float[] w = new float[m];
		Arrays.fill(w, 1f);
		return new ReconResult(image, coilsImage, w, backend.name() + ", exact FFT on grid " + Arrays.toString(
			grid.size), backend.device(), null, (System.nanoTime() - t0) / 1e6, o.toString(), stages);
	}

	// -- helpers --

	/** True when k_a·g is an integer in [−g/2, g/2) for every sample (to {@value #ON_GRID}). */
	private static boolean onGrid(final double[] c, final int d, final int a, final int m, final long g) {
		for (int j = 0; j < m; j++) {
			final double v = c[d * j + a] * g, r = Math.rint(v);
			if (Math.abs(v - r) > ON_GRID || r < -g / 2 || r >= g - g / 2) return false;
		}
		return true;
	}

	/** Flat grid index of each image pixel: pixel x_a = i − ⌊N_a/2⌋ sits at grid index x_a mod G_a. */
	private static int[] crop(final int[] size, final int[] g) {
		final int pixels = (int) ComplexImage.pixels(size);
		final int[] out = new int[pixels];
		for (int p = 0; p < pixels; p++) {
			long flat = 0, stride = 1;
			for (int a = 0, rest = p; a < size.length; a++) {
				final int x = rest % size[a] - size[a] / 2;
				rest /= size[a];
				flat += stride * Math.floorMod(x, g[a]);
				stride *= g[a];
			}
			out[p] = (int) flat;
		}
		return out;
	}

	private static long lap(final Backend backend, final StageTimes times, final String stage, final long t) {
		backend.synchronize();
		final long now = System.nanoTime();
		times.add(stage, (now - t) / 1e6);
		return now;
	}
}
