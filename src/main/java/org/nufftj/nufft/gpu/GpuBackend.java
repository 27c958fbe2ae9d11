package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jcuda.Pointer;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

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
 * The {@link Backend} of one GPU: buffers in its memory ({@link GpuBuffer}), vector operations as CUDA kernels
 * (kernels/vector.cu, {@link GpuVectorKernels}), FFTs by cuFFT ({@link GpuFfts}) and NUFFT plans
 * ({@link GpuNufftPlan}), all queued in order on one stream. It owns one {@link GpuDevice} (primary context, kernel
 * modules), the stream, pinned staging for transfers, the cuFFT plans, a few reduction accumulators and the buffers it
 * made that are still open; {@link #close()} frees them all. Use from one thread at a time.
 */
public final class GpuBackend implements Backend {

	/**
	 * Walsh's window (pixels per side) and power iterations: those of {@link org.nufftj.nufft.cpu.CoilMaths} (WINDOW,
	 * POWER_ITERATIONS), which the host combination uses.
	 */
	static final int WALSH_WINDOW = org.nufftj.nufft.cpu.CoilMaths.WINDOW,
		WALSH_POWER_ITERATIONS = org.nufftj.nufft.cpu.CoilMaths.POWER_ITERATIONS;

	private final GpuDevice device;
	private final boolean ownsDevice;
	private final CUstream stream = new CUstream();
	private final GpuVectorKernels kernels;
	private final GpuFfts ffts;
	private final Set<DeviceArray> owned = Collections.newSetFromMap(new IdentityHashMap<>());
	private final Set<NufftPlan> plans = Collections.newSetFromMap(new IdentityHashMap<>());
	private PinnedStaging staging;
	private DeviceArray accumulators;
	/** Host threads of the plans' Java-array copies (HostMirror), made on first use; idle threads end after 10 s. */
	private ThreadPoolExecutor copyPool;
	private boolean closed;

	/**
	 * Opens GPU {@code ordinal} as a backend. Throws {@link GpuException} with the reason (no driver, no such GPU, no
	 * usable cuFFT, a kernel module that does not load on it); never a linkage error.
	 */
	public static GpuBackend open(final int ordinal) {
		final GpuDevice device;
		try {
			device = new GpuDevice(ordinal);
		}
		catch (final LinkageError e) {
			throw new GpuException("GPU engine not usable: CUDA libraries did not load (" + Cuda.brief(e) + ")", e);
		}
		return new GpuBackend(device, true);
	}

	/**
	 * A backend on {@code device}: owned (closed with the backend) or borrowed (the caller keeps it open for at least
	 * the backend's life). On failure an owned device is closed before the exception propagates.
	 */
	GpuBackend(final GpuDevice device, final boolean ownsDevice) {
		this.device = device;
		this.ownsDevice = ownsDevice;
		boolean ok = false;
		try {
			final CufftLoader.Status fft = CufftLoader.status();
			if (!fft.usable && GpuFfts.requested() == GpuFfts.Engine.CUFFT) {
				throw new GpuException("GPU backend asked for cuFFT (nufftj.fft / NUFFTJ_FFT = cufft): " + fft.description);
			}
			device.makeCurrent();
			// The modules every plan and vector operation launches from: a device that cannot run them fails here, so
			// that device=auto falls back to the CPU when the backend is opened (spread_radial loads on first use).
			device.load(GpuVectorKernels.MODULE, "deapodize", "interp", "spread", "setpts");
			if (GpuFfts.useOwn()) device.load(GpuOwnFft.MODULE);
			check(JCudaDriver.cuStreamCreate(stream, 0), "cuStreamCreate");
			ok = true;
		}
		catch (final LinkageError e) {
			throw new GpuException("GPU engine not usable: CUDA libraries did not load (" + Cuda.brief(e) + ")", e);
		}
		finally {
			if (!ok && ownsDevice) device.close();
		}
		kernels = new GpuVectorKernels(device, stream);
		ffts = new GpuFfts(device, stream);
	}

	// -- identity --

	@Override
	public String name() {
		return "gpu " + device.ordinal() + ": " + device.name();
	}

	@Override
	public DeviceChoice device() {
		return DeviceChoice.gpu(device.ordinal());
	}

	/**
	 * Device name, compute capability, memory, driver and cuFFT versions (keys of tuning wisdom); "own FFT" instead of
	 * the cuFFT version when this backend's transforms run on the own kernels (their timings differ).
	 */
	@Override
	public String identity() {
		final int[] v = new int[1];
		check(JCudaDriver.cuDriverGetVersion(v), "cuDriverGetVersion");
		return "gpu: " + device.name() + ", sm " + device.computeCapability() + ", " + (device.totalMemory() >> 20) +
			" MiB, driver CUDA " + v[0] / 1000 + "." + v[0] % 1000 / 10 + (ffts.isOwn() ? ", own FFT" : ", cuFFT " +
				CufftLoader.status().version);
	}

	/**
	 * The heuristic's method, then atomic spreading, shared-memory spreading with each bin of
	 * {@link GpuHeuristics#tuningBins} that fits the device, and (2D) output-driven spreading.
	 */
	@Override
	public java.util.List<NufftOptions> variants(final NufftParameters p, final NufftOptions options) {
		final java.util.List<NufftOptions> out = new ArrayList<>();
		final NufftOptions base = options.withBins(null);
		out.add(base.withSpreadMethod(org.nufftj.nufft.SpreadMethod.AUTO));
		out.add(base.withSpreadMethod(org.nufftj.nufft.SpreadMethod.ATOMIC));
		final int cbytes = p.precision() == Precision.DOUBLE ? 16 : 8;
		for (final int[] b : GpuHeuristics.tuningBins(p.dimensions(), p.width(), cbytes, device.sharedMemoryOptin()))
			out.add(base.withSpreadMethod(org.nufftj.nufft.SpreadMethod.SHARED).withBins(b));
		if (p.dimensions() == 2) out.add(base.withSpreadMethod(org.nufftj.nufft.SpreadMethod.OUTPUT_DRIVEN));
		return out;
	}

	/** The GPU this backend runs on. */
	public GpuDevice gpu() { return device; }

	/** The stream every operation and plan of this backend is queued on. */
	public CUstream stream() { return stream; }

	// -- plans --

	/**
	 * A GPU NUFFT plan on this backend's device and stream; parameters chosen for a GPU
	 * ({@link ParameterChoice#choose} with this device, whatever device the options name).
	 */
	@Override
	public NufftPlan plan(final int[] imageSize, final NufftOptions options) {
		if (options.evaluation() != NufftOptions.Evaluation.MATRIX) return gpuPlan(imageSize, options);
		ensureOpen();
		return org.nufftj.nufft.MatrixNufftPlan.of(this, imageSize, options);
	}

	/** {@link #plan} with the GPU engine's kernels (any evaluation but the matrix), as its own type. */
	public GpuNufftPlan gpuPlan(final int[] imageSize, final NufftOptions options) {
		ensureOpen();
		InvalidInputException.require(imageSize.length == 2 || imageSize.length == 3,
			"image size: expected 2 or 3 axes, found " + imageSize.length);
		final NufftOptions o = options.withDevice(device());
		return new GpuNufftPlan(this, ParameterChoice.choose(imageSize, o), o, o.bins());
	}

	/** A {@link GpuExactPlan}: the direct sums of kernels/exact.cu on this backend's device and stream. */
	@Override
	public GpuExactPlan exactPlan(final int[] imageSize, final Precision precision) {
		ensureOpen();
		return new GpuExactPlan(this, imageSize, precision);
	}

	// -- buffers --

	@Override
	public GpuBuffer allocate(final long length, final Precision precision) {
		ensureOpen();
		InvalidInputException.require(length >= 0, "buffer length: expected >= 0, found " + length);
		device.makeCurrent();
		final int size = precision == Precision.DOUBLE ? 8 : 4;
		final DeviceArray a = new DeviceArray(length * size, "buffer of " + length + " " + precision.name()
			.toLowerCase() + " values");
		owned.add(a);
		check(JCudaDriver.cuMemsetD8Async(a.pointer(), (byte) 0, a.bytes(), stream), "cuMemsetD8Async(new buffer, " +
			a.bytes() + " B)");
		return new GpuBuffer(this, precision, a, 0, length, true);
	}

	@Override
	public GpuBuffer wrap(final float[] array) {
		final GpuBuffer b = allocate(array.length, Precision.FLOAT);
		write(array, 0, b);
		return b;
	}

	@Override
	public GpuBuffer wrap(final double[] array) {
		final GpuBuffer b = allocate(array.length, Precision.DOUBLE);
		write(array, 0, b);
		return b;
	}

	@Override
	public void write(final float[] src, final int srcOffset, final Buffer dst) {
		upload(PinnedStaging.Host.of(src), src.length, srcOffset, Precision.FLOAT, dst);
	}

	@Override
	public void write(final double[] src, final int srcOffset, final Buffer dst) {
		upload(PinnedStaging.Host.of(src), src.length, srcOffset, Precision.DOUBLE, dst);
	}

	@Override
	public void read(final Buffer src, final float[] dst, final int dstOffset) {
		download(src, PinnedStaging.Host.of(dst), dst.length, dstOffset, Precision.FLOAT);
	}

	@Override
	public void read(final Buffer src, final double[] dst, final int dstOffset) {
		download(src, PinnedStaging.Host.of(dst), dst.length, dstOffset, Precision.DOUBLE);
	}

	@Override
	public void synchronize() {
		ensureOpen();
		device.makeCurrent();
		check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (" + name() + ")");
	}

	// -- vector operations --

	@Override
	public void fill(final Buffer x, final double re, final double im) {
		final GpuBuffer g = mine(x, "fill: x");
		requireComplex(g, "fill: x");
		current();
		kernels.fill(g.isDouble(), g.pointer(), g.length() / 2, re, im);
	}

	@Override
	public void copy(final Buffer src, final Buffer dst) {
		final GpuBuffer s = mine(src, "copy: src"), d = mine(dst, "copy: dst");
		samePrecision(s, "copy: src", d, "copy: dst");
		sameLength(s, "copy: src", d, "copy: dst");
		current();
		if (s.length() == 0 || s.address() == d.address()) return;
		check(JCudaDriver.cuMemcpyDtoDAsync(d.pointer(), s.pointer(), s.length() * s.bytesPerValue(), stream),
			"cuMemcpyDtoDAsync(copy, " + s.length() + " values)");
	}

	@Override
	public void scale(final Buffer x, final double a) {
		final GpuBuffer g = mine(x, "scale: x");
		current();
		kernels.scale(g.isDouble(), g.pointer(), g.length(), a);
	}

	@Override
	public void axpby(final double a, final Buffer x, final double b, final Buffer y) {
		final GpuBuffer gx = mine(x, "axpby: x"), gy = mine(y, "axpby: y");
		samePrecision(gx, "axpby: x", gy, "axpby: y");
		sameLength(gx, "axpby: x", gy, "axpby: y");
		current();
		kernels.axpby(gx.isDouble(), gx.length(), a, gx.pointer(), b, gy.pointer());
	}

	@Override
	public SparseMatrix sparse(final int rows, final int columns, final int entriesPerRow, final int[] index,
		final double[] weights, final Precision precision)
	{
		ensureOpen();
		SparseMatrix.check(rows, columns, entriesPerRow, index, weights);
		// Transposed to [entry][row], so that neighbouring threads (rows) read neighbouring table values.
		final int k = entriesPerRow;
		final int[] it = new int[index.length];
		final double[] wt = new double[weights.length];
		for (int r = 0; r < rows; r++)
			for (int e = 0; e < k; e++) {
				final int from = r * k + e, to = e * rows + r;
				it[to] = index[from];
				wt[2 * to] = weights[2 * from];
				wt[2 * to + 1] = weights[2 * from + 1];
			}
		current();
		DeviceArray ix = null;
		try {
			ix = DeviceArray.of(it, "sparse matrix indices");
			final DeviceArray w;
			if (precision == Precision.DOUBLE) w = DeviceArray.of(wt, "sparse matrix weights");
			else {
				final float[] f = new float[wt.length];
				for (int i = 0; i < f.length; i++) f[i] = (float) wt[i];
				w = DeviceArray.of(f, "sparse matrix weights");
			}
			owned.add(ix);
			owned.add(w);
			return new GpuSparse(this, rows, columns, k, ix, w, precision);
		}
		catch (final RuntimeException e) {
			if (ix != null && !owned.contains(ix)) ix.close();
			throw e;
		}
	}

	@Override
	public void apply(final SparseMatrix a, final Buffer x, final Buffer y) {
		final GpuSparse m = sparseOperands("apply", a, x, "x", y, "y");
		kernels.sparseApply(m.precision() == Precision.DOUBLE, m.index.pointer(), m.weights.pointer(),
			((GpuBuffer) x).pointer(), ((GpuBuffer) y).pointer(), m.rows(), m.entriesPerRow(), m.columns(),
			SparseMatrix.batch(a, x, y));
	}

	@Override
	public void applyAdjoint(final SparseMatrix a, final Buffer y, final Buffer x) {
		final GpuSparse m = sparseOperands("applyAdjoint", a, y, "y", x, "x");
		kernels.sparseApplyAdjoint(m.precision() == Precision.DOUBLE, m.index.pointer(), m.weights.pointer(),
			((GpuBuffer) y).pointer(), ((GpuBuffer) x).pointer(), m.rows(), m.entriesPerRow(), m.columns(),
			SparseMatrix.batch(a, x, y));
	}

	/** Checks a sparse product's matrix and buffers (this backend, one precision, no overlap); makes the device current. */
	private GpuSparse sparseOperands(final String op, final SparseMatrix a, final Buffer in, final String inName,
		final Buffer out, final String outName)
	{
		ensureOpen();
		InvalidInputException.require(a instanceof GpuSparse && ((GpuSparse) a).backend == this, op + ": the sparse " +
			"matrix " + SparseMatrix.describe(a) + " belongs to another backend, not to " + this);
		final GpuSparse m = (GpuSparse) a;
		m.ensureOpen();
		final GpuBuffer gi = mine(in, op + ": " + inName), go = mine(out, op + ": " + outName);
		for (final GpuBuffer g : new GpuBuffer[] { gi, go }) {
			if (g.precision() != m.precision()) {
				throw new InvalidInputException(op + ": a " + g.precision().name().toLowerCase() + " buffer, the sparse " +
					"matrix is " + m.precision().name().toLowerCase());
			}
		}
		final long bytes = gi.isDouble() ? 8 : 4;
		InvalidInputException.require(gi.address() >= go.address() + go.length() * bytes || go.address() >=
			gi.address() + gi.length() * bytes, op + ": " + outName + " must not overlap " + inName);
		current();
		return m;
	}

	@Override
	public double[] dot(final Buffer x, final Buffer y) {
		final GpuBuffer gx = mine(x, "dot: x"), gy = mine(y, "dot: y");
		samePrecision(gx, "dot: x", gy, "dot: y");
		sameLength(gx, "dot: x", gy, "dot: y");
		requireComplex(gx, "dot: x");
		current();
		final DeviceArray acc = accumulators(2);
		kernels.dot(gx.isDouble(), gx.pointer(), gy.pointer(), gx.length() / 2, acc.pointer());
		return readAccumulators(acc, 2);
	}

	@Override
	public double norm(final Buffer x) {
		final GpuBuffer g = mine(x, "norm: x");
		current();
		final DeviceArray acc = accumulators(1);
		kernels.norm2(g.isDouble(), g.pointer(), g.length(), acc.pointer());
		return Math.sqrt(readAccumulators(acc, 1)[0]);
	}

	@Override
	public void multiply(final Buffer a, final Buffer b, final Buffer out) {
		elementwise("multiply", a, b, out, false);
	}

	@Override
	public void multiplyConjugate(final Buffer a, final Buffer b, final Buffer out) {
		elementwise("multiplyConjugate", a, b, out, true);
	}

	@Override
	public void divide(final Buffer a, final Buffer b, final Buffer out) {
		final GpuBuffer[] g = broadcastOperands("divide", a, b, out, 2);
		kernels.divide(g[0].isDouble(), g[0].pointer(), g[1].pointer(), g[2].pointer(), g[0].length() / 2,
			g[1].length() / 2);
	}

	@Override
	public void multiplyReal(final Buffer a, final Buffer w, final Buffer out) {
		final GpuBuffer[] g = broadcastOperands("multiplyReal", a, w, out, 1);
		kernels.multiplyReal(g[0].isDouble(), g[0].pointer(), g[1].pointer(), g[2].pointer(), g[0].length() / 2,
			g[1].length());
	}

	@Override
	public void softThreshold(final Buffer x, final double tau, final Buffer out) {
		final GpuBuffer gx = mine(x, "softThreshold: x"), go = mine(out, "softThreshold: out");
		samePrecision(gx, "softThreshold: x", go, "softThreshold: out");
		InvalidInputException.require(gx.length() % 2 == 0, "softThreshold: x holds " + gx.length() +
			" values, expected an even number (complex)");
		Buffer.requireLength(go, gx.length(), "softThreshold: out (the length of x)");
		InvalidInputException.require(tau >= 0 && Double.isFinite(tau), "softThreshold: tau is " + tau +
			", expected a finite number >= 0");
		current();
		kernels.softThreshold(gx.isDouble(), gx.pointer(), go.pointer(), gx.length() / 2, tau);
	}

	@Override
	public void sumBatch(final Buffer x, final int batch, final Buffer out) {
		final GpuBuffer gx = mine(x, "sumBatch: x"), go = mine(out, "sumBatch: out");
		samePrecision(gx, "sumBatch: x", go, "sumBatch: out");
		InvalidInputException.require(batch >= 1 && gx.length() % batch == 0, "sumBatch: batch " + batch +
			" does not divide x's " + gx.length() + " values");
		Buffer.requireLength(go, gx.length() / batch, "sumBatch: out (x / batch " + batch + ")");
		current();
		kernels.sumBatch(gx.isDouble(), gx.pointer(), go.pointer(), go.length(), batch);
	}

	@Override
	public void sumOfSquares(final Buffer images, final int coils, final Buffer out) {
		final GpuBuffer gi = mine(images, "sumOfSquares: images"), go = mine(out, "sumOfSquares: out");
		samePrecision(gi, "sumOfSquares: images", go, "sumOfSquares: out");
		final long pixels = coilPixels(gi, coils, "sumOfSquares");
		Buffer.requireLength(go, 2 * pixels, "sumOfSquares: out (" + pixels + " complex pixels)");
		current();
		kernels.sumOfSquares(gi.isDouble(), gi.pointer(), go.pointer(), pixels, coils);
	}

	@Override
	public void walsh(final Buffer images, final int[] size, final int coils, final Buffer out) {
		final GpuBuffer gi = mine(images, "walsh: images"), go = mine(out, "walsh: out");
		samePrecision(gi, "walsh: images", go, "walsh: out");
		InvalidInputException.require(size.length == 2 || size.length == 3, "walsh: image size has " + size.length +
			" axes, expected 2 or 3");
		long pixels = 1;
		for (final int n : size) {
			InvalidInputException.require(n >= 1, "walsh: image size " + java.util.Arrays.toString(size) +
				" has an axis < 1");
			pixels *= n;
		}
		InvalidInputException.require(coils >= 1, "walsh: coils " + coils + " < 1");
		InvalidInputException.require(pixels <= Integer.MAX_VALUE, "walsh: " + pixels + " pixels exceed 2^31 - 1");
		Buffer.requireLength(gi, 2 * pixels * coils, "walsh: images (" + coils + " coils x " + pixels + " pixels)");
		Buffer.requireLength(go, 2 * pixels, "walsh: out (" + pixels + " pixels)");
		final String why = GpuVectorKernels.walshUnsupported(coils, gi.isDouble(), device.sharedMemoryOptin());
		if (why != null) throw new InvalidInputException(why + " (on " + name() + ")");
		current();
		final DeviceArray energy = accumulators(coils);
		kernels.coilEnergy(gi.isDouble(), gi.pointer(), energy.pointer(), pixels, coils);
		kernels.walsh(gi.isDouble(), gi.pointer(), energy.pointer(), go.pointer(), size, coils, WALSH_WINDOW / 2,
			WALSH_POWER_ITERATIONS);
	}

	@Override
	public void realToComplex(final Buffer real, final Buffer out) {
		final GpuBuffer gr = mine(real, "realToComplex: real"), go = mine(out, "realToComplex: out");
		samePrecision(gr, "realToComplex: real", go, "realToComplex: out");
		Buffer.requireLength(go, 2 * gr.length(), "realToComplex: out (2 x real's " + gr.length() + ")");
		current();
		kernels.realToComplex(gr.isDouble(), gr.pointer(), go.pointer(), gr.length());
	}

	@Override
	public void complexToReal(final Buffer x, final Buffer out) {
		final GpuBuffer gx = mine(x, "complexToReal: x"), go = mine(out, "complexToReal: out");
		samePrecision(gx, "complexToReal: x", go, "complexToReal: out");
		requireComplex(gx, "complexToReal: x");
		Buffer.requireLength(go, gx.length() / 2, "complexToReal: out (half x's " + gx.length() + ")");
		current();
		kernels.complexToReal(gx.isDouble(), gx.pointer(), go.pointer(), go.length());
	}

	@Override
	public void copyCentred(final Buffer from, final int[] fromSize, final Buffer to, final int[] toSize) {
		final GpuBuffer f = mine(from, "copyCentred: from"), t = mine(to, "copyCentred: to");
		samePrecision(f, "copyCentred: from", t, "copyCentred: to");
		final org.nufftj.nufft.CentredBlock c = new org.nufftj.nufft.CentredBlock(f.length(), fromSize, t.length(),
			toSize);
		current();
		kernels.copyCentred(f.isDouble(), c.pad ? f.pointer() : t.pointer(), c.pad ? t.pointer() : f.pointer(), c);
	}

	@Override
	public void fft(final Buffer x, final int[] size, final int sign) {
		final GpuBuffer g = mine(x, "fft: x");
		final long batch = fftBatch(g, size, sign);
		current();
		ffts.execute(g.pointer(), size, (int) batch, g.isDouble(), sign);
	}

	/** The number of arrays of {@code size} in g, after checking the sign, the size and g's length. */
	private static long fftBatch(final GpuBuffer g, final int[] size, final int sign) {
		InvalidInputException.require(sign == -1 || sign == 1, "fft: sign " + sign + ", expected -1 or +1");
		InvalidInputException.require(size.length >= 1 && size.length <= 3, "fft: size has " + size.length +
			" axes, expected 1 to 3");
		long pixels = 1;
		for (final int n : size) {
			InvalidInputException.require(n >= 1, "fft: size " + java.util.Arrays.toString(size) + " has an axis < 1");
			pixels *= n;
		}
		InvalidInputException.require(g.length() > 0 && g.length() % (2 * pixels) == 0, "fft: buffer of " + g.length() +
			" values is not a whole number >= 1 of complex arrays of " + java.util.Arrays.toString(size));
		final long batch = g.length() / (2 * pixels);
		InvalidInputException.require(pixels <= Integer.MAX_VALUE && batch <= Integer.MAX_VALUE, "fft: " + pixels +
			" pixels x " + batch + " arrays exceed cuFFT's 32-bit sizes");
		return batch;
	}

	/** {@inheritDoc} With the own FFT, the passes skip the lines that are zero on input (cuFFT: the full transform). */
	@Override
	public void fftFromBlock(final Buffer x, final int[] size, final int[] block, final int sign) {
		pruned(x, size, block, sign, false);
	}

	/** {@inheritDoc} With the own FFT, the passes skip the lines that only feed discarded output (cuFFT: full). */
	@Override
	public void fftToBlock(final Buffer x, final int[] size, final int[] block, final int sign) {
		pruned(x, size, block, sign, true);
	}

	private void pruned(final Buffer x, final int[] size, final int[] block, final int sign, final boolean toBlock) {
		CentredBlock.requireFits(toBlock ? "fftToBlock" : "fftFromBlock", block, size);
		final GpuBuffer g = mine(x, "fft: x");
		final long batch = fftBatch(g, size, sign);
		final int[] start = new int[size.length];
		for (int a = 0; a < size.length; a++) start[a] = size[a] / 2 - block[a] / 2; // CentredBlock's offset
		current();
		ffts.execute(g.pointer(), size, (int) batch, g.isDouble(), sign, start, block.clone(), toBlock);
	}

	/**
	 * Frees everything made here and still open: plans (closed), buffers, cuFFT plans, accumulators, staging and
	 * stream, and the device when owned; idempotent. Callers close their plans and buffers first; what they left open
	 * is freed here rather than leaked.
	 */
	@Override
	public void close() {
		if (closed) return;
		closed = true; // first: a plan that owns this backend closes it again from its own close()
		try {
			device.makeCurrent();
			for (final NufftPlan p : new ArrayList<>(plans)) p.close();
			plans.clear();
			JCudaDriver.cuStreamSynchronize(stream);
			ffts.close();
			for (final DeviceArray a : new ArrayList<>(owned)) a.close();
			owned.clear();
			if (accumulators != null) accumulators.close();
			if (staging != null) staging.close();
			if (copyPool != null) copyPool.shutdown();
			JCudaDriver.cuStreamDestroy(stream);
		}
		finally {
			if (ownsDevice) device.close();
		}
	}

	@Override
	public String toString() {
		return name() + (closed ? " (closed)" : "");
	}

	// -- helpers: for this package --

	/** The buffer as one of this backend's, else an {@link InvalidInputException} naming {@code what} and both. */
	GpuBuffer mine(final Buffer b, final String what) {
		ensureOpen();
		if (!(b instanceof GpuBuffer) || b.backend() != this) {
			throw new InvalidInputException(what + ": " + b + " belongs to " + (b == null ? "nothing" : b.backend()) +
				", not to " + this);
		}
		return (GpuBuffer) b;
	}

	/** Frees an owned buffer's array (called by {@link GpuBuffer#close()}). */
	void free(final GpuBuffer b, final DeviceArray a) {
		free(String.valueOf(b), a);
	}

	/** Frees an owned array ({@code what} names its holder in a failure). */
	void free(final String what, final DeviceArray a) {
		if (closed || !owned.remove(a)) return; // freed with the backend already
		device.makeCurrent();
		// Queued work may still read or write the memory: wait for it before the memory can be handed out again.
		check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (freeing " + what + ")");
		a.close();
	}

	GpuVectorKernels kernels() { return kernels; }

	/** Registers a plan made on this backend (closed with it if still open). */
	void opened(final NufftPlan p) {
		plans.add(p);
	}

	/** Forgets a closed plan. */
	void closed(final NufftPlan p) {
		plans.remove(p);
	}

	void ensureOpen() {
		if (closed) throw new IllegalStateException(name() + " is closed");
	}

	// -- helpers --

	private void current() {
		device.makeCurrent();
	}

	private void elementwise(final String op, final Buffer a, final Buffer b, final Buffer out, final boolean conj) {
		final GpuBuffer[] g = broadcastOperands(op, a, b, out, 2);
		kernels.multiply(g[0].isDouble(), g[0].pointer(), g[1].pointer(), g[2].pointer(), g[0].length() / 2,
			g[1].length() / 2, conj);
	}

	/**
	 * Checks a ⊙ b → out: one backend and precision, a complex, out of a's length, b a period of a (values per
	 * element of b: 2 complex, 1 real) repeating a whole number of times. Makes the device current.
	 */
	private GpuBuffer[] broadcastOperands(final String op, final Buffer a, final Buffer b, final Buffer out,
		final int bValuesPerElement)
	{
		final GpuBuffer ga = mine(a, op + ": a"), gb = mine(b, op + ": b"), go = mine(out, op + ": out");
		samePrecision(ga, op + ": a", gb, op + ": b");
		samePrecision(ga, op + ": a", go, op + ": out");
		requireComplex(ga, op + ": a");
		sameLength(ga, op + ": a", go, op + ": out");
		final long period = gb.length() / bValuesPerElement * 2; // a's values per period of b
		InvalidInputException.require(gb.length() > 0 && gb.length() % bValuesPerElement == 0 &&
			ga.length() % period == 0, op + ": b of " + gb.length() + (bValuesPerElement == 2 ? " values (complex)" :
				" real values") + " does not repeat a whole number of times over a of " + ga.length() + " values");
		current();
		return new GpuBuffer[] { ga, gb, go };
	}

	private long coilPixels(final GpuBuffer images, final int coils, final String op) {
		InvalidInputException.require(coils >= 1 && images.length() % (2L * coils) == 0, op + ": images of " +
			images.length() + " values are not " + coils + " coils of complex pixels");
		return images.length() / (2L * coils);
	}

	private static void samePrecision(final GpuBuffer a, final String an, final GpuBuffer b, final String bn) {
		if (a.precision() != b.precision()) {
			throw new InvalidInputException(an + " is " + a.precision().name().toLowerCase() + ", " + bn + " is " +
				b.precision().name().toLowerCase() + ": operands of one call share one precision");
		}
	}

	private static void sameLength(final GpuBuffer a, final String an, final GpuBuffer b, final String bn) {
		if (a.length() != b.length()) {
			throw new InvalidInputException(an + " has " + a.length() + " values, " + bn + " has " + b.length() +
				": expected the same length");
		}
	}

	private static void requireComplex(final GpuBuffer b, final String what) {
		InvalidInputException.require(b.length() % 2 == 0, what + ": " + b.length() + " values is not a complex " +
			"vector (even length expected)");
	}

	private void upload(final PinnedStaging.Host src, final int srcLength, final int srcOffset, final Precision p,
		final Buffer dst)
	{
		final GpuBuffer d = mine(dst, "write: dst");
		if (d.precision() != p) {
			throw new InvalidInputException("write: a " + p.name().toLowerCase() + " array into a " + d.precision().name()
				.toLowerCase() + " buffer: operands of one call share one precision");
		}
		InvalidInputException.require(srcOffset >= 0 && srcOffset + d.length() <= srcLength, "write: " + d.length() +
			" values from offset " + srcOffset + " do not fit an array of " + srcLength);
		if (d.length() == 0) return;
		current();
		staging().upload(src, srcOffset, d.length(), d.isDouble(), d.pointer(), stream);
	}

	private void download(final Buffer src, final PinnedStaging.Host dst, final int dstLength, final int dstOffset,
		final Precision p)
	{
		final GpuBuffer s = mine(src, "read: src");
		if (s.precision() != p) {
			throw new InvalidInputException("read: a " + s.precision().name().toLowerCase() + " buffer into a " + p.name()
				.toLowerCase() + " array: operands of one call share one precision");
		}
		InvalidInputException.require(dstOffset >= 0 && dstOffset + s.length() <= dstLength, "read: " + s.length() +
			" values to offset " + dstOffset + " do not fit an array of " + dstLength);
		current();
		if (s.length() == 0) {
			synchronize();
			return;
		}
		staging().download(s.pointer(), dst, dstOffset, s.length(), s.isDouble(), stream);
	}

	/**
	 * Copies all of {@code dst}'s values from {@code src} through the pinned staging, which converts between the host
	 * array's and the buffer's precision (for plans whose array forms take either; {@link #write} refuses a mismatch).
	 */
	void writeConverting(final PinnedStaging.Host src, final GpuBuffer dst) {
		current();
		staging().upload(src, 0, dst.length(), dst.isDouble(), dst.pointer(), stream);
	}

	/** The reverse of {@link #writeConverting}: every value of {@code src} into {@code dst}; waits for queued work. */
	void readConverting(final GpuBuffer src, final PinnedStaging.Host dst) {
		current();
		staging().download(src.pointer(), dst, 0, src.length(), src.isDouble(), stream);
	}

	/**
	 * The host threads that copy the plans' Java arrays into and out of their pinned mirrors ({@link HostMirror}),
	 * {@link #copyThreads()} of them; first in first out (a mirror's units are queued in the order its DMAs want
	 * them), daemons.
	 */
	synchronized ThreadPoolExecutor copyPool() {
		if (copyPool == null) {
			final int n = copyThreads();
			final AtomicInteger count = new AtomicInteger();
			copyPool = new ThreadPoolExecutor(n, n, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
				final Thread t = new Thread(r, "nufftj-copy-" + device.ordinal() + "-" + count.incrementAndGet());
				t.setDaemon(true);
				return t;
			});
			copyPool.allowCoreThreadTimeOut(true);
		}
		return copyPool;
	}

	/**
	 * Threads of {@link #copyPool}: {@code nufftj.copyThreads} where it is a positive number, else 8, and at most one
	 * fewer than the processors (the caller's thread spins on CUDA events beside them). Not more: the copies and the
	 * DMA share the host's memory bandwidth. On the H200 machine (16 processors; docs/gpu-runs/2026-11-29/s6-call2-*),
	 * 64 MiB from a Java float[] to the device with the DMA overlapping the copies took 2.12 ms with 8 threads and 2.50
	 * with 15, and back 1.49 against 2.21 ms, though 15 threads copy alone faster (1.04 against 1.37 ms).
	 */
	static int copyThreads() {
		final int cpus = Runtime.getRuntime().availableProcessors();
		try {
			final int n = Integer.parseInt(System.getProperty("nufftj.copyThreads", "0").trim());
			if (n > 0) return n;
		}
		catch (final NumberFormatException e) {
			// the default below
		}
		return Math.max(1, Math.min(8, cpus - 1));
	}

	/** The backend's staging ring, made on first use: the plans' execute rings (GpuTransferBenchmark: 4 × 8 MiB). */
	private PinnedStaging staging() {
		if (staging == null) staging = new PinnedStaging(GpuNufftPlan.STAGING_SLICES, GpuNufftPlan.STAGING_SLICE_BYTES);
		return staging;
	}

	/** At least {@code count} double accumulators on the device. */
	private DeviceArray accumulators(final int count) {
		if (accumulators == null || accumulators.bytes() < 8L * count) {
			if (accumulators != null) {
				synchronize(); // a queued reduction may still write the old ones
				accumulators.close();
			}
			accumulators = new DeviceArray(8L * Math.max(count, 64), "reduction accumulators");
		}
		return accumulators;
	}

	private double[] readAccumulators(final DeviceArray acc, final int count) {
		final double[] out = new double[count];
		check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (reduction on " + name() + ")");
		check(JCudaDriver.cuMemcpyDtoH(Pointer.to(out), acc.pointer(), 8L * count), "cuMemcpyDtoH(" + count +
			" reduction results)");
		return out;
	}

	/** Buffers this backend made and has not freed (for tests of the bookkeeping). */
	int openBuffers() {
		return owned.size();
	}
}
