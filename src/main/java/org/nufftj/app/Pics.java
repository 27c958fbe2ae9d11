package org.nufftj.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.nufftj.InvalidInputException;
import org.nufftj.io.Cfl;
import org.nufftj.io.TrajectoryFiles;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.NufftOperator;
import org.nufftj.operator.Operators;
import org.nufftj.recon.iterative.Admm;
import org.nufftj.recon.iterative.ConjugateGradient;
import org.nufftj.recon.iterative.Fista;
import org.nufftj.recon.iterative.IterationListener;
import org.nufftj.recon.iterative.L1Penalty;
import org.nufftj.recon.iterative.Penalty;
import org.nufftj.recon.iterative.PenaltySum;
import org.nufftj.recon.iterative.PowerIteration;
import org.nufftj.recon.iterative.SolverResult;
import org.nufftj.recon.iterative.SenseOperator;
import org.nufftj.recon.iterative.ToeplitzNormal;
import org.nufftj.trajectory.Trajectory;

/**
 * Iterative SENSE reconstruction as {@code bart pics} computes it (the subset in docs/cli.md): with A the
 * non-Cartesian SENSE model of BART's NUFFT scaling (A x = [1/√N · F(S_c ⊙ x)]_c), the k-space y is divided by
 * BART's scale σ (below), then from x = 0 (or a warm start / σ) x = argmin ½‖A x − y/σ‖² + R(x) for the given number
 * of iterations: Tikhonov R = (λ/2)‖x‖² by conjugate gradients on (AᴴA + λI) x = Aᴴ(y/σ) ({@code -l2}); l1-wavelet
 * R = λ‖W x‖₁ by FISTA ({@code -l1}, {@code -R W}); isotropic total variation by ADMM with CG inner solves
 * ({@code -R T}; {@code -i} ADMM steps of {@code -C} CG iterations each, or, with {@code bartAdmm}, BART's own
 * ADMM, where {@code -i} bounds the CG iterations of all steps together: {@link Admm#bart}); with {@code rescale} (BART's {@code -S}) the image is multiplied by σ.
 * <p>
 * σ is BART 0.8's {@code estimate_scaling_norm(1, N, a, false)} (src/sense/optcom.c, as the non-Cartesian branch
 * of src/pics.c calls it) on the adjoint image a = Aᴴy: with |a| sorted ascending over the N pixels,
 * median = |a|[N/2], p90 = |a|[⌊0.9·N⌋], max = |a|[N−1]; σ = p90 if max − p90 &lt; 2·(p90 − median), else max
 * (σ = 0 → 1).
 * </p>
 */
public final class Pics {

	/** Which normal operator AᴴA the solver applies. */
	public enum Normal {
		/** Forward NUFFT then adjoint NUFFT, per iteration. */
		NUFFT,
		/** Toeplitz embedding: the PSF on the 2N grid once, then two FFTs of 2N per coil per iteration. */
		TOEPLITZ,
		/**
		 * Exact (Stone et al. 2008): the PSF Q and Aᴴy by direct sums on the backend ({@link Backend#exactPlan}), then
		 * Toeplitz per iteration: no gridding error anywhere, O(samples × 4N) once to build Q.
		 */
		EXACT,
		/**
		 * The faster of NUFFT and TOEPLITZ where it runs: Toeplitz on the CPU (its two 2N-grid FFTs per coil cost less
		 * there than a NUFFT pair's spreading, interpolation and FFTs: 0.44–0.47× bart pics' time against 0.52–0.53× on
		 * issue 8's workload, docs/benchmarks.md), NUFFT on a GPU (where the Toeplitz setup costs more than it saves over
		 * 30 iterations, docs/benchmarks.md) and with weights that differ between coils or frames (which Toeplitz
		 * cannot take).
		 */
		AUTO;

		/** auto, nufft, toeplitz or exact, case-insensitive. */
		public static Normal parse(final String s) {
			for (final Normal n : values()) if (n.name().equalsIgnoreCase(s)) return n;
			throw new InvalidInputException("normal: unknown value '" + s + "', expected auto, nufft, toeplitz or exact");
		}

		/** This one, or for AUTO the one it picks on {@code backend} ({@code varies}: per-coil or per-frame weights). */
		Normal on(final Backend backend, final boolean varies) {
			if (this != AUTO) return this;
			return varies || backend.device() != DeviceChoice.CPU ? NUFFT : TOEPLITZ;
		}
	}

	/** The solve's settings (validated). */
	public static final class Settings {

		final Regularization regularization;
		final int iterations;
		final boolean rescale;
		final Normal normal;
		final NufftOptions nufft;
		final double step, rho, tolerance;
		final boolean eigen, admm, bartAdmm;
		final int cgIterations;

		/**
		 * Tikhonov λ‖x‖² by conjugate gradients (BART's {@code -l2 -r λ}).
		 *
		 * @param lambda     λ ≥ 0
		 * @param iterations ≥ 1
		 * @param rescale    BART's -S: multiply the image by σ at the end
		 * @param normal     the normal operator
		 * @param nufft      NUFFT options (device, precision, ε)
		 */
		public Settings(final double lambda, final int iterations, final boolean rescale, final Normal normal,
			final NufftOptions nufft)
		{
			this(Regularization.tikhonov(check(lambda)), iterations, rescale, normal, nufft, 0.95, false, 0.5, 10,
				false, 0);
		}

		/**
		 * @param regularization the term (Tikhonov: CG; l1-wavelet: FISTA; total variation: ADMM)
		 * @param iterations     ≥ 1 (CG, FISTA or ADMM outer iterations)
		 * @param rescale        BART's -S
		 * @param normal         the normal operator
		 * @param nufft          NUFFT options
		 * @param step           FISTA's step (BART's -s, default 0.95), > 0
		 * @param eigen          divide the step by the largest eigenvalue of AᴴA (BART's -e)
		 * @param rho            ADMM's ρ (BART's -u, default 0.5), > 0
		 * @param cgIterations   CG iterations per ADMM step (BART's -C, default 10), ≥ 1
		 * @param admm           ADMM for the l1-wavelet too (BART's -m)
		 * @param tolerance      stop early at this residual (0: run every iteration)
		 */
		public Settings(final Regularization regularization, final int iterations, final boolean rescale,
			final Normal normal, final NufftOptions nufft, final double step, final boolean eigen, final double rho,
			final int cgIterations, final boolean admm, final double tolerance)
		{
			this(regularization, iterations, rescale, normal, nufft, step, eigen, rho, cgIterations, admm, tolerance,
				false);
		}

		/**
		 * As above; {@code bartAdmm}: ADMM exactly as BART 0.8 runs it ({@link Admm#bart}: {@code iterations} then
		 * bounds the CG iterations of all steps together, each CG stops at 10⁻³ of its right-hand side) instead of
		 * {@code iterations} ADMM steps of {@code cgIterations} CG iterations each.
		 */
		public Settings(final Regularization regularization, final int iterations, final boolean rescale,
			final Normal normal, final NufftOptions nufft, final double step, final boolean eigen, final double rho,
			final int cgIterations, final boolean admm, final double tolerance, final boolean bartAdmm)
		{
			InvalidInputException.require(iterations >= 1, "-i (iterations): expected >= 1, found " + iterations);
			InvalidInputException.require(step > 0 && Double.isFinite(step), "-s (step): expected a finite number > 0, " +
				"found " + step);
			InvalidInputException.require(rho > 0 && Double.isFinite(rho), "-u (rho): expected a finite number > 0, " +
				"found " + rho);
			InvalidInputException.require(cgIterations >= 1, "-C (CG iterations): expected >= 1, found " +
				cgIterations);
			InvalidInputException.require(tolerance >= 0 && Double.isFinite(tolerance), "tolerance: expected a finite " +
				"number >= 0, found " + tolerance);
			this.regularization = regularization;
			this.iterations = iterations;
			this.rescale = rescale;
			this.normal = normal;
			this.nufft = nufft;
			this.step = step;
			this.eigen = eigen;
			this.rho = rho;
			this.cgIterations = cgIterations;
			this.admm = admm;
			this.bartAdmm = bartAdmm;
			this.tolerance = tolerance;
		}

		public Regularization regularization() { return regularization; }

		public int iterations() { return iterations; }

		private static double check(final double lambda) {
			InvalidInputException.require(lambda >= 0 && Double.isFinite(lambda), "-r (lambda): expected a finite " +
				"number >= 0, found " + lambda);
			return lambda;
		}
	}

	/** An image and what ran. */
	public static final class Result {

		private final float[] image;
		private final double scale;
		private final SolverResult solve;
		private final String description;

		Result(final float[] image, final double scale, final SolverResult solve, final String description) {
			this.image = image;
			this.scale = scale;
			this.solve = solve;
			this.description = description;
		}

		/** The image [pixels] complex interleaved. */
		public float[] image() { return image; }

		/** BART's σ the k-space was divided by. */
		public double scale() { return scale; }

		public SolverResult solve() { return solve; }

		public String description() { return description; }
	}

	private Pics() {}

	// -- public API --

	/**
	 * Reconstructs one image of {@code size} from k-space [coil][point] of {@code coils} coils on the trajectory
	 * {@code t}, with coil maps [coil][pixel]. {@code start} (may be null) is a warm start in the image's scale (as
	 * BART's -W: divided by σ before the solve). {@code listener} (may be null) sees every iteration.
	 */
	public static Result reconstruct(final Session session, final Trajectory t, final int[] size, final float[] kspace,
		final float[] maps, final int coils, final Settings s, final float[] start, final IterationListener listener)
	{
		return reconstruct(session, t, size, kspace, maps, coils, 1, s, start, null, listener);
	}

	/**
	 * As above with BART's {@code -p} sample weights ({@link PicsWeights}; null for none) and {@code frames} frames
	 * reconstructed jointly as {@code bart pics} does with a trajectory (one σ from the adjoint image of all frames, one
	 * solve of the block-diagonal system; only a regulariser over time couples the frames): k-space
	 * [frame][coil][point], the same trajectory and maps for every frame, image and warm start [frame][pixel]. The
	 * k-space is multiplied by p and the forward model by P (weights the same for every coil and frame through the
	 * SENSE operator's W = p², so the Toeplitz normal operator takes them too; else as a diagonal after the forward
	 * model, forward-then-adjoint normal operator only).
	 */
	public static Result reconstruct(final Session session, final Trajectory t, final int[] size, final float[] kspace,
		final float[] maps, final int coils, final int frames, final Settings s, final float[] start,
		final PicsWeights weights, final IterationListener listener)
	{
		return reconstruct(session, List.of(t), size, kspace, maps, coils, frames, s, start, weights, listener);
	}

	/**
	 * As above with a trajectory per frame ({@code trajectories}: one, shared, or one per frame, each with the same
	 * number of points — real-time radial with new golden-angle spokes in every frame) and maps per frame ({@code maps}:
	 * [coil][pixel] shared, or [frame][coil][pixel]). Each frame with its own trajectory or maps gets its own SENSE
	 * operator (its own plan, and its own point-spread function for the Toeplitz and exact normal operators), and the
	 * joint operator is their block diagonal; frames that share a trajectory share its plan and point-spread function.
	 */
	public static Result reconstruct(final Session session, final List<Trajectory> trajectories, final int[] size,
		final float[] kspace, final float[] maps, final int coils, final int frames, final Settings s,
		final float[] start, final PicsWeights weights, final IterationListener listener)
	{
		long px1 = 1;
		for (final int n : size) px1 *= n;
		final long px = px1 * frames;
		final int sets = trajectories.size();
		InvalidInputException.require(sets == 1 || sets == frames, "pics: " + sets + " trajectories for " + frames +
			" frames, expected one (shared by every frame) or one per frame");
		final Trajectory t = trajectories.get(0);
		for (int f = 1; f < sets; f++) {
			InvalidInputException.require(trajectories.get(f).count() == t.count(), "pics: the trajectory of frame " + f +
				" has " + trajectories.get(f).count() + " points, frame 0's " + t.count() + " (every frame holds the " +
				"same number of samples)");
		}
		final boolean mapsPerFrame = frames > 1 && maps.length == 2 * px1 * coils * frames;
		InvalidInputException.require(mapsPerFrame || maps.length == 2 * px1 * coils, "maps: " + maps.length / 2 +
			" values, expected " + coils + " coils x " + px1 + " pixels of " + Options.describeMatrix(size) + (frames > 1
				? " (one set for every frame), or " + frames + " frames x " + coils + " coils x " + px1 + " pixels" : ""));
		InvalidInputException.require(kspace.length == 2L * t.count() * coils * frames, "kspace: " + kspace.length / 2 +
			" samples, expected " + (frames > 1 ? frames + " frames x " : "") + coils + " coils x " + t.count() +
			" trajectory points");
		InvalidInputException.require(start == null || start.length == 2 * px, "warm start: " + (start == null ? 0 :
			start.length / 2) + " pixels, expected " + px + " of " + (frames > 1 ? frames + " frames of " : "") + Options
				.describeMatrix(size));
		final boolean varies = weights != null && weights.varies();
		InvalidInputException.require(!varies || s.normal == Normal.NUFFT || s.normal == Normal.AUTO, "-p: weights " +
			"that differ between coils or frames need --normal nufft or auto (the Toeplitz normal operator takes one " +
			"weight per sample for every coil)");
		final float[] w2 = weights == null || varies ? null : weights.squared();
		final Backend backend = session.backend(s.nufft);
		final Normal chosen = s.normal.on(backend, varies);
		final Precision p = s.nufft.precision();
		final Regularization reg = s.regularization;
		final double scale = NufftOperator.bartScale(size);
		final int blocks = sets > 1 || mapsPerFrame ? frames : 1;
		final long t0 = System.nanoTime();
		final ArrayList<AutoCloseable> open = new ArrayList<>();
		Throwable failure = null;
		try {
			final Buffer bmaps = keep(open, upload(backend, maps, p));
			final Buffer y = keep(open, upload(backend, weights == null ? kspace : weights.weigh(kspace), p));
			final Buffer b = keep(open, backend.allocate(2 * px, p));
			final Buffer x = keep(open, start == null ? backend.allocate(2 * px, p) : upload(backend, start, p));
			final Buffer bw = varies ? keep(open, upload(backend, weights.values(), p)) : null;
			// Per distinct trajectory: its plan and (Toeplitz, exact) point-spread function; per block: its SENSE operator.
			final NufftPlan[] plans = new NufftPlan[sets];
			final ToeplitzNormal[] psfs = new ToeplitzNormal[sets];
			for (int i = 0; i < sets; i++) {
				final Trajectory ti = trajectories.get(i);
				plans[i] = keep(open, chosen == Normal.EXACT ? backend.exactPlan(size, p) : backend.plan(size,
					s.nufft.withPointCount(ti.count())));
				plans[i].setPoints(ti);
				// The point-spread function from the same plan (exact: its direct sums): no second plan or sort.
				psfs[i] = chosen == Normal.TOEPLITZ || chosen == Normal.EXACT ? keep(open, ToeplitzNormal.onPlan(backend,
					plans[i], ti, size, scale, w2, coils)) : null;
			}
			final List<LinearOperator> senses = new ArrayList<>(), normals = new ArrayList<>();
			for (int i = 0; i < blocks; i++) {
				final int set = sets == 1 ? 0 : i;
				final long mapLength = 2 * px1 * coils;
				final SenseOperator sense = keep(open, new SenseOperator(backend, plans[set], mapsPerFrame ? bmaps.slice(i *
					mapLength, mapLength) : bmaps, coils, scale, w2));
				senses.add(sense);
				if (!varies) normals.add(keep(open, psfs[set] != null ? sense.normal(psfs[set]) : sense.normal()));
			}
			final LinearOperator joint = keep(open, overFrames(senses, frames));
			final LinearOperator pw = varies ? keep(open, Operators.realDiagonal(bw, y.length())) : null;
			final LinearOperator a = keep(open, varies ? Operators.chain(joint, pw) : Operators.chain(joint));
			final LinearOperator normal = keep(open, varies ? a.normal() : overFrames(normals, frames));
			final NufftPlan plan = plans[0];
			a.applyAdjoint(y, b);
			final double sigma = bartScale(read(backend, b));
			backend.scale(b, 1 / sigma);
			if (start != null) backend.scale(x, 1 / sigma);
			final double yNorm = backend.norm(y) / sigma;
			final long t1 = System.nanoTime();
			final SolverResult r;
			String extra = "";
			if (reg.kind() == Regularization.Kind.TIKHONOV) {
				try (ConjugateGradient cg = new ConjugateGradient(normal, reg.lambda(), s.iterations, s.tolerance)) {
					final ConjugateGradient.Result c = cg.solve(b, x, listener == null ? null : (k, rel) -> listener
						.iteration(k, rel, Double.NaN));
					r = new SolverResult("CG", c.iterations(), c.relativeResidual(), c.converged());
				}
			}
			else {
				final double tikhonov = reg.tikhonovLambda();
				try (Penalty penalty = penalty(backend, p, size, frames, reg); LinearOperator id = tikhonov > 0 ?
					Operators.identity(backend, p, 2 * px) : null; LinearOperator scaled = id != null ? Operators.scale(id,
						tikhonov) : null; LinearOperator withL2 = id != null ? Operators.sum(normal, scaled) : null)
				{
					if (reg.kind() == Regularization.Kind.L1_WAVELET && !s.admm) {
						double step = s.step;
						if (s.eigen) {
							final double eig = PowerIteration.largestEigenvalue(normal, 30, 1);
							step /= eig;
							extra = String.format(Locale.ROOT, "; max eigenvalue %.6g", eig);
						}
						try (Fista f = new Fista(normal, (L1Penalty) penalty, step, s.iterations, s.tolerance, false)) {
							r = f.solve(b, x, yNorm * yNorm, listener);
						}
					}
					else {
						final LinearOperator n = withL2 != null ? withL2 : normal; // Tikhonov terms of a sum: N + λI
						try (Admm admm = s.bartAdmm ? Admm.bart(n, penalty, s.rho, s.iterations, s.cgIterations,
							s.tolerance) : new Admm(n, penalty, s.rho, s.iterations, s.cgIterations, s.tolerance))
						{
							r = admm.solve(b, x, yNorm * yNorm, listener);
						}
						extra = s.bartAdmm ? String.format(Locale.ROOT, "; rho %g, at most %d CG iterations per step " +
							"and %d in all (bart's ADMM), over-relaxation 1.6", s.rho, s.cgIterations, s.iterations) :
							String.format(Locale.ROOT, "; rho %g, %d CG iterations per step", s.rho, s.cgIterations);
					}
				}
			}
			if (weights != null) extra += "; " + weights;
			if (s.rescale) backend.scale(x, sigma);
			final float[] image = read(backend, x);
			final long t2 = System.nanoTime();
			return new Result(image, sigma, r, String.format(Locale.ROOT, "pics %s, %s normal operator, %s: " +
				"%s; scale %.6g%s; setup %.0f ms, solve %.0f ms (%.1f ms per iteration); plan %s", backend.name(),
				chosen.name().toLowerCase(Locale.ROOT), reg, r, sigma, extra, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
				(t2 - t1) / 1e6 / Math.max(1, r.iterations()), plan.parameters()));
		}
		catch (final RuntimeException | Error e) {
			failure = e;
			throw e;
		}
		finally {
			closeAll(open, failure);
		}
	}

	/**
	 * The operator of {@code frames} frames from one operator per frame ({@code ops} has {@code frames} entries) or one
	 * shared by all ({@code ops} has one): that operator itself (as its own chain) for one frame, else the block
	 * diagonal.
	 */
	private static LinearOperator overFrames(final List<LinearOperator> ops, final int frames) {
		if (frames == 1) return Operators.chain(ops.get(0));
		return ops.size() == 1 ? Operators.blockDiagonal(ops.get(0), frames) : Operators.blockDiagonal(ops);
	}

	/** Adds {@code c} to the resources closed at the end (in reverse order); returns it. */
	private static <T extends AutoCloseable> T keep(final List<AutoCloseable> open, final T c) {
		open.add(c);
		return c;
	}

	/**
	 * Closes the resources in reverse order. A failure to close is added to {@code failure} (the one in flight) when
	 * there is one, else the first is thrown after all are closed.
	 */
	private static void closeAll(final List<AutoCloseable> open, final Throwable failure) {
		RuntimeException first = null;
		for (int i = open.size() - 1; i >= 0; i--) {
			try {
				open.get(i).close();
			}
			catch (final Exception e) {
				if (failure != null) failure.addSuppressed(e);
				else if (first == null) first = e instanceof RuntimeException ? (RuntimeException) e
					: new IllegalStateException(e);
			}
		}
		if (first != null) throw first;
	}

	/**
	 * The ADMM/FISTA penalty of an l1 term or of a {@link Regularization.Kind#SUM} (its l1-wavelet and total-variation
	 * terms, stacked; its Tikhonov terms go to the normal operator) on {@code frames} images of {@code size} (isotropic
	 * total variation).
	 */
	private static Penalty penalty(final Backend backend, final Precision p, final int[] size, final int frames,
		final Regularization reg)
	{
		final List<Penalty> parts = new ArrayList<>();
		try {
			for (final Regularization t : reg.terms()) {
				if (t.kind() == Regularization.Kind.L1_WAVELET) parts.add(L1Penalty.wavelet(backend, p, size, frames, t
					.flags(), t.lambda()));
				else if (t.kind() == Regularization.Kind.TOTAL_VARIATION) parts.add(L1Penalty.totalVariation(backend, p,
					size, frames, t.flags(), t.lambda(), true));
			}
			return parts.size() == 1 ? parts.get(0) : new PenaltySum(parts.toArray(new Penalty[0]));
		}
		catch (final RuntimeException e) {
			for (final Penalty q : parts) q.close();
			throw e;
		}
	}

	/**
	 * {@code bart pics} on files: k-space [1, readout, shots, coils, 1, frames…] (frames in any of dims 5–15, e.g.
	 * TIME_DIM 10; reconstructed jointly as bart does), maps [X, Y, Z, coils] (shared by the frames) or
	 * [X, Y, Z, coils, 1, frames…] (one set per frame), trajectory [3, readout, shots] in cycles/FOV (shared) or
	 * [3, readout, shots, 1, 1, frames…] (one per frame) → image [X, Y, Z, 1, 1, frames…].
	 */
	public static Result run(final Session session, final Path kspace, final Path maps, final Path traj,
		final Path output, final Settings s, final Path warmStart, final IterationListener listener) throws IOException
	{
		return run(session, kspace, maps, traj, null, output, s, warmStart, listener);
	}

	/** As above with BART's {@code -p} sample weights from {@code weights} (null for none; {@link PicsWeights}). */
	public static Result run(final Session session, final Path kspace, final Path maps, final Path traj,
		final Path weights, final Path output, final Settings s, final Path warmStart, final IterationListener listener)
		throws IOException
	{
		final Cfl.Array m = Cfl.read(maps), k = Cfl.read(kspace);
		final long[] md = m.dims(), kd = k.dims();
		long frames = 1;
		for (int d = 5; d < Cfl.DIMS; d++) frames *= kd[d];
		final boolean mapsPerFrame = frames > 1 && sameFrameDims(md, kd);
		for (int d = 4; d < Cfl.DIMS && !mapsPerFrame; d++) {
			InvalidInputException.require(md[d] == 1, maps + ": dims " + Arrays.toString(md) + ": expected one set of " +
				"maps for every frame (dimensions 4-15 of 1) or one per frame (dimension 4 of 1, dimensions 5-15 as the " +
				"k-space's " + Arrays.toString(kd) + "); dimension " + d + " is " + md[d]);
		}
		InvalidInputException.require(md[4] == 1, maps + ": dims " + Arrays.toString(md) + ": dimension 4 (sets of " +
			"maps) must be 1");
		InvalidInputException.require(kd[4] == 1, kspace + ": dims " + Arrays.toString(kd) + ": dimension 4 (maps) " +
			"must be 1, as bart requires");
		InvalidInputException.require((s.regularization.flags() & TIME_FLAG) == 0 || frames == kd[TIME_DIM],
			kspace + ": dims " + Arrays.toString(kd) + ": total variation over time (flag 1024) needs every frame in " +
				"dimension " + TIME_DIM + " (found " + frames + " frames, " + kd[TIME_DIM] + " in dimension " + TIME_DIM +
				")");
		InvalidInputException.require(kd[0] == 1, kspace + ": expected dims [1, readout, shots, coils], found " + Arrays
			.toString(kd));
		InvalidInputException.require(kd[3] == md[3], "maps: " + md[3] + " coils but k-space has " + kd[3] + " (maps " +
			maps + " dims " + Arrays.toString(md) + ")");
		final int[] size = md[2] > 1 ? new int[] { (int) md[0], (int) md[1], (int) md[2] } : new int[] { (int) md[0],
			(int) md[1] };
		final List<Trajectory> trajectories = trajectories(traj, size, kd, frames);
		float[] start = null;
		if (warmStart != null) {
			final Cfl.Array w = Cfl.read(warmStart);
			long wpx = 1;
			for (final long d : w.dims()) wpx *= d;
			InvalidInputException.require(wpx == md[0] * md[1] * md[2] * frames, warmStart + ": dims " + Arrays
				.toString(w.dims()) + ", expected an image of " + md[0] + " x " + md[1] + " x " + md[2] + (frames > 1 ?
					" x " + frames + " frames" : ""));
			start = w.data();
		}
		final PicsWeights p = weights == null ? null : PicsWeights.read(weights, kd);
		final Result r = reconstruct(session, trajectories, size, k.data(), m.data(), (int) kd[3], (int) frames, s, start,
			p, listener);
		final long[] out = kd.clone(); // bart's image dims: the maps' X, Y, Z, then the k-space's frame dims
		out[3] = 1;
		for (int a = 0; a < 3; a++) out[a] = md[a];
		Cfl.write(output, out, r.image());
		return r;
	}

	/**
	 * The trajectory file's points for k-space of dims {@code kd}: one trajectory [3, readout, shots] shared by the
	 * frames, or one per frame when its dimensions 5–15 are the k-space's ([3, readout, shots, 1, 1, frames…], e.g.
	 * golden-angle spokes that continue from frame to frame).
	 */
	private static List<Trajectory> trajectories(final Path traj, final int[] size, final long[] kd, final long frames)
		throws IOException
	{
		final long[] td = Cfl.readDims(traj);
		final boolean perFrame = frames > 1 && td[3] == 1 && td[4] == 1 && sameFrameDims(td, kd);
		final Trajectory t = TrajectoryFiles.readCfl(traj, size);
		final long points = kd[1] * kd[2];
		if (!perFrame) {
			InvalidInputException.require(t.count() == points, "traj: " + t.count() + " points but k-space has " + kd[1] +
				" x " + kd[2] + (frames > 1 ? " per frame (traj dims " + Arrays.toString(td) + ": one [3, readout, shots] " +
					"for every frame, or [3, readout, shots, 1, 1, …] with dimensions 5-15 as the k-space's " + Arrays
						.toString(kd) + ")" : ""));
			return List.of(t);
		}
		InvalidInputException.require(t.count() == points * frames, "traj: " + t.count() + " points for " + frames +
			" frames but k-space has " + kd[1] + " x " + kd[2] + " per frame");
		final List<Trajectory> out = new ArrayList<>();
		final int[] index = new int[(int) points];
		for (int f = 0; f < frames; f++) {
			for (int i = 0; i < points; i++) index[i] = (int) (f * points + i);
			out.add(t.select(index, t.name() + " frame " + f).reshape((int) kd[1], (int) kd[2]));
		}
		return out;
	}

	/** True when dimensions 5–15 of {@code a} are those of {@code b}. */
	private static boolean sameFrameDims(final long[] a, final long[] b) {
		for (int d = 5; d < Cfl.DIMS; d++) if (a[d] != b[d]) return false;
		return true;
	}

	/** BART's TIME_DIM and its flag (src/misc/mri.h): the -R T flag bit of total variation over frames. */
	static final int TIME_DIM = 10, TIME_FLAG = 1 << TIME_DIM;

	/** BART 0.8's estimate_scaling_norm(1, N, a, false) on an image a (complex interleaved); 1 when it is 0. */
	public static double bartScale(final float[] image) {
		final int n = image.length / 2;
		final float[] mag = new float[n];
		for (int i = 0; i < n; i++) mag[i] = (float) Math.hypot(image[2 * i], image[2 * i + 1]);
		Arrays.sort(mag);
		final double median = mag[n / 2], p90 = mag[(int) (n * 0.9)], max = mag[n - 1];
		final double s = max - p90 < 2 * (p90 - median) ? p90 : max;
		return s == 0 ? 1 : s;
	}

	// -- helpers --

	private static Buffer upload(final Backend b, final float[] v, final Precision p) {
		if (p == Precision.FLOAT) return b.wrap(v.clone());
		final double[] d = new double[v.length];
		for (int i = 0; i < v.length; i++) d[i] = v[i];
		return b.wrap(d);
	}

	private static float[] read(final Backend b, final Buffer x) {
		final float[] f = new float[(int) x.length()];
		if (x.precision() == Precision.FLOAT) b.read(x, f, 0);
		else {
			final double[] d = new double[f.length];
			b.read(x, d, 0);
			for (int i = 0; i < f.length; i++) f[i] = (float) d[i];
		}
		return f;
	}
}
