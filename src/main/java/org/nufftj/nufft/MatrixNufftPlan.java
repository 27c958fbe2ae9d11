package org.nufftj.nufft;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.Kernels;
import org.nufftj.trajectory.Trajectory;

/**
 * A NUFFT plan with every kernel weight precomputed ({@link NufftOptions.Evaluation#MATRIX}, issue 9's "fully
 * precomputed sparse interpolation matrix"): setPoints builds the interpolation matrix A (points × grid cells, W^d
 * entries per point, ψ(l − t_m) with the exact kernel, periodic), and every execute is sparse-matrix products and FFTs
 * on the backend, written once for every device:
 * <ul>
 * <li>forward = A · FFT₋(P · image), P = deapodization and placement on the grid ((x − N/2) mod n, the engines'
 * fftshift by index), one entry per grid cell;</li>
 * <li>adjoint = C · FFT₊(Aᴴ · samples), C = P's transpose (crop and deapodize);</li>
 * <li>spread = Aᴴ, interpolate = A: the stage definitions of {@link NufftPlan#spread}.</li>
 * </ul>
 * Same maths, scaling and conventions as the online plans, so the results agree to the kernel evaluation's error
 * (the online engines evaluate ψ within KernelPolynomial's ε/100 of the exact value). The matrix costs
 * 12 bytes (float) or 20 bytes (double) per entry on the backend and is built on the host; it pays where one trajectory
 * is transformed many times. A matrix of more than {@link #MAX_ENTRIES} entries is refused with a message.
 */
public final class MatrixNufftPlan implements NufftPlan {

	/** Values of the grids of one chunk of transforms at most. */
	static final long GRID_VALUES = 1L << 28;

	/** Entries of the interpolation matrix at most (its host tables are Java arrays: 2 values per entry). */
	public static final long MAX_ENTRIES = 1L << 29;

	private final Backend backend;
	private final NufftParameters params;
	private final int[] n0, n;
	private final int dims, width, entries;
	private final long pixels, gridPoints;
	private final SparseMatrix pad, crop;
	private final StageTimes times = new StageTimes();
	private SparseMatrix interp;
	private int count;
	private Buffer grid;
	private int gridCapacity;
	private double buildMillis = Double.NaN;
	private boolean closed;

	/**
	 * The matrix plan a backend makes for {@link NufftOptions.Evaluation#MATRIX}: images of {@code imageSize} (2 or 3
	 * axes), parameters chosen by {@link ParameterChoice} for the backend's device.
	 */
	public static MatrixNufftPlan of(final Backend backend, final int[] imageSize, final NufftOptions options) {
		InvalidInputException.require(imageSize.length == 2 || imageSize.length == 3,
			"image size: expected 2 or 3 axes, found " + imageSize.length);
		return new MatrixNufftPlan(backend, ParameterChoice.choose(imageSize, options.withDevice(backend.device())));
	}

	/** A plan of parameters {@code p} on {@code backend} (its placement and deapodization matrices made here). */
	public MatrixNufftPlan(final Backend backend, final NufftParameters p) {
		this.backend = backend;
		this.params = p;
		n0 = p.imageSize();
		n = p.gridSize();
		dims = n0.length;
		width = p.width();
		int e = 1;
		for (int a = 0; a < dims; a++) e *= width;
		entries = e;
		long px = 1, gp = 1;
		for (int a = 0; a < dims; a++) {
			px *= n0[a];
			gp *= n[a];
		}
		pixels = px;
		gridPoints = gp;
		InvalidInputException.require(gridPoints <= Integer.MAX_VALUE / 2, "matrix NUFFT: grid " + Arrays.toString(n) +
			" of " + gridPoints + " cells is too large for its index tables");
		final Kernel k = p.kernel();
		final double[][] deapod = new double[dims][];
		for (int a = 0; a < dims; a++) deapod[a] = Kernels.deapodization(k, n0[a], n[a]);
		// Placement: pixel x → grid cell Σ_a ((x_a − N_a/2) mod n_a)·stride_a, weight Π_a deapodization_a(x_a).
		final int[] padIndex = new int[(int) gridPoints], cropIndex = new int[(int) pixels];
		final double[] padW = new double[2 * (int) gridPoints], cropW = new double[2 * (int) pixels];
		Arrays.fill(padIndex, -1);
		for (int x = 0; x < pixels; x++) {
			int cell = 0, stride = 1, rest = x;
			double w = 1;
			for (int a = 0; a < dims; a++) {
				final int xa = rest % n0[a];
				rest /= n0[a];
				cell += stride * Math.floorMod(xa - n0[a] / 2, n[a]);
				stride *= n[a];
				w *= deapod[a][xa];
			}
			padIndex[cell] = x;
			padW[2 * cell] = w;
			cropIndex[x] = cell;
			cropW[2 * x] = w;
		}
		SparseMatrix a = null;
		try {
			a = backend.sparse((int) gridPoints, (int) pixels, 1, padIndex, padW, p.precision());
			crop = backend.sparse((int) pixels, (int) gridPoints, 1, cropIndex, cropW, p.precision());
		}
		catch (final RuntimeException x) {
			if (a != null) a.close();
			throw x;
		}
		pad = a;
	}

	@Override
	public int[] imageSize() { return n0.clone(); }

	@Override
	public NufftParameters parameters() { return params; }

	@Override
	public String backend() { return backend.name() + ", precomputed interpolation matrix"; }

	@Override
	public int points() { return count; }

	/** Milliseconds of the latest setPoints (the matrix built on the host and copied to the backend). */
	public double buildMillis() { return buildMillis; }

	/**
	 * Builds the interpolation matrix of {@code t}: per point its W^d taps on the periodic grid (x fastest), weight
	 * Π_a ψ(l_a − t_a) with t = k·n, in parallel over the points on the host.
	 */
	@Override
	public void setPoints(final Trajectory t) {
		ensureOpen();
		InvalidInputException.require(t.dimensions() == dims, "matrix NUFFT: trajectory " + t.name() + " has " +
			t.dimensions() + " dimensions, the plan's image has " + dims);
		final long total = (long) t.count() * entries;
		InvalidInputException.require(total <= MAX_ENTRIES, "matrix NUFFT: " + t.count() + " points x " + entries +
			" taps = " + total + " matrix entries, more than " + MAX_ENTRIES + "; use online kernel evaluation");
		final long start = System.nanoTime();
		final int m = t.count();
		final Kernel k = params.kernel();
		final int[] index = new int[(int) total];
		final double[] weights = new double[2 * (int) total];
		IntStream.range(0, m).parallel().forEach(q -> {
			final int[] l0 = new int[dims];
			final double[][] w = new double[dims][width];
			for (int a = 0; a < dims; a++) {
				final double u = t.k(q, a) * n[a];
				l0[a] = Kernels.stencilStart(u, width);
				for (int j = 0; j < width; j++) w[a][j] = k.value(l0[a] + j - u);
			}
			for (int j = 0; j < entries; j++) {
				double weight = 1;
				int cell = 0, stride = 1;
				for (int a = 0, rest = j; a < dims; a++, rest /= width) {
					final int ja = rest % width;
					weight *= w[a][ja];
					cell += stride * Math.floorMod(l0[a] + ja, n[a]);
					stride *= n[a];
				}
				final int e = q * entries + j;
				index[e] = cell;
				weights[2 * e] = weight;
			}
		});
		if (interp != null) interp.close();
		interp = null;
		count = 0;
		interp = backend.sparse(m, (int) gridPoints, entries, index, weights, params.precision());
		count = m;
		buildMillis = (System.nanoTime() - start) / 1e6;
		times.clear();
		times.add("build matrix", buildMillis);
	}

	// -- on buffers --

	@Override
	public void forward(final Buffer image, final Buffer samples) {
		run(true, image, samples);
	}

	@Override
	public void adjoint(final Buffer samples, final Buffer image) {
		run(false, image, samples);
	}

	@Override
	public void spread(final Buffer samples, final Buffer grid) {
		ready();
		backend.applyAdjoint(interp, samples, grid);
	}

	@Override
	public void interpolate(final Buffer grid, final Buffer samples) {
		ready();
		backend.apply(interp, grid, samples);
	}

	private void run(final boolean forward, final Buffer image, final Buffer samples) {
		ready();
		final int t = NufftPlan.transforms(this, image.length(), samples.length());
		final int chunk = (int) Math.max(1, Math.min(t, GRID_VALUES / (2 * gridPoints)));
		ensureGrid(chunk);
		for (int t0 = 0; t0 < t; t0 += chunk) {
			final int c = Math.min(chunk, t - t0);
			final Buffer g = grid.slice(0, 2 * gridPoints * c);
			final Buffer img = image.slice(2 * pixels * t0, 2 * pixels * c);
			final Buffer smp = samples.slice(2L * count * t0, 2L * count * c);
			if (forward) {
				backend.apply(pad, img, g);
				backend.fft(g, n, -1);
				backend.apply(interp, g, smp);
			}
			else {
				backend.applyAdjoint(interp, smp, g);
				backend.fft(g, n, +1);
				backend.apply(crop, g, img);
			}
		}
	}

	// -- on arrays --

	@Override
	public void forward(final float[] image, final float[] samples) {
		NufftPlan.transforms(this, image.length, samples.length);
		arrays(true, upload(image), samples.length, o -> download(o, samples));
	}

	@Override
	public void adjoint(final float[] samples, final float[] image) {
		NufftPlan.transforms(this, image.length, samples.length);
		arrays(false, upload(samples), image.length, o -> download(o, image));
	}

	@Override
	public void forward(final double[] image, final double[] samples) {
		NufftPlan.transforms(this, image.length, samples.length);
		arrays(true, upload(image), samples.length, o -> download(o, samples));
	}

	@Override
	public void adjoint(final double[] samples, final double[] image) {
		NufftPlan.transforms(this, image.length, samples.length);
		arrays(false, upload(samples), image.length, o -> download(o, image));
	}

	/** The buffer execute from {@code in} (closed after) into a buffer of {@code outLength} values, then read. */
	private void arrays(final boolean forward, final Buffer in, final int outLength,
		final java.util.function.Consumer<Buffer> read)
	{
		try (Buffer i = in; Buffer o = allocate(outLength)) {
			if (forward) forward(i, o);
			else adjoint(i, o);
			read.accept(o);
		}
	}

	/**
	 * The latest setPoints' matrix build ("build matrix", ms). Executes add nothing: they are queued on the backend
	 * (asynchronous on a GPU), and timing them here would wait for each.
	 */
	@Override
	public StageTimes times() { return times; }

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		if (grid != null) grid.close();
		if (interp != null) interp.close();
		pad.close();
		crop.close();
	}

	// -- helpers --

	private Buffer allocate(final long length) {
		return backend.allocate(length, params.precision());
	}

	/** A buffer of the plan's precision holding {@code v} (converted where the precisions differ). */
	private Buffer upload(final float[] v) {
		final Buffer b = allocate(v.length);
		if (params.precision() == Precision.FLOAT) backend.write(v, 0, b);
		else backend.write(Nudft.toDouble(v), 0, b);
		return b;
	}

	/** As {@link #upload(float[])} from double values. */
	private Buffer upload(final double[] v) {
		final Buffer b = allocate(v.length);
		if (params.precision() == Precision.DOUBLE) backend.write(v, 0, b);
		else backend.write(Nudft.toFloat(v), 0, b);
		return b;
	}

	/** Reads {@code b} into {@code out}, converting where the precisions differ. */
	private void download(final Buffer b, final float[] out) {
		if (params.precision() == Precision.FLOAT) backend.read(b, out, 0);
		else {
			final double[] d = new double[out.length];
			backend.read(b, d, 0);
			for (int i = 0; i < out.length; i++) out[i] = (float) d[i];
		}
	}

	/** As {@link #download(Buffer, float[])} into double values. */
	private void download(final Buffer b, final double[] out) {
		if (params.precision() == Precision.DOUBLE) backend.read(b, out, 0);
		else {
			final float[] f = new float[out.length];
			backend.read(b, f, 0);
			for (int i = 0; i < out.length; i++) out[i] = f[i];
		}
	}

	private void ensureGrid(final int transforms) {
		if (gridCapacity >= transforms) return;
		if (grid != null) grid.close();
		grid = null;
		gridCapacity = 0;
		grid = allocate(2 * gridPoints * transforms);
		gridCapacity = transforms;
	}

	private void ready() {
		ensureOpen();
		if (interp == null) throw new IllegalStateException("NUFFT plan: setPoints must be called before forward/adjoint");
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("matrix NUFFT plan is closed");
	}
}
