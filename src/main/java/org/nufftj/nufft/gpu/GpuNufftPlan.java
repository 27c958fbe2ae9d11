package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.Arrays;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_record_flags;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.Kernels;
import org.nufftj.nufft.Buffer;
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
 * {@link Kernels#deapodization} (host, double). The plan runs on its {@link GpuBackend}'s device and stream; its
 * choices come from {@link GpuHeuristics}, its points live in a {@link GpuPointSet}, and every launch takes one
 * parameter struct ({@link GpuStructs}) with its input, output, batch and {@link GpuKernelSpec}.
 * Batches of T transforms run B at a time (cuFFT plan-many), B chosen so the grid (and, from host arrays, the image
 * and sample buffers) and FFT work areas fit the free device memory ({@link #chunkSize}).
 * </p>
 * <p>
 * From host arrays, uploads and downloads run on their own streams. Java arrays are copied by host threads: through
 * pinned mirrors of the whole memory chunk ({@link HostMirror}) where the chunk runs in several pieces of about
 * {@link #PIECE_BYTES} of transfers (the copies overlap the DMA and the transforms of earlier pieces), else through
 * pinned staging rings, whose copies overlap the DMA. With a {@link PinnedArray} on either side (its memory is handed
 * to the DMA engine directly) a batch runs as a pipeline of pieces of about {@link #PIECE_BYTES} of transfers: the
 * upload of piece i+1 and the download of piece i−1 overlap the transform of piece i on the backend's stream, with two
 * device slots of inputs and outputs and events between the streams.
 * </p>
 */
public final class GpuNufftPlan implements NufftPlan {

	private final GpuBackend backend;
	private final GpuDevice device;
	private final CUstream stream;
	private final NufftParameters params;
	private final boolean dbl;
	private final int cbytes;
	private final int dims;
	private final int[] n0 = { 1, 1, 1 }, n = { 1, 1, 1 };
	private final long pixels, gridPoints;
	private final int width;
	private final GpuKernelSpec spec;
	/** The method the constructor resolved (OUTPUT_DRIVEN as asked: confirmed by {@link #setPoints}). */
	private final SpreadMethod method;
	/** A 3D shared-memory spread fills its tiles point by point (spread_serial_3d_*), read once at plan time. */
	private final boolean serial;
	/**
	 * The setting of spread_coils_2d_* for a 2D shared-memory spread of several transforms, read once at plan time
	 * (GpuHeuristics.coilSetting; null: not a 2D shared-memory plan).
	 */
	private final String coils;
	private final int[] binSize;
	/**
	 * The grid FFTs' shape (dims axes) and the image's range on the grid per axis, for the pruned FFTs: cells
	 * n − ⌊N0/2⌋ … n − 1 and 0 … N0 − ⌊N0/2⌋ − 1 (kernels/deapodize.cu), the wrapped range of N0 cells from
	 * n − ⌊N0/2⌋; the FFTs skip the lines outside it.
	 */
	private final int[] fftSize, imageStart, imageCount;
	/** Two sets of the four stage events, used by alternate pieces of a pipelined host-array execute. */
	private final CUevent[][] eventSets = new CUevent[2][4];
	/** The stage events of the latest execute (one of {@link #eventSets}). */
	private CUevent[] events = eventSets[0];
	/** Streams of a host-array execute's uploads and downloads, and events between them and the backend's stream. */
	private final CUstream upStream = new CUstream(), downStream = new CUstream();
	private final CUevent[] uploaded = new CUevent[2], computed = new CUevent[2], downloaded = new CUevent[2];
	private final DeviceArray dx, dy, dz;
	private final byte[] deapodArgs;
	private final GpuFfts ffts;
	/** CUDA graphs of the device-resident executes (cleared when points or grids change). */
	private final GpuGraphs graphs;
	/** The points' device sort (kernels/setpts.cu): per-bin arrays made with the plan, per-point ones reused. */
	private final GpuSetpts setpts;
	/**
	 * The bin of spread_coils_2d_* ({@link GpuHeuristics#coilBin}). Where it differs from {@link #binSize}
	 * ({@link #ownCoilBin}) the points are sorted a second time for it ({@link #coilSort}, from {@link #setpts}'s
	 * device coordinates), by the first execute that spreads a batch with it and then by every setPoints.
	 */
	private final int[] coilBin;
	private final boolean ownCoilBin;
	private GpuSetpts coilSort;
	/** {@link #coilSort} holds the points of the latest setPoints. */
	private boolean coilSorted;
	/** The device had no room for the coil sort: this plan no longer tries it (per-transform tiles instead). */
	private boolean coilSortRefused;
	/** The batch whose spread made the latest coil sort (setPoints sorts again when it would pay for that batch). */
	private int coilBatch;
	/** Pinned staging of the coordinates in setPoints. */
	private final PinnedStaging staging;
	/**
	 * Pinned staging rings of host-array executes (inputs, outputs), made by the first one: plans run only on device
	 * buffers (iterative operators, recon) hold no more pinned memory than setPoints needs.
	 */
	private PinnedStaging upStaging, downStaging;
	/**
	 * Pinned mirrors of Java-array executes (made by the first one that runs in several pieces): the default host side
	 * of those, where a chunk's transfers fit {@link HostMirror#MAX_BYTES} each way and the pinned memory can be had;
	 * else the rings above.
	 */
	private HostMirror mirror;
	/** Java arrays through the mirrors (else the rings); {@code -Dnufftj.hostStaging=ring} turns them off. */
	private boolean useMirror = !"ring".equals(System.getProperty("nufftj.hostStaging"));
	/** The mirrors for single-piece chunks too (tests; by default those take the rings). */
	private boolean mirrorAlways;
	/** The latest Java-array execute ran through the mirrors (for tests of which host side ran). */
	private boolean lastMirrored;
	private final StageTimes times = new StageTimes();

	private GpuPointSet points;
	private DeviceArray grid, image, samples;
	private int gridCapacity, hostCapacity;
	/** Milliseconds of the latest setPoints: wall clock in all, and the device sort alone (CUDA events). */
	private double setPointsMillis = Double.NaN, setPointsDeviceMillis = Double.NaN;
	/** The latest device-resident execute recorded its stage events and they are not yet in {@link #times}. */
	private boolean pendingTimes;
	private boolean pendingForward;
	private boolean closed;
	private int batchLimit = Integer.MAX_VALUE;
	private long pieceBytes = PIECE_BYTES;

	/**
	 * A plan on {@code backend}'s device and stream ({@link GpuBackend#plan} makes them; the backend outlives the plan
	 * and closes it if it is left open). {@code bins}: the bin of the binned kernels for a tuning run (checked
	 * against the device), or null for {@link GpuHeuristics#binSize}'s choice.
	 */
	GpuNufftPlan(final GpuBackend backend, final NufftParameters p, final NufftOptions o, final int[] bins)
	{
		// Without cuFFT the grid FFTs run on the own kernels (GpuFfts: auto or own); only an explicit cufft needs it.
		if (!GpuFfts.useOwn() && !CufftLoader.status().usable) {
			throw new GpuException("GPU NUFFT asked for cuFFT (nufftj.fft / NUFFTJ_FFT = cufft), which is not usable: " +
				CufftLoader.status().description);
		}
		backend.ensureOpen();
		this.backend = backend;
		this.device = backend.gpu();
		this.stream = backend.stream();
		this.params = p;
		this.dbl = p.precision() == Precision.DOUBLE;
		this.cbytes = dbl ? 16 : 8;
		this.dims = p.dimensions();
		final int[] is = p.imageSize(), gs = p.gridSize();
		for (int a = 0; a < dims; a++) {
			n0[a] = is[a];
			n[a] = gs[a];
		}
		fftSize = Arrays.copyOf(n, dims);
		imageCount = Arrays.copyOf(n0, dims);
		imageStart = new int[dims];
		for (int a = 0; a < dims; a++) imageStart[a] = (n[a] - n0[a] / 2) % n[a];
		pixels = p.imagePixels();
		gridPoints = p.gridPoints();
		final Kernel k = p.kernel();
		width = k.width();
		InvalidInputException.require(width <= GpuKernelSpec.MAX_WIDTH, "GPU NUFFT: kernel width " + width + " > " +
			GpuKernelSpec.MAX_WIDTH + " is not supported");
		spec = new GpuKernelSpec(k, dbl);
		final int optin = device.sharedMemoryOptin();
		binSize = bins != null ? GpuHeuristics.checkBin(bins, dims, width, cbytes, optin) :
			GpuHeuristics.binSize(dims, width, cbytes, Math.min(GpuHeuristics.SHARED_TARGET, optin));
		method = GpuHeuristics.resolveMethod(o.spreadMethod(), dims, sharedBytes(), optin);
		serial = dims == 3 && GpuHeuristics.serial3d();
		coils = dims == 2 && method == SpreadMethod.SHARED ? GpuHeuristics.coilSetting() : null;
		// bins a tuning run asks for hold for every binned kernel; else the coil spreader may take its own
		coilBin = bins != null || coils == null ? binSize : GpuHeuristics.coilBin(width, binSize);
		ownCoilBin = !Arrays.equals(coilBin, binSize);
		device.makeCurrent();
		resolveKernels(); // module loads and function lookups at plan time, not in the first execute
		boolean ok = false;
		DeviceArray ax = null, ay = null, az = null;
		GpuSetpts sort = null;
		PinnedStaging pinned = null;
		try {
			for (final CUevent[] set : eventSets) createEvents(set, 0);
			createEvents(uploaded, jcuda.driver.CUevent_flags.CU_EVENT_DISABLE_TIMING);
			createEvents(computed, jcuda.driver.CUevent_flags.CU_EVENT_DISABLE_TIMING);
			createEvents(downloaded, jcuda.driver.CUevent_flags.CU_EVENT_DISABLE_TIMING);
			check(JCudaDriver.cuStreamCreate(upStream, 0), "cuStreamCreate (uploads)");
			check(JCudaDriver.cuStreamCreate(downStream, 0), "cuStreamCreate (downloads)");
			ax = deapodization(k, 0);
			ay = deapodization(k, 1);
			az = deapodization(k, 2);
			sort = new GpuSetpts(device, stream, Arrays.copyOf(n, dims), width, binSize, GpuHeuristics.MAX_SUBPROBLEM,
				dbl);
			pinned = new PinnedStaging();
			ok = true;
		}
		finally {
			if (!ok) {
				for (final DeviceArray a : new DeviceArray[] { ax, ay, az })
					if (a != null) a.close();
				if (sort != null) sort.close();
				if (pinned != null) pinned.close();
				destroyEvents();
			}
		}
		setpts = sort;
		staging = pinned;
		dx = ax;
		dy = ay;
		dz = az;
		deapodArgs = GpuStructs.deapodArgs(new long[] { dx.address(), dy.address(), dz.address() }, n0, n);
		ffts = new GpuFfts(backend.gpu(), stream);
		graphs = new GpuGraphs(stream);
		backend.opened(this);
	}

	/** A plan on {@code backend} (borrowed: the caller closes the backend after the plan). */
	GpuNufftPlan(final GpuBackend backend, final NufftParameters p, final NufftOptions o) {
		this(backend, p, o, null);
	}

	// -- public API --

	@Override
	public int[] imageSize() { return params.imageSize(); }

	@Override
	public NufftParameters parameters() { return params; }

	@Override
	public String backend() {
		return "gpu " + device.ordinal() + ": " + device.name() + " (" + method.name().toLowerCase() +
			(serial && method == SpreadMethod.SHARED ? " point-serial" : "") + " spreading, " +
			(dbl ? "double" : "float") + ")";
	}

	/** The backend this plan runs on (its device and stream). */
	public GpuBackend gpuBackend() { return backend; }

	/** The GPU this plan runs on. */
	public GpuDevice device() { return device; }

	/** The spreading method in use (AUTO resolved). */
	public SpreadMethod spreadMethod() { return method; }

	/** The bin of the binned kernels (cells per axis). */
	public int[] bins() { return binSize.clone(); }

	@Override
	public void setPoints(final Trajectory t) {
		ensureOpen();
		InvalidInputException.require(t.dimensions() == dims, "GPU NUFFT: trajectory " + t.name() + " has " +
			t.dimensions() + " dimensions, the plan's image has " + dims);
		// Output-driven needs radial lines: checked before anything is replaced (a refused trajectory leaves the plan's
		// points as they were).
		final RadialLines lines = method != SpreadMethod.OUTPUT_DRIVEN ? null : RadialLines.detect(t).orElseThrow(
			() -> new InvalidInputException("GPU NUFFT: spread method output-driven needs 2D radial lines (readout x " +
				"shots, every shot uniformly spaced on a line through k = 0); trajectory " + t + " is not: " +
				RadialLines.mismatch(t) + "; use auto, atomic or shared"));
		device.makeCurrent();
		final long start = System.nanoTime();
		graphs.clear(); // their launches point at the old points' arrays and subproblem counts
		if (points != null) {
			// The sorted arrays are rewritten in stream order (after queued launches that read them); the output-driven
			// arrays are freed, so queued launches must be done with them first.
			if (points.radialArgs != null) synchronize();
			points.close();
			points = null; // until the new points are complete (a failure below leaves the plan without points)
		}
		coilSorted = false;
		setpts.run(t, staging);
		points = new GpuPointSet(setpts, t, Arrays.copyOf(n, dims), width, dbl, lines);
		double sortMillis = setpts.deviceMillis();
		// a plan that spread batches with its own coil bins keeps them sorted, where that pays for the same batch
		if (coilSort != null && coilWarps(coilBatch) > 0) {
			trySortCoils();
			if (coilSorted) sortMillis += coilSort.deviceMillis();
		}
		setPointsMillis = (System.nanoTime() - start) / 1e6;
		setPointsDeviceMillis = sortMillis;
	}

	/**
	 * Before the launches of an execute of {@code batch} transforms (never inside a graph capture): the coil sort
	 * when that batch spreads with spread_coils_2d_* on bins of its own ({@link #coilWarps}) and the points are not yet
	 * sorted for them.
	 */
	private void ensureCoilPoints(final int batch) {
		if (ownCoilBin && !coilSorted && points != null && coilWarps(batch) > 0) {
			coilBatch = batch;
			trySortCoils();
		}
	}

	/**
	 * Sorts the points of the latest setPoints by {@link #coilBin} (a second device sort of {@link #setpts}'s device
	 * coordinates; returns when done); where the device has no room for its arrays, per-transform tiles from now on.
	 */
	private void trySortCoils() {
		try {
			if (coilSort == null) {
				coilSort = new GpuSetpts(device, stream, Arrays.copyOf(n, dims), width, coilBin,
					GpuHeuristics.COIL_MAX_SUBPROBLEM, dbl);
			}
			coilSort.run(setpts);
			coilSorted = true;
		}
		catch (final GpuException e) {
			// no room for the second sort's arrays: this plan spreads with per-transform tiles on its own bins instead
			if (!e.outOfMemory()) throw e;
			coilSortRefused = true;
			if (coilSort != null) coilSort.close();
			coilSort = null;
		}
	}

	/**
	 * Milliseconds of the latest {@link #setPoints}: {@code [0]} wall clock of the whole call (coordinate upload from
	 * the Java array, device sort, read-back of the totals, output-driven geometry when used), {@code [1]} the device
	 * sort alone (CUDA events around the setpts kernels). NaN before the first.
	 */
	public double[] setPointsMillis() {
		return new double[] { setPointsMillis, setPointsDeviceMillis };
	}

	@Override
	public int points() { return points == null ? 0 : points.count; }

	@Override
	public void forward(final float[] img, final float[] smp) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		runHost(true, t, PinnedStaging.Host.of(img), PinnedStaging.Host.of(smp));
	}

	@Override
	public void adjoint(final float[] smp, final float[] img) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		runHost(false, t, PinnedStaging.Host.of(img), PinnedStaging.Host.of(smp));
	}

	@Override
	public void forward(final double[] img, final double[] smp) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		runHost(true, t, PinnedStaging.Host.of(img), PinnedStaging.Host.of(smp));
	}

	@Override
	public void adjoint(final double[] smp, final double[] img) {
		final int t = NufftPlan.transforms(this, img.length, smp.length);
		runHost(false, t, PinnedStaging.Host.of(img), PinnedStaging.Host.of(smp));
	}

	/**
	 * Forward from and to pinned host memory: as the Java-array call, without the CPU copies through the staging
	 * slices when the arrays have the plan's precision (the DMA reads and writes them directly); lengths as for
	 * arrays (image [T][pixels], samples [T][points] complex interleaved).
	 */
	public void forward(final PinnedArray img, final PinnedArray smp) {
		final int t = NufftPlan.transforms(this, img.length(), smp.length());
		runHost(true, t, img.host(), smp.host());
	}

	/** Adjoint from and to pinned host memory; as {@link #forward(PinnedArray, PinnedArray)}. */
	public void adjoint(final PinnedArray smp, final PinnedArray img) {
		final int t = NufftPlan.transforms(this, img.length(), smp.length());
		runHost(false, t, img.host(), smp.host());
	}

	/**
	 * Forward on device buffers of this plan's backend and precision: image [T][pixels], samples [T][points] complex,
	 * T from the lengths; in chunks of {@link #chunkSize} transforms when the grids of all T do not fit. Asynchronous on
	 * the backend's stream (several chunks wait for each other's stage times).
	 */
	@Override
	public void forward(final Buffer image, final Buffer samples) {
		runDevice(true, mine(image, "forward: image"), mine(samples, "forward: samples"));
	}

	/** Adjoint on device buffers; as {@link #forward(Buffer, Buffer)}. */
	@Override
	public void adjoint(final Buffer samples, final Buffer image) {
		runDevice(false, mine(image, "adjoint: image"), mine(samples, "adjoint: samples"));
	}

	/**
	 * The adjoint's first stage alone, into the caller's grids: g_b[l] = Σ_m s_b[m]·ψ(l − t_m) (periodic,
	 * t_m = k_m·n) with the plan's kernel, spreading method and points; no FFT, no deapodization. {@code grid} holds T
	 * grids of {@link NufftParameters#gridPoints()} complex cells ([T][grid], x fastest; overwritten), {@code samples}
	 * T × points complex. Asynchronous on the backend's stream.
	 */
	@Override
	public void spread(final Buffer samples, final Buffer grid) {
		final GpuBuffer s = mine(samples, "spread: samples"), g = mine(grid, "spread: grid");
		final int t = stageTransforms(g, s, "spread");
		spreadDevice(s.pointer(), g.pointer(), t);
	}

	/** The forward's last stage alone, the transpose of {@link #spread}: s_b[m] = Σ_l g_b[l]·ψ(l − t_m). */
	@Override
	public void interpolate(final Buffer grid, final Buffer samples) {
		final GpuBuffer g = mine(grid, "interpolate: grid"), s = mine(samples, "interpolate: samples");
		final int t = stageTransforms(g, s, "interpolate");
		interpolateDevice(g.pointer(), s.pointer(), t);
	}

	/** Per-stage times of the most recent execute (device stages by CUDA events; waits for them when pending). */
	@Override
	public StageTimes times() {
		if (pendingTimes && !closed) {
			pendingTimes = false;
			device.makeCurrent();
			check(JCudaDriver.cuEventSynchronize(events[3]), "cuEventSynchronize (NUFFT stage times)");
			addStageTimes(pendingForward, new double[] { elapsed(0, 1), elapsed(1, 2), elapsed(2, 3) });
		}
		return times;
	}

	/**
	 * Device bytes this plan needs to run {@code batch} transforms at once from host arrays: grid, image and sample
	 * buffers, cuFFT work area (about one grid per transform), plus the points already set.
	 */
	public long predictDeviceBytes(final int batch) {
		return perTransformBytes(true) * batch + (points == null ? 0 : points.bytes() + setpts.bytes()) +
			(coilSort == null ? 0 : coilSort.bytes());
	}

	/** How many of {@code transforms} run at once from host arrays: as many as fit the free device memory. */
	public int chunkSize(final int transforms) {
		return chunkSize(transforms, true);
	}

	/** Caps the transforms run at once (as if memory allowed no more); for tests of the chunked path. */
	public void limitBatch(final int transforms) {
		InvalidInputException.require(transforms >= 1, "batch limit: expected >= 1, found " + transforms);
		batchLimit = transforms;
	}

	/**
	 * Transfer bytes per piece of a host-array execute (default {@link #PIECE_BYTES}); {@link Long#MAX_VALUE}: one
	 * piece per memory chunk, no overlap of transfers and transforms. For tests and the transfer benchmark.
	 */
	void pieceBytes(final long bytes) {
		if (bytes < 1) throw new IllegalArgumentException("piece bytes " + bytes + " < 1");
		pieceBytes = bytes;
	}

	/**
	 * Java-array executes through the pinned mirrors where a chunk runs in several pieces ({@code true}, the default)
	 * or always through the staging rings.
	 */
	void hostMirror(final boolean on) {
		useMirror = on;
	}

	/** The mirrors also for chunks of one piece (for tests of that path; by default those take the rings). */
	void mirrorAlways(final boolean on) {
		mirrorAlways = on;
	}

	/** Whether the latest host-array execute ran through the mirrors (else the rings or pinned arrays). */
	boolean lastMirrored() {
		return lastMirrored;
	}

	/** The mirrors' copy units and output segments (bytes, multiples of 16), for tests that span several. */
	void mirrorSizes(final int unit, final long segment) {
		mirror().sizes(unit, segment);
	}

	/** Allocates device buffers for {@code batch} transforms at once (grids, images and samples). */
	public void reserve(final int batch) {
		ensureOpen();
		device.makeCurrent();
		ensureGrid(batch);
		ensureHostBuffers(batch);
	}

	/**
	 * Device-resident forward of {@code batch} transforms ≤ the reserved grids: {@code img} and {@code smp} are device
	 * arrays in the plan's precision ([batch][pixels] and [batch][points] complex interleaved). Asynchronous on the
	 * backend's stream; {@link #synchronize()} waits, {@link #deviceStageMillis()} gives its stage times.
	 */
	public void forwardDevice(final CUdeviceptr img, final CUdeviceptr smp, final int batch) {
		prepare(batch);
		// as a CUDA graph from the second execute with these buffers on (GpuGraphs)
		if (!graphs.run(true, DeviceArray.address(img), DeviceArray.address(smp), batch, eventSet(),
			() -> forwardLaunches(img, smp, batch))) forwardLaunches(img, smp, batch);
	}

	/** Which of {@link #eventSets} the stage events go to now (a graph records into the set it was captured with). */
	private int eventSet() {
		return events == eventSets[0] ? 0 : 1;
	}

	private void forwardLaunches(final CUdeviceptr img, final CUdeviceptr smp, final int batch) {
		record(0);
		launchDeapod("pad", img, grid.pointer(), batch); // writes every grid cell (zeros outside): no clearing pass
		record(1);
		ffts.execute(grid.pointer(), fftSize, batch, dbl, -1, imageStart, imageCount, false);
		record(2);
		launchInterp(grid.pointer(), smp, batch);
		record(3);
	}

	/** Device-resident adjoint; as {@link #forwardDevice}. */
	public void adjointDevice(final CUdeviceptr smp, final CUdeviceptr img, final int batch) {
		prepare(batch);
		ensureCoilPoints(batch);
		if (!graphs.run(false, DeviceArray.address(smp), DeviceArray.address(img), batch, eventSet(),
			() -> adjointLaunches(smp, img, batch))) adjointLaunches(smp, img, batch);
	}

	private void adjointLaunches(final CUdeviceptr smp, final CUdeviceptr img, final int batch) {
		record(0);
		clearAndSpread(smp, grid.pointer(), batch);
		record(1);
		ffts.execute(grid.pointer(), fftSize, batch, dbl, +1, imageStart, imageCount, true);
		record(2);
		launchDeapod("crop", grid.pointer(), img, batch);
		record(3);
	}

	/** Waits for the backend's stream. */
	public void synchronize() {
		device.makeCurrent();
		check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (NUFFT kernels of " + backend() + ")");
	}

	/** The stream the plan's work is queued on (its backend's). */
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

	/** Frees what the plan made (points, grids, FFT plans, events, staging), and the backend when it owns it. */
	@Override
	public void close() {
		if (closed) return;
		closed = true;
		try {
			device.makeCurrent();
			JCudaDriver.cuStreamSynchronize(stream);
			graphs.close();
			ffts.close();
			freeBatchBuffers();
			if (points != null) points.close();
			points = null;
			setpts.close();
			if (coilSort != null) coilSort.close();
			staging.close();
			if (upStaging != null) upStaging.close();
			if (downStaging != null) downStaging.close();
			if (mirror != null) mirror.close();
			for (final DeviceArray a : new DeviceArray[] { dx, dy, dz })
				if (a != null) a.close();
			destroyEvents();
		}
		finally {
			backend.closed(this);
		}
	}

	// -- package API: stage launches on raw device arrays, tests --

	/**
	 * Spreads {@code batch} transforms from {@code smp} ([batch][points]) into the caller's grids at {@code fineGrid}
	 * ([batch][grid], cleared here first unless output-driven, which writes every cell).
	 */
	void spreadDevice(final CUdeviceptr smp, final CUdeviceptr fineGrid, final int batch) {
		prepareStage(batch);
		ensureCoilPoints(batch);
		clearAndSpread(smp, fineGrid, batch);
	}

	/** Interpolates {@code batch} transforms from the caller's grids at {@code fineGrid} into {@code smp}. */
	void interpolateDevice(final CUdeviceptr fineGrid, final CUdeviceptr smp, final int batch) {
		prepareStage(batch);
		launchInterp(fineGrid, smp, batch);
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

	/** Milliseconds between two recorded events (after a synchronize). */
	double elapsed(final int from, final int to) {
		final float[] ms = new float[1];
		check(JCudaDriver.cuEventElapsedTime(ms, events[from], events[to]), "cuEventElapsedTime");
		return ms[0];
	}

	/** CUDA graphs this plan holds now (tests). */
	int graphCount() { return graphs.size(); }

	/** The device sort of this plan's points (tests compare its arrays with the host oracle {@link GpuPoints}). */
	GpuSetpts sortedPoints() { return setpts; }

	/** Shared memory of one spreading block (SHARED method). */
	int sharedBytes() {
		return GpuHeuristics.stagedTileBytes(binSize, width, cbytes);
	}

	// -- helpers: execution --

	/** Transfer bytes (input and output) per piece of a pipelined host-array execute. */
	static final long PIECE_BYTES = 8L << 20;
	/** Slices of each pinned staging ring of the executes (uploads, downloads), and their bytes. */
	static final int STAGING_SLICES = 4, STAGING_SLICE_BYTES = 8 << 20;

	/**
	 * Host-array execute, pipelined: pieces of P transforms (about {@link #PIECE_BYTES} of transfers, within the
	 * memory chunk B). Piece i is uploaded on {@link #upStream} into device slot i mod 2 (after the transform of piece
	 * i−2 has read that slot), transformed on the backend's stream, and downloaded on {@link #downStream} while piece
	 * i+1 is uploaded and transformed. With one piece, or memory for one slot only, the pieces run one after another.
	 */
	private void runHost(final boolean forward, final int t, final PinnedStaging.Host img,
		final PinnedStaging.Host smp)
	{
		ensureOpen();
		requirePoints();
		device.makeCurrent();
		times.clear();
		pendingTimes = false;
		final int b = chunkSize(t, true);
		final long inLen = forward ? 2 * pixels : 2L * points.count, outLen = forward ? 2L * points.count : 2 * pixels;
		final long inBytes = inLen * (cbytes / 2), outBytes = outLen * (cbytes / 2);
		// Java arrays on both sides go through the mirrors where a chunk runs in several pieces (runMirrored). Through
		// the rings (single pieces, no mirrors to be had, or rings asked for) they run one piece per memory chunk: the
		// CPU copies through the rings are the bound there, and pieces only add waits (GpuTransferBenchmark: serial
		// 4.9 / 4.0 ms against pipelined 7.2 / 6.8 ms for 8 radial 512² transforms); pieces pay where one side is a
		// PinnedArray.
		final boolean pinnedSide = img.pinned(0, dbl) != null || smp.pinned(0, dbl) != null;
		lastMirrored = !pinnedSide && useMirror && runMirrored(forward, t, forward ? img : smp, forward ? smp : img,
			inLen, outLen, b);
		if (lastMirrored) return;
		int p = (int) Math.min(Math.min(t, b), pinnedSide ? pieceTransforms(inBytes, outBytes) : Long.MAX_VALUE);
		if (p < t) p = Math.min(p, Math.max(1, b / 2)); // several pieces: two device slots where memory allows
		final int piece = p, pieces = (t + p - 1) / p;
		final int slots = pieces > 1 && 2 * p <= b ? 2 : 1;
		ensureGrid(piece);
		ensureHostBuffers(slots * piece);
		if (upStaging == null) upStaging = new PinnedStaging(STAGING_SLICES, STAGING_SLICE_BYTES);
		if (downStaging == null) downStaging = new PinnedStaging(STAGING_SLICES, STAGING_SLICE_BYTES);
		final DeviceArray dIn = forward ? image : samples, dOut = forward ? samples : image;
		final PinnedStaging.Host in = forward ? img : smp, out = forward ? smp : img;
		final double[] ms = new double[2], stages = new double[3];
		final int lag = slots - 1;
		for (int i = 0; i < pieces + lag; i++) {
			if (i < pieces) {
				final int t0 = i * piece, cb = Math.min(piece, t - t0), s = i % slots;
				final long start = System.nanoTime();
				final CUdeviceptr dIn0 = dIn.at(s * piece * inBytes), dOut0 = dOut.at(s * piece * outBytes);
				check(JCudaDriver.cuStreamWaitEvent(upStream, computed[s], 0), "cuStreamWaitEvent (device slot free)");
				upStaging.upload(in, t0 * inLen, cb * inLen, dbl, dIn0, upStream);
				check(JCudaDriver.cuEventRecord(uploaded[s], upStream), "cuEventRecord (piece uploaded)");
				check(JCudaDriver.cuStreamWaitEvent(stream, uploaded[s], 0), "cuStreamWaitEvent (piece uploaded)");
				// The output slot is free once the piece before in it is downloaded.
				check(JCudaDriver.cuStreamWaitEvent(stream, downloaded[s], 0), "cuStreamWaitEvent (output slot free)");
				if (i >= 2) addPieceStages(i - 2, stages); // its event set is reused now
				events = eventSets[i % 2];
				if (forward) forwardDevice(dIn0, dOut0, cb);
				else adjointDevice(dIn0, dOut0, cb);
				check(JCudaDriver.cuEventRecord(computed[s], stream), "cuEventRecord (piece transformed)");
				ms[0] += (System.nanoTime() - start) / 1e6;
			}
			final int j = i - lag;
			if (j >= 0) {
				final int t0 = j * piece, cb = Math.min(piece, t - t0), s = j % slots;
				final long start = System.nanoTime();
				check(JCudaDriver.cuStreamWaitEvent(downStream, computed[s], 0), "cuStreamWaitEvent (piece transformed)");
				final jcuda.Pointer direct = out.pinned(t0 * outLen, dbl);
				final CUdeviceptr from = dOut.at(s * piece * outBytes);
				if (direct != null) {
					// A pinned array of the plan's precision: queued, no host wait (the end of the call waits).
					check(JCudaDriver.cuMemcpyDtoHAsync(direct, from, cb * outBytes, downStream),
						"cuMemcpyDtoHAsync(" + cb * outBytes + " bytes, pinned array)");
				}
				else downStaging.download(from, out, t0 * outLen, cb * outLen, dbl, downStream);
				check(JCudaDriver.cuEventRecord(downloaded[s], downStream), "cuEventRecord (piece downloaded)");
				ms[1] += (System.nanoTime() - start) / 1e6;
			}
		}
		final long start = System.nanoTime();
		check(JCudaDriver.cuStreamSynchronize(downStream), "cuStreamSynchronize (downloads)");
		ms[1] += (System.nanoTime() - start) / 1e6;
		for (int j = Math.max(0, pieces - 2); j < pieces; j++) addPieceStages(j, stages);
		events = eventSets[(pieces - 1) % 2];
		times.add("upload", ms[0]);
		addStageTimes(forward, stages);
		times.add("download", ms[1]);
	}

	/**
	 * Java-array execute through the pinned mirrors ({@link HostMirror}); false, with nothing run, where a chunk is one
	 * piece (unless {@link #mirrorAlways}) or the mirrors cannot hold one transform's transfers (the caller takes the
	 * rings then). Per memory chunk of C transforms (at
	 * most {@link HostMirror#MAX_BYTES} of transfers each way): the pool's copies of the whole chunk's input are
	 * queued at once; in the order the DMA wants them this thread queues the upload of each run of finished units on
	 * {@link #upStream}, and as each piece of P transforms (about {@link #pieceBytes} of transfers) is complete, its
	 * transform on the backend's stream and its download, in segments, on {@link #downStream}; then the pool drains
	 * each segment as it lands. Pieces have their own places in the chunk's device buffers (no slot reuse).
	 */
	private boolean runMirrored(final boolean forward, final int t, final PinnedStaging.Host in,
		final PinnedStaging.Host out, final long inLen, final long outLen, final int chunk)
	{
		final long inBytes = inLen * (cbytes / 2), outBytes = outLen * (cbytes / 2);
		final long most = HostMirror.MAX_BYTES / Math.max(inBytes, outBytes);
		if (most < 1) return false;
		final int b = (int) Math.min(chunk, most);
		final int first = Math.min(b, t);
		// One piece per chunk: nothing for the transforms to overlap, and the rings were as fast or faster there
		// (single transforms of the transfer section, four runs on the H200: mirror / rings 0.77–1.27, median 1.07,
		// the kooshball 1.02–1.27 every time); with several pieces the mirrors won 12 of 16 (8-coil rows: 0.74–0.98,
		// the others 1.03–1.22; docs/gpu-tuning.md, 2026-11-29 sixth session).
		final long perPiece = pieceTransforms(inBytes, outBytes);
		if (first <= perPiece && !mirrorAlways) return false;
		// sized for the largest chunk: the later, shorter ones fit
		if (!mirror().ensure(first * inBytes, first * outBytes)) return false;
		final double[] stages = new double[3];
		double upMs = 0, downMs = 0;
		for (int c0 = 0; c0 < t; c0 += b) {
			final int cb = Math.min(b, t - c0);
			final int piece = (int) Math.min(cb, perPiece);
			final int pieces = (cb + piece - 1) / piece;
			ensureGrid(piece);
			ensureHostBuffers(cb);
			final DeviceArray from = forward ? image : samples, to = forward ? samples : image;
			final long start = System.nanoTime();
			final HostMirror.Fill fill = mirror.fill(in, c0 * inLen, cb * inLen, dbl);
			final HostMirror.Drain drain = mirror.drain(out, c0 * outLen, dbl);
			try {
				for (int i = 0; i < pieces; i++) {
					final int p0 = i * piece, pc = Math.min(piece, cb - p0);
					while (fill.uploaded() < (p0 + pc) * inBytes) fill.uploadNextRun(from.at(0), upStream);
					check(JCudaDriver.cuEventRecord(uploaded[0], upStream), "cuEventRecord (piece uploaded)");
					check(JCudaDriver.cuStreamWaitEvent(stream, uploaded[0], 0), "cuStreamWaitEvent (piece uploaded)");
					if (i >= 2) addPieceStages(i - 2, stages); // its event set is reused now
					events = eventSets[i % 2];
					final CUdeviceptr pi = from.at(p0 * inBytes), po = to.at(p0 * outBytes);
					if (forward) forwardDevice(pi, po, pc);
					else adjointDevice(pi, po, pc);
					check(JCudaDriver.cuEventRecord(computed[0], stream), "cuEventRecord (piece transformed)");
					check(JCudaDriver.cuStreamWaitEvent(downStream, computed[0], 0),
						"cuStreamWaitEvent (piece transformed)");
					drain.download(po, p0 * outBytes, (p0 + pc) * outBytes, downStream);
				}
				final long uploadedAt = System.nanoTime();
				upMs += (uploadedAt - start) / 1e6;
				drain.finish();
				downMs += (System.nanoTime() - uploadedAt) / 1e6;
				for (int j = Math.max(0, pieces - 2); j < pieces; j++) addPieceStages(j, stages);
				events = eventSets[(pieces - 1) % 2];
			}
			catch (final RuntimeException | Error e) {
				// no DMA may still write into the mirror when the next call fills it
				JCudaDriver.cuStreamSynchronize(upStream);
				JCudaDriver.cuStreamSynchronize(stream);
				JCudaDriver.cuStreamSynchronize(downStream);
				throw e;
			}
			finally {
				fill.quiesce();
			}
		}
		times.add("upload", upMs);
		addStageTimes(forward, stages);
		times.add("download", downMs);
		return true;
	}

	private HostMirror mirror() {
		if (mirror == null) mirror = new HostMirror(backend.copyPool());
		return mirror;
	}

	/** Transforms per piece of a pipelined host-array execute: about {@link #pieceBytes} of transfers, at least one. */
	private long pieceTransforms(final long inBytes, final long outBytes) {
		return (pieceBytes - 1) / (inBytes + outBytes) + 1;
	}

	/**
	 * Device-buffer execute: chunks of B transforms read from and written to the caller's buffers, only the grids
	 * (and FFT work areas) held by the plan. One chunk stays asynchronous (its stage times are read when asked);
	 * several wait for each chunk's stage times.
	 */
	private void runDevice(final boolean forward, final GpuBuffer img, final GpuBuffer smp) {
		final int t = NufftPlan.transforms(this, img.length(), smp.length());
		ensureOpen();
		device.makeCurrent();
		times.clear();
		pendingTimes = false;
		final int b = chunkSize(t, false);
		ensureGrid(b);
		final long imgBytes = 2 * pixels * (cbytes / 2), smpBytes = 2L * points.count * (cbytes / 2);
		final double[] stages = new double[3];
		for (int t0 = 0; t0 < t; t0 += b) {
			final int cb = Math.min(b, t - t0);
			final CUdeviceptr i = img.pointer().withByteOffset(t0 * imgBytes);
			final CUdeviceptr s = smp.pointer().withByteOffset(t0 * smpBytes);
			if (forward) forwardDevice(i, s, cb);
			else adjointDevice(s, i, cb);
			if (b < t) {
				check(JCudaDriver.cuEventSynchronize(events[3]), "cuEventSynchronize (NUFFT chunk)");
				for (int k = 0; k < 3; k++) stages[k] += elapsed(k, k + 1);
			}
		}
		if (b < t) addStageTimes(forward, stages);
		else {
			pendingTimes = true;
			pendingForward = forward;
		}
	}

	/** Adds the stage times of piece {@code j} of a pipelined execute (event set j mod 2), waiting for its end. */
	private void addPieceStages(final int j, final double[] stages) {
		events = eventSets[j % 2];
		check(JCudaDriver.cuEventSynchronize(events[3]), "cuEventSynchronize (NUFFT piece stages)");
		for (int k = 0; k < 3; k++) stages[k] += elapsed(k, k + 1);
	}

	private void addStageTimes(final boolean forward, final double[] stages) {
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
	}

	/** T of a stage call: grid [T][gridPoints] and samples [T][points] complex, else an error naming both. */
	private int stageTransforms(final GpuBuffer g, final GpuBuffer s, final String op) {
		ensureOpen();
		requirePoints();
		final long cells = 2 * gridPoints, m = 2L * points.count;
		if (g.length() == 0 || g.length() % cells != 0 || s.length() % m != 0 || g.length() / cells != s.length() / m) {
			throw new InvalidInputException("GPU NUFFT " + op + ": grid buffer of " + g.length() + " values (2 x " +
				gridPoints + " cells x T) and sample buffer of " + s.length() + " values (2 x " + points.count +
				" points x T) do not hold the same number T >= 1 of transforms");
		}
		final long t = g.length() / cells;
		InvalidInputException.require(t <= GpuDevice.MAX_GRID_Y, "GPU NUFFT " + op + ": " + t + " transforms exceed " +
			GpuDevice.MAX_GRID_Y + " per call");
		return (int) t;
	}

	/** A buffer of this plan's backend and precision, else an {@link InvalidInputException} naming both. */
	private GpuBuffer mine(final Buffer b, final String what) {
		ensureOpen();
		final GpuBuffer g = backend.mine(b, "GPU NUFFT " + what);
		if (g.precision() != params.precision()) {
			throw new InvalidInputException("GPU NUFFT " + what + ": a " + g.precision().name().toLowerCase() +
				" buffer, the plan is " + params.precision().name().toLowerCase());
		}
		return g;
	}

	private void prepare(final int batch) {
		ensureOpen();
		requirePoints();
		if (batch < 1 || batch > gridCapacity) {
			throw new IllegalArgumentException("GPU NUFFT: batch " + batch + " outside [1, " + gridCapacity +
				"] reserved transforms");
		}
		device.makeCurrent();
	}

	/** Checks of the stage API: points set, a batch of at least one (the caller's buffers bound it). */
	private void prepareStage(final int batch) {
		ensureOpen();
		requirePoints();
		if (batch < 1) throw new IllegalArgumentException("GPU NUFFT: batch " + batch + " < 1");
		device.makeCurrent();
	}

	private void requirePoints() {
		if (points == null) throw new IllegalStateException("NUFFT plan: setPoints must be called before forward/adjoint");
	}

	/** Clears {@code batch} grids at {@code grid} (unless output-driven: it writes every cell) and spreads into them. */
	private void clearAndSpread(final CUdeviceptr smp, final CUdeviceptr fineGrid, final int batch) {
		if (method != SpreadMethod.OUTPUT_DRIVEN) {
			check(JCudaDriver.cuMemsetD32Async(fineGrid, 0, gridPoints * batch * (cbytes / 4), stream),
				"cuMemsetD32Async(fine grid, " + gridPoints * batch + " cells)");
		}
		launchSpread(smp, fineGrid, batch);
	}

	/**
	 * Resolves every kernel an execute of this plan launches (pad, crop, interpolation, its spreading method; setpts
	 * resolves its own), opting in to their shared memory, so that the first execute after planning pays no module or
	 * function loading (issue 9 measured a cold crop at 0.051 ms against 0.004 warm), and a device that cannot run
	 * them fails here.
	 */
	private void resolveKernels() {
		device.prepare("deapodize", "pad" + suffix(), 0);
		device.prepare("deapodize", "crop" + suffix(), 0);
		// cuFFT's plans are made by its first execute; the own FFT's module (where it runs this plan's pruned grid
		// transforms) is loaded now, its functions by the first execute's launch plan
		if (GpuFfts.useOwn() || GpuFfts.prunedOwn(fftSize, imageCount, dbl)) device.load(GpuOwnFft.MODULE);
		device.prepare("interp", "interp_tiles_" + dims + "d" + suffix() + "_w" + width,
			GpuHeuristics.tileBytes(binSize, width, cbytes));
		switch (method) {
			case OUTPUT_DRIVEN:
				device.prepare("spread_radial", "spread_radial_2d" + suffix() + "_w" + width, 0);
				break;
			case ATOMIC:
				device.prepare("spread", "spread_atomic_" + dims + "d" + suffix() + "_w" + width, 0);
				break;
			default:
				device.prepare("spread", tilesKernel(), sharedBytes());
				// the largest block a batch can take (before any points, whatever the second sort will decide)
				final int warps = coilBlockWarps(GpuDevice.MAX_GRID_Y);
				if (warps > 0) {
					device.prepare("spread", coilsKernel(), GpuHeuristics.coilTileBytes(coilBin, width, cbytes, warps));
				}
		}
	}

	/** pad_* (image → grid, one thread per grid cell) or crop_* (grid → image, one per pixel); blockIdx.y = transform. */
	private void launchDeapod(final String which, final CUdeviceptr in, final CUdeviceptr out, final int batch) {
		final boolean pad = which.equals("pad");
		// pad_S / crop_S(const DeapodArgs<T> a, const C* in, C* out)
		final KernelArgs args = new KernelArgs().struct(deapodArgs).pointer(in).pointer(out);
		final long threads = pad ? gridPoints : pixels;
		launch("deapodize", which + suffix(), blocks(threads), batch, 0, args, (pad ? gridPoints + " grid cells" :
			pixels + " pixels") + " x " + batch);
	}

	/** interp_tiles_*: one block per (subproblem, transform). */
	private void launchInterp(final CUdeviceptr fineGrid, final CUdeviceptr smp, final int batch) {
		final int shared = GpuHeuristics.tileBytes(binSize, width, cbytes);
		launch("interp", "interp_tiles_" + dims + "d" + suffix() + "_w" + width, points.subproblems, batch, shared,
			binnedArgs(fineGrid, smp, batch), points.subproblems + " subproblems x " + batch + ", " + shared +
				" B shared");
	}

	/** (PointArgs, in, out, batch, KernelSpec): the arguments of every binned kernel. */
	private KernelArgs binnedArgs(final CUdeviceptr in, final CUdeviceptr out, final int batch) {
		// spread_atomic_*, spread_tiles_*, interp_tiles_*(const PointArgs<T> p, const C* in, C* out, int batch,
		//   const KernelSpec<T> ks)
		return new KernelArgs().struct(points.pointArgs).pointer(in).pointer(out).i32(batch).struct(spec.bytes());
	}

	private void launchSpread(final CUdeviceptr smp, final CUdeviceptr fineGrid, final int batch) {
		final int m = points.count;
		switch (method) {
			case OUTPUT_DRIVEN:
				launchRadial(smp, fineGrid, batch);
				return;
			case ATOMIC:
				launch("spread", "spread_atomic_" + dims + "d" + suffix() + "_w" + width, blocks(m), 1, 0,
					binnedArgs(smp, fineGrid, batch), m + " points x " + batch);
				return;
			default:
				final int warps = coilWarps(batch);
				// on bins of its own only once sorted for them (ensureCoilPoints, before the launches)
				if (warps > 0 && (!ownCoilBin || coilSorted)) {
					// blockIdx.y = a group of warps × coilsPerWarp transforms
					final int group = warps * GpuHeuristics.coilsPerWarp(width), groups = (batch + group - 1) / group;
					final int shared = GpuHeuristics.coilTileBytes(coilBin, width, cbytes, warps);
					final int subs = ownCoilBin ? coilSort.subproblems() : points.subproblems;
					final byte[] args = ownCoilBin ? coilSort.pointArgs() : points.pointArgs;
					launch("spread", coilsKernel(), subs, groups, 32 * warps, shared, new KernelArgs().struct(args).pointer(
						smp).pointer(fineGrid).i32(batch).struct(spec.bytes()), subs + " subproblems (bins " + coilBin[0] +
							"x" + coilBin[1] + ") x " + groups + " groups of " + group + " of " + batch + " transforms, " +
							shared + " B shared");
					return;
				}
				final int shared = sharedBytes();
				launch("spread", tilesKernel(), points.subproblems, batch, serial ? GpuHeuristics.serialBlock(width) :
					GpuHeuristics.BLOCK, shared, binnedArgs(smp, fineGrid, batch), points.subproblems + " subproblems x " +
						batch + ", " + shared + " B shared");
		}
	}

	/**
	 * Warps per block of spread_coils_2d_* when a spread of {@code batch} transforms runs it (2D shared-memory spreading,
	 * GpuHeuristics.coilSpread, its block fits the device, and on bins of its own a second sort that pays for the
	 * points set, GpuHeuristics.coilSort, and that the device had room for), else 0 (spread_tiles_2d_* per transform).
	 */
	int coilWarps(final int batch) {
		if (ownCoilBin && (coilSortRefused || !GpuHeuristics.coilSort(points == null ? 0 : points.count, batch, coils))) {
			return 0;
		}
		return coilBlockWarps(batch);
	}

	/** {@link #coilWarps} whatever the points: the spreader chosen for {@code batch} and its block fitting the device. */
	private int coilBlockWarps(final int batch) {
		return coils != null && GpuHeuristics.coilSpread(width, batch, coils) ? GpuHeuristics.coilWarps(batch, coilBin,
			width, cbytes, device.sharedMemoryOptin()) : 0;
	}

	/** spread_coils_2d_*: the 2D shared-memory spreader of several transforms at once (kernels/spread.cu). */
	private String coilsKernel() {
		return "spread_coils_2d" + suffix() + "_w" + width;
	}

	/** spread_serial_3d_* or spread_tiles_*: the shared-memory spreader of this plan (kernels/spread.cu). */
	private String tilesKernel() {
		return (serial ? "spread_serial_" : "spread_tiles_") + dims + "d" + suffix() + "_w" + width;
	}

	/**
	 * spread_radial_2d_*: one block per 16 × 16 cells, blockIdx.y over groups of
	 * {@link GpuHeuristics#radialBatch} transforms; writes every cell of the {@code batch} grids.
	 */
	private void launchRadial(final CUdeviceptr smp, final CUdeviceptr fineGrid, final int batch) {
		final GpuRadial r = points.radial;
		final int rb = GpuHeuristics.RADIAL_BLOCK, per = GpuHeuristics.radialBatch(dbl);
		final long tiles = (long) ((n[0] + rb - 1) / rb) * ((n[1] + rb - 1) / rb);
		final int groups = (batch + per - 1) / per;
		// spread_radial_2d_S_wW(const RadialArgs<T> r, const C* samples, C* grid, int batch, const KernelSpec<T> ks)
		final KernelArgs args = new KernelArgs().struct(points.radialArgs).pointer(smp).pointer(fineGrid).i32(batch)
			.struct(spec.bytes());
		launch("spread_radial", "spread_radial_2d" + suffix() + "_w" + width, tiles, groups, 0, args, "grid " + n[0] +
			"x" + n[1] + ", " + r.readout + " samples x " + r.spokeCount + " spokes, " + tiles + " tiles x " + groups +
			" groups of " + per + " of " + batch + " transforms");
	}

	private void launch(final String module, final String kernel, final long gridX, final int gridY, final int shared,
		final KernelArgs args, final String sizes)
	{
		launch(module, kernel, gridX, gridY, GpuHeuristics.BLOCK, shared, args, sizes);
	}

	/** The same with {@code block} threads per block (spread_serial_3d_*: GpuHeuristics.serialBlock). */
	private void launch(final String module, final String kernel, final long gridX, final int gridY, final int block,
		final int shared, final KernelArgs args, final String sizes)
	{
		device.launch(module, kernel, gridX, gridY, block, shared, stream, args.build(), sizes);
	}

	private void record(final int i) {
		// In a capture a plain record only orders streams; as an external event node the graph records it (and
		// times() reads it) each time it runs.
		if (graphs.capturing()) {
			check(JCudaDriver.cuEventRecordWithFlags(events[i], stream, CUevent_record_flags.CU_EVENT_RECORD_EXTERNAL),
				"cuEventRecordWithFlags (external, in a CUDA graph capture)");
		}
		else check(JCudaDriver.cuEventRecord(events[i], stream), "cuEventRecord");
	}

	// -- helpers: memory --

	private long perTransformBytes(final boolean hostArrays) {
		return GpuHeuristics.perTransformBytes(cbytes, gridPoints, pixels, points(), hostArrays);
	}

	private int chunkSize(final int transforms, final boolean hostArrays) {
		final long held = (grid == null ? 0 : grid.bytes()) + (hostArrays ? heldHostBytes() : 0);
		final int b = GpuHeuristics.chunkSize(transforms, device.memoryInfo()[0], held, perTransformBytes(hostArrays),
			batchLimit, "grid " + Arrays.toString(Arrays.copyOf(n, dims)) + ", " + points() + " points");
		return Math.min(b, GpuDevice.MAX_GRID_Y);
	}

	/** Grids (and their FFT plans) for at least {@code batch} transforms. */
	private void ensureGrid(final int batch) {
		if (batch <= gridCapacity) return;
		synchronize();
		graphs.clear(); // they point at the old grid
		ffts.clear(); // FFT work areas of the old batch sizes
		if (grid != null) grid.close();
		grid = null;
		gridCapacity = 0;
		grid = new DeviceArray(cbytes * gridPoints * batch, "fine grid x " + batch);
		gridCapacity = batch;
	}

	/** The plan's image and sample buffers of host-array calls, for at least {@code batch} transforms. */
	private void ensureHostBuffers(final int batch) {
		// The sample buffer also grows when setPoints brought more points than it was made for.
		if (batch <= hostCapacity && samples.bytes() >= cbytes * (long) Math.max(points(), 1) * batch) return;
		synchronize();
		for (final DeviceArray a : new DeviceArray[] { image, samples })
			if (a != null) a.close();
		image = samples = null;
		hostCapacity = 0;
		image = new DeviceArray(cbytes * pixels * batch, "image x " + batch);
		samples = new DeviceArray(cbytes * (long) Math.max(points(), 1) * batch, "samples x " + batch);
		hostCapacity = batch;
	}

	private long heldHostBytes() {
		return (image == null ? 0 : image.bytes()) + (samples == null ? 0 : samples.bytes());
	}

	private void freeBatchBuffers() {
		for (final DeviceArray a : new DeviceArray[] { grid, image, samples })
			if (a != null) a.close();
		grid = image = samples = null;
		gridCapacity = hostCapacity = 0;
	}

	private DeviceArray deapodization(final Kernel k, final int axis) {
		final double[] d = axis < dims ? Kernels.deapodization(k, n0[axis], n[axis]) : new double[] { 1 };
		if (dbl) return DeviceArray.of(d, "deapodization, axis " + axis);
		final float[] f = new float[d.length];
		for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
		return DeviceArray.of(f, "deapodization, axis " + axis);
	}

	private static void createEvents(final CUevent[] set, final int flags) {
		for (int i = 0; i < set.length; i++) {
			set[i] = new CUevent();
			check(JCudaDriver.cuEventCreate(set[i], flags), "cuEventCreate");
		}
	}

	private void destroyEvents() {
		for (final CUevent[] set : new CUevent[][] { eventSets[0], eventSets[1], uploaded, computed, downloaded })
			for (final CUevent e : set)
				if (e != null) JCudaDriver.cuEventDestroy(e);
		for (final CUstream st : new CUstream[] { upStream, downStream })
			if (!st.equals(new CUstream())) JCudaDriver.cuStreamDestroy(st);
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("GPU NUFFT plan is closed");
		backend.ensureOpen();
	}

	private String suffix() { return dbl ? "_d" : "_f"; }

	private static long blocks(final long threads) {
		return (threads + GpuHeuristics.BLOCK - 1) / GpuHeuristics.BLOCK;
	}
}
