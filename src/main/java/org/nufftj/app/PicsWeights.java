package org.nufftj.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.io.Cfl;

/**
 * The sample weights p of {@code bart pics -p} with a trajectory, as BART 0.8 applies them (src/pics.c,
 * src/noncart/nufft.c): the k-space is multiplied by p once (y ← p ⊙ y) and the forward model becomes A = P·A₀ with
 * P = diag(p) after the NUFFT (adjoint Aᴴ = A₀ᴴ·P), so the data term is ½‖P(A₀x − y)‖², a weighted least squares
 * with weights W = p² — p itself, not √p, is what multiplies each sample (BART's Toeplitz PSF is built from p·p̄).
 * <p>
 * Dims as BART checks them ({@code md_check_compat(DIMS, COIL_FLAG, ksp_dims, pat_dims)}): the k-space's
 * [1, readout, shots, coils], the coil dimension either the k-space's or 1 (one weight per sample for every coil).
 * Each value must be real (imaginary part 0), finite and ≥ 0; zero drops a sample. Values [coil][point] (per coil) or
 * [point].
 * </p>
 */
public final class PicsWeights {

	private final float[] p;
	private final int points, coils, frames;
	private final boolean shared;

	private PicsWeights(final float[] p, final int points, final int coils, final int frames, final boolean shared) {
		this.p = p;
		this.points = points;
		this.coils = coils;
		this.frames = frames;
		this.shared = shared;
	}

	// -- public API --

	/**
	 * Reads and checks a BART weights file against the k-space dims {@code kspaceDims} ([1, readout, shots, coils, 1,
	 * frames…]). Weights equal over the coils and frames are kept once ({@link #varies()} false).
	 */
	public static PicsWeights read(final Path file, final long[] kspaceDims) throws IOException {
		final Cfl.Array a = Cfl.read(file);
		final long[] d = a.dims();
		boolean ok = true;
		long frames = 1;
		for (int i = 0; i < Cfl.DIMS; i++) {
			ok &= d[i] == kspaceDims[i] || (i == 3 && d[i] == 1);
			if (i > 3) frames *= kspaceDims[i];
		}
		final long[] expected = kspaceDims.clone();
		expected[3] = 1;
		InvalidInputException.require(ok, "-p " + file + ": dims " + Arrays.toString(trim(d)) + ", expected " + Arrays
			.toString(trim(expected)) + " or " + Arrays.toString(trim(kspaceDims)) + " (the k-space's dims, the coil " +
				"dimension 3 may be 1)");
		return of(a.data(), (int) (kspaceDims[1] * kspaceDims[2]), (int) d[3], (int) kspaceDims[3], (int) frames, file
			.toString());
	}

	/**
	 * Weights from complex interleaved values [frame][coil][point] of {@code given} coils (1 or {@code coils});
	 * {@code name} names them in errors.
	 */
	public static PicsWeights of(final float[] values, final int points, final int given, final int coils,
		final int frames, final String name)
	{
		InvalidInputException.require(given == 1 || given == coils, "-p " + name + ": " + given + " coils of weights, " +
			"expected 1 or " + coils);
		InvalidInputException.require(values.length == 2L * points * given * frames, "-p " + name + ": " + values
			.length / 2 + " weights, expected " + frames + " x " + given + " x " + points);
		final float[] p = new float[points * coils * frames];
		for (int i = 0; i < values.length / 2; i++) {
			final float re = values[2 * i], im = values[2 * i + 1];
			final int f = i / (points * given), c = i / points % given, m = i % points;
			if (!(re >= 0) || !Float.isFinite(re) || im != 0) throw new InvalidInputException("-p " + name +
				": weight " + i + " (" + (frames > 1 ? "frame " + f + ", " : "") + (given > 1 ? "coil " + c + ", " : "") +
				"sample " + m + ") is " + re + (im == 0 ? "" : (im > 0 ? "+" : "") + im + "i") + ", expected a real, " +
				"finite number >= 0");
			for (int k = given == 1 ? 0 : c; k < (given == 1 ? coils : c + 1); k++) p[(f * coils + k) * points + m] = re;
		}
		boolean same = true;
		for (int b = 1; b < coils * frames && same; b++)
			for (int i = 0; i < points && same; i++) same = p[b * points + i] == p[i];
		return same ? new PicsWeights(Arrays.copyOf(p, points), points, coils, frames, true) : new PicsWeights(p, points,
			coils, frames, false);
	}

	/**
	 * Whether the weights differ between coils or frames: then p is [frame][coil][point] and applied as a diagonal
	 * after the forward model; else [point], the W = p² of the NUFFT operator.
	 */
	public boolean varies() { return !shared; }

	/** p, [point] or, when it {@link #varies()}, [frame][coil][point] (a copy). */
	public float[] values() { return p.clone(); }

	/** p² per sample (only when the weights do not {@link #varies() vary}): the W of the data term. */
	public float[] squared() {
		InvalidInputException.require(shared, "-p: the weights differ between coils or frames");
		final float[] w = new float[p.length];
		for (int i = 0; i < w.length; i++) w[i] = p[i] * p[i];
		return w;
	}

	/** p ⊙ y for k-space y [frame][coil][point] (complex interleaved), a new array: BART's weighting of the data. */
	public float[] weigh(final float[] kspace) {
		InvalidInputException.require(kspace.length == 2L * points * coils * frames, "-p: " + kspace.length / 2 +
			" k-space samples, expected " + frames + " x " + coils + " x " + points);
		final float[] y = new float[kspace.length];
		for (int i = 0; i < kspace.length / 2; i++) {
			final float w = p[shared ? i % points : i];
			y[2 * i] = kspace[2 * i] * w;
			y[2 * i + 1] = kspace[2 * i + 1] * w;
		}
		return y;
	}

	@Override
	public String toString() {
		int zero = 0;
		for (final float v : p) if (v == 0) zero++;
		return String.format(java.util.Locale.ROOT, "sample weights (-p) %s, %d of %d zero", shared ? "shared by the " +
			"coils" + (frames > 1 ? " and frames" : "") : "per coil" + (frames > 1 ? " and frame" : ""), zero, p.length);
	}

	// -- helpers --

	private static long[] trim(final long[] d) {
		int n = d.length;
		while (n > 4 && d[n - 1] == 1) n--;
		return Arrays.copyOf(d, n);
	}
}
