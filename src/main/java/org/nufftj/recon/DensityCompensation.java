package org.nufftj.recon;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelType;
import org.nufftj.kernel.Kernels;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.trajectory.Trajectory;

/**
 * Density-compensation weights w_m, one per sample, shared by every coil and frame.
 * <p>
 * <b>Convention.</b> Weights multiply the data <em>once</em>: the gridding reconstruction is x = Fᴴ(w ⊙ y) with F
 * the unscaled NUFFT forward (y_m = Σ_x f(x)e^{−2πi k_m·x}). Ideally w_m is the k-space area (volume in 3D) a sample
 * stands for, in (cycles/pixel)^d, so that Σ_m w_m e^{2πi k_m·x} approximates ∫ e^{2πi k·x} dk = δ(x).
 * </p>
 * <p>
 * <b>Normalisation</b> ({@link #normalise}): whatever the method, weights are finally scaled so that a smooth object
 * is reconstructed at its true value: Σ_m w_m·ĝ(k_m) = g(0) = 1 for the Gaussian g(x) = e^{−π|x|²/s²} of width
 * s = min(N)/8 pixels, whose continuous Fourier transform ĝ(k) = s^d·e^{−π s²|k|²} lies well inside any sampled
 * k-space region. That sum is the centre value of the gridding reconstruction of g from exact samples of ĝ, so the
 * scale is set by the weights' density near the k-space centre, where an object's energy is; for weights that are
 * true areas it is ≈ 1 already (a quadrature of ∫ĝ = 1), so normalising removes only the arbitrary constant of ramp /
 * Pipe–Menon weights. Consequence: a constant object is reconstructed at its true value (tested: a disc).
 * </p>
 * <p>
 * Methods: {@link #ramp} (analytic, radial), {@link #voronoi} (2D cell areas), {@link #pipeMenon} (Pipe &amp; Menon,
 * MRM 41:179 (1999), iterative w ← w / (C Cᵀ w) with C the interpolation by a gridding kernel on an oversampled grid,
 * by default a narrow one, see {@link #pipeMenon(Trajectory, int[], int)}).
 * </p>
 */
public final class DensityCompensation {

	private DensityCompensation() {}

	// -- public API --

	/** Weights for a method, normalised ({@link #normalise}) for an image of {@code size}. */
	public static float[] compute(final DcfMethod method, final Trajectory t, final int[] size, final int iterations)
	{
		final float[] w;
		switch (method) {
			case NONE: w = new float[t.count()]; Arrays.fill(w, 1f); break;
			case RAMP: w = ramp(t); break;
			case VORONOI: w = voronoi(t); break;
			case PIPE_MENON: w = pipeMenon(t, size, iterations); break;
			default: throw new IllegalArgumentException(String.valueOf(method));
		}
		return normalise(w, t, size);
	}

	/**
	 * Radial ramp: area of the ring sector a sample of a centred spoke stands for, ∝ |k| in 2D (|k|² in 3D,
	 * kooshball). Samples closer to the centre than a quarter of the readout spacing Δ take the value at |k| = Δ/4
	 * (2D; Δ/√12 in 3D), which gives the centre disc (ball) of radius Δ/2 its exact share when every spoke passes
	 * through k = 0. Not normalised.
	 */
	public static float[] ramp(final Trajectory t) {
		final int d = t.dimensions();
		final double delta = readoutSpacing(t);
		final double floor = d == 2 ? delta / 4 : delta / Math.sqrt(12);
		final float[] w = new float[t.count()];
		for (int m = 0; m < w.length; m++) {
			double r2 = 0;
			for (int a = 0; a < d; a++) r2 += t.k(m, a) * t.k(m, a);
			final double r = Math.max(Math.sqrt(r2), floor);
			w[m] = (float) (d == 2 ? r : r * r);
		}
		return w;
	}

	/** Oversampling of the Pipe–Menon grid. */
	public static final double PIPE_MENON_SIGMA = 2;
	/** Width (grid cells) of the Pipe–Menon kernel (exponential of semicircle). */
	public static final int PIPE_MENON_WIDTH = 4;

	/**
	 * Pipe–Menon weights with the default gridding: an exponential-of-semicircle kernel of width
	 * {@value #PIPE_MENON_WIDTH} cells on a grid oversampled by {@value #PIPE_MENON_SIGMA}, i.e. a kernel 2/N wide in k.
	 * Narrow on purpose and independent of the NUFFT tolerance: the method over-weights samples within half a kernel
	 * width of the edge of the sampled region, so a narrow kernel keeps that band thin (measured on 4-coil 128²
	 * radial Shepp–Logan, 201 × 256: scaled NRMSE 0.213 with this kernel, as good as the analytic ramp, against 0.254
	 * with a width-7 kernel on a 1.25× grid). Not normalised.
	 */
	public static float[] pipeMenon(final Trajectory t, final int[] size, final int iterations) {
		return pipeMenon(t, pipeMenonParameters(size, Precision.DOUBLE), iterations);
	}

	/**
	 * The gridding of the default Pipe–Menon weights ({@link #pipeMenon(Trajectory, int[], int)}) for images of
	 * {@code size}: kernel, width, grid and σ, in {@code precision} (the host iterates in double; a GPU plan in float,
	 * org.nufftj.recon.gpu.GpuPipeMenon).
	 */
	public static NufftParameters pipeMenonParameters(final int[] size, final Precision precision) {
		final Kernel k = Kernels.create(KernelType.EXP_SEMICIRCLE, PIPE_MENON_WIDTH, PIPE_MENON_SIGMA);
		final int[] grid = ParameterChoice.gridSize(size, PIPE_MENON_SIGMA, PIPE_MENON_WIDTH);
		return new NufftParameters(size, grid, k, PIPE_MENON_SIGMA, 0, 0, precision);
	}

	/**
	 * Pipe–Menon iterative weights: start from w = 1 and repeat w_m ← w_m / Σ_j w_j ψ(k_m − k_j) (spread w onto the
	 * oversampled grid of {@code params} with its kernel ψ, e.g. a plan's, interpolate back, divide), so that the
	 * compensated density convolved with ψ is flat. Not normalised. Known limitation of the method: samples within half a kernel width of the edge of
	 * the sampled region get up to ~2× their area (the kernel overhangs the region there), which adds some truncation
	 * ringing compared with exact areas (ramp / Voronoi).
	 */
	public static float[] pipeMenon(final Trajectory t, final NufftParameters params, final int iterations) {
		InvalidInputException.require(iterations >= 1, "Pipe-Menon: iterations must be >= 1, found " + iterations);
		InvalidInputException.require(params.dimensions() == t.dimensions(), "Pipe-Menon: trajectory is " +
			t.dimensions() + "D but the plan is " + params.dimensions() + "D");
		final Gridder g = new Gridder(t, params);
		final int m = t.count();
		final double[] w = new double[m];
		Arrays.fill(w, 1);
		final double[] grid = new double[g.gridPoints];
		final double[] c = new double[m];
		for (int it = 0; it < iterations; it++) {
			Arrays.fill(grid, 0);
			g.spread(w, grid);
			g.interpolate(grid, c);
			for (int i = 0; i < m; i++) w[i] = c[i] > 0 ? w[i] / c[i] : 0;
		}
		final float[] out = new float[m];
		for (int i = 0; i < m; i++) out[i] = (float) w[i];
		return out;
	}

	/**
	 * Voronoi cell areas in (cycles/pixel)², 2D only. Cells are clipped to the sampled region: the disc of radius
	 * max|k| + Δ/2 (Δ the readout spacing) intersected with the square [−½, ½]². Coincident samples (e.g. the centre
	 * of every radial spoke) share their cell equally.
	 */
	public static float[] voronoi(final Trajectory t) {
		InvalidInputException.require(t.dimensions() == 2, "Voronoi density compensation is 2D only; the trajectory " +
			"is " + t.dimensions() + "D (use pipe-menon or ramp)");
		return Voronoi.areas(t, readoutSpacing(t));
	}

	/**
	 * Scales {@code w} in place so that Σ_m w_m·ĝ(k_m) = 1, ĝ(k) = s^d·e^{−π s²|k|²}, s = min(size)/8 (see the class
	 * comment) and returns it. Fails if the weights are not finite and non-negative or give no gain.
	 */
	public static float[] normalise(final float[] w, final Trajectory t, final int[] size) {
		final float f = normalisation(w, t, size);
		for (int m = 0; m < w.length; m++) w[m] *= f;
		return w;
	}

	/**
	 * The factor f (float) that {@link #normalise} multiplies every weight by: 1 / Σ_m w_m·ĝ(k_m). Fails as normalise
	 * does. A copy of the weights elsewhere (on a GPU) scaled by the same float f holds exactly the normalised weights.
	 */
	public static float normalisation(final float[] w, final Trajectory t, final int[] size) {
		InvalidInputException.require(w.length == t.count(), "density compensation: " + w.length + " weights for " +
			t.count() + " samples");
		InvalidInputException.require(size.length == t.dimensions(), "density compensation: image size " +
			Arrays.toString(size) + " does not match the " + t.dimensions() + "D trajectory");
		int smallest = Integer.MAX_VALUE;
		for (final int n : size) smallest = Math.min(smallest, n);
		final double s = smallest / 8.0, norm = Math.pow(s, t.dimensions());
		double gain = 0;
		for (int m = 0; m < w.length; m++) {
			if (!(w[m] >= 0) || !Float.isFinite(w[m])) throw new InvalidInputException("density compensation: weight " +
				m + " is " + w[m] + ", expected a finite number >= 0");
			double k2 = 0;
			for (int a = 0; a < t.dimensions(); a++) k2 += t.k(m, a) * t.k(m, a);
			gain += w[m] * norm * Math.exp(-Math.PI * s * s * k2);
		}
		InvalidInputException.require(gain > 0, "density compensation: the weights give no gain near the k-space " +
			"centre (" + gain + "); does the trajectory sample it?");
		return (float) (1 / gain);
	}

	// -- helpers --

	/** Median distance between consecutive samples of a readout (ignoring zero steps); 1/count if none. */
	static double readoutSpacing(final Trajectory t) {
		final int d = t.dimensions(), r = t.readout();
		final double[] steps = new double[t.count()];
		int n = 0;
		for (int s = 0; s < t.shots(); s++) {
			for (int i = 1; i < r; i++) {
				final int p = s * r + i;
				double d2 = 0;
				for (int a = 0; a < d; a++) {
					final double dk = t.k(p, a) - t.k(p - 1, a);
					d2 += dk * dk;
				}
				if (d2 > 0) steps[n++] = Math.sqrt(d2);
			}
		}
		if (n == 0) return 1.0 / t.count();
		final double[] s = Arrays.copyOf(steps, n);
		Arrays.sort(s);
		return s[n / 2];
	}

	/** Real-valued spreading / interpolation with the plan's kernel on its oversampled, periodic grid. */
	private static final class Gridder {

		final int d, width, m;
		final int[] grid;
		final int gridPoints;
		final int[] start; // per point and axis: first grid index (may be negative before wrapping)
		final float[] values; // per point, axis, tap
		final int[] offsets; // per point, axis, tap: wrapped grid index times the axis stride

		Gridder(final Trajectory t, final NufftParameters p) {
			d = t.dimensions();
			m = t.count();
			grid = p.gridSize();
			final Kernel kernel = p.kernel();
			width = kernel.width();
			int g = 1;
			for (final int n : grid) g *= n;
			gridPoints = g;
			start = new int[m * d];
			values = new float[m * d * width];
			offsets = new int[m * d * width];
			IntStream.range(0, m).parallel().forEach(i -> {
				for (int a = 0; a < d; a++) {
					final double u = t.k(i, a) * grid[a]; // position in grid cells
					final int i0 = Kernels.stencilStart(u, width);
					start[i * d + a] = i0;
					int stride = 1;
					for (int b = 0; b < a; b++) stride *= grid[b];
					for (int j = 0; j < width; j++) {
						values[(i * d + a) * width + j] = (float) kernel.value(i0 + j - u);
						offsets[(i * d + a) * width + j] = Math.floorMod(i0 + j, grid[a]) * stride;
					}
				}
			});
		}

		private int wrap(final int i, final int n) {
			final int r = i % n;
			return r < 0 ? r + n : r;
		}

		/**
		 * w spread onto {@code out}. Parallel over slabs of the slowest axis: the points are grouped by the slab
		 * their stencil starts in; slabs are ≥ W rows, so a point writes into its own slab and the next only, and an
		 * even slab count lets even slabs, then odd slabs, run concurrently without write conflicts (the last slab,
		 * odd, wraps into slab 0, even).
		 */
		void spread(final double[] w, final double[] out) {
			final int[] order = slabOrder();
			for (int parity = 0; parity < 2; parity++) {
				final int par = parity;
				IntStream.range(0, slabStart.length - 1).filter(sl -> sl % 2 == par).parallel().forEach(sl -> {
					for (int o = slabStart[sl]; o < slabStart[sl + 1]; o++) spreadPoint(order[o], w[order[o]], out);
				});
			}
		}

		private void spreadPoint(final int i, final double wi, final double[] out) {
			if (wi == 0) return;
			final int bx = (i * d) * width, by = (i * d + 1) * width;
			if (d == 2) {
				for (int jy = 0; jy < width; jy++) {
					final int gy = offsets[by + jy];
					final double vy = wi * values[by + jy];
					for (int jx = 0; jx < width; jx++) out[gy + offsets[bx + jx]] += vy * values[bx + jx];
				}
				return;
			}
			final int bz = (i * d + 2) * width;
			for (int jz = 0; jz < width; jz++) {
				final double vz = wi * values[bz + jz];
				for (int jy = 0; jy < width; jy++) {
					final int gy = offsets[bz + jz] + offsets[by + jy];
					final double vyz = vz * values[by + jy];
					for (int jx = 0; jx < width; jx++) out[gy + offsets[bx + jx]] += vyz * values[bx + jx];
				}
			}
		}

		private int[] slabOrderCache;
		private int[] slabStart;

		/** Points sorted by slab of the slowest axis (counting sort), with slab starts; built once. */
		private int[] slabOrder() {
			if (slabOrderCache != null) return slabOrderCache;
			final int n = grid[d - 1];
			final int threads = Runtime.getRuntime().availableProcessors();
			// ~4 slabs per thread and phase, each at least W rows; an even count (the wrap-around pairs last with first).
			int slabs = Math.min(n / width, 8 * threads);
			if (slabs % 2 == 1) slabs--;
			if (slabs < 2) slabs = 1;
			final int rows = n / slabs;
			final int[] slabOf = new int[m];
			final int[] count = new int[slabs + 1];
			for (int i = 0; i < m; i++) {
				slabOf[i] = slabs == 1 ? 0 : Math.min(wrap(start[i * d + d - 1], n) / rows, slabs - 1);
				count[slabOf[i] + 1]++;
			}
			for (int sl = 0; sl < slabs; sl++) count[sl + 1] += count[sl];
			slabStart = count.clone();
			final int[] order = new int[m];
			for (int i = 0; i < m; i++) order[count[slabOf[i]]++] = i;
			// One slab: a single serial pass (filter sl % 2 == 0 runs it once).
			return slabOrderCache = order;
		}

		void interpolate(final double[] in, final double[] out) {
			IntStream.range(0, m).parallel().forEach(i -> out[i] = interpolatePoint(i, in));
		}

		private double interpolatePoint(final int i, final double[] in) {
			final int bx = (i * d) * width, by = (i * d + 1) * width;
			double sum = 0;
			if (d == 2) {
				for (int jy = 0; jy < width; jy++) {
					final int gy = offsets[by + jy];
					double row = 0;
					for (int jx = 0; jx < width; jx++) row += in[gy + offsets[bx + jx]] * values[bx + jx];
					sum += row * values[by + jy];
				}
				return sum;
			}
			final int bz = (i * d + 2) * width;
			for (int jz = 0; jz < width; jz++) {
				double plane = 0;
				for (int jy = 0; jy < width; jy++) {
					final int gy = offsets[bz + jz] + offsets[by + jy];
					double row = 0;
					for (int jx = 0; jx < width; jx++) row += in[gy + offsets[bx + jx]] * values[bx + jx];
					plane += row * values[by + jy];
				}
				sum += plane * values[bz + jz];
			}
			return sum;
		}
	}
}
