package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.checkFft;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.jcufft.JCufft;
import jcuda.jcufft.cufftHandle;
import jcuda.jcufft.cufftType;
import jcuda.runtime.cudaStream_t;

/**
 * The FFTs of one stream: in-place transforms of {@code batch} complex arrays of {@code size} (x fastest) held back
 * to back, unnormalised, no shift; sign −1 forward, +1 inverse. By cuFFT (C2C / Z2Z plans made on first use per
 * (size, batch, precision) and kept until {@link #close()}) or by NUFFT-J's own kernels ({@link GpuOwnFft},
 * kernels/fft.cu), as {@link #engine()} says: the system property {@code nufftj.fft} or else the environment variable
 * {@code NUFFTJ_FFT} — {@code auto} (the default: cuFFT when it loads, else our own), {@code cufft} or {@code own}.
 * Use with the device's context current.
 */
final class GpuFfts implements AutoCloseable {

	/** Which FFT the GPU engine uses. */
	enum Engine { AUTO, CUFFT, OWN }

	private final GpuDevice device;
	private final CUstream stream;
	private final Map<String, cufftHandle> plans = new HashMap<>();
	/** Every transform runs on the own kernels ({@link #useOwn}, read when this opens). */
	private final boolean ownAll;
	/** Whether pruned transforms may leave cuFFT for the own FFT ({@link #pruningAllowed}, read when this opens). */
	private final boolean prune;
	/**
	 * The own FFT: made when this opens where it runs every transform, else on the first pruned transform that cuFFT
	 * runs slower in full ({@link #prunedOwn}); its {@link GpuOwnFft#close} keeps it usable.
	 */
	private GpuOwnFft own;

	GpuFfts(final GpuDevice device, final CUstream stream) {
		this.device = device;
		this.stream = stream;
		ownAll = useOwn();
		own = ownAll ? new GpuOwnFft(device, stream) : null;
		prune = !ownAll && pruningAllowed();
	}

	/**
	 * Whether a pruned transform ({@link #execute(CUdeviceptr, int[], int, boolean, int, int[], int[], boolean)}) of
	 * this geometry runs on the own FFT even where cuFFT is the engine: float 3D grids where the block is at most half
	 * of every axis (σ ≥ 2: the NUFFT's padded grid, the Toeplitz embedding). There the own FFT skips the lines outside
	 * the block on two of three axes, which cuFFT cannot: on the H200, 256³ from a 128³ block 0.205 ms against cuFFT's
	 * full 0.240 ms, whereas 192³ (σ = 1.5) 0.116 against 0.099 and every 2D size lose (docs/gpu-report.md, own FFT;
	 * docs/gpu-tuning.md). Only with the engine {@code auto}: {@code cufft} asked for runs every transform on cuFFT (the
	 * own FFT's comparisons with it), and the system property {@code nufftj.fftPrune} = {@code off} keeps such transforms
	 * on cuFFT under {@code auto} too (A/B runs).
	 */
	static boolean prunedOwn(final int[] size, final int[] count, final boolean dbl) {
		return pruningAllowed() && prunePays(size, count, dbl);
	}

	/** The settings' part of {@link #prunedOwn}: engine auto, and {@code nufftj.fftPrune} not {@code off}. */
	static boolean pruningAllowed() {
		return requested() == Engine.AUTO && !"off".equalsIgnoreCase(System.getProperty("nufftj.fftPrune", "auto")
			.trim());
	}

	/** The geometry's part of {@link #prunedOwn}: float, 3D, the block at most half of every axis. */
	private static boolean prunePays(final int[] size, final int[] count, final boolean dbl) {
		if (dbl || count == null || size.length != 3) return false;
		for (int a = 0; a < 3; a++) if (2L * count[a] > size[a]) return false;
		return true;
	}

	/** The engine asked for (property {@code nufftj.fft}, else {@code NUFFTJ_FFT}, else auto); refuses other values. */
	static Engine requested() {
		String v = System.getProperty("nufftj.fft");
		if (v == null) v = System.getenv("NUFFTJ_FFT");
		if (v == null || v.isBlank()) return Engine.AUTO;
		for (final Engine e : Engine.values()) if (e.name().equalsIgnoreCase(v.trim())) return e;
		throw new org.nufftj.InvalidInputException("FFT engine (nufftj.fft / NUFFTJ_FFT): unknown value '" + v +
			"', expected auto, cufft or own");
	}

	/** True when the transforms run on NUFFT-J's own kernels: asked for, or auto without a usable cuFFT. */
	static boolean useOwn() {
		final Engine e = requested();
		return e == Engine.OWN || e == Engine.AUTO && !CufftLoader.status().usable;
	}

	/** What runs the transforms, for logs and GPU Info. */
	static String engine() {
		return useOwn() ? "own FFT (kernels/fft.cu: Stockham radix 8/4/6/2/3/5/7, shared-memory axes, pruned)" : CufftLoader
			.status().toString() + (pruningAllowed() ? "; float 3D grids of oversampling >= 2 on the own pruned FFT" : "");
	}

	/** True when this stream's transforms run on the own kernels. */
	boolean isOwn() {
		return ownAll;
	}

	/** Transforms {@code batch} arrays of {@code size} at {@code data} in place; queued on the stream. */
	void execute(final CUdeviceptr data, final int[] size, final int batch, final boolean dbl, final int sign) {
		if (ownAll) {
			own.execute(data, size, batch, dbl, sign);
			return;
		}
		final cufftHandle h = plan(size, batch, dbl);
		final int direction = sign < 0 ? JCufft.CUFFT_FORWARD : JCufft.CUFFT_INVERSE;
		final int r = dbl ? JCufft.cufftExecZ2Z(h, data, data, direction) : JCufft.cufftExecC2C(h, data, data,
			direction);
		checkFft(r, (dbl ? "cufftExecZ2Z" : "cufftExecC2C") + "(" + Arrays.toString(size) + " x " + batch + ", " +
			(sign < 0 ? "forward" : "inverse") + ")");
	}

	/**
	 * {@link #execute}, where only a range of each axis matters (on input when {@code toBlock} is false, on output
	 * when true; {@link GpuOwnFft#execute(CUdeviceptr, int[], int, boolean, int, int[], int[], boolean)}): the own FFT
	 * skips the lines outside, cuFFT (which cannot) transforms everything.
	 */
	void execute(final CUdeviceptr data, final int[] size, final int batch, final boolean dbl, final int sign,
		final int[] start, final int[] count, final boolean toBlock)
	{
		if (ownAll || prune && prunePays(size, count, dbl)) {
			if (own == null) own = new GpuOwnFft(device, stream);
			own.execute(data, size, batch, dbl, sign, start, count, toBlock);
		}
		else execute(data, size, batch, dbl, sign);
	}

	/** Frees every plan; idempotent. */
	@Override
	public void close() {
		for (final cufftHandle h : plans.values()) JCufft.cufftDestroy(h);
		plans.clear();
		if (own != null) own.close();
	}

	/** Frees the plans (their work areas) but keeps this object usable: they are remade on next use. */
	void clear() {
		close();
	}

	private cufftHandle plan(final int[] size, final int batch, final boolean dbl) {
		final String key = Arrays.toString(size) + "x" + batch + (dbl ? "d" : "f");
		cufftHandle h = plans.get(key);
		if (h != null) return h;
		h = new cufftHandle();
		final int dims = size.length;
		final int[] shape = new int[dims];
		long points = 1;
		for (int a = 0; a < dims; a++) {
			shape[a] = size[dims - 1 - a]; // slowest axis first: x is contiguous
			points *= size[a];
		}
		final String what = "cufftPlanMany(" + Arrays.toString(shape) + ", batch " + batch + ", " + (dbl ? "Z2Z" :
			"C2C") + ")";
		checkFft(JCufft.cufftPlanMany(h, dims, shape, null, 1, (int) points, null, 1, (int) points, dbl ?
			cufftType.CUFFT_Z2Z : cufftType.CUFFT_C2C, batch), what);
		final int r = JCufft.cufftSetStream(h, new cudaStream_t(stream));
		if (r != jcuda.jcufft.cufftResult.CUFFT_SUCCESS) JCufft.cufftDestroy(h);
		checkFft(r, "cufftSetStream");
		plans.put(key, h);
		return h;
	}
}
