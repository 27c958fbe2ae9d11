package org.nufftj.nufft.cpu;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.Kernels;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.StageTimes;
import org.nufftj.trajectory.Trajectory;

/**
 * The CPU gridding engine: pure Java, multithreaded, double arithmetic inside (float plans differ only in the
 * tolerance they accept and in their input/output arrays).
 * <p>
 * forward: deapodize + zero-pad into the σN grid (centred pixel x ↦ grid index x mod n) → FFT (e^{−}) → interpolate
 * with ψ at each sample. adjoint: spread each sample with ψ → FFT (e^{+}, unnormalised) → crop + deapodize. The two are
 * exact transposes of each other (same kernel weights, same deapodization, conjugate FFTs). Transforms of a batch share
 * the kernel weights of each sample, computed once per sample per call. Spreading runs on private subgrids, one per
 * bin of points ({@link Subgrids}); interpolation reads the grid in the points' bin-sorted order ({@link PointOrder}).
 * </p>
 * <p>
 * Stage API on buffers of the plan's {@link CpuBackend} (in the plan's precision): {@link #spread} and
 * {@link #interpolate} are the adjoint's first and the forward's last stage alone, on grids [T][grid points]
 * complex, x fastest; the engine's own grids hold the batch innermost, so those grids are transposed on the way in
 * or out (a copy of the grid per call). Iterative callers spread and interpolate the same points many times (Pipe–Menon:
 * 20 × 2): the first stage call keeps every point's tap weights and cells (when they fit {@link #TAP_CACHE_TAPS}),
 * so later stage calls skip the kernel evaluations (the numbers agree to rounding either way; the forward and the
 * adjoint keep to their own loops, so their numbers do not depend on the cache).
 * </p>
 */
public final class CpuNufftPlan implements NufftPlan {

	/** Most taps (points × W^d) the tap cache holds: 4M taps = 48 MB (e.g. 205,824 points × 16 in 2D, W = 4). */
	static final long TAP_CACHE_TAPS = 4_000_000L;
	/**
	 * Stage calls of fewer taps (points × W^d × transforms) run on the calling thread: 2 × 20 of them make a Pipe–Menon
	 * DCF, and handing such small work to 16 threads cost more than it saved (64² sample, 12,928 points: 60 ms against
	 * 12 ms for the earlier single-pass gridder on the 16-core GPU machine).
	 */
	static final long SERIAL_TAPS = 1L << 18;
	/**
	 * Most transforms per grid: a larger batch (e.g. 32 coils) is processed in groups of this many, one grid reused.
	 * Fresh memory is slow to touch on the build machine (~90–250 MB/s, docs/benchmarks.md ".cfl read and write"), so a
	 * one-shot process gains from a smaller grid, while a plan executed many times gains from fewer groups (each group
	 * evaluates every point's kernel weights again). Measured 2026-11-24 (402 × 512 → 256², ε = 1e-3, 32 coils, 2
	 * threads): `nufft-j adjoint`/`forward` transform 679–686 / 678–683 ms with one 32-transform grid (75 MB), 339–351 /
	 * 456–473 ms in groups of 16, 394–397 / 499–509 ms in groups of 8 (two alternating runs each); in-process, JMH
	 * RadialNufftBenchmark: adjoint 149 / 161 / 174 ms and forward 128 / 157 / 175 ms for groups of 32 / 16 / 8. 16 is
	 * the compromise. Settable with {@code -Dnufftj.cpuGroup=} for such comparisons.
	 */
	static final int MAX_GROUP = Integer.getInteger("nufftj.cpuGroup", 16);
	/** Upper bound on the memory the plan's grids may take (bytes); batches are processed in groups to fit. */
	private static final long GRID_BUDGET = Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4);

	private final NufftParameters params;
	private final int dims;
	private final int[] size;
	private final int[] grid;
	private final int width;
	private final int gridPoints;
	private final int pixels;
	private final double[][] deapod;
	private final KernelWeights weights;
	private final Workers workers;
	/** The backend whose workers this plan borrows (null: a plan of its own, with its own workers). */
	private final CpuBackend backend;
	private final GridFft fft;
	/** The Vector API batch loops, or null for the scalar ones ({@link VectorSupport}, decided when the plan is made). */
	private final TapKernels vector = VectorSupport.kernels();
	/** Room after a tap list for a vector's stores past its end ({@link TapKernels#taps}: up to the lane count). */
	private final int tapSlack = vector == null ? 0 : vector.lanes();
	private final StageTimes times = new StageTimes();
	/** wrap[a][l + offset[a]] = l mod n_a for every index a window can reach. */
	private final int[][] wrap;
	private final int[] wrapOffset;

	private PointOrder order;
	private Subgrids subgrids;
	private double[] buffer = new double[0];
	/**
	 * Tap cache (see the class comment): weight and grid cell (in complex cells, batch stride 1) of tap t of sorted
	 * point s at [s·tapsPerPoint + t]; null until a stage call builds it, dropped by setPoints.
	 */
	private double[] tapWeight;
	private int[] tapCell;
	private int tapsPerPoint;
	/**
	 * The workers of the running call: the plan's own, or {@link Workers#SERIAL} for a stage call too small to gain
	 * from threads ({@link #SERIAL_TAPS}).
	 */
	private Workers run;
	private boolean closed;

	/** A plan with its own {@code options.resolvedThreads()} worker threads, shut down by {@link #close}. */
	public CpuNufftPlan(final NufftParameters params, final NufftOptions options) {
		this(params, options, null);
	}

	/** A plan on the workers of {@code backend} (null: its own workers); made by {@link CpuBackend#plan}. */
	CpuNufftPlan(final NufftParameters params, final NufftOptions options, final CpuBackend backend) {
		this.backend = backend;
		this.params = params;
		this.size = params.imageSize();
		this.grid = params.gridSize();
		this.dims = size.length;
		final Kernel kernel = params.kernel();
		this.width = kernel.width();
		int gp = 1, px = 1;
		for (int a = 0; a < dims; a++) {
			gp *= grid[a];
			px *= size[a];
		}
		this.gridPoints = gp;
		this.pixels = px;
		this.deapod = new double[dims][];
		for (int a = 0; a < dims; a++) deapod[a] = Kernels.deapodization(kernel, size[a], grid[a]);
		this.weights = options.evaluation() == NufftOptions.Evaluation.LOOKUP ? KernelWeights.table(kernel)
			: KernelWeights.online(kernel, params.tolerance(), params.precision(), Math.min(params.tolerance(),
				params.predictedError()),
				fitted -> ParameterChoice.modelError(fitted, size, grid, params.precision()), vector);
		this.workers = backend != null ? backend.workers() : new Workers(options.resolvedThreads());
		run = workers;
		this.fft = new GridFft(grid, size, workers);
		this.wrap = new int[dims][];
		this.wrapOffset = new int[dims];
		for (int a = 0; a < dims; a++) {
			final int n = grid[a];
			final int lo = -n / 2 - width - 2, hi = n / 2 + width + 2;
			wrapOffset[a] = -lo;
			wrap[a] = new int[hi - lo + 1];
			for (int l = lo; l <= hi; l++) wrap[a][l - lo] = Math.floorMod(l, n);
		}
	}

	// -- public API --

	/** The model a stalled kernel fit was accepted by (KernelWeights#online), NaN where the weights are the kernel's. */
	double fittedModel() { return weights.fittedModel; }

	@Override
	public int[] imageSize() { return size.clone(); }

	@Override
	public NufftParameters parameters() { return params; }

	@Override
	public String backend() {
		return "cpu (" + workers.threads() + " thread" + (workers.threads() == 1 ? "" : "s") + ")";
	}

	@Override
	public void setPoints(final Trajectory trajectory) {
		if (closed) throw new IllegalStateException("NUFFT plan is closed");
		InvalidInputException.require(trajectory.dimensions() == dims, "trajectory " + trajectory.name() + ": " +
			trajectory.dimensions() + "D points for a " + dims + "D image");
		final long t0 = System.nanoTime();
		order = new PointOrder(trajectory.coords(), dims, grid, width, workers.threads());
		subgrids = new Subgrids(order, weights, dims, grid, wrap, wrapOffset, vector, params.precision() ==
			Precision.FLOAT);
		tapWeight = null;
		tapCell = null;
		times.clear();
		times.add("sort", (System.nanoTime() - t0) / 1e6);
	}

	@Override
	public int points() { return order == null ? 0 : order.count(); }

	@Override
	public void forward(final float[] image, final float[] samples) {
		forward(Complex.of(image), Complex.of(samples), NufftPlan.transforms(this, image.length, samples.length));
	}

	@Override
	public void adjoint(final float[] samples, final float[] image) {
		adjoint(Complex.of(samples), Complex.of(image), NufftPlan.transforms(this, image.length, samples.length));
	}

	@Override
	public void forward(final double[] image, final double[] samples) {
		forward(Complex.of(image), Complex.of(samples), NufftPlan.transforms(this, image.length, samples.length));
	}

	@Override
	public void adjoint(final double[] samples, final double[] image) {
		adjoint(Complex.of(samples), Complex.of(image), NufftPlan.transforms(this, image.length, samples.length));
	}

	@Override
	public void forward(final Buffer image, final Buffer samples) {
		final CpuBuffer i = own(image, "forward image"), s = own(samples, "forward samples");
		forward(Complex.of(i), Complex.of(s), NufftPlan.transforms(this, i.length, s.length));
	}

	@Override
	public void adjoint(final Buffer samples, final Buffer image) {
		final CpuBuffer s = own(samples, "adjoint samples"), i = own(image, "adjoint image");
		adjoint(Complex.of(s), Complex.of(i), NufftPlan.transforms(this, i.length, s.length));
	}

	/**
	 * g_b[l] = Σ_m s_b[m]·ψ(l − t_m) on the periodic grid, written to {@code grid} [T][grid points] (overwritten).
	 */
	@Override
	public void spread(final Buffer samples, final Buffer grid) {
		final CpuBuffer s = own(samples, "spread samples"), g = own(grid, "spread grid");
		ensureOpen();
		final int transforms = stageTransforms(s, g, "spread");
		times.clear();
		run = stageWorkers(transforms);
		try {
			cacheTaps();
			final Complex samplesC = Complex.of(s);
			final int group = groupSize(transforms);
			for (int first = 0; first < transforms; first += group) {
				final int count = Math.min(group, transforms - first);
				final double[] inner = grid(count);
				final long t0 = System.nanoTime();
				clear(inner, 2L * gridPoints * count);
				if (tapWeight != null && count == 1) spreadCached(samplesC, first, inner);
				else subgrids.spread(samplesC, first, count, inner, run);
				transposeOut(inner, count, g, first);
				times.add("spread", (System.nanoTime() - t0) / 1e6);
			}
		}
		finally {
			run = workers;
		}
	}

	/** s_b[m] = Σ_l g_b[l]·ψ(l − t_m), the transpose of {@link #spread}. */
	@Override
	public void interpolate(final Buffer grid, final Buffer samples) {
		final CpuBuffer g = own(grid, "interpolate grid"), s = own(samples, "interpolate samples");
		ensureOpen();
		final int transforms = stageTransforms(s, g, "interpolate");
		times.clear();
		run = stageWorkers(transforms);
		try {
			cacheTaps();
			final Complex samplesC = Complex.of(s);
			final int group = groupSize(transforms);
			for (int first = 0; first < transforms; first += group) {
				final int count = Math.min(group, transforms - first);
				final double[] inner = grid(count);
				final long t0 = System.nanoTime();
				transposeIn(g, first, count, inner);
				interpolate(inner, count, samplesC, first, true);
				times.add("interpolate", (System.nanoTime() - t0) / 1e6);
			}
		}
		finally {
			run = workers;
		}
	}

	/** The plan's workers, or the calling thread alone below {@link #SERIAL_TAPS}. */
	private Workers stageWorkers(final int transforms) {
		final long taps = (long) order.count() * width * width * (dims == 3 ? width : 1) * transforms;
		return taps < SERIAL_TAPS ? Workers.SERIAL : workers;
	}

	@Override
	public StageTimes times() { return times; }

	@Override
	public void close() {
		closed = true;
		buffer = new double[0];
		tapWeight = null;
		tapCell = null;
		if (backend == null) workers.close();
	}

	// -- execute --

	private void forward(final Complex image, final Complex samples, final int transforms) {
		ensureOpen();
		times.clear();
		keepWeightsWhenRepeated();
		final int group = groupSize(transforms);
		for (int first = 0; first < transforms; first += group) {
			final int count = Math.min(group, transforms - first);
			final double[] g = grid(count);
			long t0 = System.nanoTime();
			padAndDeapodize(image, first, count, g);
			long t1 = System.nanoTime();
			times.add("deapodize", (t1 - t0) / 1e6);
			fft.transform(g, count, -1);
			t0 = System.nanoTime();
			times.add("fft", (t0 - t1) / 1e6);
			interpolate(g, count, samples, first, false);
			times.add("interpolate", (System.nanoTime() - t0) / 1e6);
		}
	}

	private void adjoint(final Complex samples, final Complex image, final int transforms) {
		ensureOpen();
		times.clear();
		keepWeightsWhenRepeated();
		final int group = groupSize(transforms);
		for (int first = 0; first < transforms; first += group) {
			final int count = Math.min(group, transforms - first);
			final double[] g = grid(count);
			long t0 = System.nanoTime();
			clear(g, 2L * gridPoints * count);
			subgrids.spread(samples, first, count, g, run);
			long t1 = System.nanoTime();
			times.add("spread", (t1 - t0) / 1e6);
			fft.transform(g, count, +1);
			t0 = System.nanoTime();
			times.add("fft", (t0 - t1) / 1e6);
			cropAndDeapodize(g, count, image, first);
			times.add("deapodize", (System.nanoTime() - t0) / 1e6);
		}
	}

	// -- spreading (adjoint): Subgrids, or for one transform of a stage call the tap cache, below --

	/**
	 * One transform from the tap cache (Pipe–Menon, iterative use): each tap adds one weight times the sample into the
	 * shared grid, the slabs of one parity in parallel (PointOrder), those of the other after them.
	 */
	private void spreadCached(final Complex samples, final int first, final double[] g) {
		final PointOrder o = order;
		final int m = o.count();
		final int n = tapsPerPoint;
		for (int parity = 0; parity < Math.min(2, o.slabs); parity++) {
			final int par = parity;
			final int tasks = o.slabs == 1 ? 1 : o.slabs / 2;
			run.each(tasks, (w, i) -> {
				final int slab = o.slabs == 1 ? 0 : 2 * i + par;
				for (int s = o.slabStart[slab]; s < o.slabStart[slab + 1]; s++) {
					final int p = o.perm[s] + m * first;
					final double vr = samples.re(p), vi = samples.im(p);
					for (int t = 0, base = s * n; t < n; t++) {
						final double k = tapWeight[base + t];
						final int c = 2 * tapCell[base + t];
						g[c] += k * vr;
						g[c + 1] += k * vi;
					}
				}
			});
		}
	}

	/**
	 * Kernel weights of sorted point s: kw[0 … W) along x, [W … 2W) along y, [2W … 3W) along z; returns the wrapped
	 * grid cell offsets of the window in {@code cells}: x offsets in [0, W), row offsets (y and z combined) in
	 * [W, W + W·Wz). A 2D plan is a 3D plan with one plane: one z weight of 1 at offset 0.
	 */
	private int window(final int s, final double[] kw, final int[] cells) {
		final int w = width, n0 = grid[0], n1 = grid[1];
		final int[] st = cells; // the starts land in cells[0..2] and are read before cells is filled
		subgrids.weightsOf(s, kw, st);
		final int ox = wrapOffset[0] + st[0];
		final int oy = wrapOffset[1] + st[1];
		final int wz;
		final int oz;
		if (dims == 3) {
			wz = w;
			oz = wrapOffset[2] + st[2];
		}
		else {
			wz = 1;
			oz = 0;
			kw[2 * w] = 1;
		}
		for (int a = 0; a < w; a++) cells[a] = wrap[0][ox + a];
		for (int e = 0; e < wz; e++) {
			final int plane = dims == 3 ? n1 * wrap[2][oz + e] : 0;
			for (int b = 0; b < w; b++) cells[w + e * w + b] = n0 * (plane + wrap[1][oy + b]);
		}
		return wz;
	}

	/**
	 * The point's taps as a flat list: weight tw[t] and offset ti[t] (in doubles) of the t-th grid cell of its window,
	 * scaled by the batch stride 2T. Returns the number of taps, W²·Wz.
	 */
	private int taps(final int s, final double[] kw, final int[] cells, final double[] tw,
		final int[] ti, final int len)
	{
		if (tapWeight != null) {
			final int n = tapsPerPoint, base = s * n;
			for (int t = 0; t < n; t++) {
				tw[t] = tapWeight[base + t];
				ti[t] = len * tapCell[base + t];
			}
			return n;
		}
		final int w = width;
		final int wz = window(s, kw, cells);
		if (vector != null) {
			final int n = vector.taps(kw, w, wz, cells, len, tw, ti);
			if (n >= 0) return n;
		}
		int t = 0;
		for (int e = 0; e < wz; e++) {
			for (int b = 0; b < w; b++) {
				final double kyz = kw[w + b] * kw[2 * w + e];
				final int row = cells[w + e * w + b];
				for (int a = 0; a < w; a++, t++) {
					tw[t] = kyz * kw[a];
					ti[t] = len * (row + cells[a]);
				}
			}
		}
		return t;
	}

	/**
	 * One transform, one point: the window's rows weighted by ψy·ψz and summed column by column
	 * ({@link Rows#gather}, or in vectors), then weighed by ψx; cell by cell where the window wraps in x. Into
	 * acc[0..1].
	 */
	private void interpRows(final int s, final double[] kw, final int[] cells, final double[] rk,
		final int[] ro, final double[] col, final double[] acc, final double[] g)
	{
		final int w = width;
		final int wz = window(s, kw, cells);
		final int x0 = cells[0];
		int rows = 0;
		for (int e = 0; e < wz; e++) {
			for (int b = 0; b < w; b++, rows++) {
				rk[rows] = kw[w + b] * kw[2 * w + e];
				ro[rows] = cells[w + e * w + b];
			}
		}
		double ar = 0, ai = 0;
		if (cells[w - 1] == x0 + w - 1) {
			for (int q = 0; q < rows; q++) ro[q] = 2 * (ro[q] + x0);
			if (vector != null) vector.gather(g, col, 2 * w, rk, ro, rows);
			else Rows.gather(g, col, 2 * w, rk, ro, rows);
			for (int a = 0; a < w; a++) {
				ar += kw[a] * col[2 * a];
				ai += kw[a] * col[2 * a + 1];
			}
		}
		else {
			for (int q = 0; q < rows; q++) {
				for (int a = 0; a < w; a++) {
					final double k = rk[q] * kw[a];
					final int i = 2 * (ro[q] + cells[a]);
					ar += k * g[i];
					ai += k * g[i + 1];
				}
			}
		}
		acc[0] = ar;
		acc[1] = ai;
	}

	// -- interpolation (forward) --

	/**
	 * samples (transforms [first, first + count)) = the grid interpolated at the points; one transform of a stage call
	 * ({@code cached}) reads the tap cache when it is built, the forward never does (its numbers do not depend on it).
	 */
	private void interpolate(final double[] g, final int count, final Complex samples, final int first,
		final boolean cached)
	{
		final PointOrder o = order;
		final int m = o.count();
		final int chunk = 2048;
		final boolean fromCache = cached && tapWeight != null && count == 1;
		run.each((m + chunk - 1) / chunk, (w, i) -> {
			final double[] kw = new double[2 * width + weights.room()];
			final int[] cells = new int[width + width * width];
			final double[] tw = new double[width * width * width + tapSlack];
			final int[] ti = new int[width * width * width + tapSlack];
			final double[] col = new double[2 * width];
			final double[] acc = new double[2 * count];
			final int end = Math.min(m, (i + 1) * chunk);
			for (int s = i * chunk; s < end; s++) {
				if (fromCache) interpCached(s, acc, g);
				else if (count == 1) interpRows(s, kw, cells, tw, ti, col, acc, g);
				else interpPoint(s, kw, cells, tw, ti, acc, g, count);
				final int p = o.perm[s];
				for (int tr = 0; tr < count; tr++)
					samples.set(p + m * (first + tr), acc[2 * tr], acc[2 * tr + 1]);
			}
		});
	}

	/** One transform from the tap cache: Σ over the point's taps of weight × grid value, into acc[0..1]. */
	private void interpCached(final int s, final double[] acc, final double[] g) {
		double ar = 0, ai = 0;
		final int n = tapsPerPoint, base = s * n;
		for (int t = 0; t < n; t++) {
			final double k = tapWeight[base + t];
			final int i = 2 * tapCell[base + t];
			ar += k * g[i];
			ai += k * g[i + 1];
		}
		acc[0] = ar;
		acc[1] = ai;
	}

	/**
	 * Σ over taps of weight × grid value for the point's 2T values: in vectors ({@link VectorKernels#gather}), or in
	 * scalar register blocks of 8 held across all taps — the sums of {@link Rows#gather} with the taps as rows, written
	 * out here as in {@code Subgrids.spreadMany}, where the shared kernel measured 10% slower.
	 */
	private void interpPoint(final int s, final double[] kw, final int[] cells, final double[] tw,
		final int[] ti, final double[] acc, final double[] g, final int count)
	{
		final int len = 2 * count;
		final int n = taps(s, kw, cells, tw, ti, len);
		if (vector != null) {
			vector.gather(g, acc, len, tw, ti, n);
			return;
		}
		int j = 0;
		for (; j + 8 <= len; j += 8) {
			double a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
			for (int t = 0; t < n; t++) {
				final double k = tw[t];
				final int i = ti[t] + j;
				a0 += k * g[i];
				a1 += k * g[i + 1];
				a2 += k * g[i + 2];
				a3 += k * g[i + 3];
				a4 += k * g[i + 4];
				a5 += k * g[i + 5];
				a6 += k * g[i + 6];
				a7 += k * g[i + 7];
			}
			acc[j] = a0;
			acc[j + 1] = a1;
			acc[j + 2] = a2;
			acc[j + 3] = a3;
			acc[j + 4] = a4;
			acc[j + 5] = a5;
			acc[j + 6] = a6;
			acc[j + 7] = a7;
		}
		for (; j < len; j += 2) {
			double ar = 0, ai = 0;
			for (int t = 0; t < n; t++) {
				final double k = tw[t];
				final int i = ti[t] + j;
				ar += k * g[i];
				ai += k * g[i + 1];
			}
			acc[j] = ar;
			acc[j + 1] = ai;
		}
	}

	// -- deapodization, padding and cropping --

	/**
	 * The image region of the batch grid = the image × the deapodization; the rest of the grid is not touched: the
	 * pruned grid FFT never reads it in the forward direction ({@link GridFft}). Image row r (y, or y + Ny·z) is the
	 * unit of parallel work; within it the transforms are innermost, so the batch-innermost grid is walked contiguously.
	 * One transform goes by {@link #padRun}s instead.
	 */
	private void padAndDeapodize(final Complex image, final int first, final int count, final double[] g) {
		final int rows = pixels / size[0], h = size[0] / 2;
		run.ranges(rows, (w, from, to) -> {
			for (int r = from; r < to; r++) {
				final int src = size[0] * r;
				final int dst = rowOffset(r);
				final double f = rowFactor(r);
				if (count == 1) {
					final int p = pixels * first + src;
					padRun(image, p, g, 2 * (dst + grid[0] - h), 0, h, f);
					padRun(image, p, g, 2 * dst, h, size[0], f);
					continue;
				}
				for (int x = 0; x < size[0]; x++) {
					final double d = f * deapod[0][x];
					final int j = 2 * (dst + wrap[0][wrapOffset[0] + x - h]) * count;
					for (int tr = 0; tr < count; tr++) {
						final int p = pixels * (first + tr) + src + x;
						g[j + 2 * tr] = image.re(p) * d;
						g[j + 2 * tr + 1] = image.im(p) * d;
					}
				}
			}
		});
	}

	/** One transform: pixels [x0, x1) of the image row at p into grid cells from value j0 on, in a run. */
	private void padRun(final Complex image, final int p, final double[] g, final int j0, final int x0, final int x1,
		final double f)
	{
		final double[] dx = deapod[0];
		for (int x = x0, j = j0; x < x1; x++, j += 2) {
			final double d = f * dx[x];
			g[j] = image.re(p + x) * d;
			g[j + 1] = image.im(p + x) * d;
		}
	}

	private void cropAndDeapodize(final double[] g, final int count, final Complex image, final int first) {
		final int rows = pixels / size[0], h = size[0] / 2;
		run.ranges(rows, (w, from, to) -> {
			for (int r = from; r < to; r++) {
				final int dst = size[0] * r;
				final int src = rowOffset(r);
				final double f = rowFactor(r);
				if (count == 1) {
					final int p = pixels * first + dst;
					cropRun(g, 2 * (src + grid[0] - h), image, p, 0, h, f);
					cropRun(g, 2 * src, image, p, h, size[0], f);
					continue;
				}
				for (int x = 0; x < size[0]; x++) {
					final double d = f * deapod[0][x];
					final int j = 2 * (src + wrap[0][wrapOffset[0] + x - h]) * count;
					for (int tr = 0; tr < count; tr++)
						image.set(pixels * (first + tr) + dst + x, g[j + 2 * tr] * d, g[j + 2 * tr + 1] * d);
				}
			}
		});
	}

	/**
	 * One transform: pixels [x0, x1) of the image row at p from grid cells from value j0 on. Pixel x − N/2 sits at
	 * cell (x − N/2) mod n, so x &lt; N/2 is one run at the end of the grid row and x ≥ N/2 one at its start: the 3D
	 * kooshball's crop 3.1–3.3 against 7–11 ms per pixel through the wrap table (2026-11-29). Several transforms keep
	 * the per-pixel loop: with 8 coils, runs (transform outermost) measured slower (docs/benchmarks.md, 2026-11-29,
	 * third session).
	 */
	private void cropRun(final double[] g, final int j0, final Complex image, final int p, final int x0, final int x1,
		final double f)
	{
		final double[] dx = deapod[0];
		for (int x = x0, j = j0; x < x1; x++, j += 2) {
			final double d = f * dx[x];
			image.set(p + x, g[j] * d, g[j + 1] * d);
		}
	}

	/** Grid offset (complex elements) of the first x of image row r. */
	private int rowOffset(final int r) {
		final int y = r % size[1];
		final int jy = wrap[1][wrapOffset[1] + y - size[1] / 2];
		if (dims == 2) return grid[0] * jy;
		final int z = r / size[1];
		final int jz = wrap[2][wrapOffset[2] + z - size[2] / 2];
		return grid[0] * (jy + grid[1] * jz);
	}

	private double rowFactor(final int r) {
		final double fy = deapod[1][r % size[1]];
		return dims == 2 ? fy : fy * deapod[2][r / size[1]];
	}

	/** The worker pool the plan runs on (its own, or its backend's). */
	Workers workers() { return workers; }

	// -- helpers --

	/** The buffer as a CPU buffer of this plan's backend (any CPU buffer for a plan of its own) and precision. */
	private CpuBuffer own(final Buffer b, final String what) {
		final CpuBuffer c;
		if (backend != null) c = backend.own(b, what, params.precision());
		else {
			if (!(b instanceof CpuBuffer)) throw new InvalidInputException(what + ": the buffer belongs to backend " +
				b.backend().name() + ", not to the CPU plan's " + backend());
			c = (CpuBuffer) b;
		}
		if (c.precision() != params.precision()) throw new InvalidInputException(what + ": a " +
			c.precision().name().toLowerCase() + " buffer for a " + params.precision().name().toLowerCase() + " plan");
		return c;
	}

	/** T of a stage call: samples [T][points], grid [T][grid points] complex; fails naming both lengths. */
	private int stageTransforms(final CpuBuffer samples, final CpuBuffer grid, final String what) {
		final long m = order.count();
		if (samples.length == 0 || samples.length % (2 * m) != 0 || grid.length != samples.length / (2 * m) * 2L *
			gridPoints)
		{
			throw new InvalidInputException(what + ": sample buffer of " + samples.length + " values (2 x " + m +
				" points x T) and grid buffer of " + grid.length + " values (2 x " + gridPoints +
				" grid points x T) do not hold the same number T >= 1 of grids");
		}
		return (int) (samples.length / (2 * m));
	}

	/**
	 * out[first + t][j] = inner (cell j, transform t), for the group's transforms; one transform is the same layout,
	 * copied straight (Pipe–Menon's 40 stage calls per weight set).
	 */
	private void transposeOut(final double[] inner, final int count, final CpuBuffer out, final int first) {
		final int base = out.offset + 2 * gridPoints * first;
		run.ranges(gridPoints, (w, from, to) -> {
			if (count == 1) {
				if (out.d != null) System.arraycopy(inner, 2 * from, out.d, base + 2 * from, 2 * (to - from));
				else for (int i = 2 * from; i < 2 * to; i++) out.f[base + i] = (float) inner[i];
				return;
			}
			for (int j = from; j < to; j++) {
				for (int t = 0; t < count; t++) {
					final int o = 2 * (gridPoints * t + j);
					out.set(base - out.offset + o, inner[2 * (j * count + t)]);
					out.set(base - out.offset + o + 1, inner[2 * (j * count + t) + 1]);
				}
			}
		});
	}

	private void transposeIn(final CpuBuffer in, final int first, final int count, final double[] inner) {
		final int base = in.offset + 2 * gridPoints * first;
		run.ranges(gridPoints, (w, from, to) -> {
			if (count == 1) {
				if (in.d != null) System.arraycopy(in.d, base + 2 * from, inner, 2 * from, 2 * (to - from));
				else for (int i = 2 * from; i < 2 * to; i++) inner[i] = in.f[base + i];
				return;
			}
			for (int j = from; j < to; j++) {
				for (int t = 0; t < count; t++) {
					final int o = 2 * (gridPoints * t + j);
					inner[2 * (j * count + t)] = in.get(base - in.offset + o);
					inner[2 * (j * count + t) + 1] = in.get(base - in.offset + o + 1);
				}
			}
		});
	}

	/** Whether the points' kernel weights are kept now (tests). */
	boolean keepsWeights() {
		return subgrids != null && subgrids.keepsWeights();
	}

	/** At the second forward or adjoint on the same points, keeps their kernel weights ({@link Subgrids#executed}). */
	private void keepWeightsWhenRepeated() {
		if (subgrids == null) return;
		final long t0 = System.nanoTime();
		if (subgrids.executed(run)) times.add("keep weights", (System.nanoTime() - t0) / 1e6);
	}

	/** Builds the tap cache (class comment) if it is not built and fits {@link #TAP_CACHE_TAPS}. */
	private void cacheTaps() {
		if (tapWeight != null) return;
		final PointOrder o = order;
		final int per = width * width * (dims == 3 ? width : 1);
		final long total = (long) o.count() * per;
		if (total > TAP_CACHE_TAPS) return;
		final double[] weight = new double[(int) total];
		final int[] cell = new int[(int) total];
		run.ranges(o.count(), (w, from, to) -> {
			final double[] kw = new double[2 * width + weights.room()];
			final int[] cells = new int[width + width * width];
			final double[] tw = new double[per + tapSlack];
			final int[] ti = new int[per + tapSlack];
			for (int s = from; s < to; s++) {
				taps(s, kw, cells, tw, ti, 1);
				System.arraycopy(tw, 0, weight, s * per, per);
				System.arraycopy(ti, 0, cell, s * per, per);
			}
		});
		tapsPerPoint = per;
		tapCell = cell;
		tapWeight = weight;
	}

	private int groupSize(final int transforms) {
		final long bytes = 16L * gridPoints;
		final long fit = Math.min(Math.min(GRID_BUDGET / bytes, (Integer.MAX_VALUE - 8) / (2L * gridPoints)), MAX_GROUP);
		return (int) Math.max(1, Math.min(transforms, fit));
	}

	/** The batch grid, reused between calls while large enough. */
	private double[] grid(final int count) {
		final long need = 2L * gridPoints * count;
		if (buffer.length < need) {
			buffer = new double[0];
			buffer = new double[(int) need];
		}
		return buffer;
	}

	private void clear(final double[] g, final long length) {
		final int parts = run.threads();
		run.ranges(parts, (w, from, to) -> {
			for (int i = from; i < to; i++)
				java.util.Arrays.fill(g, (int) (length * i / parts), (int) (length * (i + 1) / parts), 0);
		});
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("NUFFT plan is closed");
		if (order == null) throw new IllegalStateException("NUFFT plan: setPoints must be called before forward/adjoint");
	}
}
