package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;
import static org.nufftj.nufft.gpu.Cuda.checkFft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;
import jcuda.jcufft.JCufft;
import jcuda.jcufft.cufftHandle;
import jcuda.jcufft.cufftType;
import jcuda.runtime.cudaStream_t;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.Kernels;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.StageTimes;
import org.nufftj.trajectory.RadialLines;
import org.nufftj.trajectory.Trajectory;

/**
 * The CUDA backend of {@link NufftPlan}: the same maths, scaling, layout, kernel and parameters as the CPU engine
 * (docs/gpu.md).
 * <p>
 * forward = pad·deapodize (fused, fftshift by index) → cuFFT C2C/Z2Z forward → interpolate (sorted, input-driven);
 * adjoint = spread (ATOMIC, SHARED, or OUTPUT_DRIVEN for 2D radial lines) → cuFFT inverse → crop·deapodize. Kernels
 * are evaluated online in CUDA with the formulas of org.nufftj.kernel; deapodization factors 1/ψ̂ come from
 * {@link Kernels#deapodization} (host, double).
 * Batches of T transforms run B at a time (cuFFT plan-many), B chosen so the grid, image, sample and FFT work buffers
 * fit the free device memory ({@link #predictDeviceBytes}).
 * </p>
 */
public final class GpuNufftPlan implements NufftPlan {

	static final int BLOCK = 256;
	/**
	 * Bins (tiles) of the shared-memory spreader, in order of preference: the first whose block (tile of (bin + W − 1)
	 * cells per axis plus the staged points) fits {@link #SHARED_TARGET} is used. Larger bins give each block more
	 * points for the same tile clearing and flushing; smaller ones let more blocks share an SM. Measured on the H100
	 * (docs/gpu-tuning.md): in 3D up to W = {@value #NARROW_3D}, 8×8×8 bins spread 1.2–1.5× faster than 16×16×8; at
	 * W = 8, 16×8×8 (three blocks per SM) 1.16× faster than 16×16×8 (two) and 8×8×8 (more flushing).
	 */
	static final int[][] BINS_2D = { { 32, 32 }, { 16, 16 } }, BINS_3D = { { 16, 8, 8 }, { 8, 8, 8 }, { 4, 4, 4 } },
		BINS_3D_NARROW = { { 8, 8, 8 }, { 4, 4, 4 } };
	static final int SHARED_TARGET = 96 * 1024, NARROW_3D = 7;
	/** Overrides the bin (e.g. {@code 16x8x8}) for tuning runs (GpuBenchmark labels such as {@code shared@16x8x8}). */
	static final String BINS_PROPERTY = "nufftj.gpu.bins";
	/** Most points one shared-memory subproblem (block) spreads: dense bins (radial centres) are split. */
	static final int MAX_SUBPROBLEM = 1024;
	/** Points staged per chunk by spread_tiles_* (TILE_CHUNK in kernels/spread.cu). */
	static final int TILE_CHUNK = 256;
	/** Cells per block of the output-driven spreader, per axis (RADIAL_BLOCK_X/Y in kernels/spread_radial.cu). */
	static final int RADIAL_BLOCK = 16;
	/**
	 * The seam for AUTO: whether it considers output-driven spreading for trajectories that are 2D radial lines
	 * ({@link #outputDrivenApplicable}). Off: on the H100 benchmark rows output-driven spreading was 6–50× slower than
	 * SHARED (docs/gpu-tuning.md).
	 */
	static final boolean AUTO_CONSIDERS_OUTPUT_DRIVEN = false;
	/** Device memory kept free for cuFFT plans, the context and other users. */
	static final long RESERVE_BYTES = 256L << 20;

	private final GpuDevice device;
	private final boolean ownsDevice;
	private final NufftParameters params;
	private final boolean dbl;
	private final int cbytes;
	private final int dims;
	private final int[] n0 = { 1, 1, 1 }, n = { 1, 1, 1 };
	private final long pixels, gridPoints;
	private final int width;
	private final GpuKernelSpec spec;
	/** The method the constructor resolved (OUTPUT_DRIVEN as asked: confirmed by {@link #setPoints}). */
	private final SpreadMethod planMethod;
	/** AUTO was asked (the plan may choose per trajectory: {@link #AUTO_CONSIDERS_OUTPUT_DRIVEN}). */
	private final boolean autoMethod;
	/** The method in use for the current points. */
	private SpreadMethod method;
	private final int[] binSize;
	private final CUstream stream = new CUstream();
	private final CUevent[] events = new CUevent[5];
	private final DeviceArray dx, dy, dz;
	private final Map<Integer, cufftHandle> ffts = new HashMap<>();
	private final StageTimes times = new StageTimes();
	private final List<DeviceArray> pointArrays = new ArrayList<>();

	private DeviceArray grid, image, samples;
	private PinnedStaging staging;
	private int capacity;
	private int m;
	private DeviceArray perm, ix, iy, iz, fx, fy, fz, subBin, subStart, subCount;
	/** Output-driven spreading: per-sample stencils, sorted spokes and their angles (null for other methods). */
	private DeviceArray radialFirst, radialOffset, radialSpokes, radialAngles;
	private GpuRadial radial;
	private int subproblems;
	private int[] binsPerAxis;
	private boolean closed;
	private int batchLimit = Integer.MAX_VALUE;

	/** A plan on its own {@link GpuDevice} (opened here, closed with the plan). */
	public static GpuNufftPlan create(final NufftParameters p, final NufftOptions o) {
		final GpuDevice d = new GpuDevice(o.device().ordinal());
		try {
			return new GpuNufftPlan(d, true, p, o);
		}
		catch (final RuntimeException e) {
			d.close();
			throw e;
		}
	}

	/**
	 * A plan on {@code device}; when {@code ownsDevice} the plan closes it, otherwise the caller keeps it open for at
	 * least the plan's life.
	 */
	public GpuNufftPlan(final GpuDevice device, final boolean ownsDevice, final NufftParameters p,
		final NufftOptions o)
	{
		final CufftLoader.Status fft = CufftLoader.status();
		if (!fft.usable) throw new GpuException("GPU NUFFT needs cuFFT: " + fft.description);
		this.device = device;
		this.ownsDevice = ownsDevice;
		this.params = p;
		this.dbl = p.precision() == Precision.DOUBLE;
		this.cbytes = dbl ? 16 : 8;
		this.dims = p.dimensions();
		final int[] is = p.imageSize(), gs = p.gridSize();
		for (int a = 0; a < dims; a++) {
			n0[a] = is[a];
			n[a] = gs[a];
		}
		pixels = p.imagePixels();
		gridPoints = p.gridPoints();
		final Kernel k = p.kernel();
		width = k.width();
		InvalidInputException.require(width <= 16, "GPU NUFFT: kernel width " + width + " > 16 is not supported");
		spec = new GpuKernelSpec(k, dbl);
		binSize = binSize(dims, width, cbytes, Math.min(SHARED_TARGET, device.sharedMemoryOptin()),
			System.getProperty(BINS_PROPERTY));
		autoMethod = o.spreadMethod() == SpreadMethod.AUTO;
		planMethod = resolveMethod(o.spreadMethod(), dims, sharedBytes(), device.sharedMemoryOptin());
		method = planMethod;
		device.makeCurrent();
		// The modules this plan launches from (others load on first use): a device that cannot run them fails here,
		// so that device=auto still falls back to the CPU when the plan is made.
		device.load("deapodize", "interp", planMethod == SpreadMethod.OUTPUT_DRIVEN ? "spread_radial" : "spread");
		boolean ok = false;
		DeviceArray ax = null, ay = null, az = null;
		try {
			check(JCudaDriver.cuStreamCreate(stream, 0), "cuStreamCreate");
			for (int i = 0; i < events.length; i++) {
				events[i] = new CUevent();
				check(JCudaDriver.cuEventCreate(events[i], 0), "cuEventCreate");
			}
			ax = deapodization(k, 0);
			ay = deapodization(k, 1);
			az = deapodization(k, 2);
			ok = true;
		}
		finally {
			if (!ok) {
				for (final DeviceArray a : new DeviceArray[] { ax, ay, az })
					if (a != null) a.close();
				releaseStreamAndEvents();
			}
		}
		dx = ax;
		dy = ay;
		dz = az;
	}

	// -- public API --

	@Override
	public int[] imageSize() { return params.imageSize(); }

	@Override
	public NufftParameters parameters() { return params; }

	@Override
	public String backend() {
		return "gpu " + device.ordinal() + ": " + device.name() + " (" + method.name().toLowerCase() + " spreading, " +
			(dbl ? "double" : "float") + ")";
	}

	/** The spreading method in use (AUTO resolved; for the current points once they are set). */
	public SpreadMethod spreadMethod() { return method; }

	/**
	 * Whether output-driven spreading can run on {@code t}: a 2D trajectory of radial lines ({@link RadialLines}:
	 * readout × shots, every shot uniformly spaced on a line through k = 0). The test AUTO would use
	 * ({@link #AUTO_CONSIDERS_OUTPUT_DRIVEN}).
	 */
	public static boolean outputDrivenApplicable(final Trajectory t) {
		return t.dimensions() == 2 && RadialLines.detect(t).isPresent();
	}

	public GpuDevice device() { return device; }

	@Override
	public void setPoints(final Trajectory t) {
		ensureOpen();
		InvalidInputException.require(t.dimensions() == dims, "GPU NUFFT: trajectory " + t.name() + " has " +
			t.dimensions() + " dimensions, the plan's image has " + dims);
		final int[] g = Arrays.copyOf(n, dims);
		// Output-driven needs radial lines: checked before anything is replaced (a refused trajectory leaves the plan's
		// points as they were).
		final RadialLines lines = linesFor(t);
		final GpuPoints pts = new GpuPoints(t, g, width, binSize, MAX_SUBPROBLEM); // the forward interpolation's bins
		final GpuRadial rad = lines == null ? null : new GpuRadial(lines, t, g, width);
		device.makeCurrent();
		freePoints();
		m = pts.count;
		perm = keep(DeviceArray.of(pts.perm, "sorted point order"));
		final DeviceArray[] firsts = new DeviceArray[3], offs = new DeviceArray[3];
		for (int a = 0; a < dims; a++) {
			firsts[a] = keep(DeviceArray.of(pts.first[a], "stencil start, axis " + a));
			offs[a] = keep(dbl ? DeviceArray.of(pts.offset[a], "kernel offset, axis " + a) :
				DeviceArray.of(floatOffsets(pts.offset[a], width), "kernel offset, axis " + a));
		}
		ix = firsts[0];
		iy = firsts[1];
		iz = firsts[2];
		fx = offs[0];
		fy = offs[1];
		fz = offs[2];
		subproblems = pts.subBin.length;
		subBin = keep(DeviceArray.of(pts.subBin, "subproblem bins"));
		subStart = keep(DeviceArray.of(pts.subStart, "subproblem starts"));
		subCount = keep(DeviceArray.of(pts.subCount, "subproblem counts"));
		binsPerAxis = pts.binsPerAxis;
		if (rad != null) {
			radialFirst = keep(DeviceArray.of(rad.first, "radial stencil starts"));
			radialOffset = keep(dbl ? DeviceArray.of(rad.offset, "radial kernel offsets") :
				DeviceArray.of(floatOffsets(rad.offset, width), "radial kernel offsets"));
			radialSpokes = keep(DeviceArray.of(rad.spokes, "radial spokes"));
			radialAngles = keep(DeviceArray.of(rad.angles, "radial spoke angles"));
			radial = rad;
		}
		method = rad != null ? SpreadMethod.OUTPUT_DRIVEN : planMethod;
	}

	@Override
	public int points() { return m; }

	@Override
	public void forward(final float[] img, final float[] smp) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		run(true, t, img, smp);
	}

	@Override
	public void adjoint(final float[] smp, final float[] img) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		run(false, t, img, smp);
	}

	@Override
	public void forward(final double[] img, final double[] smp) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		run(true, t, img, smp);
	}

	@Override
	public void adjoint(final double[] smp, final double[] img) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		run(false, t, img, smp);
	}

	@Override
	public StageTimes times() { return times; }

	/**
	 * Device bytes this plan needs to run {@code batch} transforms at once: grid, image and sample buffers, cuFFT work
	 * area (about one grid per transform), plus the points already set.
	 */
	public long predictDeviceBytes(final int batch) {
		return perTransformBytes() * batch + pointBytes();
	}

	/** How many transforms run at once for a call of {@code transforms}: as many as fit the free device memory. */
	public int chunkSize(final int transforms) {
		final long free = device.memoryInfo()[0] + heldBatchBytes();
		final long room = free - RESERVE_BYTES;
		final long fit = room / perTransformBytes();
		if (fit < 1) {
			throw new GpuException("GPU NUFFT: one transform needs " + (perTransformBytes() >> 20) + " MiB of device " +
				"memory (grid " + Arrays.toString(Arrays.copyOf(n, dims)) + ", " + m + " points), only " + (free >> 20) +
				" MiB are free on " + device.name());
		}
		return (int) Math.min(Math.min(transforms, fit), batchLimit);
	}

	/** Caps the transforms run at once (as if memory allowed no more); for tests of the chunked path. */
	public void limitBatch(final int transforms) {
		InvalidInputException.require(transforms >= 1, "batch limit: expected >= 1, found " + transforms);
		batchLimit = transforms;
	}

	/** Allocates device buffers for {@code batch} transforms at once (device-resident use). */
	public void reserve(final int batch) {
		ensureOpen();
		device.makeCurrent();
		if (batch <= capacity) return;
		freeBatchBuffers();
		grid = new DeviceArray(cbytes * gridPoints * batch, "fine grid x " + batch);
		image = new DeviceArray(cbytes * pixels * batch, "image x " + batch);
		samples = new DeviceArray(cbytes * (long) Math.max(m, 1) * batch, "samples x " + batch);
		capacity = batch;
	}

	/**
	 * Device-resident forward of {@code batch} ≤ reserved transforms: {@code img} and {@code smp} are device arrays
	 * in the plan's precision ([batch][pixels] and [batch][points] complex interleaved). Asynchronous on the plan's
	 * stream; {@link #synchronize()} waits.
	 */
	public void forwardDevice(final CUdeviceptr img, final CUdeviceptr smp, final int batch) {
		prepare(batch);
		record(0);
		launchDeapod("pad", img, batch); // writes every grid cell (zeros outside the image): no clearing pass
		record(1);
		fft(batch, JCufft.CUFFT_FORWARD);
		record(2);
		launchInterp(grid.pointer(), smp, batch);
		record(3);
	}

	/** Device-resident adjoint; as {@link #forwardDevice}. */
	public void adjointDevice(final CUdeviceptr smp, final CUdeviceptr img, final int batch) {
		prepare(batch);
		record(0);
		clearAndSpread(smp, grid.pointer(), batch);
		record(1);
		fft(batch, JCufft.CUFFT_INVERSE);
		record(2);
		launchDeapod("crop", img, batch);
		record(3);
	}

	/**
	 * The adjoint's first stage alone, for iterative methods on the oversampled grid (Pipe–Menon density
	 * compensation): g_b[l] = Σ_m s_b[m]·ψ(l − t_m) (periodic, t_m = k_m·n) with the plan's kernel ψ, spreading method
	 * and points; no FFT, no deapodization. {@code grid} is the caller's: {@code batch} grids of
	 * {@link NufftParameters#gridPoints()} cells, complex in the plan's precision, x fastest ([batch][grid]); it is
	 * cleared here first. {@code smp} is [batch][points] complex. Needs no {@link #reserve}; asynchronous on the plan's
	 * stream ({@link #synchronize()} waits).
	 */
	public void spreadDevice(final CUdeviceptr smp, final CUdeviceptr grid, final int batch) {
		prepareStage(batch);
		clearAndSpread(smp, grid, batch);
	}

	/**
	 * The forward's last stage alone, the transpose of {@link #spreadDevice}: s_b[m] = Σ_l g_b[l]·ψ(l − t_m), from the
	 * caller's {@code grid} ([batch][grid] cells) into {@code smp} ([batch][points]); no FFT, no deapodization.
	 * Asynchronous on the plan's stream.
	 */
	public void interpolateDevice(final CUdeviceptr grid, final CUdeviceptr smp, final int batch) {
		prepareStage(batch);
		launchInterp(grid, smp, batch);
	}

	/**
	 * Fills the reserved fine grids with NaN (every 32-bit word 0x7ff80000: a float NaN, and pairs of them a double
	 * NaN), so that a test sees any cell a spreader that skips the clearing pass (output-driven) leaves unwritten.
	 */
	void poisonGrid() {
		ensureOpen();
		device.makeCurrent();
		if (grid == null) return;
		check(JCudaDriver.cuMemsetD32Async(grid.pointer(), 0x7ff80000, grid.bytes() / 4, stream),
			"cuMemsetD32Async(fine grid := NaN, " + grid.bytes() + " B)");
		synchronize();
	}

	/** Waits for the plan's stream. */
	public void synchronize() {
		check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (NUFFT kernels of " + backend() + ")");
	}

	/** The plan's stream (for callers that time or order work around it). */
	public CUstream stream() { return stream; }

	/**
	 * Milliseconds (CUDA events) of the three stages of the latest {@link #forwardDevice} / {@link #adjointDevice}:
	 * forward {pad+deapodize, fft, interpolate}, adjoint {spread, fft, crop+deapodize}. Call after
	 * {@link #synchronize()}.
	 */
	public double[] deviceStageMillis() {
		ensureOpen();
		device.makeCurrent();
		return new double[] { elapsed(0, 1), elapsed(1, 2), elapsed(2, 3) };
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		try {
			device.makeCurrent();
			JCudaDriver.cuStreamSynchronize(stream);
			for (final cufftHandle h : ffts.values()) JCufft.cufftDestroy(h);
			ffts.clear();
			freeBatchBuffers();
			freePoints();
			if (staging != null) staging.close();
			for (final DeviceArray a : new DeviceArray[] { dx, dy, dz })
				if (a != null) a.close();
			releaseStreamAndEvents();
		}
		finally {
			if (ownsDevice) device.close();
		}
	}

	// -- helpers: execution --

	/** Host-array execute: chunks of B transforms, each uploaded, transformed on the device and downloaded. */
	private void run(final boolean forward, final int t, final Object img, final Object smp) {
		ensureOpen();
		if (m == 0) throw new IllegalStateException("NUFFT plan: setPoints must be called before forward/adjoint");
		device.makeCurrent();
		times.clear();
		final int b = chunkSize(t);
		reserve(b);
		final long imgLen = 2 * pixels, smpLen = 2L * m;
		double upload = 0, download = 0;
		final double[] stages = new double[3];
		if (staging == null) staging = new PinnedStaging();
		for (int t0 = 0; t0 < t; t0 += b) {
			final int cb = Math.min(b, t - t0);
			long s = System.nanoTime();
			if (forward) staging.upload(img, t0 * imgLen, cb * imgLen, dbl, image.pointer(), stream);
			else staging.upload(smp, t0 * smpLen, cb * smpLen, dbl, samples.pointer(), stream);
			upload += (System.nanoTime() - s) / 1e6;
			if (forward) forwardDevice(image.pointer(), samples.pointer(), cb);
			else adjointDevice(samples.pointer(), image.pointer(), cb);
			synchronize();
			for (int i = 0; i < 3; i++) stages[i] += elapsed(i, i + 1);
			s = System.nanoTime();
			if (forward) staging.download(samples.pointer(), smp, t0 * smpLen, cb * smpLen, dbl, stream);
			else staging.download(image.pointer(), img, t0 * imgLen, cb * imgLen, dbl, stream);
			download += (System.nanoTime() - s) / 1e6;
		}
		times.add("upload", upload);
		if (forward) {
			times.add("pad+deapodize", stages[0]);
			times.add("fft", stages[1]);
			times.add("interpolate", stages[2]);
		}
		else {
			times.add("spread (" + method.name().toLowerCase() + ")", stages[0]);
			times.add("fft", stages[1]);
			times.add("crop+deapodize", stages[2]);
		}
		times.add("download", download);
	}

	private void prepare(final int batch) {
		ensureOpen();
		if (m == 0) throw new IllegalStateException("NUFFT plan: setPoints must be called before forward/adjoint");
		if (batch < 1 || batch > capacity) {
			throw new IllegalArgumentException("GPU NUFFT: batch " + batch + " outside [1, " + capacity +
				"] reserved transforms");
		}
		device.makeCurrent();
	}

	/** Checks of the stage API: points set, a batch of at least one (the caller's buffers bound it). */
	private void prepareStage(final int batch) {
		ensureOpen();
		if (m == 0) throw new IllegalStateException("NUFFT plan: setPoints must be called before spreading");
		if (batch < 1) throw new IllegalArgumentException("GPU NUFFT: batch " + batch + " < 1");
		device.makeCurrent();
	}

	/** Clears {@code batch} grids at {@code grid} (unless output-driven: it writes every cell) and spreads into them. */
	private void clearAndSpread(final CUdeviceptr smp, final CUdeviceptr fineGrid, final int batch) {
		if (method != SpreadMethod.OUTPUT_DRIVEN) {
			check(JCudaDriver.cuMemsetD32Async(fineGrid, 0, gridPoints * batch * (cbytes / 4), stream),
				"cuMemsetD32Async(fine grid, " + gridPoints * batch + " cells)");
		}
		launchSpread(smp, fineGrid, batch);
	}

	private void launchDeapod(final String which, final CUdeviceptr img, final int batch) {
		final String name = which + suffix();
		final CUdeviceptr a = which.equals("pad") ? img : grid.pointer();
		final CUdeviceptr b = which.equals("pad") ? grid.pointer() : img;
		final Pointer args = Pointer.to(Pointer.to(a), Pointer.to(b), Pointer.to(dx.pointer()), Pointer.to(dy.pointer()),
			Pointer.to(dz.pointer()), ints(n0[0]), ints(n0[1]), ints(n0[2]), ints(n[0]), ints(n[1]), ints(n[2]));
		final long threads = which.equals("pad") ? gridPoints : pixels;
		launch(name, blocks(threads), batch, 0, args, (which.equals("pad") ? gridPoints + " grid cells" : pixels +
			" pixels") + " x " + batch);
	}

	private void launchInterp(final CUdeviceptr fineGrid, final CUdeviceptr smp, final int batch) {
		final int shared = tileBytes(binSize, width, cbytes);
		launch("interp_tiles_" + dims + "d" + suffix() + "_w" + width, subproblems, batch, shared,
			binnedArgs(Pointer.to(fineGrid), Pointer.to(smp)), subproblems + " subproblems x " + batch + ", " +
				shared + " B shared");
	}

	/**
	 * Arguments of the binned kernels (spread_tiles_*, interp_tiles_*): points, subproblems, bins, then
	 * {@code in}, {@code out}, grid size, kernel spec.
	 */
	private Pointer binnedArgs(final Pointer in, final Pointer out) {
		if (dims == 2) {
			return Pointer.to(p(perm), p(ix), p(iy), p(fx), p(fy), ints(m), p(subBin), p(subStart), p(subCount),
				ints(binsPerAxis[0]), ints(binSize[0]), ints(binSize[1]), in, out, ints(n[0]), ints(n[1]), spec.pointer());
		}
		return Pointer.to(p(perm), p(ix), p(iy), p(iz), p(fx), p(fy), p(fz), ints(m), p(subBin), p(subStart),
			p(subCount), ints(binsPerAxis[0]), ints(binsPerAxis[1]), ints(binSize[0]), ints(binSize[1]), ints(binSize[2]),
			in, out, ints(n[0]), ints(n[1]), ints(n[2]), spec.pointer());
	}

	private void launchSpread(final CUdeviceptr smp, final CUdeviceptr fineGrid, final int batch) {
		if (method == SpreadMethod.OUTPUT_DRIVEN) {
			launchRadial(smp, fineGrid, batch);
			return;
		}
		if (method == SpreadMethod.ATOMIC) {
			final Pointer args;
			if (dims == 2) {
				args = Pointer.to(p(perm), p(ix), p(iy), p(fx), p(fy), ints(m), Pointer.to(smp), Pointer.to(fineGrid),
					ints(n[0]), ints(n[1]), ints(batch), spec.pointer());
			}
			else {
				args = Pointer.to(p(perm), p(ix), p(iy), p(iz), p(fx), p(fy), p(fz), ints(m), Pointer.to(smp),
					Pointer.to(fineGrid), ints(n[0]), ints(n[1]), ints(n[2]), ints(batch), spec.pointer());
			}
			launch("spread_atomic_" + dims + "d" + suffix() + "_w" + width, blocks(m), 1, 0, args, m + " points x " + batch);
			return;
		}
		final int shared = sharedBytes();
		launch("spread_tiles_" + dims + "d" + suffix() + "_w" + width, subproblems,
			batch, shared, binnedArgs(Pointer.to(smp), Pointer.to(fineGrid)), subproblems + " subproblems x " +
				batch + ", " + shared + " B shared");
	}

	/**
	 * spread_radial_2d_*: one block per 16 × 16 cells, blockIdx.y over groups of {@link #radialBatch} transforms; writes
	 * every cell of the {@code batch} grids.
	 */
	private void launchRadial(final CUdeviceptr smp, final CUdeviceptr fineGrid, final int batch) {
		final GpuRadial r = radial;
		final long tiles = (long) ((n[0] + RADIAL_BLOCK - 1) / RADIAL_BLOCK) * ((n[1] + RADIAL_BLOCK - 1) / RADIAL_BLOCK);
		final int groups = (batch + radialBatch() - 1) / radialBatch();
		final Pointer args = Pointer.to(p(radialFirst), p(radialOffset), ints(m), p(radialSpokes), p(radialAngles),
			ints(r.spokeCount), ints(r.readout), ints(r.reach[0]), ints(r.reach[1]), ints(r.reach[2]), ints(r.reach[3]),
			Pointer.to(new float[] { r.margin }), Pointer.to(smp), Pointer.to(fineGrid), ints(n[0]), ints(n[1]),
			ints(batch), spec.pointer());
		launch("spread_radial_2d" + suffix() + "_w" + width, tiles, groups, 0, args, "grid " + n[0] + "x" + n[1] +
			", " + r.readout + " samples x " + r.spokeCount + " spokes, " + tiles + " tiles x " + groups + " groups of " +
			radialBatch() + " of " + batch + " transforms");
	}

	/** Transforms one output-driven block accumulates in registers (RADIAL_BATCH_F / _D in kernels/spread_radial.cu). */
	int radialBatch() {
		return dbl ? 4 : 8;
	}

	private void launch(final String kernel, final long gridX, final int gridY, final int shared, final Pointer args,
		final String sizes)
	{
		device.launch(kernel, gridX, gridY, BLOCK, shared, stream, args, sizes);
	}

	private void fft(final int batch, final int direction) {
		cufftHandle h = ffts.get(batch);
		if (h == null) {
			h = new cufftHandle();
			final int[] shape = new int[dims];
			for (int a = 0; a < dims; a++) shape[a] = n[dims - 1 - a]; // slowest axis first: x is contiguous
			final String what = "cufftPlanMany(" + Arrays.toString(shape) + ", batch " + batch + ", " +
				(dbl ? "Z2Z" : "C2C") + ")";
			checkFft(JCufft.cufftPlanMany(h, dims, shape, null, 1, (int) gridPoints, null, 1, (int) gridPoints,
				dbl ? cufftType.CUFFT_Z2Z : cufftType.CUFFT_C2C, batch), what);
			ffts.put(batch, h);
			checkFft(JCufft.cufftSetStream(h, new cudaStream_t(stream)), "cufftSetStream");
		}
		final int r = dbl ? JCufft.cufftExecZ2Z(h, grid.pointer(), grid.pointer(), direction) :
			JCufft.cufftExecC2C(h, grid.pointer(), grid.pointer(), direction);
		checkFft(r, (dbl ? "cufftExecZ2Z" : "cufftExecC2C") + "(grid " + Arrays.toString(Arrays.copyOf(n, dims)) +
			" x " + batch + ", " + (direction == JCufft.CUFFT_FORWARD ? "forward" : "inverse") + ")");
	}

	private void record(final int i) {
		check(JCudaDriver.cuEventRecord(events[i], stream), "cuEventRecord");
	}

	/** Milliseconds between two recorded events (after a synchronize). */
	double elapsed(final int from, final int to) {
		final float[] ms = new float[1];
		check(JCudaDriver.cuEventElapsedTime(ms, events[from], events[to]), "cuEventElapsedTime");
		return ms[0];
	}

	// -- helpers: set-up and memory --

	/** Shared memory of one spreading block (SHARED method). */
	int sharedBytes() {
		return stagedTileBytes(binSize, width, cbytes);
	}

	/** A complex tile of (bin + W − 1) cells per axis (interp_tiles_*). */
	static int tileBytes(final int[] bin, final int width, final int cbytes) {
		long cells = 1;
		for (final int b : bin) cells *= b + width - 1;
		return (int) Math.min(Integer.MAX_VALUE, cells * cbytes);
	}

	/**
	 * spread_tiles_*: two real planes of pitch (bin + W) × (bin + W − 1)… cells, then TILE_CHUNK staged points of
	 * d·W kernel values, two sample components and one int cell offset (TileStage in kernels/spread.cu).
	 */
	static int stagedTileBytes(final int[] bin, final int width, final int cbytes) {
		long cells = bin[0] + width;
		for (int a = 1; a < bin.length; a++) cells *= bin[a] + width - 1;
		final int real = cbytes / 2;
		final long stage = (long) TILE_CHUNK * ((bin.length * width + 2) * real + 4);
		return (int) Math.min(Integer.MAX_VALUE, 2 * cells * real + stage);
	}

	/** The bin of a binned block: {@code override} ("AxBxC") when given and it fits, else the preferred one that fits. */
	static int[] binSize(final int dims, final int width, final int cbytes, final int sharedBudget,
		final String override)
	{
		final int[][] options = override != null ? new int[][] { java.util.Arrays.stream(override.split("x"))
			.mapToInt(Integer::parseInt).toArray() } : dims == 2 ? BINS_2D : width <= NARROW_3D ? BINS_3D_NARROW : BINS_3D;
		for (final int[] b : options) {
			final int need = Math.max(tileBytes(b, width, cbytes), stagedTileBytes(b, width, cbytes));
			if (b.length == dims && need <= sharedBudget) return b.clone();
		}
		return (dims == 2 ? BINS_2D[BINS_2D.length - 1] : BINS_3D[BINS_3D.length - 1]).clone();
	}

	/**
	 * AUTO: SHARED whenever its tile fits the device's opt-in shared memory (it replaces W^d global atomics per point
	 * by shared ones plus one pass over the tile, which wins on the dense centres of radial trajectories and on
	 * uniform points alike at M ≥ grid size), else ATOMIC. Measured per workload in docs/gpu-report.md.
	 * OUTPUT_DRIVEN: 2D plans only; whether the points are radial lines is known at {@link #setPoints}.
	 */
	static SpreadMethod resolveMethod(final SpreadMethod asked, final int dims, final int sharedBytes,
		final int sharedOptin)
	{
		switch (asked) {
			case ATOMIC: return SpreadMethod.ATOMIC;
			case SHARED:
				if (sharedBytes > sharedOptin) {
					throw new InvalidInputException("GPU NUFFT: shared-memory spreading needs " + sharedBytes +
						" B of shared memory per block, the device allows " + sharedOptin + "; use spread method atomic");
				}
				return SpreadMethod.SHARED;
			case OUTPUT_DRIVEN:
				if (dims != 2) {
					throw new InvalidInputException("GPU NUFFT: spread method output-driven gathers from 2D radial lines, " +
						"the plan's image is " + dims + "D; use auto, atomic or shared");
				}
				return SpreadMethod.OUTPUT_DRIVEN;
			default: return sharedBytes <= sharedOptin ? SpreadMethod.SHARED : SpreadMethod.ATOMIC;
		}
	}

	private long perTransformBytes() {
		return cbytes * (2 * gridPoints + pixels + (long) Math.max(m, 1));
	}

	private long pointBytes() {
		return (long) m * (4 + dims * (4 + cbytes / 2)) + 12L * subproblems +
			(radial == null ? 0 : radial.deviceBytes(cbytes));
	}

	/**
	 * The radial lines of {@code t} when this plan spreads output-driven (OUTPUT_DRIVEN asked, or AUTO once it
	 * considers it), else null. OUTPUT_DRIVEN with other points is an error naming both.
	 */
	private RadialLines linesFor(final Trajectory t) {
		if (planMethod == SpreadMethod.OUTPUT_DRIVEN) {
			return RadialLines.detect(t).orElseThrow(() -> new InvalidInputException("GPU NUFFT: spread method " +
				"output-driven needs 2D radial lines (readout x shots, every shot uniformly spaced on a line through " +
				"k = 0); trajectory " + t + " is not: " + RadialLines.mismatch(t) + "; use auto, atomic or shared"));
		}
		if (AUTO_CONSIDERS_OUTPUT_DRIVEN && autoMethod && dims == 2) return RadialLines.detect(t).orElse(null);
		return null;
	}

	private long heldBatchBytes() {
		long b = 0;
		for (final DeviceArray a : new DeviceArray[] { grid, image, samples })
			if (a != null) b += a.bytes();
		return b;
	}

	private DeviceArray deapodization(final Kernel k, final int axis) {
		final double[] d = axis < dims ? Kernels.deapodization(k, n0[axis], n[axis]) : new double[] { 1 };
		return dbl ? DeviceArray.of(d, "deapodization, axis " + axis) :
			DeviceArray.of(toFloat(d), "deapodization, axis " + axis);
	}

	private DeviceArray keep(final DeviceArray a) {
		pointArrays.add(a);
		return a;
	}

	private void freePoints() {
		for (final DeviceArray a : pointArrays) a.close();
		pointArrays.clear();
		perm = ix = iy = iz = fx = fy = fz = subBin = subStart = subCount = null;
		radialFirst = radialOffset = radialSpokes = radialAngles = null;
		radial = null;
		m = 0;
	}

	private void freeBatchBuffers() {
		for (final cufftHandle h : ffts.values()) JCufft.cufftDestroy(h);
		ffts.clear();
		for (final DeviceArray a : new DeviceArray[] { grid, image, samples })
			if (a != null) a.close();
		grid = image = samples = null;
		capacity = 0;
	}

	private void releaseStreamAndEvents() {
		for (final CUevent e : events)
			if (e != null) JCudaDriver.cuEventDestroy(e);
		JCudaDriver.cuStreamDestroy(stream);
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("GPU NUFFT plan is closed");
	}

	private String suffix() { return dbl ? "_d" : "_f"; }

	private static long blocks(final long threads) {
		return (threads + BLOCK - 1) / BLOCK;
	}

	private static Pointer p(final DeviceArray a) {
		return Pointer.to(a == null ? new CUdeviceptr() : a.pointer());
	}

	private static Pointer ints(final int v) {
		return Pointer.to(new int[] { v });
	}

	/**
	 * Kernel arguments off = l0 − t ∈ [−W/2, −W/2 + 1) of the first stencil cell (computed in double) as float,
	 * rounded so that none lands on an end of that interval it lies strictly inside of: then every tap off + j stays
	 * strictly inside the kernel's support |x| &lt; W/2, as in double. Plain rounding puts off on −W/2 (first tap on
	 * the edge) or on −W/2 + 1 (last tap on +W/2) for a sample within float rounding of a cell boundary, e.g. every
	 * sample of an axis-aligned spoke whose other coordinate is r·cos(π/2) ≈ 1e-17; the exponential of semicircle and
	 * the Gaussian are 0 at |x| = W/2 but about e^{−β} just inside (1e-4 at W = 4, σ = 2: Pipe–Menon's kernel), so the
	 * GPU would drop a weight the CPU engine keeps. The nudge is one float ulp of the argument.
	 */
	static float[] floatOffsets(final double[] off, final int width) {
		final float lo = -width / 2f, hi = lo + 1;
		final float[] f = new float[off.length];
		for (int i = 0; i < off.length; i++) {
			float v = (float) off[i];
			if (off[i] > lo && v <= lo) v = Math.nextUp(lo);
			if (off[i] < hi && v >= hi) v = Math.nextDown(hi);
			f[i] = v;
		}
		return f;
	}

	private static float[] toFloat(final double[] a) {
		final float[] f = new float[a.length];
		for (int i = 0; i < a.length; i++) f[i] = (float) a[i];
		return f;
	}

}
