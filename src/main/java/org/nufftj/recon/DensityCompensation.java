package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelType;
import org.nufftj.kernel.Kernels;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.cpu.CpuBackend;
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
 * by default a narrow one, see {@link #pipeMenon(Backend, Trajectory, int[], int, NufftOptions)}). Pipe–Menon runs on
 * a {@link Backend} (the same code on every device: its plan's stage API and vector operations); ramp and Voronoi are
 * host computations.
 * </p>
 */
public final class DensityCompensation {

	private DensityCompensation() {}

	// -- public API --

	/**
	 * Weights for a method, normalised ({@link #normalise}) for an image of {@code size}; Pipe–Menon runs on
	 * {@code backend} with the precision and spreading method of {@code nufft} (see
	 * {@link #pipeMenon(Backend, Trajectory, int[], int, NufftOptions)}), the other methods on the host.
	 */
	public static float[] compute(final Backend backend, final DcfMethod method, final Trajectory t, final int[] size,
		final int iterations, final NufftOptions nufft)
	{
		final float[] w;
		switch (method) {
			case NONE: w = new float[t.count()]; Arrays.fill(w, 1f); break;
			case RAMP:
				requireSpokes(t, size);
				w = ramp(t);
				break;
			case VORONOI: w = voronoi(t); break;
			case PIPE_MENON: w = pipeMenon(backend, t, size, iterations, nufft); break;
			default: throw new IllegalArgumentException(String.valueOf(method));
		}
		return normalise(w, t, size);
	}

	/**
	 * As {@link #compute(Backend, DcfMethod, Trajectory, int[], int, NufftOptions)} on a CPU backend of its own (every
	 * core), Pipe–Menon in double: for callers with no backend open (trajectory display, tests).
	 */
	public static float[] compute(final DcfMethod method, final Trajectory t, final int[] size, final int iterations) {
		if (method != DcfMethod.PIPE_MENON) return compute(null, method, t, size, iterations, null);
		try (CpuBackend cpu = new CpuBackend(0)) {
			return compute(cpu, method, t, size, iterations, NufftOptions.defaults().withPrecision(Precision.DOUBLE));
		}
	}

	/**
	 * The ramp is the density of radial spokes only: refuses a trajectory any of whose readouts is not a straight line
	 * through k = 0 (in 3D, or in the kx–ky plane at a constant kz: stack of stars), by more than one k-space cell of
	 * the image. On spiral and Cartesian data it once gave NRMSE 0.94 and 2.3 without a word (issue 11).
	 */
	static void requireSpokes(final Trajectory t, final int[] size) {
		final int d = t.dimensions(), readout = t.readout();
		int largest = 1;
		for (final int s : size) largest = Math.max(largest, s);
		final double tol = 1.0 / largest;
		for (int s = 0; s < t.shots(); s++) {
			final int first = s * readout;
			// The readout's direction: its point farthest from the centre (in-plane when kz is constant along it).
			boolean flatKz = d == 3;
			for (int r = 1; r < readout && flatKz; r++) flatKz = t.k(first + r, 2) == t.k(first, 2);
			final int axes = flatKz ? 2 : d;
			int far = first;
			double farR = -1;
			for (int r = 0; r < readout; r++) {
				double r2 = 0;
				for (int a = 0; a < axes; a++) r2 += t.k(first + r, a) * t.k(first + r, a);
				if (r2 > farR) {
					farR = r2;
					far = first + r;
				}
			}
			if (farR <= 0) continue;
			final double len = Math.sqrt(farR);
			for (int r = 0; r < readout; r++) {
				// Distance of the point from the line through 0 along the direction u: |k − (k·u)u|.
				double dot = 0, k2 = 0;
				for (int a = 0; a < axes; a++) {
					dot += t.k(first + r, a) * t.k(far, a) / len;
					k2 += t.k(first + r, a) * t.k(first + r, a);
				}
				final double off = Math.sqrt(Math.max(0, k2 - dot * dot));
				if (off > tol) throw new InvalidInputException("density compensation ramp: readout " + s + " of " + t
					.name() + " is not a spoke through k = 0 (its point " + r + " lies " + String.format(java.util.Locale.ROOT,
						"%.3g", off * largest) + " k-space cells off the line); the ramp fits radial trajectories only: use " +
					"pipe-menon or voronoi (dcf auto chooses one)");
			}
		}
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
		try (CpuBackend cpu = new CpuBackend(0)) {
			return pipeMenon(cpu, t, size, iterations, NufftOptions.defaults().withPrecision(Precision.DOUBLE));
		}
	}

	/**
	 * The gridding of the default Pipe–Menon weights ({@link #pipeMenon(Trajectory, int[], int)}) for images of
	 * {@code size}: kernel, width, grid and σ, in {@code precision}. {@link #pipeMenonOptions} asks a backend for a plan
	 * with exactly these.
	 */
	public static NufftParameters pipeMenonParameters(final int[] size, final Precision precision) {
		final Kernel k = Kernels.create(KernelType.EXP_SEMICIRCLE, PIPE_MENON_WIDTH, PIPE_MENON_SIGMA);
		final int[] grid = ParameterChoice.gridSize(size, PIPE_MENON_SIGMA, PIPE_MENON_WIDTH);
		return new NufftParameters(size, grid, k, PIPE_MENON_SIGMA, 0, 0, precision);
	}

	/**
	 * Options that make a backend's plan grid with {@link #pipeMenonParameters} (exponential of semicircle, W =
	 * {@value #PIPE_MENON_WIDTH}, σ = {@value #PIPE_MENON_SIGMA}), keeping {@code nufft}'s precision, spreading method
	 * and kernel evaluation.
	 */
	public static NufftOptions pipeMenonOptions(final NufftOptions nufft) {
		return nufft.withKernel(KernelType.EXP_SEMICIRCLE).withWidth(PIPE_MENON_WIDTH).withOversampling(
			PIPE_MENON_SIGMA);
	}

	/**
	 * Pipe–Menon iterative weights (Pipe &amp; Menon, MRM 41:179 (1999)) on {@code backend}: start from w = 1 and
	 * repeat w_m ← w_m / (C Cᵀ w)_m, with Cᵀ the spreading of the samples onto the oversampled periodic grid,
	 * g[l] = Σ_j w_j ψ(l − t_j), and C the interpolation back, (C g)_m = Σ_l g[l] ψ(l − t_m) (so
	 * (C Cᵀ w)_m = Σ_j w_j Σ_l ψ(l − t_m) ψ(l − t_j)), so that the compensated density convolved with ψ is flat. Where
	 * (C Cᵀ w)_m = 0 the weight is 0. The gridding is {@link #pipeMenonParameters} (a plan of {@code backend} made with
	 * {@link #pipeMenonOptions}{@code (nufft)}), in {@code nufft}'s precision; the weights are complex (im = 0) buffers
	 * on the backend between iterations, read back once. Not normalised.
	 * <p>
	 * Known limitation of the method: samples within half a kernel width of the edge of the sampled region get up to
	 * ~2× their area (the kernel overhangs the region there), which adds some truncation ringing compared with exact
	 * areas (ramp / Voronoi).
	 * </p>
	 */
	public static float[] pipeMenon(final Backend backend, final Trajectory t, final int[] size, final int iterations,
		final NufftOptions nufft)
	{
		InvalidInputException.require(iterations >= 1, "Pipe-Menon: iterations must be >= 1, found " + iterations);
		InvalidInputException.require(size.length == t.dimensions(), "Pipe-Menon: trajectory is " + t.dimensions() +
			"D but the image size " + Arrays.toString(size) + " has " + size.length + " axes");
		final Precision p = nufft.precision();
		final int m = t.count();
		try (NufftPlan plan = backend.plan(size, pipeMenonOptions(nufft))) {
			plan.setPoints(t);
			try (Buffer w = backend.allocate(2L * m, p); Buffer c = backend.allocate(2L * m, p);
				Buffer grid = backend.allocate(2 * plan.parameters().gridPoints(), p);
				Buffer real = backend.allocate(m, p))
			{
				backend.fill(w, 1, 0);
				for (int it = 0; it < iterations; it++) {
					plan.spread(w, grid);
					plan.interpolate(grid, c);
					backend.divide(w, c, w);
				}
				backend.complexToReal(w, real);
				final float[] out = new float[m];
				if (p == Precision.FLOAT) backend.read(real, out, 0);
				else {
					final double[] d = new double[m];
					backend.read(real, d, 0);
					for (int i = 0; i < m; i++) out[i] = (float) d[i];
				}
				return out;
			}
		}
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
}
