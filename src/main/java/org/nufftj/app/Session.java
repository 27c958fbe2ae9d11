package org.nufftj.app;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.nufftj.app.tune.TuneDirection;
import org.nufftj.app.tune.Tuner;
import org.nufftj.app.tune.Wisdom;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.DeviceException;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.DensityCompensation;
import org.nufftj.recon.GriddingRecon;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;
import org.nufftj.trajectory.Trajectory;

/**
 * What one run of the command line, or one SciJava context, keeps open while it works: the {@link Backend}s its
 * plans run on, each opened by {@link Backends#open} on first use (one per device; the CPU one per thread count) and
 * closed by {@link #close()}. Every NUFFT plan, gridding reconstruction and density compensation the application
 * makes goes through {@link #backend}, {@link #plan}, {@link #reconstruct} and {@link #densityWeights} (BART-scaled
 * transforms through {@link BartNufft}); device questions through {@link #describeDevices}, {@link #unusableReason}
 * and {@link #isDeviceFailure}. Device {@code auto} falls back to the CPU in {@link Backends#open} with one notice
 * to the session's notice sink (the CLI: stderr; Fiji: the LogService), once per session. Thread-safe; no global
 * state.
 */
public final class Session implements AutoCloseable {

	private final Consumer<String> notices;
	private final Map<String, Backend> backends = new LinkedHashMap<>();
	private final Tuner tuner;
	private boolean closed;

	/** A session whose device notices go to stderr (the command line). */
	public Session() {
		this(System.err::println);
	}

	/**
	 * A session whose device notices (e.g. "no usable GPU, running on the CPU") go to {@code notices}; tuning wisdom
	 * at {@link Wisdom#defaultLocation()}.
	 */
	public Session(final Consumer<String> notices) {
		this(notices, new Wisdom(Wisdom.defaultLocation(), notices));
	}

	/** A session with tuning wisdom in {@code wisdom} (null: none is read or written). */
	public Session(final Consumer<String> notices, final Wisdom wisdom) {
		this.notices = notices;
		this.tuner = new Tuner(wisdom, notices);
	}

	// -- public API --

	/**
	 * The backend for {@code device} (and, on the CPU, {@code threads}; 0 = every core), opened on first use and kept
	 * until {@link #close()}. {@code auto} resolves once per session (GPU 0, else the CPU after one notice).
	 */
	public synchronized Backend backend(final DeviceChoice device, final int threads) {
		if (closed) throw new IllegalStateException("session: already closed");
		final String key = key(device, threads);
		Backend b = backends.get(key);
		if (b == null && device.kind() == DeviceChoice.Kind.AUTO) b = backends.get(key(DeviceChoice.gpu(0), threads));
		if (b == null) {
			b = Backends.open(device, threads, notices);
			backends.putIfAbsent(key(b.device(), threads), b);
		}
		backends.putIfAbsent(key, b);
		return b;
	}

	/** The backend for the options' device and threads ({@link #backend(DeviceChoice, int)}). */
	public Backend backend(final NufftOptions options) {
		return backend(options.device(), options.threads());
	}

	/** A plan for images of {@code size} (2 or 3 sizes) with {@code options} on {@link #backend(NufftOptions)}; the caller closes it. */
	public NufftPlan plan(final int[] size, final NufftOptions options) {
		return backend(options).plan(size, options);
	}

	/** Gridding reconstruction (density compensation, adjoint NUFFT, coil combination) of one trajectory's frames. */
	public ReconResult reconstruct(final Trajectory t, final KSpace k, final int[] matrix, final ReconOptions options,
		final Progress progress)
	{
		final Backend b = backend(options.nufft());
		final NufftOptions tuned = tuner.resolve(b, t, matrix, k.coils() * k.frames(), options.nufft(),
			TuneDirection.ADJOINT);
		return GriddingRecon.reconstruct(b, t, k, matrix, options.withNufft(tuned), progress);
	}

	/**
	 * Coil images (channels = coils) combined by {@code combine} on {@link #backend(NufftOptions)} in the options'
	 * precision, as a reconstruction on that backend combines its own ({@link GriddingRecon#combine}).
	 */
	public ComplexImage combine(final ComplexImage coils, final CoilCombination combine, final NufftOptions options) {
		return GriddingRecon.combine(backend(options), coils, combine, options.precision());
	}

	/**
	 * The options a plan of {@code size} for {@code t}, transforming {@code batch} vectors per call in
	 * {@code direction}, should be made with on {@link #backend(NufftOptions)}: the wisdom's winner or a tuning run's
	 * when {@code options} leave the tuned knobs automatic ({@link Tuner#resolve}), else {@code options}.
	 */
	public NufftOptions tuned(final Trajectory t, final int[] size, final int batch, final NufftOptions options,
		final TuneDirection direction)
	{
		return tuner.resolve(backend(options), t, size, batch, options, direction);
	}

	/** A tuning run ({@code nufft-j tune}): see {@link Tuner#tune}. */
	public Tuner.Report tune(final Trajectory t, final int[] size, final int batch, final NufftOptions options,
		final TuneDirection direction, final boolean useWisdom)
	{
		return tuner.tune(backend(options), t, size, batch, options, direction, options.tuneMode(),
			options.tuneBudgetSeconds(), useWisdom);
	}

	/** The wisdom this session reads and writes, or null. */
	public Wisdom wisdom() {
		return tuner.wisdom();
	}

	/**
	 * Density-compensation weights of {@code method} for {@code t} and an image of {@code matrix}, normalised; Pipe–Menon
	 * runs on the CPU backend of this session in double (trajectory display, where no NUFFT options are set).
	 */
	public float[] densityWeights(final DcfMethod method, final Trajectory t, final int[] matrix, final int iterations) {
		final NufftOptions o = NufftOptions.defaults().withDevice(DeviceChoice.CPU)
			.withPrecision(org.nufftj.nufft.Precision.DOUBLE);
		return DensityCompensation.compute(method == DcfMethod.PIPE_MENON ? backend(o) : null, method, t, matrix,
			iterations, o);
	}

	/** The GPUs the engine finds (never throws; says why none is usable). */
	public static String describeDevices() {
		return Backends.describeDevices();
	}

	/** How many GPUs the driver reports (0 without one; never throws). */
	public static int gpuCount() {
		return Backends.gpuCount();
	}

	/** Why GPU {@code ordinal} cannot run plans, or null when it can. */
	public static String unusableReason(final int ordinal) {
		return Backends.unusableReason(ordinal);
	}

	/** True for a failure of a device (driver, memory, kernel launch) rather than of the input. */
	public static boolean isDeviceFailure(final Throwable t) {
		return t instanceof DeviceException;
	}

	/** The devices whose backends this session holds open, in the order opened (for tests and the service's checks). */
	public synchronized List<DeviceChoice> opened() {
		final List<DeviceChoice> out = new ArrayList<>();
		for (final Backend b : distinct()) out.add(b.device());
		return out;
	}

	public synchronized boolean isClosed() {
		return closed;
	}

	/**
	 * Closes the GPU backends this session holds (and plans left open on them), so that the next use opens them again
	 * with the settings of that time (the FFT engine, {@link Options#fftEngine}); CPU backends stay. Call it while no
	 * transform runs on them. Returns how many were closed.
	 */
	public synchronized int closeGpuBackends() {
		int n = 0;
		for (final Backend b : distinct()) {
			if (b.device().kind() != DeviceChoice.Kind.GPU) continue;
			b.close();
			n++;
			backends.values().removeIf(x -> x == b);
		}
		return n;
	}

	/** Closes every backend this session opened (and the plans left open on them); idempotent. */
	@Override
	public synchronized void close() {
		if (closed) return;
		closed = true;
		RuntimeException first = null;
		for (final Backend b : distinct()) {
			try {
				b.close();
			}
			catch (final RuntimeException e) {
				if (first == null) first = e;
				else first.addSuppressed(e);
			}
		}
		backends.clear();
		if (first != null) throw first;
	}

	// -- helpers --

	private static String key(final DeviceChoice device, final int threads) {
		return device.kind() == DeviceChoice.Kind.GPU ? device.toString() : device + "/" + threads;
	}

	/** Each open backend once (auto and gpu:0 may name the same one), in the order opened. */
	private List<Backend> distinct() {
		final Set<Backend> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		final List<Backend> out = new ArrayList<>();
		for (final Backend b : backends.values()) if (seen.add(b)) out.add(b);
		return out;
	}
}
