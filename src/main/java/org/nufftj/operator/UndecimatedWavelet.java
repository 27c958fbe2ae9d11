package org.nufftj.operator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/**
 * The undecimated (stationary, "à trous") separable Daubechies wavelet transform with periodic boundaries (Mallat 1999
 * §5.2; Coifman &amp; Donoho 1995 translation-invariant denoising) of T frames of images of {@code size}: domain
 * [frame][pixel], range [band][frame][pixel]. Band 0 is the approximation after {@link #levels()} levels (low-pass on
 * every transformed axis), then for level j = 1 … L the 2^d − 1 detail bands of that level (d transformed axes).
 * <p>
 * The filters are Daubechies' orthonormal 4-tap pair (db2, BART's default {@code dau2}), h = ((1+√3), (3+√3), (3−√3),
 * (1−√3)) / (4√2) and g_n = (−1)^n h_{3−n}, divided by √2 so that |H|² + |G|² = 1: the transform is a Parseval tight
 * frame, Wᴴ W = I exactly, and W Wᴴ is the projection on its range. Level j uses the filters dilated by 2^{j−1}. Each
 * band is a circular convolution, applied as a diagonal in the frequency domain ({@link CirculantBank}: one forward FFT
 * and one inverse FFT per band, the backend's FFT), so CPU and GPU run the same composition of backend operations.
 * </p>
 * <p>
 * Relation to BART's decimated transform with random shifts ({@code pics -R W}): the undecimated transform holds every
 * shift of the decimated one at once; a level-j coefficient here is 2^{−j·d/2} times the corresponding orthonormal
 * decimated coefficient, so {@link #bandWeight} gives each band that factor, which makes λ Σ_b w_b‖W_b x‖₁ the
 * average over shifts of BART's λ‖W_shift x‖₁ (the approximation band has weight 0: it is not thresholded).
 * </p>
 * <p>
 * Axis flags are BART's (bit a: spatial axis a; axes of size 1 are skipped). Levels: as many halvings of the smallest
 * transformed axis as it takes to reach 16 pixels or fewer (BART's minimum size 16; 48 → 24 → 12: 2 levels,
 * 64 → 32 → 16: 2, 256: 4), at least 1.
 * </p>
 */
public final class UndecimatedWavelet extends AbstractOperator {

	/** Smallest coarse scale (pixels) on a transformed axis, as BART's wavelet minimum size. */
	public static final int MIN_SIZE = 16;

	private static final double S3 = Math.sqrt(3);
	/** Daubechies db2 orthonormal low-pass, divided by √2 (tight-frame normalisation). */
	private static final double[] LOW = { (1 + S3) / 8, (3 + S3) / 8, (3 - S3) / 8, (1 - S3) / 8 };

	private final int[] size;
	private final int frames, levels, axes, bands;
	private final long pixels;
	private final double[] weights;
	private final CirculantBank bank;

	/**
	 * @param size   image size (1 to 3 axes)
	 * @param frames T ≥ 1 frames, each transformed alone
	 * @param flags  BART axis flags (bits 0–2)
	 */
	public UndecimatedWavelet(final Backend backend, final Precision precision, final int[] size, final int frames,
		final int flags)
	{
		super("undecimated db2 wavelet " + Arrays.toString(size) + (frames > 1 ? " x " + frames : "") + " flags " +
			flags, backend, precision, 2 * FiniteDifference.pixels(size) * Math.max(1, frames), 2 * FiniteDifference
				.pixels(size) * Math.max(1, frames) * bandCount(size, flags));
		InvalidInputException.require(frames >= 1, "wavelet: frames is " + frames + ", expected >= 1");
		this.size = size.clone();
		this.frames = frames;
		this.pixels = FiniteDifference.pixels(size);
		final int[] sel = selected(size, flags);
		this.axes = sel.length;
		this.levels = levels(size, sel);
		this.bands = 1 + levels * ((1 << axes) - 1);
		weights = new double[bands];
		final double[][] resp = new double[bands][];
		// per axis, per level: low and high responses at every frequency index (complex)
		final double[][][][] filters = new double[axes][levels][2][];
		for (int a = 0; a < axes; a++) {
			final int n = size[sel[a]];
			for (int j = 0; j < levels; j++) {
				filters[a][j][0] = response(LOW, n, 1 << j);
				filters[a][j][1] = response(high(), n, 1 << j);
			}
		}
		int b = 1;
		for (int j = 0; j < levels; j++) {
			for (int pattern = 1; pattern < 1 << axes; pattern++) {
				resp[b] = band(sel, filters, j, pattern);
				weights[b] = Math.pow(2, -(j + 1) * axes / 2.0);
				b++;
			}
		}
		resp[0] = band(sel, filters, levels, 0); // low-pass through every level
		bank = new CirculantBank(this, size, frames, resp);
	}

	// -- public API --

	/** Decomposition levels L. */
	public int levels() { return levels; }

	/** Bands: 1 + L·(2^d − 1). */
	public int bands() { return bands; }

	/** Values of one band (all frames): the range is {@code bands()} of these, back to back. */
	public long bandLength() { return 2 * pixels * frames; }

	/** The l1 weight of band b: 0 for the approximation, 2^{−j·d/2} for a detail band of level j. */
	public double bandWeight(final int b) { return weights[b]; }

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		bank.forward(x, y);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		bank.adjoint(y, x);
	}

	// -- helpers --

	private static double[] high() {
		final double[] g = new double[LOW.length];
		for (int n = 0; n < g.length; n++) g[n] = (n % 2 == 0 ? 1 : -1) * LOW[LOW.length - 1 - n];
		return g;
	}

	/** Σ_n f_n e^{−2πi k n·dilation/N} for k = 0 … N−1, complex interleaved. */
	private static double[] response(final double[] f, final int n, final int dilation) {
		final double[] r = new double[2 * n];
		for (int k = 0; k < n; k++) {
			for (int t = 0; t < f.length; t++) {
				final double phase = -2 * Math.PI * ((long) k * t * dilation % n) / n;
				r[2 * k] += f[t] * Math.cos(phase);
				r[2 * k + 1] += f[t] * Math.sin(phase);
			}
		}
		return r;
	}

	/**
	 * The response of one band on the image grid: Π_a (pattern bit a ? G : H)_{level}(k_a) × Π_{i<level} Π_a H_i(k_a);
	 * for level = L and pattern 0, the approximation (low-pass through all L levels).
	 */
	private double[] band(final int[] sel, final double[][][][] filters, final int level, final int pattern) {
		final double[] r = new double[(int) (2 * pixels)];
		final int[] k = new int[size.length];
		for (int i = 0; i < pixels; i++) {
			for (int a = 0, rest = i; a < size.length; a++) {
				k[a] = rest % size[a];
				rest /= size[a];
			}
			double re = 1, im = 0;
			for (int a = 0; a < sel.length; a++) {
				final int ka = k[sel[a]];
				for (int j = 0; j <= Math.min(level, levels - 1); j++) {
					final double[] f;
					if (j < level) f = filters[a][j][0];
					else f = filters[a][j][(pattern >> a & 1) == 1 ? 1 : 0];
					final double fr = f[2 * ka], fi = f[2 * ka + 1];
					final double nr = re * fr - im * fi;
					im = re * fi + im * fr;
					re = nr;
				}
			}
			r[2 * i] = re;
			r[2 * i + 1] = im;
		}
		return r;
	}

	private static int[] selected(final int[] size, final int flags) {
		InvalidInputException.require((flags & ~7) == 0, "wavelet: flags " + flags + " select axes other than 0, 1, 2 " +
			"(x, y, z)");
		final List<Integer> a = new ArrayList<>();
		for (int i = 0; i < size.length; i++) if ((flags & 1 << i) != 0 && size[i] > 1) a.add(i);
		InvalidInputException.require(!a.isEmpty(), "wavelet: flags " + flags + " select no axis of size >= 2 of " +
			Arrays.toString(size));
		return a.stream().mapToInt(Integer::intValue).toArray();
	}

	private static int levels(final int[] size, final int[] sel) {
		int min = Integer.MAX_VALUE;
		for (final int a : sel) min = Math.min(min, size[a]);
		int l = 0;
		for (int n = min; n > MIN_SIZE; n = (n + 1) / 2) l++;
		return Math.max(1, l);
	}

	private static long bandCount(final int[] size, final int flags) {
		final int[] sel = selected(size, flags);
		return 1 + (long) levels(size, sel) * ((1 << sel.length) - 1);
	}
}
