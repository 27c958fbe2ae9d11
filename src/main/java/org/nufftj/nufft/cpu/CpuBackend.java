package org.nufftj.nufft.cpu;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.CentredBlock;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SparseMatrix;

/**
 * The CPU {@link Backend}: buffers are Java arrays ({@code float[]} or {@code double[]}, {@link #wrap} takes the
 * caller's array itself), vector operations run on the backend's own worker threads, arithmetic in double whatever the
 * storage (float buffers round once per stored value). Plans made by {@link #plan} share the backend's workers (they
 * start no threads of their own), so the backend must outlive them. FFTs are the project's own line FFT
 * ({@link CpuFft}, {@link LineFft}), one set of per-worker line plans per size kept for the backend's life; the pruned
 * variants skip the lines of a centred block's zero padding or discarded output.
 */
public final class CpuBackend implements Backend {

	/** Element-wise operations shorter than this run on the calling thread (handing out work costs more). */
	private static final int PARALLEL = 1 << 16;

	private final Workers workers;
	private final Map<String, CpuFft> ffts = new HashMap<>();
	private boolean closed;

	/** A CPU backend with {@code threads} worker threads (0: one per available processor). */
	public CpuBackend(final int threads) {
		InvalidInputException.require(threads >= 0, "threads: expected >= 0, found " + threads);
		this.workers = new Workers(threads > 0 ? threads : Runtime.getRuntime().availableProcessors());
	}

	// -- identity --

	@Override
	public String name() {
		return "cpu (" + workers.threads() + " thread" + (workers.threads() == 1 ? "" : "s") + ")";
	}

	@Override
	public DeviceChoice device() { return DeviceChoice.CPU; }

	/** The processor model (Linux: /proc/cpuinfo), cores, worker threads and Java version. */
	@Override
	public String identity() {
		String model = System.getProperty("os.arch");
		try {
			for (final String l : java.nio.file.Files.readAllLines(java.nio.file.Paths.get("/proc/cpuinfo"))) {
				if (l.startsWith("model name")) {
					model = l.substring(l.indexOf(':') + 1).trim();
					break;
				}
			}
		}
		catch (final java.io.IOException | RuntimeException e) {
			// Not Linux: the architecture stands for the model.
		}
		return "cpu: " + model + ", " + Runtime.getRuntime().availableProcessors() + " cores, " + workers.threads() +
			" threads, Java " + System.getProperty("java.version");
	}

	/** Kernel weights computed online (the default) or read from a lookup table (when ε allows one). */
	@Override
	public java.util.List<NufftOptions> variants(final NufftParameters parameters, final NufftOptions options) {
		final NufftOptions online = options.withEvaluation(NufftOptions.Evaluation.ONLINE);
		if (options.tolerance() < ParameterChoice.LOOKUP_FLOOR) return java.util.List.of(online);
		return java.util.List.of(online, options.withEvaluation(NufftOptions.Evaluation.LOOKUP));
	}

	/** Worker threads. */
	public int threads() { return workers.threads(); }

	// -- plans --

	/** A {@link CpuNufftPlan} on this backend's workers; the options' device and thread count are ignored. */
	@Override
	public NufftPlan plan(final int[] imageSize, final NufftOptions options) {
		ensureOpen();
		InvalidInputException.require(imageSize.length == 2 || imageSize.length == 3,
			"image size: expected 2 or 3 axes, found " + imageSize.length);
		final NufftOptions cpu = options.withDevice(DeviceChoice.CPU);
		if (cpu.evaluation() == NufftOptions.Evaluation.MATRIX) {
			return org.nufftj.nufft.MatrixNufftPlan.of(this, imageSize, cpu);
		}
		return new CpuNufftPlan(ParameterChoice.choose(imageSize, cpu), cpu, this);
	}

	/** A {@link CpuExactPlan}: {@link org.nufftj.nufft.Nudft}'s direct sums on this backend's workers. */
	@Override
	public NufftPlan exactPlan(final int[] imageSize, final Precision precision) {
		ensureOpen();
		return new CpuExactPlan(this, imageSize, precision);
	}

	// -- buffers --

	@Override
	public Buffer allocate(final long length, final Precision precision) {
		ensureOpen();
		InvalidInputException.require(length >= 0 && length <= Integer.MAX_VALUE - 8, "buffer: length " + length +
			" is not in [0, " + (Integer.MAX_VALUE - 8) + "] (one Java array)");
		return precision == Precision.FLOAT ? new CpuBuffer(this, new float[(int) length], null, 0, (int) length) :
			new CpuBuffer(this, null, new double[(int) length], 0, (int) length);
	}

	@Override
	public Buffer wrap(final float[] array) {
		return new CpuBuffer(this, array, null, 0, array.length);
	}

	@Override
	public Buffer wrap(final double[] array) {
		return new CpuBuffer(this, null, array, 0, array.length);
	}

	@Override
	public void write(final float[] src, final int srcOffset, final Buffer dst) {
		final CpuBuffer b = own(dst, "write destination", Precision.FLOAT);
		requireRange(src.length, srcOffset, b.length, "write source");
		System.arraycopy(src, srcOffset, b.f, b.offset, b.length);
	}

	@Override
	public void write(final double[] src, final int srcOffset, final Buffer dst) {
		final CpuBuffer b = own(dst, "write destination", Precision.DOUBLE);
		requireRange(src.length, srcOffset, b.length, "write source");
		System.arraycopy(src, srcOffset, b.d, b.offset, b.length);
	}

	@Override
	public void read(final Buffer src, final float[] dst, final int dstOffset) {
		final CpuBuffer b = own(src, "read source", Precision.FLOAT);
		requireRange(dst.length, dstOffset, b.length, "read destination");
		System.arraycopy(b.f, b.offset, dst, dstOffset, b.length);
	}

	@Override
	public void read(final Buffer src, final double[] dst, final int dstOffset) {
		final CpuBuffer b = own(src, "read source", Precision.DOUBLE);
		requireRange(dst.length, dstOffset, b.length, "read destination");
		System.arraycopy(b.d, b.offset, dst, dstOffset, b.length);
	}

	@Override
	public void synchronize() { /* every operation has completed when it returns */ }

	// -- vector operations --

	@Override
	public void fill(final Buffer x, final double re, final double im) {
		final CpuBuffer a = own(x, "fill", null);
		requireComplex(a, "fill");
		each(a.length / 2, (from, to) -> {
			for (int i = from; i < to; i++) {
				a.set(2 * i, re);
				a.set(2 * i + 1, im);
			}
		});
	}

	@Override
	public void copy(final Buffer src, final Buffer dst) {
		final CpuBuffer s = own(src, "copy source", null), d = own(dst, "copy destination", s.precision());
		Buffer.requireLength(d, s.length, "copy destination");
		if (s.f != null) System.arraycopy(s.f, s.offset, d.f, d.offset, s.length);
		else System.arraycopy(s.d, s.offset, d.d, d.offset, s.length);
	}

	@Override
	public void scale(final Buffer x, final double a) {
		final CpuBuffer b = own(x, "scale", null);
		each(b.length, (from, to) -> {
			for (int i = from; i < to; i++) b.set(i, a * b.get(i));
		});
	}

	@Override
	public void axpby(final double a, final Buffer x, final double b, final Buffer y) {
		final CpuBuffer u = own(x, "axpby x", null), v = own(y, "axpby y", u.precision());
		Buffer.requireLength(v, u.length, "axpby y (the length of x)");
		each(u.length, (from, to) -> {
			for (int i = from; i < to; i++) v.set(i, a * u.get(i) + b * v.get(i));
		});
	}

	@Override
	public double[] dot(final Buffer x, final Buffer y) {
		final CpuBuffer u = own(x, "dot x", null), v = own(y, "dot y", u.precision());
		Buffer.requireLength(v, u.length, "dot y (the length of x)");
		requireComplex(u, "dot");
		double re = 0, im = 0;
		for (int i = 0; i < u.length; i += 2) {
			final double ar = u.get(i), ai = u.get(i + 1), br = v.get(i), bi = v.get(i + 1);
			re += ar * br + ai * bi;
			im += ar * bi - ai * br;
		}
		return new double[] { re, im };
	}

	@Override
	public double norm(final Buffer x) {
		final CpuBuffer u = own(x, "norm", null);
		double s = 0;
		for (int i = 0; i < u.length; i++) s += u.get(i) * u.get(i);
		return Math.sqrt(s);
	}

	@Override
	public void multiply(final Buffer a, final Buffer b, final Buffer out) {
		complexOp(a, b, out, "multiply", 0);
	}

	@Override
	public void multiplyConjugate(final Buffer a, final Buffer b, final Buffer out) {
		complexOp(a, b, out, "multiplyConjugate", 1);
	}

	@Override
	public void divide(final Buffer a, final Buffer b, final Buffer out) {
		complexOp(a, b, out, "divide", 2);
	}

	@Override
	public void multiplyReal(final Buffer a, final Buffer w, final Buffer out) {
		final CpuBuffer x = own(a, "multiplyReal a", null), r = own(w, "multiplyReal w", x.precision());
		final CpuBuffer o = own(out, "multiplyReal out", x.precision());
		requireComplex(x, "multiplyReal a");
		InvalidInputException.require(r.length > 0 && x.length % (2L * r.length) == 0, "multiplyReal: a of " +
			x.length + " values is not a whole number of periods of 2 x " + r.length + " real weights");
		Buffer.requireLength(o, x.length, "multiplyReal out (the length of a)");
		final int period = r.length;
		each(x.length / 2, (from, to) -> {
			for (int i = from, j = from % period; i < to; i++, j = j + 1 == period ? 0 : j + 1) { // j = i mod period
				final double f = r.get(j);
				o.set(2 * i, f * x.get(2 * i));
				o.set(2 * i + 1, f * x.get(2 * i + 1));
			}
		});
	}

	@Override
	public void softThreshold(final Buffer x, final double tau, final Buffer out) {
		final CpuBuffer u = own(x, "softThreshold x", null), o = own(out, "softThreshold out", u.precision());
		requireComplex(u, "softThreshold x");
		Buffer.requireLength(o, u.length, "softThreshold out (the length of x)");
		InvalidInputException.require(tau >= 0 && Double.isFinite(tau), "softThreshold: tau is " + tau +
			", expected a finite number >= 0");
		each(u.length / 2, (from, to) -> {
			for (int i = from; i < to; i++) {
				final double re = u.get(2 * i), im = u.get(2 * i + 1);
				final double m = Math.hypot(re, im);
				final double s = m > tau ? (m - tau) / m : 0;
				o.set(2 * i, re * s);
				o.set(2 * i + 1, im * s);
			}
		});
	}

	@Override
	public void sumBatch(final Buffer x, final int batch, final Buffer out) {
		final CpuBuffer u = own(x, "sumBatch x", null), o = own(out, "sumBatch out", u.precision());
		InvalidInputException.require(batch >= 1 && u.length % batch == 0, "sumBatch: " + u.length +
			" values do not split into " + batch + " equal parts");
		final int part = u.length / batch;
		Buffer.requireLength(o, part, "sumBatch out (x.length / batch)");
		// Every part read before the output is written: out may be x's first part.
		each(part, (from, to) -> {
			for (int i = from; i < to; i++) {
				double s = 0;
				for (int b = 0; b < batch; b++) s += u.get(i + part * b);
				o.set(i, s);
			}
		});
	}

	@Override
	public void sumOfSquares(final Buffer images, final int coils, final Buffer out) {
		final CpuBuffer in = own(images, "sumOfSquares images", null), o = own(out, "sumOfSquares out",
			in.precision());
		requireCoils(in, coils, o, "sumOfSquares");
		CoilMaths.sumOfSquares(Complex.of(in), o.length / 2, coils, Complex.of(o), this::rows);
	}

	@Override
	public void walsh(final Buffer images, final int[] size, final int coils, final Buffer out) {
		final CpuBuffer in = own(images, "walsh images", null), o = own(out, "walsh out", in.precision());
		InvalidInputException.require(size.length == 2 || size.length == 3, "walsh: image size must have 2 or 3 axes," +
			" found " + Arrays.toString(size));
		Buffer.requireLength(o, 2L * pixels(size), "walsh out (one complex image of " + Arrays.toString(size) + ")");
		requireCoils(in, coils, o, "walsh");
		requireDisjoint(in, o, "walsh: out must not overlap the coil images");
		CoilMaths.walsh(Complex.of(in), size, coils, Complex.of(o), this::rows);
	}

	@Override
	public SparseMatrix sparse(final int rows, final int columns, final int entriesPerRow, final int[] index,
		final double[] weights, final Precision precision)
	{
		ensureOpen();
		SparseMatrix.check(rows, columns, entriesPerRow, index, weights);
		return new CpuSparse(this, rows, columns, entriesPerRow, index.clone(), weights.clone(), precision);
	}

	@Override
	public void apply(final SparseMatrix a, final Buffer x, final Buffer y) {
		final CpuSparse m = sparseOf(a, "apply");
		final CpuBuffer in = own(x, "apply x", m.precision()), out = own(y, "apply y", m.precision());
		final int t = SparseMatrix.batch(a, x, y);
		requireDisjoint(in, out, "apply: y must not overlap x");
		final int k = m.entriesPerRow(), cols = m.columns(), rowsN = m.rows();
		rows(rowsN, r -> {
			for (int b = 0; b < t; b++) {
				final int xo = 2 * b * cols;
				double re = 0, im = 0;
				for (int e = r * k; e < r * k + k; e++) {
					final int c = m.index[e];
					if (c < 0) continue;
					final double wr = m.weights[2 * e], wi = m.weights[2 * e + 1];
					final double xr = in.get(xo + 2 * c), xi = in.get(xo + 2 * c + 1);
					re += wr * xr - wi * xi;
					im += wr * xi + wi * xr;
				}
				out.set(2 * (b * rowsN + r), re);
				out.set(2 * (b * rowsN + r) + 1, im);
			}
		});
	}

	@Override
	public void applyAdjoint(final SparseMatrix a, final Buffer y, final Buffer x) {
		final CpuSparse m = sparseOf(a, "applyAdjoint");
		final CpuBuffer in = own(y, "applyAdjoint y", m.precision()), out = own(x, "applyAdjoint x", m.precision());
		final int t = SparseMatrix.batch(a, x, y);
		requireDisjoint(in, out, "applyAdjoint: x must not overlap y");
		final int k = m.entriesPerRow(), cols = m.columns(), rowsN = m.rows();
		// One vector per task (the vectors shared out among the workers): its scatter is serial, so the sums run in row
		// order (deterministic), in double — straight into a double buffer, through a per-thread scratch for a float one.
		workers.ranges(t, (w, from, to) -> {
			for (int b = from; b < to; b++) {
				final int yo = 2 * b * rowsN;
				final double[] acc;
				final int ao;
				if (out.d != null) {
					acc = out.d;
					ao = out.offset + 2 * b * cols;
				}
				else {
					acc = scatterScratch(2 * cols);
					ao = 0;
				}
				Arrays.fill(acc, ao, ao + 2 * cols, 0);
				for (int r = 0; r < rowsN; r++) {
					final double yr = in.get(yo + 2 * r), yi = in.get(yo + 2 * r + 1);
					for (int e = r * k; e < r * k + k; e++) {
						final int c = m.index[e];
						if (c < 0) continue;
						final double wr = m.weights[2 * e], wi = m.weights[2 * e + 1];
						acc[ao + 2 * c] += wr * yr + wi * yi;
						acc[ao + 2 * c + 1] += wr * yi - wi * yr;
					}
				}
				if (out.f != null) {
					final float[] o = out.f;
					final int base = out.offset + 2 * b * cols;
					for (int i = 0; i < 2 * cols; i++) o[base + i] = (float) acc[i];
				}
			}
		});
	}

	/** Per worker thread: a reusable double scratch of at least n values (applyAdjoint into float buffers). */
	private final ThreadLocal<double[]> scratch = ThreadLocal.withInitial(() -> new double[0]);

	private double[] scatterScratch(final int n) {
		double[] a = scratch.get();
		if (a.length < n) {
			a = new double[n];
			scratch.set(a);
		}
		return a;
	}

	/** Fails with {@code message} when a and b share storage. */
	private static void requireDisjoint(final CpuBuffer a, final CpuBuffer b, final String message) {
		InvalidInputException.require(a != b && (a.f != b.f || a.d != b.d || a.offset >= b.offset + b.length ||
			b.offset >= a.offset + a.length), message);
	}

	private CpuSparse sparseOf(final SparseMatrix a, final String op) {
		ensureOpen();
		InvalidInputException.require(a instanceof CpuSparse && ((CpuSparse) a).backend == this, op + ": the sparse " +
			"matrix " + SparseMatrix.describe(a) + " belongs to another backend, not to " + name());
		final CpuSparse m = (CpuSparse) a;
		m.ensureOpen();
		return m;
	}

	@Override
	public void realToComplex(final Buffer real, final Buffer out) {
		final CpuBuffer r = own(real, "realToComplex real", null), o = own(out, "realToComplex out", r.precision());
		Buffer.requireLength(o, 2L * r.length, "realToComplex out (twice the real length)");
		// Backwards, so that a real vector held in the first half of out's own storage is read before overwritten.
		for (int i = r.length - 1; i >= 0; i--) {
			final double v = r.get(i);
			o.set(2 * i + 1, 0);
			o.set(2 * i, v);
		}
	}

	@Override
	public void complexToReal(final Buffer x, final Buffer out) {
		final CpuBuffer c = own(x, "complexToReal x", null), o = own(out, "complexToReal out", c.precision());
		requireComplex(c, "complexToReal x");
		Buffer.requireLength(o, c.length / 2, "complexToReal out (half the complex length)");
		for (int i = 0; i < o.length; i++) o.set(i, c.get(2 * i));
	}

	@Override
	public void copyCentred(final Buffer from, final int[] fromSize, final Buffer to, final int[] toSize) {
		final CpuBuffer f = own(from, "copyCentred from", null), t = own(to, "copyCentred to", f.precision());
		final org.nufftj.nufft.CentredBlock c = new org.nufftj.nufft.CentredBlock(f.length, fromSize, t.length, toSize);
		final CpuBuffer small = c.pad ? f : t, big = c.pad ? t : f;
		final int row = 2 * c.nx;
		for (long i = 0; i < c.transforms * c.smallPixels; i += c.nx) {
			final int s = small.offset + (int) (2 * i), b = big.offset + (int) (2 * c.bigIndex(i));
			if (small.f != null) {
				if (c.pad) System.arraycopy(small.f, s, big.f, b, row);
				else System.arraycopy(big.f, b, small.f, s, row);
			}
			else if (c.pad) System.arraycopy(small.d, s, big.d, b, row);
			else System.arraycopy(big.d, b, small.d, s, row);
		}
	}

	@Override
	public void fft(final Buffer x, final int[] size, final int sign) {
		fftOf(size).transform(fftBuffer(x, size, sign, "fft"), sign);
	}

	/** Pruned: the passes skip the lines that are zero on input ({@link CpuFft#transform(CpuBuffer, int, int[], boolean)}). */
	@Override
	public void fftFromBlock(final Buffer x, final int[] size, final int[] block, final int sign) {
		pruned(x, size, block, sign, true);
	}

	/** Pruned: the passes skip the lines that only feed values outside the block. */
	@Override
	public void fftToBlock(final Buffer x, final int[] size, final int[] block, final int sign) {
		pruned(x, size, block, sign, false);
	}

	/**
	 * Fused ({@link CpuFft#convolve}): the last axis's forward pass, the product with K and its inverse pass on each
	 * block of lines in the work arrays, instead of two passes and a product over the whole buffer.
	 */
	@Override
	public void convolveBlock(final Buffer x, final int[] size, final int[] block, final Buffer kernel) {
		CentredBlock.requireFits("convolveBlock", block, size);
		final CpuBuffer b = fftBuffer(x, size, -1, "convolveBlock"), k = own(kernel, "convolveBlock kernel", b
			.precision());
		Buffer.requireLength(k, 2 * pixels(size), "convolveBlock kernel (one complex array of " + Arrays.toString(size) +
			")");
		fftOf(size).convolve(b, block, k);
	}

	private void pruned(final Buffer x, final int[] size, final int[] block, final int sign, final boolean from) {
		final String what = from ? "fftFromBlock" : "fftToBlock";
		CentredBlock.requireFits(what, block, size);
		fftOf(size).transform(fftBuffer(x, size, sign, what), sign, block, from);
	}

	/** x as this backend's buffer of whole complex arrays of {@code size}, with sign ±1; fails naming what is wrong. */
	private CpuBuffer fftBuffer(final Buffer x, final int[] size, final int sign, final String what) {
		final CpuBuffer b = own(x, what, null);
		InvalidInputException.require(size.length >= 1 && size.length <= 3, what + ": expected 1 to 3 axes, found " +
			Arrays.toString(size));
		InvalidInputException.require(sign == -1 || sign == 1, what + ": sign must be -1 or +1, found " + sign);
		final long px = pixels(size);
		InvalidInputException.require(px > 0 && b.length % (2 * px) == 0, what + ": buffer of " + b.length +
			" values is not a whole number of complex arrays of " + Arrays.toString(size));
		return b;
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		synchronized (ffts) {
			ffts.clear();
		}
		workers.close();
	}

	@Override
	public String toString() { return name(); }

	// -- package: the plans' borrowed workers --

	Workers workers() {
		ensureOpen();
		return workers;
	}

	/** The buffer as this backend's, in {@code precision} (null: any); fails naming both when it is not. */
	CpuBuffer own(final Buffer b, final String what, final Precision precision) {
		InvalidInputException.require(b != null, what + ": buffer is null");
		if (!(b instanceof CpuBuffer) || b.backend() != this) {
			throw new InvalidInputException(what + ": the buffer belongs to backend " + b.backend().name() +
				", not to this backend " + name());
		}
		if (precision != null && b.precision() != precision) {
			throw new InvalidInputException(what + ": a " + b.precision().name().toLowerCase() + " buffer where " +
				precision.name().toLowerCase() + " is needed");
		}
		return (CpuBuffer) b;
	}

	// -- helpers --

	/** 0: a·b, 1: a·conj(b), 2: a / b (0 where b = 0); b broadcast over a's batch. */
	private void complexOp(final Buffer a, final Buffer b, final Buffer out, final String name, final int op) {
		final CpuBuffer x = own(a, name + " a", null), y = own(b, name + " b", x.precision());
		final CpuBuffer o = own(out, name + " out", x.precision());
		requireComplex(x, name + " a");
		requireComplex(y, name + " b");
		InvalidInputException.require(y.length > 0 && x.length % y.length == 0, name + ": a of " + x.length +
			" values is not a whole number of copies of b of " + y.length);
		Buffer.requireLength(o, x.length, name + " out (the length of a)");
		final int period = y.length / 2;
		each(x.length / 2, (from, to) -> {
			for (int i = from, j = from % period; i < to; i++, j = j + 1 == period ? 0 : j + 1) { // j = i mod period
				final double ar = x.get(2 * i), ai = x.get(2 * i + 1);
				double br = y.get(2 * j), bi = y.get(2 * j + 1);
				if (op == 1) bi = -bi;
				final double re, im;
				if (op == 2) {
					final double m = br * br + bi * bi;
					if (m == 0) {
						re = 0;
						im = 0;
					}
					else {
						re = (ar * br + ai * bi) / m;
						im = (ai * br - ar * bi) / m;
					}
				}
				else {
					re = ar * br - ai * bi;
					im = ar * bi + ai * br;
				}
				o.set(2 * i, re);
				o.set(2 * i + 1, im);
			}
		});
	}

	private interface Span {
		void run(int from, int to);
	}

	/**
	 * body(from, to) over [0, n): in one call when n is small, else on the workers in ranges. Each operation's loop
	 * over its elements is its own (one call per range, not per element: a call per element through one shared
	 * interface site is not inlined, and cost the element-wise operations of an iterative solve 3–4× their time).
	 */
	private void each(final int n, final Span body) {
		if (n < PARALLEL) {
			body.run(0, n);
			return;
		}
		workers.ranges(n, (w, from, to) -> body.run(from, to));
	}

	private void rows(final int n, final java.util.function.IntConsumer row) {
		workers.ranges(n, (w, from, to) -> {
			for (int i = from; i < to; i++) row.accept(i);
		});
	}

	private synchronized CpuFft fftOf(final int[] size) {
		ensureOpen();
		synchronized (ffts) {
			return ffts.computeIfAbsent(Arrays.toString(size), k -> new CpuFft(size, workers));
		}
	}

	private static void requireComplex(final CpuBuffer b, final String what) {
		InvalidInputException.require(b.length % 2 == 0, what + ": a complex buffer needs an even length, found " +
			b.length);
	}

	private static void requireCoils(final CpuBuffer in, final int coils, final CpuBuffer out, final String what) {
		InvalidInputException.require(coils >= 1 && in.length == (long) coils * out.length, what + ": coil images of " +
			in.length + " values are not " + coils + " coils x the " + out.length + " values of out");
		requireComplex(out, what + " out");
	}

	private static void requireRange(final int arrayLength, final int offset, final int length, final String what) {
		InvalidInputException.require(offset >= 0 && (long) offset + length <= arrayLength, what + ": values [" +
			offset + ", " + ((long) offset + length) + ") do not fit an array of " + arrayLength);
	}

	private static long pixels(final int[] size) {
		long p = 1;
		for (final int n : size) p *= n;
		return p;
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("CPU backend is closed");
	}
}
