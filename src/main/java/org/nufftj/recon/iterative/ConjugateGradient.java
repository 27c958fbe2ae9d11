package org.nufftj.recon.iterative;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.operator.LinearOperator;

/**
 * Conjugate gradients (Hestenes &amp; Stiefel 1952) for (N + λI) x = b with N a Hermitian positive semi-definite
 * operator — the normal operator AᴴA of a forward model A, so that with b = Aᴴy the solution is the Tikhonov
 * least-squares x = argmin ‖A x − y‖² + λ‖x‖² (CG-SENSE: Pruessmann et al. 2001; BART's {@code pics -l2}).
 * <p>
 * Each iteration: q = N p + λ p, α = ‖r‖² / Re(pᴴq), x += α p, r −= α q, p = r + (‖r_new‖²/‖r‖²) p. It stops after
 * {@code iterations} iterations or when ‖r‖ ≤ {@code tolerance}·‖b‖ (r = b − (N + λI) x, updated recursively). The
 * iterate lives on the backend: three work vectors (r, p, q) are allocated once, when the solver is made, and the only
 * host traffic per iteration is the two scalar reductions the backend returns (pᴴq and ‖r‖).
 * </p>
 * <p>
 * The solver does not own the operator (its maker closes it); it owns its work vectors, freed by {@link #close()}.
 * </p>
 */
public final class ConjugateGradient implements AutoCloseable {

	/** Called after every iteration with its number (1, 2, …) and the relative residual ‖r‖ / ‖b‖. */
	@FunctionalInterface
	public interface Monitor {

		void iteration(int iteration, double relativeResidual);
	}

	/** What a solve did. */
	public static final class Result {

		private final int iterations;
		private final double relativeResidual;
		private final boolean converged;

		Result(final int iterations, final double relativeResidual, final boolean converged) {
			this.iterations = iterations;
			this.relativeResidual = relativeResidual;
			this.converged = converged;
		}

		/** Iterations run. */
		public int iterations() { return iterations; }

		/** ‖r‖ / ‖b‖ at the end (0 for b = 0). */
		public double relativeResidual() { return relativeResidual; }

		/** Whether the residual reached the tolerance (rather than the iteration count stopping it). */
		public boolean converged() { return converged; }

		@Override
		public String toString() {
			return String.format("%d iterations, relative residual %.3e%s", iterations, relativeResidual, converged ?
				" (converged)" : "");
		}
	}

	private final LinearOperator normal;
	private final double lambda, tolerance;
	private final int iterations;
	private final Buffer r, p, q;

	/**
	 * @param normal     N, Hermitian positive semi-definite (domain = range)
	 * @param lambda     λ ≥ 0 (Tikhonov weight)
	 * @param iterations the most iterations, ≥ 1
	 * @param tolerance  stop when ‖r‖ ≤ tolerance·‖b‖; 0 runs every iteration
	 */
	public ConjugateGradient(final LinearOperator normal, final double lambda, final int iterations,
		final double tolerance)
	{
		InvalidInputException.require(normal.domainLength() == normal.rangeLength(), "conjugate gradients: the normal " +
			"operator must be square, found " + normal.rangeLength() + " x " + normal.domainLength() + " values");
		InvalidInputException.require(lambda >= 0 && Double.isFinite(lambda), "conjugate gradients: lambda is " + lambda +
			", expected a finite number >= 0");
		InvalidInputException.require(iterations >= 1, "conjugate gradients: iterations is " + iterations +
			", expected >= 1");
		InvalidInputException.require(tolerance >= 0 && Double.isFinite(tolerance), "conjugate gradients: tolerance is " +
			tolerance + ", expected a finite number >= 0");
		this.normal = normal;
		this.lambda = lambda;
		this.iterations = iterations;
		this.tolerance = tolerance;
		final Backend b = normal.backend();
		r = b.allocate(normal.domainLength(), normal.precision());
		p = b.allocate(normal.domainLength(), normal.precision());
		q = b.allocate(normal.domainLength(), normal.precision());
	}

	// -- public API --

	public double lambda() { return lambda; }

	public int iterations() { return iterations; }

	public double tolerance() { return tolerance; }

	/**
	 * Solves (N + λI) x = b starting from the x given (warm start; fill x with zeros for a cold start); x is
	 * overwritten with the solution. {@code monitor} may be null.
	 */
	public Result solve(final Buffer b, final Buffer x, final Monitor monitor) {
		final Backend be = normal.backend();
		Buffer.requireLength(b, normal.domainLength(), "conjugate gradients: right-hand side b");
		Buffer.requireLength(x, normal.domainLength(), "conjugate gradients: solution x");
		final double bNorm = be.norm(b);
		if (bNorm == 0) {
			be.fill(x, 0, 0);
			return new Result(0, 0, true);
		}
		// r = b − (N + λI) x; p = r.
		applyRegularised(x, q);
		be.copy(b, r);
		be.axpby(-1, q, 1, r);
		be.copy(r, p);
		double rr = square(be.norm(r));
		double rel = Math.sqrt(rr) / bNorm;
		if (rel <= tolerance) return new Result(0, rel, true);
		for (int k = 1; k <= iterations; k++) {
			applyRegularised(p, q);
			final double pq = be.dot(p, q)[0];
			if (!(pq > 0)) return new Result(k - 1, rel, false); // breakdown: p in N's null space (λ = 0)
			final double alpha = rr / pq;
			be.axpby(alpha, p, 1, x);
			be.axpby(-alpha, q, 1, r);
			final double rrNew = square(be.norm(r));
			rel = Math.sqrt(rrNew) / bNorm;
			if (monitor != null) monitor.iteration(k, rel);
			if (rel <= tolerance) return new Result(k, rel, true);
			be.axpby(1, r, rrNew / rr, p);
			rr = rrNew;
		}
		return new Result(iterations, rel, false);
	}

	/** Frees the work vectors; idempotent. */
	@Override
	public void close() {
		r.close();
		p.close();
		q.close();
	}

	// -- helpers --

	/** out = N v + λ v. */
	private void applyRegularised(final Buffer v, final Buffer out) {
		normal.apply(v, out);
		if (lambda != 0) normal.backend().axpby(lambda, v, 1, out);
	}

	private static double square(final double v) {
		return v * v;
	}
}
