package org.nufftj.app;

import java.util.Arrays;
import java.util.Locale;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.TuneMode;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.PartialFourier;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * The options of both front ends: the choice lists (the values the command line and macros may use), their ranges,
 * and their translation into typed options. The command line's {@code --tolerance}, {@code --kernel}, … and the Fiji
 * commands' {@code tolerance=}, {@code kernel=}, … keys go through the same methods here, so they accept the same
 * values. Every parse failure is an {@link InvalidInputException} naming the key, the value found and the values
 * allowed.
 */
public final class Options {

	private Options() {}

	public static final String AUTO = "auto";

	public static final String[] KERNELS = { "auto", "es", "kb", "gauss" };
	public static final String[] DCFS = { "auto", "none", "ramp", "voronoi", "pipe-menon" };
	public static final String[] COMBINES = { "sos", "walsh", "none" };
	/** Partial Fourier handling of the Cartesian FFT path (the command line's --partial-fourier, Fiji's partialfourier). */
	public static final String[] PARTIAL_FOURIERS = { "zero", "homodyne" };
	public static final String[] PRECISIONS = { "float", "double" };
	public static final String[] DEVICES = { "auto", "cpu", "gpu" };
	public static final String[] SPREADS = { "auto", "atomic", "shared", "output" };
	/** GPU FFT engines (docs/gpu.md): cuFFT when it loads else the own FFT, cuFFT only, the own FFT (kernels/fft.cu). */
	public static final String[] FFTS = { "auto", "cufft", "own" };
	/** Tuning modes (the command line's --tune, the Fiji commands' tune key): see {@link TuneMode}. */
	public static final String[] TUNES = { "off", "quick", "exhaustive" };
	/** Largest tolerance accepted (the smallest depends on the precision: {@link NufftOptions}). */
	public static final double MAX_TOLERANCE = 0.1;
	/** The most coils a simulation makes (receive arrays have up to 128; more is a typing error). */
	public static final int MAX_COILS = 1024;
	public static final String[] TRAJECTORIES = { "from file", "radial", "golden angle", "tiny golden", "spiral",
		"stack of stars", "3D radial", "PROPELLER", "Cartesian" };
	public static final String[] DESIGNS = { "radial", "golden angle", "tiny golden", "spiral", "stack of stars",
		"3D radial", "PROPELLER", "Cartesian" };
	public static final String MAGNITUDE = "magnitude", MAG_PHASE = "magnitude and phase", RE_IM = "real and imaginary";
	public static final String[] OUTPUTS = { MAGNITUDE, MAG_PHASE, RE_IM };

	// -- public API --

	/** {@code value} if it is one of {@code allowed} (ignoring case), in the allowed spelling; else a clear error. */
	public static String choice(final String key, final String value, final String[] allowed) {
		final String v = value == null ? "" : value.trim();
		for (final String a : allowed) if (a.equalsIgnoreCase(v)) return a;
		throw new InvalidInputException(key + ": unknown value '" + v + "', expected one of " + Arrays.toString(allowed));
	}

	/** The NUFFT options of the common keys, with the default spreading method and all cores. */
	/**
	 * Selects the GPU FFT engine for the backends opened from now on in this process: {@code value} is one of
	 * {@link #FFTS} (checked, named {@code key} in the error), set as the system property {@code nufftj.fft} that the
	 * GPU backend reads when it opens (equivalent to the environment variable NUFFTJ_FFT, which it overrides).
	 */
	public static void fftEngine(final String key, final String value) {
		System.setProperty("nufftj.fft", choice(key, value, FFTS));
	}

	public static NufftOptions nufft(final String kernel, final double oversampling, final int width,
		final double tolerance, final String precision, final String device)
	{
		return nufft(kernel, oversampling, width, tolerance, precision, device, AUTO, 0);
	}

	/**
	 * The NUFFT options of the common keys: kernel (auto, es, kb, gauss), oversampling σ (0 = auto, else 1.125 … 2),
	 * width W (0 = auto, else 2 … 16), tolerance ε in (0, 0.1] (float ≥ 1e-6, double ≥ 1e-12), precision, device
	 * (auto, cpu, gpu, gpu:N), spread (auto, atomic, shared, output), threads (0 = all cores).
	 */
	public static NufftOptions nufft(final String kernel, final double oversampling, final int width,
		final double tolerance, final String precision, final String device, final String spread, final int threads)
	{
		if (!Double.isFinite(tolerance) || tolerance <= 0 || tolerance > MAX_TOLERANCE) throw new InvalidInputException(
			"tolerance: expected a value in (0, " + MAX_TOLERANCE + "], found " + tolerance);
		final int workers = threads("threads", threads);
		return NufftOptions.defaults().withPrecision(Precision.parse(choice("precision", precision, PRECISIONS)))
			.withTolerance(tolerance).withKernel(KernelType.parse(choice("kernel", kernel, KERNELS)))
			.withOversampling(oversampling).withWidth(width).withThreads(workers).withDevice(device(device))
			.withSpreadMethod(SpreadMethod.parse(choice("spread", spread, SPREADS)));
	}

	/**
	 * Worker threads: 0 = all cores; more than the cores are capped to the cores (more threads than cores only add
	 * switching: 10000 threads ran 20 times slower); negative fails naming {@code key}.
	 */
	public static int threads(final String key, final int threads) {
		if (threads < 0) throw new InvalidInputException(key + ": expected 0 (all cores) or more, found " + threads);
		return Math.min(threads, Runtime.getRuntime().availableProcessors());
	}

	/** The notice a capped thread count deserves ({@link #threads}), or null when none is capped. */
	public static String threadsNotice(final String key, final int threads) {
		final int cores = Runtime.getRuntime().availableProcessors();
		return threads > cores ? key + " " + threads + " capped to the " + cores + " cores of this machine" : null;
	}

	/** Samples per readout of a simulated design: 0 = the design's fully sampled default, else at least 1. */
	public static int readout(final String key, final int readout) {
		if (readout < 0) throw new InvalidInputException(key + ": expected 0 (the design's default) or more, found " +
			readout);
		return readout;
	}

	/** Shots (spokes, interleaves, lines) of a simulated design: 0 = the design's fully sampled default. */
	public static int shots(final String key, final int shots) {
		if (shots < 0) throw new InvalidInputException(key + ": expected 0 (the design's default) or more, found " +
			shots);
		return shots;
	}

	/** Simulated coils: 1 to {@link #MAX_COILS}. */
	public static int coils(final String key, final int coils) {
		if (coils < 1 || coils > MAX_COILS) throw new InvalidInputException(key + ": expected 1 to " + MAX_COILS +
			", found " + coils);
		return coils;
	}

	/** A tuning mode: off, quick or exhaustive ({@link TuneMode}). */
	public static TuneMode tune(final String tune) {
		return TuneMode.parse(choice("tune", tune, TUNES));
	}

	/**
	 * auto, cpu, gpu or gpu:N; for a device list ({@link Devices#parse}: gpu:all, gpu:0,1, …) its first device, where
	 * a single-device step (a plan, the DCF of a comparison) runs.
	 */
	public static DeviceChoice device(final String device) {
		if (device != null && (device.contains(",") || device.trim().equalsIgnoreCase("gpu:all")))
			return Devices.parse(device).get(0);
		try {
			return DeviceChoice.parse(device == null ? "" : device);
		}
		catch (final InvalidInputException e) {
			throw new InvalidInputException("device: unknown value '" + device + "', expected one of auto, cpu, gpu, " +
				"gpu:N, gpu:all or a comma list such as gpu:0,1");
		}
	}

	/** DCF method; "auto" is none for Cartesian sampling and Pipe-Menon otherwise. */
	public static DcfMethod dcf(final String dcf, final boolean cartesian) {
		final String d = choice("dcf (density compensation)", dcf, DCFS);
		if (d.equals(AUTO)) return cartesian ? DcfMethod.NONE : DcfMethod.PIPE_MENON;
		return DcfMethod.parse(d);
	}

	public static CoilCombination combine(final String combine) {
		return CoilCombination.parse(choice("combine", combine, COMBINES));
	}

	/**
	 * zero (zero-filled, the default) or homodyne ({@link PartialFourier}); whether the data is partial Fourier is
	 * judged when it is reconstructed ({@link org.nufftj.recon.CartesianFft}).
	 */
	public static PartialFourier partialFourier(final String partialFourier) {
		return PartialFourier.parse(choice("partial-fourier (partialfourier)", partialFourier, PARTIAL_FOURIERS));
	}

	public static ReconOptions recon(final NufftOptions nufft, final DcfMethod dcf, final CoilCombination combine) {
		return ReconOptions.defaults().withNufft(nufft).withDcf(dcf).withCombine(combine);
	}

	/** "from file" or a design kind. */
	public static TrajectoryKind trajectory(final String trajectory) {
		return TrajectoryKind.parse(choice("trajectory", trajectory, TRAJECTORIES));
	}

	/**
	 * A matrix key: "auto" (null: take it from the data), "N" (N x N), "NxM" or "NxMxL" ({@code :} works too, as in
	 * BART's {@code -d X:Y:Z}); a third size of 1 is 2D. X and Y are at least 2.
	 */
	public static int[] matrix(final String matrix) {
		return matrix("matrix", matrix);
	}

	/** {@link #matrix(String)} with errors naming {@code key}. */
	public static int[] matrix(final String key, final String matrix) {
		final String m = matrix == null ? "" : matrix.trim().toLowerCase(Locale.ROOT);
		if (m.isEmpty() || m.equals(AUTO) || m.equals("0")) return null;
		final String[] parts = m.split("\\s*[x×*,:]\\s*");
		if (parts.length > 3) throw new InvalidInputException(key + ": '" + matrix + "' has " + parts.length +
			" sizes, expected N, NxM or NxMxL (or X:Y:Z)");
		final int[] out = new int[parts.length == 1 ? 2 : parts.length];
		try {
			for (int i = 0; i < parts.length; i++) out[i] = Integer.parseInt(parts[i]);
		}
		catch (final NumberFormatException e) {
			throw new InvalidInputException(key + ": '" + matrix + "' is not auto, N, NxM or NxMxL (or X:Y:Z)");
		}
		if (parts.length == 1) out[1] = out[0];
		for (final int s : out) if (s < 1 || s > 65536) throw new InvalidInputException(key + ": size " + s +
			" in '" + matrix + "' is outside 1 to 65536");
		if (out[0] < 2 || out[1] < 2) throw new InvalidInputException(key + ": X and Y must be >= 2, found '" + matrix +
			"'");
		if (out.length == 3 && out[2] == 1) return new int[] { out[0], out[1] };
		return out;
	}

	public static String describeMatrix(final int[] m) {
		final StringBuilder b = new StringBuilder();
		for (int i = 0; i < m.length; i++) b.append(i == 0 ? "" : "x").append(m[i]);
		return b.toString();
	}
}
