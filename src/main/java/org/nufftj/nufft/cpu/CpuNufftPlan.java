package org.nufftj.nufft.cpu;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.Kernels;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.StageTimes;
import org.nufftj.trajectory.Trajectory;

/**
 * The CPU gridding engine: pure Java, multithreaded, double arithmetic inside (float plans differ only in the
 * tolerance they accept and in their input/output arrays).
 * <p>
 * forward: deapodize + zero-pad into the σN grid (centred pixel x ↦ grid index x mod n) → FFT (e^{−}) → interpolate
 * with ψ at each sample. adjoint: spread each sample with ψ → FFT (e^{+}, unnormalised) → crop + deapodize. The two are
 * exact transposes of each other (same kernel weights, same deapodization, conjugate FFTs). Transforms of a batch share
 * the kernel weights of each sample, computed once per sample per call; spreading writes slabs of equal parity in
 * parallel ({@link PointOrder}).
 * </p>
 * <p>
 * Stage API on buffers of the plan's {@link CpuBackend} (in the plan's precision): {@link #spread} and
 * {@link #interpolate} are the adjoint's first and the forward's last stage alone, on grids [T][grid points]
 * complex, x fastest; the engine's own grids hold the batch innermost, so those grids are transposed on the way in
 * or out (a copy of the grid per call). Iterative callers spread and interpolate the same points many times (Pipe–Menon:
 * 20 × 2): the first stage call keeps every point's tap weights and cells (when they fit {@link #TAP_CACHE_TAPS}),
 * so later single-transform calls of any kind skip the kernel evaluations; the numbers are the same either way.
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
	private final StageTimes times = new StageTimes();
	/** wrap[a][l + offset[a]] = l mod n_a for every index a window can reach. */
	private final int[][] wrap;
	private final int[] wrapOffset;

	private PointOrder order;
	private double[] buffer = new double[0];
	/**
	 * Tap cache (see the class comment), for single transforms: weight and grid cell (complex cells) of tap t of sorted
	 * point s at [s·tapsPerPoint + t], taps in window order (z, y, x; x fastest); null until a stage call builds it,
	 * dropped by setPoints.
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
			: KernelWeights.online(kernel);
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
				spread(samplesC, first, count, inner);
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
				interpolate(inner, count, samplesC, first);
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
			interpolate(g, count, samples, first);
			times.add("interpolate", (System.nanoTime() - t0) / 1e6);
		}
	}

	private void adjoint(final Complex samples, final Complex image, final int transforms) {
		ensureOpen();
		times.clear();
		final int group = groupSize(transforms);
		for (int first = 0; first < transforms; first += group) {
			final int count = Math.min(group, transforms - first);
			final double[] g = grid(count);
			long t0 = System.nanoTime();
			clear(g, 2L * gridPoints * count);
			spread(samples, first, count, g);
			long t1 = System.nanoTime();
			times.add("spread", (t1 - t0) / 1e6);
			fft.transform(g, count, +1);
			t0 = System.nanoTime();
			times.add("fft", (t0 - t1) / 1e6);
			cropAndDeapodize(g, count, image, first);
			times.add("deapodize", (System.nanoTime() - t0) / 1e6);
		}
	}

	// -- spreading (adjoint) --
	// The batch is innermost in the grid (cell j, transform t at 2(jT + t)), so the W cells of one x-row of a point's
	// window hold 2TW consecutive values (when the window does not wrap in x). Each point forms v = kx ⊗ c (its 2T values
	// times the W x weights) once, then adds ky·kz times v to each of its W (W² in 3D) rows: one contiguous
	// multiply-add loop of 2TW values per row, which the JIT vectorizes, and no index or weight per tap.

	private void spread(final Complex samples, final int first, final int count, final double[] g) {
		final PointOrder o = order;
		final int m = o.count();
		for (int parity = 0; parity < Math.min(2, o.slabs); parity++) {
			final int par = parity;
			final int tasks = o.slabs == 1 ? 1 : o.slabs / 2;
			run.each(tasks, (w, i) -> {
				final int slab = o.slabs == 1 ? 0 : 2 * i + par;
				final Window win = new Window(count);
				final double[] c = new double[2 * count];
				for (int s = o.slabStart[slab]; s < o.slabStart[slab + 1]; s++) {
					final int p = o.perm[s];
					for (int tr = 0; tr < count; tr++) {
						c[2 * tr] = samples.re(p + m * (first + tr));
						c[2 * tr + 1] = samples.im(p + m * (first + tr));
					}
					if (count == 1 && tapWeight != null) spreadTaps(s, c[0], c[1], g);
					else {
						window(o, s, win);
						spreadPoint(win, c, g, count);
					}
				}
			});
		}
	}

	/**
	 * One point's window, per worker: kernel weights k[0 … W) along x, [W … 2W) along y, [2W … 3W) along z; the W·Wz
	 * rows as their first complex cell (x = 0) and weight ky·kz; the x start (contiguous window) or the W wrapped x
	 * cells. A 2D plan is a 3D plan with one plane: one z weight of 1.
	 */
	private final class Window {
		final double[] k = new double[3 * width];
		final int[] row = new int[width * width];
		final double[] rowWeight = new double[width * width];
		final int[] xs = new int[width];
		final double[] v;
		int rows;
		/** First x cell of a window that does not wrap in x, or −1 (then xs holds the cells). */
		int x0;

		Window(final int count) {
			v = new double[2 * count * width];
		}
	}

	/** Fills {@code win} for sorted point s. */
	private void window(final PointOrder o, final int s, final Window win) {
		final int w = width, n0 = grid[0], n1 = grid[1];
		final double[] k = win.k;
		final int sx = weights.weights(o.t[0][s], k, 0);
		final int sy = weights.weights(o.t[1][s], k, w);
		final int sz = dims == 3 ? weights.weights(o.t[2][s], k, 2 * w) : 0;
		final int wz = dims == 3 ? w : 1;
		if (dims == 2) k[2 * w] = 1;
		for (int e = 0, r = 0; e < wz; e++) {
			final int plane = dims == 3 ? n1 * wrap[2][wrapOffset[2] + sz + e] : 0;
			final double kz = k[2 * w + e];
			for (int b = 0; b < w; b++, r++) {
				win.row[r] = n0 * (plane + wrap[1][wrapOffset[1] + sy + b]);
				win.rowWeight[r] = k[w + b] * kz;
			}
		}
		win.rows = w * wz;
		final int x0 = wrap[0][wrapOffset[0] + sx];
		if (x0 + w <= n0) win.x0 = x0;
		else {
			win.x0 = -1;
			for (int a = 0; a < w; a++) win.xs[a] = wrap[0][wrapOffset[0] + sx + a];
		}
	}

	/** Adds the point's 2T values c, weighted by its window, to the grid. */
	private void spreadPoint(final Window win, final double[] c, final double[] g, final int count) {
		final int len = 2 * count, w = width, span = len * w;
		final double[] k = win.k, v = win.v;
		if (count == 1) { // the taps one by one, in the tap cache's order and arithmetic (numbers equal either way)
			final double cr = c[0], ci = c[1];
			for (int r = 0; r < win.rows; r++) {
				final double kr = win.rowWeight[r];
				final int row = win.row[r];
				for (int a = 0; a < w; a++) {
					final double f = kr * k[a];
					final int i = 2 * (row + (win.x0 >= 0 ? win.x0 + a : win.xs[a]));
					g[i] += f * cr;
					g[i + 1] += f * ci;
				}
			}
			return;
		}
		for (int a = 0; a < w; a++) {
			final double kx = k[a];
			for (int j = 0; j < len; j++) v[a * len + j] = kx * c[j];
		}
		final int rows = win.rows;
		if (win.x0 >= 0) {
			for (int r = 0; r < rows; r++) {
				final double kr = win.rowWeight[r];
				final int base = len * (win.row[r] + win.x0);
				for (int i = 0; i < span; i++) g[base + i] += kr * v[i];
			}
		}
		else {
			for (int r = 0; r < rows; r++) {
				final double kr = win.rowWeight[r];
				for (int a = 0; a < w; a++) {
					final int base = len * (win.row[r] + win.xs[a]);
					for (int j = 0; j < len; j++) g[base + j] += kr * v[a * len + j];
				}
			}
		}
	}

	/** One transform from the tap cache (Pipe–Menon, iterative use): the same products as spreadPoint's. */
	private void spreadTaps(final int s, final double cr, final double ci, final double[] g) {
		final int n = tapsPerPoint, base = s * n;
		for (int t = 0; t < n; t++) {
			final double f = tapWeight[base + t];
			final int i = 2 * tapCell[base + t];
			g[i] += f * cr;
			g[i + 1] += f * ci;
		}
	}

	// -- interpolation (forward) --

	private void interpolate(final double[] g, final int count, final Complex samples, final int first) {
		final PointOrder o = order;
		final int m = o.count();
		final int chunk = 2048;
		run.each((m + chunk - 1) / chunk, (w, i) -> {
			final Window win = new Window(count);
			final double[] acc = new double[2 * count];
			final int end = Math.min(m, (i + 1) * chunk);
			for (int s = i * chunk; s < end; s++) {
				if (count == 1 && tapWeight != null) interpTaps(s, acc, g);
				else {
					window(o, s, win);
					interpPoint(win, acc, g, count);
				}
				final int p = o.perm[s];
				for (int tr = 0; tr < count; tr++)
					samples.set(p + m * (first + tr), acc[2 * tr], acc[2 * tr + 1]);
			}
		});
	}

	/**
	 * The transpose of spreadPoint: v = Σ_rows ky·kz × the row's 2TW values (contiguous), then acc = Σ_x kx · v[x].
	 */
	private void interpPoint(final Window win, final double[] acc, final double[] g, final int count) {
		final int len = 2 * count, w = width, span = len * w;
		final double[] k = win.k, v = win.v;
		if (count == 1) { // as in spreadPoint
			double ar = 0, ai = 0;
			for (int r = 0; r < win.rows; r++) {
				final double kr = win.rowWeight[r];
				final int row = win.row[r];
				for (int a = 0; a < w; a++) {
					final double f = kr * k[a];
					final int i = 2 * (row + (win.x0 >= 0 ? win.x0 + a : win.xs[a]));
					ar += f * g[i];
					ai += f * g[i + 1];
				}
			}
			acc[0] = ar;
			acc[1] = ai;
			return;
		}
		java.util.Arrays.fill(v, 0, span, 0);
		final int rows = win.rows;
		if (win.x0 >= 0) {
			for (int r = 0; r < rows; r++) {
				final double kr = win.rowWeight[r];
				final int base = len * (win.row[r] + win.x0);
				for (int i = 0; i < span; i++) v[i] += kr * g[base + i];
			}
		}
		else {
			for (int r = 0; r < rows; r++) {
				final double kr = win.rowWeight[r];
				for (int a = 0; a < w; a++) {
					final int base = len * (win.row[r] + win.xs[a]);
					for (int j = 0; j < len; j++) v[a * len + j] += kr * g[base + j];
				}
			}
		}
		for (int j = 0; j < len; j++) acc[j] = 0;
		for (int a = 0; a < w; a++) {
			final double kx = k[a];
			for (int j = 0; j < len; j++) acc[j] += kx * v[a * len + j];
		}
	}

	private void interpTaps(final int s, final double[] acc, final double[] g) {
		double ar = 0, ai = 0;
		final int n = tapsPerPoint, base = s * n;
		for (int t = 0; t < n; t++) {
			final double f = tapWeight[base + t];
			final int i = 2 * tapCell[base + t];
			ar += f * g[i];
			ai += f * g[i + 1];
		}
		acc[0] = ar;
		acc[1] = ai;
	}

	// -- deapodization, padding and cropping --

	/**
	 * Image row r (y, or y + Ny·z) is the unit of parallel work; within it the transforms are innermost, so the
	 * batch-innermost grid is walked contiguously.
	 */
	private void padAndDeapodize(final Complex image, final int first, final int count, final double[] g) {
		final int rows = pixels / size[0];
		clear(g, 2L * gridPoints * count);
		run.ranges(rows, (w, from, to) -> {
			for (int r = from; r < to; r++) {
				final int src = size[0] * r;
				final int dst = rowOffset(r);
				final double f = rowFactor(r);
				for (int x = 0; x < size[0]; x++) {
					final double d = f * deapod[0][x];
					final int j = 2 * (dst + wrap[0][wrapOffset[0] + x - size[0] / 2]) * count;
					for (int tr = 0; tr < count; tr++) {
						final int p = pixels * (first + tr) + src + x;
						g[j + 2 * tr] = image.re(p) * d;
						g[j + 2 * tr + 1] = image.im(p) * d;
					}
				}
			}
		});
	}

	private void cropAndDeapodize(final double[] g, final int count, final Complex image, final int first) {
		final int rows = pixels / size[0];
		run.ranges(rows, (w, from, to) -> {
			for (int r = from; r < to; r++) {
				final int dst = size[0] * r;
				final int src = rowOffset(r);
				final double f = rowFactor(r);
				for (int x = 0; x < size[0]; x++) {
					final double d = f * deapod[0][x];
					final int j = 2 * (src + wrap[0][wrapOffset[0] + x - size[0] / 2]) * count;
					for (int tr = 0; tr < count; tr++)
						image.set(pixels * (first + tr) + dst + x, g[j + 2 * tr] * d, g[j + 2 * tr + 1] * d);
				}
			}
		});
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
			final Window win = new Window(1);
			for (int s = from; s < to; s++) {
				window(o, s, win);
				int t = s * per;
				for (int r = 0; r < win.rows; r++) {
					for (int a = 0; a < width; a++, t++) {
						weight[t] = win.rowWeight[r] * win.k[a];
						cell[t] = win.row[r] + (win.x0 >= 0 ? win.x0 + a : win.xs[a]);
					}
				}
			}
		});
		tapsPerPoint = per;
		tapCell = cell;
		tapWeight = weight;
	}

	private int groupSize(final int transforms) {
		final long bytes = 16L * gridPoints;
		final long fit = Math.min(GRID_BUDGET / bytes, (Integer.MAX_VALUE - 8) / (2L * gridPoints));
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
