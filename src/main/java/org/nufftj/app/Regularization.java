package org.nufftj.app;

import java.util.Locale;

import org.nufftj.InvalidInputException;

/**
 * One regularisation term of {@code pics}, parsed once for the command line and Fiji: Tikhonov λ‖x‖² (BART's
 * {@code -l2 -r λ}, or none with λ = 0), l1-wavelet λ‖W x‖₁ ({@code -l1 -r λ} = {@code -R W:7:0:λ}) or total
 * variation λ·TV(x) ({@code -R T:flags:0:λ}). Immutable and validated: λ ≥ 0 and finite, flags within the spatial
 * axes 0–2 (bit 10, time, for total variation), joint flags 0.
 */
public final class Regularization {

	/** The kinds of term. */
	public enum Kind {
		/** λ‖x‖² (or nothing with λ = 0): conjugate gradients. */
		TIKHONOV,
		/** λ Σ w_b ‖W_b x‖₁, undecimated Daubechies-2 wavelet: FISTA. */
		L1_WAVELET,
		/** λ Σ_p ‖(D x)_p‖, isotropic total variation: ADMM. */
		TOTAL_VARIATION,
		/** Several terms ({@link #terms()}, BART's repeated {@code -R}): ADMM, one split per non-Tikhonov term. */
		SUM
	}

	private final Kind kind;
	private final int flags;
	private final double lambda;
	private final java.util.List<Regularization> terms;

	private Regularization(final Kind kind, final int flags, final double lambda) {
		InvalidInputException.require(lambda >= 0 && Double.isFinite(lambda), "lambda: expected a finite number >= 0, " +
			"found " + lambda);
		this.kind = kind;
		this.flags = flags;
		this.lambda = lambda;
		terms = java.util.List.of(this);
	}

	private Regularization(final java.util.List<Regularization> terms) {
		kind = Kind.SUM;
		flags = 0;
		lambda = Double.NaN;
		this.terms = java.util.List.copyOf(terms);
	}

	/**
	 * The sum of {@code terms} (BART's {@code pics -R … -R …}): the term itself when there is one; two or more make a
	 * {@link Kind#SUM}, solved by ADMM with every l1-wavelet and total-variation term split off and the Tikhonov
	 * terms' λ added to the normal operator (λ‖x‖² as for {@code -l2}). At least one term must be l1-wavelet or total
	 * variation.
	 */
	public static Regularization sum(final java.util.List<Regularization> terms) {
		InvalidInputException.require(!terms.isEmpty(), "regularization: no terms");
		if (terms.size() == 1) return terms.get(0);
		InvalidInputException.require(terms.stream().anyMatch(t -> t.kind == Kind.L1_WAVELET ||
			t.kind == Kind.TOTAL_VARIATION), "regularization: " + terms.size() + " terms " + terms +
				" need at least one l1-wavelet or total-variation term (Tikhonov terms add up: give one)");
		final java.util.List<Regularization> flat = new java.util.ArrayList<>();
		for (final Regularization t : terms) flat.addAll(t.terms);
		return new Regularization(flat);
	}

	/** λ‖x‖² (BART's -l2 -r λ). */
	public static Regularization tikhonov(final double lambda) {
		return new Regularization(Kind.TIKHONOV, 0, lambda);
	}

	/** l1-wavelet over the axes of {@code flags} (BART's -l1 -r λ: flags 7). */
	public static Regularization wavelet(final int flags, final double lambda) {
		InvalidInputException.require(flags > 0 && (flags & ~7) == 0, "l1-wavelet flags: expected a bitmask of axes " +
			"0-2 (1 to 7), found " + flags);
		return new Regularization(Kind.L1_WAVELET, flags, lambda);
	}

	/** Total variation over the axes of {@code flags} (bit 10: time). */
	public static Regularization totalVariation(final int flags, final double lambda) {
		InvalidInputException.require(flags > 0 && (flags & ~(7 | 1 << 10)) == 0, "total variation flags: expected a " +
			"bitmask of axes 0-2 and 10 (time), found " + flags);
		return new Regularization(Kind.TOTAL_VARIATION, flags, lambda);
	}

	/**
	 * BART's {@code -R} string: {@code W:A:B:C} (l1-wavelet), {@code T:A:B:C} (total variation) or {@code Q:C}
	 * (Tikhonov), A the transform flags, B the joint-threshold flags (0 only), C = λ. Anything else is one error
	 * naming the string.
	 */
	public static Regularization parseBart(final String s) {
		final String[] f = s.split(":", -1);
		final String what = "-R " + s + ": ";
		try {
			if (f[0].equals("Q") && f.length == 2) return tikhonov(Double.parseDouble(f[1]));
			if ((f[0].equals("W") || f[0].equals("T")) && f.length == 4) {
				final int flags = Integer.parseInt(f[1]), joint = Integer.parseInt(f[2]);
				final double lambda = Double.parseDouble(f[3]);
				InvalidInputException.require(joint == 0, what + "joint-threshold flags " + joint + " are not supported " +
					"(expected 0)");
				return f[0].equals("W") ? wavelet(flags, lambda) : totalVariation(flags, lambda);
			}
		}
		catch (final NumberFormatException e) {
			throw new InvalidInputException(what + "expected numbers in W:flags:0:lambda, T:flags:0:lambda or " +
				"Q:lambda (" + e.getMessage() + ")");
		}
		catch (final InvalidInputException e) {
			throw e.getMessage().startsWith(what) ? e : new InvalidInputException(what + e.getMessage());
		}
		throw new InvalidInputException(what + "unsupported regularisation; expected W:flags:0:lambda (l1-wavelet), " +
			"T:flags:0:lambda (total variation) or Q:lambda (l2)");
	}

	/** Fiji's names: none, tikhonov, l1-wavelet, tv (spatial axes 0–1 for 2D, 0–2 for 3D). */
	public static Regularization parseName(final String name, final double lambda, final int dimensions) {
		final int flags = dimensions == 3 ? 7 : 3;
		switch (name.toLowerCase(Locale.ROOT)) {
			case "none": return tikhonov(0);
			case "tikhonov": return tikhonov(lambda);
			case "l1-wavelet": return wavelet(flags, lambda);
			case "tv": return totalVariation(flags, lambda);
			default: throw new InvalidInputException("regularization: unknown value '" + name + "', expected none, " +
				"tikhonov, l1-wavelet or tv");
		}
	}

	public Kind kind() { return kind; }

	public int flags() { return flags; }

	/** λ of one term (NaN for a {@link Kind#SUM}). */
	public double lambda() { return lambda; }

	/** The terms: this one alone, or the terms of a {@link Kind#SUM}. */
	public java.util.List<Regularization> terms() { return terms; }

	/** Σ λ of the Tikhonov terms (all of λ for a Tikhonov term, 0 for an l1 term). */
	public double tikhonovLambda() {
		return terms.stream().filter(t -> t.kind == Kind.TIKHONOV).mapToDouble(t -> t.lambda).sum();
	}

	@Override
	public String toString() {
		switch (kind) {
			case SUM: return terms.stream().map(Regularization::toString).collect(java.util.stream.Collectors.joining(
				" + "));
			case L1_WAVELET: return String.format(Locale.ROOT, "l1-wavelet (flags %d, lambda %g)", flags, lambda);
			case TOTAL_VARIATION: return String.format(Locale.ROOT, "total variation (flags %d, lambda %g)", flags,
				lambda);
			default: return String.format(Locale.ROOT, "tikhonov (lambda %g)", lambda);
		}
	}
}
