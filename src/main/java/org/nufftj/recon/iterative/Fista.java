package org.nufftj.recon.iterative;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.LinearOperator;

/**
 * FISTA (Beck &amp; Teboulle, SIAM J. Imaging Sci. 2:183 (2009)) for min_x ½‖A x − y‖² + R(x) given the normal
 * operator N = AᴴA and b = Aᴴy, with R an {@link L1Penalty} whose proximal map is applied through its transform T,
 * x ↦ Tᴴ shrink_t(T x) (exact when TᴴT = I and T is orthogonal; for a tight frame such as
 * {@link org.nufftj.operator.UndecimatedWavelet} it is the translation-invariant thresholding BART's random shifts
 * average towards): BART's {@code pics -l1} / {@code -R W}.
 * <pre>
 *   u = prox_{tR}(z − t(N z − b));  t_{k+1} = (1 + √(1 + 4t_k²))/2;  z = u + ((t_k − 1)/t_{k+1})(u − x_k);  x_{k+1} = u
 * </pre>
 * With {@code monotone} it is MFISTA (Beck &amp; Teboulle, IEEE TIP 18:2419 (2009)): x_{k+1} = u only if it lowers the
 * objective F (else x_k), and z = x_{k+1} + (t_k/t_{k+1})(u − x_{k+1}) + ((t_k − 1)/t_{k+1})(x_{k+1} − x_k), so F
 * never increases; it costs one more normal-operator application per iteration (for F(u)).
 * <p>
 * Step t must be ≤ 1/‖N‖ for convergence (BART: {@code -s 0.95}, divided by the largest eigenvalue with {@code -e}:
 * {@link PowerIteration}). Residual reported and stopped on: ‖x_{k+1} − x_k‖ / ‖x_{k+1}‖. Warm start: the x given.
 * The objective is F(x) = ½xᴴNx − Re(xᴴb) + ½‖y‖² + R(x) (‖y‖² passed in). Everything stays on the backend: per
 * iteration the host sees only scalar reductions.
 * </p>
 */
public final class Fista implements AutoCloseable {

	private final LinearOperator normal;
	private final L1Penalty penalty;
	private final double step, tolerance;
	private final int iterations;
	private final boolean monotone;
	private final Buffer previous, z, gradient, u, coefficients, work;

	/**
	 * @param normal     N = AᴴA (not owned)
	 * @param penalty    R (not owned)
	 * @param step       t > 0
	 * @param iterations ≥ 1
	 * @param tolerance  stop when the relative change ≤ tolerance; 0 runs every iteration
	 * @param monotone   MFISTA instead of FISTA
	 */
	public Fista(final LinearOperator normal, final L1Penalty penalty, final double step, final int iterations,
		final double tolerance, final boolean monotone)
	{
		InvalidInputException.require(normal.domainLength() == normal.rangeLength() && normal.domainLength() == penalty
			.transform().domainLength(), "FISTA: normal operator of " + normal.domainLength() + " values and " + penalty +
				" of " + penalty.transform().domainLength() + " do not match");
		InvalidInputException.require(step > 0 && Double.isFinite(step), "FISTA: step is " + step +
			", expected a finite number > 0");
		InvalidInputException.require(iterations >= 1, "FISTA: iterations is " + iterations + ", expected >= 1");
		InvalidInputException.require(tolerance >= 0 && Double.isFinite(tolerance), "FISTA: tolerance is " + tolerance +
			", expected a finite number >= 0");
		this.normal = normal;
		this.penalty = penalty;
		this.step = step;
		this.iterations = iterations;
		this.tolerance = tolerance;
		this.monotone = monotone;
		final Backend b = normal.backend();
		final Precision p = normal.precision();
		final long n = normal.domainLength();
		previous = b.allocate(n, p);
		z = b.allocate(n, p);
		gradient = b.allocate(n, p);
		u = b.allocate(n, p);
		work = b.allocate(n, p);
		coefficients = b.allocate(penalty.transform().rangeLength(), p);
	}

	// -- public API --

	/**
	 * Minimises from the x given (warm start), overwriting x. {@code yNorm2} = ‖y‖² only shifts the reported objective.
	 * {@code listener} may be null.
	 */
	public SolverResult solve(final Buffer b, final Buffer x, final double yNorm2, final IterationListener listener) {
		final Backend be = normal.backend();
		Buffer.requireLength(b, normal.domainLength(), "FISTA: right-hand side b");
		Buffer.requireLength(x, normal.domainLength(), "FISTA: solution x");
		final boolean objective = monotone || listener != null && listener.wantsObjective();
		double fx = monotone ? objective(x, b, yNorm2) : Double.NaN;
		be.copy(x, z);
		double t = 1, change = Double.NaN;
		for (int k = 1; k <= iterations; k++) {
			// u = prox_{tR}(z − step·(N z − b))
			normal.apply(z, gradient);
			be.axpby(-1, b, 1, gradient);
			be.copy(z, u);
			be.axpby(-step, gradient, 1, u);
			prox(u);
			final double tNext = (1 + Math.sqrt(1 + 4 * t * t)) / 2;
			be.copy(x, previous);
			double fu = Double.NaN;
			if (monotone) {
				fu = objective(u, b, yNorm2);
				if (fu <= fx) {
					be.copy(u, x);
					fx = fu;
				}
				// z = x + (t/tNext)(u − x) + ((t − 1)/tNext)(x − previous)
				be.copy(x, z);
				be.axpby(t / tNext, u, 1 - t / tNext, z);
				be.axpby((t - 1) / tNext, x, 1, z);
				be.axpby(-(t - 1) / tNext, previous, 1, z);
			}
			else {
				be.copy(u, x);
				// z = x + ((t − 1)/tNext)(x − previous)
				be.copy(x, z);
				be.axpby(-(t - 1) / tNext, previous, 1 + (t - 1) / tNext, z);
			}
			t = tNext;
			be.axpby(1, x, -1, previous); // previous = x_{k+1} − x_k
			final double xn = be.norm(x);
			change = xn == 0 ? 0 : be.norm(previous) / xn;
			if (listener != null) listener.iteration(k, change, objective ? monotone ? fx : objective(x, b, yNorm2) :
				Double.NaN);
			if (tolerance > 0 && change <= tolerance) return new SolverResult("FISTA", k, change, true);
		}
		return new SolverResult(monotone ? "MFISTA" : "FISTA", iterations, change, false);
	}

	/** F(v) = ½vᴴNv − Re(vᴴb) + ½‖y‖² + R(v). */
	public double objective(final Buffer v, final Buffer b, final double yNorm2) {
		final Backend be = normal.backend();
		normal.apply(v, work);
		final double data = 0.5 * be.dot(v, work)[0] - be.dot(v, b)[0] + 0.5 * yNorm2;
		penalty.transform().apply(v, coefficients);
		return data + penalty.value(coefficients);
	}

	@Override
	public void close() {
		previous.close();
		z.close();
		gradient.close();
		u.close();
		work.close();
		coefficients.close();
	}

	// -- helpers --

	/** v ← Tᴴ shrink_step(T v). */
	private void prox(final Buffer v) {
		penalty.transform().apply(v, coefficients);
		penalty.shrink(coefficients, step);
		penalty.transform().applyAdjoint(coefficients, v);
	}
}
