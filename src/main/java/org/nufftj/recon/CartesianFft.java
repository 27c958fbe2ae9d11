package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SparseMatrix;
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
 * <p>
 * <b>Partial Fourier / asymmetric echo</b> is read from the data itself ({@link #sampling}): per grid axis, the range
 * [lo, hi] of grid lines holding a sample with a non-zero value in some coil or frame. For ISMRMRD files without stored
 * coordinates the reader places the lines by the header's encoding limits ({@code kspace_encoding_step_1/2} centre)
 * and each readout's {@code center_sample}, so missing phase-encode lines or an asymmetric echo show as a range that is
 * not symmetric about k = 0; for BART Cartesian k-space, the all-zero lines at one side do. An axis is partial Fourier
 * when max(−lo, hi) exceeds the symmetric half-width s = min(−lo, hi) by 2 or more (a fully sampled even axis,
 * −G/2 … G/2−1, differs by 1: the Nyquist line). {@link PartialFourier#ZERO} (default) leaves the missing side zero.
 * {@link PartialFourier#HOMODYNE} (Noll, Nishimura &amp; Macovski 1991), on exactly one partial axis, per coil c:
 * the phase φ_c = arg FFT⁻¹(L·y_c) of the symmetric centre |k| ≤ s with a Hann window L(k) = cos²(πk / (2(s+1))); the
 * image FFT⁻¹(H·y_c) with the ramp weighting H(k) = 0 on the unsampled side beyond the centre, 1 + k/(s+1) across the
 * centre (|k| ≤ s, k signed towards the sampled side) and 2 beyond it (so H(k) + H(−k) = 2 everywhere: the sampled
 * side's conjugate region counts twice, standing in for the unsampled side, and the image keeps the full-data scale);
 * m_c = Re(FFT⁻¹(H·y_c)·e^{−iφ_c}). The coil image handed to the combination is m_c·e^{iφ_c}: SoS then gives
 * √Σ m_c² (the SoS of the real homodyne images), Walsh combines these smooth-phase images as any other, none keeps
 * them. Weighting, phase and crop run on the host, the FFTs (both grids of every coil, one batch) on the backend.
 * </p>
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

	/**
	 * The sampled range per grid axis ({@link #sampling}): lines lo … hi (signed grid indices, k·G) that hold a non-zero
	 * sample.
	 */
	public static final class Sampling {

		private final int[] g, lo, hi;

		Sampling(final int[] g, final int[] lo, final int[] hi) {
			this.g = g;
			this.lo = lo;
			this.hi = hi;
		}

		/** Lowest sampled signed grid line on axis a. */
		public int lo(final int a) { return lo[a]; }

		/** Highest sampled signed grid line on axis a. */
		public int hi(final int a) { return hi[a]; }

		/** Half-width s of the symmetric centre −s … s on axis a (negative when k = 0 is not inside the range). */
		public int centre(final int a) { return Math.min(-lo[a], hi[a]); }

		/** True when axis a is sampled asymmetrically (by 2 lines or more beyond the symmetric centre). */
		public boolean partial(final int a) { return Math.max(-lo[a], hi[a]) - centre(a) >= 2; }

		/** The partial axes, in order. */
		public int[] partialAxes() {
			return java.util.stream.IntStream.range(0, g.length).filter(this::partial).toArray();
		}

		/** "axis a: lines lo…hi of G (centre 2s+1)" for each partial axis; "" when none. */
		public String describe() {
			final StringBuilder b = new StringBuilder();
			for (final int a : partialAxes())
				b.append(b.length() == 0 ? "" : ", ").append("axis ").append(a).append(": lines ").append(lo[a])
					.append("..").append(hi[a]).append(" of ").append(g[a]).append(" (symmetric centre ")
					.append(Math.max(0, 2 * centre(a) + 1)).append(")");
			return b.toString();
		}
	}

	/** Fewest lines of the symmetric centre that homodyne accepts (its phase estimate needs a few). */
	public static final int MIN_CENTRE_LINES = 8;

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

	/** The sampled range per axis of {@code data} on {@code grid} (samples non-zero in some coil or frame). */
	public static Sampling sampling(final Grid grid, final KSpace data) {
		final int d = grid.size.length, m = data.points();
		final int[] lo = new int[d], hi = new int[d];
		Arrays.fill(lo, Integer.MAX_VALUE);
		Arrays.fill(hi, Integer.MIN_VALUE);
		final float[] y = data.data();
		for (int j = 0; j < m; j++) {
			boolean nonzero = false;
			for (int c = 0; c < data.coils() && !nonzero; c++)
				for (int f = 0; f < data.frames() && !nonzero; f++) {
					final int at = data.offset(c, f) + 2 * j;
					nonzero = y[at] != 0 || y[at + 1] != 0;
				}
			if (!nonzero) continue;
			for (int a = 0, rest = grid.index[j]; a < d; a++) {
				final int i = rest % grid.size[a], k = i < grid.size[a] - grid.size[a] / 2 ? i : i - grid.size[a];
				rest /= grid.size[a];
				lo[a] = Math.min(lo[a], k);
				hi[a] = Math.max(hi[a], k);
			}
		}
		for (int a = 0; a < d; a++) if (lo[a] > hi[a]) lo[a] = hi[a] = 0; // no non-zero sample at all
		return new Sampling(grid.size.clone(), lo, hi);
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
		final float[] hostCoils = new float[2 * pixels * coils];
		final int[] pixelIndex = crop(size, grid.size);
		final Sampling sampled = sampling(grid, data);
		final boolean homodyne = o.partialFourier() == PartialFourier.HOMODYNE;
		final float[][] hl = homodyne ? homodyneWeights(grid.size, sampled) : null;
		final int batch = homodyne ? 2 * coils : coils;
		// The host grid: homodyne only (its weights and phase are applied on the host).
		final float[] hostGrid = homodyne ? new float[2 * gridPoints * coils] : null;
		final float[] weighted = homodyne ? new float[2 * gridPoints * batch] : null;
		// Without homodyne the samples go onto the grid and the image block comes off it on the backend: placing is the
		// adjoint of a one-entry-per-sample gather (zeros elsewhere, duplicates summed as before), cropping a one-entry
		// gather per pixel; only the samples go up and only the combined image comes back (H100, 256² × 8 coils × 20
		// frames from a file: 347 → 208–263 ms per series on the GPU; on the CPU backend the same as its former host
		// loops, bit for bit and in time: medians 378 / 380 ms, 2 threads, alternating in one process).
		try (Buffer g = backend.allocate(2L * gridPoints * batch, Precision.FLOAT);
			Buffer ci = backend.allocate(2L * pixels * coils, Precision.FLOAT);
			Buffer cb = backend.allocate(2L * pixels, Precision.FLOAT);
			Buffer samples = homodyne ? null : backend.allocate(2L * m * coils, Precision.FLOAT);
			SparseMatrix place = homodyne ? null : backend.sparse(m, gridPoints, 1, grid.index, ones(m),
				Precision.FLOAT);
			SparseMatrix block = homodyne ? null : backend.sparse(pixels, gridPoints, 1, pixelIndex, ones(pixels),
				Precision.FLOAT))
		{
			for (int f = 0; f < frames; f++) {
				Progress.step(progress, (double) f / frames, "FFT, frame " + (f + 1) + " of " + frames);
				long t = System.nanoTime();
				if (homodyne) {
					Arrays.fill(hostGrid, 0);
					final float[] y = data.data();
					for (int c = 0; c < coils; c++) {
						final int from = data.offset(c, f), base = 2 * gridPoints * c;
						for (int j = 0; j < m; j++) {
							hostGrid[base + 2 * grid.index[j]] += y[from + 2 * j];
							hostGrid[base + 2 * grid.index[j] + 1] += y[from + 2 * j + 1];
						}
					}
					// Homodyne (Noll 1991): the high-pass (H) and low-pass (L) weighted grids of all coils, one batch.
					for (int c = 0; c < coils; c++) {
						final int base = 2 * gridPoints * c, low = 2 * gridPoints * (coils + c);
						for (int q = 0; q < gridPoints; q++) {
							weighted[base + 2 * q] = hl[0][q] * hostGrid[base + 2 * q];
							weighted[base + 2 * q + 1] = hl[0][q] * hostGrid[base + 2 * q + 1];
							weighted[low + 2 * q] = hl[1][q] * hostGrid[base + 2 * q];
							weighted[low + 2 * q + 1] = hl[1][q] * hostGrid[base + 2 * q + 1];
						}
					}
					backend.write(weighted, 0, g);
					t = lap(backend, stages, "grid samples, homodyne weights", t);
				}
				else {
					backend.write(data.data(), data.offset(0, f), samples);
					backend.applyAdjoint(place, samples, g);
					t = lap(backend, stages, "grid samples", t);
				}
				backend.fft(g, grid.size, +1);
				t = lap(backend, stages, "fft", t);
				if (homodyne) {
					backend.read(g, weighted, 0);
					for (int c = 0; c < coils; c++) {
						final int gb = 2 * gridPoints * c, lb = 2 * gridPoints * (coils + c), ib = 2 * pixels * c;
						for (int p = 0; p < pixels; p++) {
							final int q = 2 * pixelIndex[p];
							final double are = weighted[gb + q], aim = weighted[gb + q + 1];
							final double bre = weighted[lb + q], bim = weighted[lb + q + 1];
							final double r = Math.hypot(bre, bim);
							final double ure = r > 0 ? bre / r : 1, uim = r > 0 ? bim / r : 0;
							final double mag = are * ure + aim * uim; // Re(a·e^{−iφ})
							hostCoils[ib + 2 * p] = (float) (mag * ure);
							hostCoils[ib + 2 * p + 1] = (float) (mag * uim);
						}
					}
				}
				else {
					backend.apply(block, g, ci);
					if (kept != null || channels == coils) backend.read(ci, hostCoils, 0);
				}
				if (kept != null) System.arraycopy(hostCoils, 0, kept, f * hostCoils.length, hostCoils.length);
				t = lap(backend, stages, "crop", t);
				if (channels == coils) {
					System.arraycopy(hostCoils, 0, out, f * hostCoils.length, hostCoils.length);
					continue;
				}
				if (homodyne) backend.write(hostCoils, 0, ci);
				combine(backend, o, ci, size, coils, cb);
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
		final String pf = sampled.partialAxes().length == 0 ? "" : "; partial Fourier " + sampled.describe() + ", " +
			(homodyne ? "homodyne (Noll 1991, ramp weighting, Hann-windowed centre phase)" : "zero-filled");
		return new ReconResult(image, coilsImage, w, backend.name() + ", exact FFT on grid " + Arrays.toString(
			grid.size) + pf, backend.device(), null, (System.nanoTime() - t0) / 1e6, o.toString(), stages);
	}

	// -- helpers --

	private static void combine(final Backend backend, final ReconOptions o, final Buffer coilImages, final int[] size,
		final int coils, final Buffer out)
	{
		if (o.combine() == CoilCombination.SOS) backend.sumOfSquares(coilImages, coils, out);
		else backend.walsh(coilImages, size, coils, out);
	}

	/** Complex weights 1 + 0i for n one-entry rows. */
	private static double[] ones(final int n) {
		final double[] w = new double[2 * n];
		for (int i = 0; i < n; i++) w[2 * i] = 1;
		return w;
	}

	/**
	 * The homodyne weights per grid point: [0] H (ramp: 0 / 1 + k/(s+1) / 2) and [1] L (Hann over the centre |k| ≤ s)
	 * along the one partial axis of {@code s}; refuses data that is not partial Fourier on exactly one axis or whose
	 * symmetric centre has fewer than {@value #MIN_CENTRE_LINES} lines.
	 */
	private static float[][] homodyneWeights(final int[] g, final Sampling s) {
		final int[] axes = s.partialAxes();
		if (axes.length == 0) throw new org.nufftj.InvalidInputException("partial-fourier homodyne: the data is not " +
			"partial Fourier (its sampled k-space is symmetric about k = 0 on every axis: lines " + ranges(g, s) +
			"); use partial-fourier zero");
		if (axes.length > 1) throw new org.nufftj.InvalidInputException("partial-fourier homodyne: the data is " +
			"partial Fourier on " + axes.length + " axes (" + s.describe() + "); homodyne works along one axis only, " +
			"use partial-fourier zero");
		final int a = axes[0], half = s.centre(a);
		if (2 * half + 1 < MIN_CENTRE_LINES) throw new org.nufftj.InvalidInputException("partial-fourier homodyne: " +
			"the symmetric centre of k-space on axis " + a + " has " + Math.max(0, 2 * half + 1) + " lines (sampled " +
			s.lo(a) + ".." + s.hi(a) + " of " + g[a] + "), expected at least " + MIN_CENTRE_LINES + " for the phase " +
			"estimate; use partial-fourier zero");
		final int sign = s.hi(a) > -s.lo(a) ? 1 : -1; // the extended (sampled) side
		long stride = 1;
		for (int i = 0; i < a; i++) stride *= g[i];
		int points = 1;
		for (final int n : g) points *= n;
		final float[] h = new float[points], l = new float[points];
		for (int q = 0; q < points; q++) {
			final int i = (int) ((q / stride) % g[a]), k = sign * (i < g[a] - g[a] / 2 ? i : i - g[a]);
			h[q] = k < -half ? 0f : k > half ? 2f : (float) (1 + k / (half + 1.0));
			final double c = Math.cos(Math.PI * k / (2.0 * (half + 1)));
			l[q] = Math.abs(k) <= half ? (float) (c * c) : 0f;
		}
		return new float[][] { h, l };
	}

	private static String ranges(final int[] g, final Sampling s) {
		final StringBuilder b = new StringBuilder();
		for (int a = 0; a < g.length; a++)
			b.append(a == 0 ? "" : ", ").append("axis ").append(a).append(" ").append(s.lo(a)).append("..")
				.append(s.hi(a)).append(" of ").append(g[a]);
		return b.toString();
	}

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
