package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Precision;

/**
 * Making operators from operators (BART's linop_chain / linop_stack / linop_plus, sigpy's Compose / Vstack / Add)
 * and from vectors, and applying an operator to host arrays. Operators combined must share one backend and precision;
 * a composite owns only the work buffers it allocates (closed by its {@code close()}), not its parts.
 */
public final class Operators {

	private Operators() {}

	// -- composition --

	/** A_n ∘ … ∘ A_1: the first operator is applied first (y = A_n(…(A_1 x))); n − 1 intermediates owned. */
	public static LinearOperator chain(final LinearOperator... ops) {
		return ops.length == 1 ? new Chain(ops[0]) : new Chain(ops);
	}

	/** Vertical stack x ↦ [A_1 x; A_2 x; …]: one domain, the ranges back to back; adjoint Σ A_iᴴ y_i. */
	public static LinearOperator stack(final LinearOperator... ops) {
		return new Stack(ops);
	}

	/**
	 * Block-diagonal over a batch of {@code n} vectors held back to back (coils, frames):
	 * [x_1; …; x_n] ↦ [A x_1; …; A x_n].
	 */
	public static LinearOperator blockDiagonal(final LinearOperator a, final int n) {
		return new BlockDiagonal(a, n);
	}

	/**
	 * Block-diagonal with one operator per vector: [x_1; …; x_n] ↦ [A_1 x_1; …; A_n x_n] (same backend and precision;
	 * lengths may differ), e.g. one SENSE operator per frame of a series whose frames have their own trajectories.
	 */
	public static LinearOperator blockDiagonal(final java.util.List<LinearOperator> blocks) {
		return new BlockDiagonal(blocks);
	}

	/** A_1 + A_2 + … (same domain and range). */
	public static LinearOperator sum(final LinearOperator... ops) {
		return new Sum(ops);
	}

	/** s·A for a real s. */
	public static LinearOperator scale(final LinearOperator a, final double s) {
		return new Scaled(a, s);
	}

	// -- from vectors --

	/**
	 * y = x ⊙ d (complex), adjoint x = y ⊙ conj(d), on vectors of {@code length} values; d (the caller's, kept open)
	 * repeats over the batch when shorter (coil maps [coil][pixel] applied to every frame).
	 */
	public static LinearOperator diagonal(final Buffer d, final long length) {
		return new Diagonal(d.backend(), d, length, false);
	}

	/**
	 * y = x ⊙ w with w real, one value per complex element, repeated over the batch (density compensation, sample
	 * weights): self-adjoint.
	 */
	public static LinearOperator realDiagonal(final Buffer w, final long length) {
		return new Diagonal(w.backend(), w, length, true);
	}

	/**
	 * x ↦ d ⊙ [x; …; x] on vectors x of {@code domainLength} values, d holding a whole number k of such periods
	 * (coil maps [coil][pixel]: one image to every coil's weighted copy); adjoint Σ_j conj(d_j) ⊙ y_j. One backend
	 * operation forward, two back: what chain(stack(I, …, I), diagonal(d)) computes with k copies and 2k − 1 operations.
	 * d is the caller's, kept open.
	 */
	public static LinearOperator expansion(final Buffer d, final long domainLength) {
		return new Expansion(d, domainLength);
	}

	/** y = x on vectors of {@code length} values. */
	public static LinearOperator identity(final Backend backend, final Precision precision, final long length) {
		return new Identity(backend, precision, length);
	}

	// -- host arrays --

	/**
	 * y = A x on host arrays: x is wrapped on the operator's backend (on the CPU in float: the array itself), the
	 * result read back into y. Arrays of the other precision are converted. Lengths must be the operator's.
	 */
	public static void apply(final LinearOperator a, final float[] x, final float[] y) {
		host(a, x, y, false);
	}

	/** x = Aᴴ y on host arrays, as {@link #apply(LinearOperator, float[], float[])}. */
	public static void applyAdjoint(final LinearOperator a, final float[] y, final float[] x) {
		host(a, y, x, true);
	}

	// -- helpers --

	private static void host(final LinearOperator a, final float[] in, final float[] out, final boolean adjoint) {
		final long inLength = adjoint ? a.rangeLength() : a.domainLength();
		final long outLength = adjoint ? a.domainLength() : a.rangeLength();
		InvalidInputException.require(in.length == inLength && out.length == outLength, (adjoint ? "adjoint" :
			"apply") + ": arrays of " + in.length + " and " + out.length + " values for an operator of " + inLength +
			" -> " + outLength + " values");
		final Backend b = a.backend();
		final boolean dbl = a.precision() == Precision.DOUBLE;
		// On the CPU a float operator writes straight into `out` (a wrapped array is the array itself): no second
		// output array to fill and copy (in a one-shot process that is fresh memory, ~3.7 ms per MB on the build
		// machine; docs/benchmarks.md, whole process).
		final boolean direct = !dbl && in != out && b.device().kind() == DeviceChoice.Kind.CPU;
		try (Buffer i = dbl ? b.wrap(toDouble(in)) : b.wrap(in);
			Buffer o = direct ? b.wrap(out) : b.allocate(outLength, a.precision()))
		{
			if (adjoint) a.applyAdjoint(i, o);
			else a.apply(i, o);
			if (direct) return;
			if (!dbl) b.read(o, out, 0);
			else {
				final double[] d = new double[out.length];
				b.read(o, d, 0);
				for (int k = 0; k < d.length; k++) out[k] = (float) d[k];
			}
		}
	}

	private static double[] toDouble(final float[] a) {
		final double[] d = new double[a.length];
		for (int i = 0; i < a.length; i++) d[i] = a[i];
		return d;
	}
}
