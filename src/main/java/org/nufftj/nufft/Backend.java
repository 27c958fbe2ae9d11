package org.nufftj.nufft;

/**
 * Where the numbers live and the arithmetic runs: the CPU (Java arrays, worker threads) or one GPU (device memory,
 * one stream). Opened once by {@link Backends#open(DeviceChoice)} — the only place that decides CPU or GPU and the only
 * place that falls back — and then handed to every caller: plans, operators and reconstructions are written once
 * against this interface and never ask which device they run on (BART's num/ under its linops; sigpy's one code path
 * for every device).
 * <p>
 * It offers NUFFT plans, buffers ({@link Buffer}: allocate, wrap, write, read) and vector operations on buffers, in
 * float and double. Conventions of the vector operations:
 * </p>
 * <ul>
 * <li>Complex vectors are interleaved (re, im); lengths are in real values. "Complex" operations need even lengths.</li>
 * <li>Operands of one call share one precision and one backend; a mismatch fails naming both.</li>
 * <li>Broadcasting: where an operand {@code b} is shorter than {@code a}, {@code a.length()} must be a whole multiple
 * of {@code b.length()} and {@code b} repeats over the batch (one weight per sample applied to every coil; one coil
 * map set applied to every frame).</li>
 * <li>Outputs may alias inputs of the same length (in place) unless a method says otherwise.</li>
 * <li>Reductions ({@link #dot}, {@link #norm}) return host numbers, accumulated in double on both backends, and wait
 * for the work queued before them.</li>
 * </ul>
 * <p>
 * Closing a backend frees what it holds (device, modules, streams, thread pools); buffers and plans made on it must
 * be closed first.
 * </p>
 */
public interface Backend extends AutoCloseable {

	// -- identity --

	/** A short description for logs and results, e.g. "cpu (16 threads)" or "gpu 0: NVIDIA H100 80GB HBM3". */
	String name();

	/** The device this backend runs on, resolved ({@link DeviceChoice#CPU} or {@code gpu:N}; never auto). */
	DeviceChoice device();

	/**
	 * What identifies this device in persisted tuning results (wisdom, app.tune): for a GPU its name, compute
	 * capability, driver and cuFFT versions; for the CPU the processor model, cores, worker threads and Java version.
	 * Timings measured under one identity are not reused under another. Default: {@link #name()}.
	 */
	default String identity() {
		return name();
	}

	// -- plans --

	/**
	 * The backend-specific variants of a plan a tuner may time, for resolved kernel, W and σ ({@code parameters}):
	 * {@code options} with the knobs this backend honours set one way or another (GPU: spreading method and bins;
	 * CPU: kernel evaluation online or from a lookup table). The first is {@code options} itself (the heuristic's
	 * choice); variants that cannot run here are left out, those that depend on the points (output-driven spreading
	 * needs radial lines) fail at {@link NufftPlan#setPoints} and a tuner skips them. Default: {@code options} alone.
	 */
	default java.util.List<NufftOptions> variants(final NufftParameters parameters, final NufftOptions options) {
		return java.util.List.of(options);
	}

	/**
	 * A NUFFT plan for images of {@code imageSize} (2 or 3 axes) on this backend; the options' device is ignored (the
	 * backend decides). The plan is closed by the caller, before the backend.
	 */
	NufftPlan plan(int[] imageSize, NufftOptions options);

	/**
	 * An exact plan for images of {@code imageSize} (2 or 3 axes): the same maths, layout and scaling as
	 * {@link #plan}, computed by direct sums over every sample-pixel pair (Stone et al. 2008), so with no gridding
	 * error: the NUDFT to the precision's round-off ({@link Nudft} is the oracle), at O(points × pixels) per transform.
	 * For the PSF and Aᴴy of the exact normal operator and for small problems. Its {@link NufftPlan#parameters()} are
	 * {@link NufftParameters#exact}; it has no gridding stage ({@link NufftPlan#spread}/{@link NufftPlan#interpolate}
	 * refuse).
	 */
	NufftPlan exactPlan(int[] imageSize, Precision precision);

	// -- buffers --

	/** A new buffer of {@code length} values, all zero. */
	Buffer allocate(long length, Precision precision);

	/**
	 * A buffer with the contents of {@code array}: on the CPU the array itself (no copy; writes through the buffer are
	 * writes to the array), on a GPU a device copy (upload). Close it when done (on the CPU this does not touch the
	 * array).
	 */
	Buffer wrap(float[] array);

	/** As {@link #wrap(float[])}, double precision. */
	Buffer wrap(double[] array);

	/** Copies {@code length} values of {@code src} from {@code srcOffset} into the start of {@code dst}. */
	void write(float[] src, int srcOffset, Buffer dst);

	/** As {@link #write(float[], int, Buffer)}, double precision; copies {@code dst.length()} values. */
	void write(double[] src, int srcOffset, Buffer dst);

	/** Copies every value of {@code src} into {@code dst} from {@code dstOffset}; waits for queued work first. */
	void read(Buffer src, float[] dst, int dstOffset);

	/** As {@link #read(Buffer, float[], int)}, double precision. */
	void read(Buffer src, double[] dst, int dstOffset);

	/** Waits until every operation queued on this backend has completed (a no-op on the CPU). */
	void synchronize();

	// -- vector operations (complex interleaved unless named real) --

	/** x_i = re + i·im for every complex element. */
	void fill(Buffer x, double re, double im);

	/** dst = src (same length). */
	void copy(Buffer src, Buffer dst);

	/** x = a·x (real a; works on any length). */
	void scale(Buffer x, double a);

	/** y = a·x + b·y (real a, b; same length; {@code b = 1} is axpy). */
	void axpby(double a, Buffer x, double b, Buffer y);

	/** Σ conj(x_i)·y_i as {re, im} (same length). */
	double[] dot(Buffer x, Buffer y);

	/** ‖x‖₂ = √Σ |x_i|² over every value. */
	double norm(Buffer x);

	/** out = a ⊙ b (complex; b broadcast over a's batch). */
	void multiply(Buffer a, Buffer b, Buffer out);

	/** out = a ⊙ conj(b) (complex; b broadcast over a's batch). */
	void multiplyConjugate(Buffer a, Buffer b, Buffer out);

	/** out = a ⊘ b (complex; b broadcast; where b_i = 0, out_i = 0). */
	void divide(Buffer a, Buffer b, Buffer out);

	/**
	 * out = a ⊙ w with w real, one value per complex element of a period of a (density compensation, sample weights,
	 * real coil-independent masks); w broadcast over a's batch: {@code a.length() % (2·w.length()) == 0}.
	 */
	void multiplyReal(Buffer a, Buffer w, Buffer out);

	/**
	 * Complex soft thresholding, the proximal map of τ·Σ|x_i|: out_i = x_i·max(0, 1 − τ/|x_i|), i.e. 0 where
	 * |x_i| ≤ τ (BART's {@code md_zsoftthresh}; l1-wavelet and total-variation regularisers). Same length; τ ≥ 0.
	 */
	void softThreshold(Buffer x, double tau, Buffer out);

	/** out = Σ_b x_b over the batch of {@code batch} equal parts of x (out has x.length()/batch values). */
	void sumBatch(Buffer x, int batch, Buffer out);

	/**
	 * Root sum of squares over coils: images [coil][pixel] complex of {@code coils} coils → out [pixel] complex with
	 * out_p = (√Σ_c |x_c,p|², 0).
	 */
	void sumOfSquares(Buffer images, int coils, Buffer out);

	/**
	 * Walsh's adaptive coil combination (Walsh, Gmitro &amp; Marcellin, MRM 43:682 (2000)) of images [coil][pixel] of
	 * {@code size} into out [pixel] complex, with the maths of {@link org.nufftj.nufft.cpu.CoilMaths#walsh} (window,
	 * power iterations, phase reference) on both backends.
	 */
	void walsh(Buffer images, int[] size, int coils, Buffer out);

	/** complex out_i = (real_i, 0); out has twice real's length. */
	void realToComplex(Buffer real, Buffer out);

	/** real out_i = Re(x_i); out has half x's length. */
	void complexToReal(Buffer x, Buffer out);

	/**
	 * Copies the centred block between T images of two sizes ({@link CentredBlock}: one contains the other on every
	 * axis; pixel i of the small image at i + ⌊B/2⌋ − ⌊N/2⌋ of the big one): padding (small → big) writes the block
	 * only and leaves the rest of {@code to} as it was; cropping (big → small) fills {@code to}. One operation for the
	 * whole batch (Toeplitz embedding's zero-padding and crop), complex, same precision, no aliasing of from and to.
	 */
	void copyCentred(Buffer from, int[] fromSize, Buffer to, int[] toSize);

	/**
	 * In-place unnormalised DFT over the axes of {@code size} (1 to 3 axes, x fastest, no shift) of each of the
	 * x.length() / (2·pixels) complex arrays held back to back in x: X_k = Σ_n x_n·e^{sign·2πi Σ_a k_a n_a / N_a} with
	 * {@code sign} −1 (forward) or +1 (inverse, unnormalised). The plan for a size is made on first use and kept.
	 */
	void fft(Buffer x, int[] size, int sign);

	/**
	 * {@link #fft} of arrays that are zero outside their centred block of size {@code block} (placed as
	 * {@link #copyCentred} places it): the full transform, but a backend may skip the lines that are zero on input
	 * (axes in order x, y, z; the pass along an axis needs only the lines whose coordinates on the later axes lie in
	 * the block). The default is {@link #fft}. Toeplitz embedding's forward FFT of the zero-padded image.
	 */
	default void fftFromBlock(final Buffer x, final int[] size, final int[] block, final int sign) {
		CentredBlock.requireFits("fftFromBlock", block, size);
		fft(x, size, sign);
	}

	/**
	 * {@link #fft} of which only the centred block of size {@code block} is read afterwards: the block of the result
	 * is the full transform's, the rest of x is left undefined, and a backend may skip the lines that only feed it
	 * (axes in order z, y, x; the pass along an axis needs only the lines whose coordinates on the later axes lie in
	 * the block). The default is {@link #fft}. Toeplitz embedding's inverse FFT before the crop.
	 */
	default void fftToBlock(final Buffer x, final int[] size, final int[] block, final int sign) {
		CentredBlock.requireFits("fftToBlock", block, size);
		fft(x, size, sign);
	}

	/**
	 * The circular convolution of Toeplitz embedding, x ← FFT⁺¹(K ⊙ FFT⁻¹(x)) (unnormalised, K broadcast over the
	 * arrays of x as in {@link #multiply}), for arrays that are zero outside their centred block {@code block} and of
	 * which only that block is read afterwards (the rest of x is left undefined). The default is
	 * {@link #fftFromBlock}, {@link #multiply}, {@link #fftToBlock}; a backend may fuse them (the CPU does the last
	 * axis's two passes and the product on each block of lines while it is gathered).
	 */
	default void convolveBlock(final Buffer x, final int[] size, final int[] block, final Buffer kernel) {
		fftFromBlock(x, size, block, -1);
		multiply(x, kernel, x);
		fftToBlock(x, size, block, +1);
	}

	/**
	 * A sparse matrix of {@code rows} × {@code columns} complex entries on this backend, {@code entriesPerRow} per row
	 * ({@link SparseMatrix}: ELL tables, index −1 = no entry, weights complex interleaved), in {@code precision}. The
	 * tables are checked ({@link SparseMatrix#check}) and copied.
	 */
	SparseMatrix sparse(int rows, int columns, int entriesPerRow, int[] index, double[] weights, Precision precision);

	/**
	 * y_t = A·x_t for each of the T vectors held back to back in x (2·C values each) and y (2·R each): y_t[r] =
	 * Σ_k w[r,k]·x_t[index[r,k]], complex. A, x and y share this backend and precision; y must not overlap x.
	 */
	void apply(SparseMatrix a, Buffer x, Buffer y);

	/**
	 * x_t = Aᴴ·y_t for each of the T vectors in y (2·R values each) and x (2·C each): x_t[c] = Σ_{(r,k): index[r,k] = c}
	 * conj(w[r,k])·y_t[r], complex; x is overwritten (zero where no entry points). The transpose of {@link #apply}
	 * (a scatter: on a GPU with atomic additions, so the order of the sums may vary between calls).
	 */
	void applyAdjoint(SparseMatrix a, Buffer y, Buffer x);

	/** Frees what the backend holds; idempotent. */
	@Override
	void close();
}
