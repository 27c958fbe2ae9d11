package org.nufftj.recon.iterative;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.Operators;

/**
 * ADMM (Boyd et al., Found. Trends Mach. Learn. 3:1 (2011), scaled form) for min_x ½‖A x − y‖² + R(G x) with R an
 * {@link L1Penalty} on the coefficients of its transform G (total variation: G the finite differences), given
 * N = AᴴA and b = Aᴴy — BART's {@code pics -R T} (its ADMM: ρ = 0.5 and 10 CG iterations by default):
 * <pre>
 *   x ← argmin ½‖A x − y‖² + ρ/2‖G x − z + u‖²,  i.e. (N + ρGᴴG) x = b + ρGᴴ(z − u), by CG warm-started at x
 *   z ← prox_{R/ρ}(G x + u)   (soft thresholding at λ/ρ)
 *   u ← u + G x − z
 * </pre>
 * Residual reported and stopped on: the relative primal residual ‖G x − z‖ / max(‖G x‖, ‖z‖) (Boyd §3.3); with a
 * tolerance the solve also needs the relative dual residual ρ‖Gᴴ(z − z_prev)‖ / ‖ρGᴴu‖ below it. z starts at G x of
 * the x given (warm start) and u at 0. The objective F(x) = ½xᴴNx − Re(xᴴb) + ½‖y‖² + R(G x) costs one more normal
 * application per iteration when asked for.
 */
public final class Admm implements AutoCloseable {

	private final LinearOperator normal, g, gNormal, system;
	private final L1Penalty penalty;
	private final double rho, tolerance;
	private final int iterations;
	private final ConjugateGradient cg;
	private final Buffer gx, z, zPrev, u, rhs, image, work;

	/**
	 * @param normal       N = AᴴA (not owned)
	 * @param penalty      R with its transform G (not owned)
	 * @param rho          ρ > 0
	 * @param iterations   outer iterations ≥ 1
	 * @param cgIterations CG iterations per x-update ≥ 1
	 * @param tolerance    relative primal and dual residual to stop at; 0 runs every iteration
	 */
	public Admm(final LinearOperator normal, final L1Penalty penalty, final double rho, final int iterations,
		final int cgIterations, final double tolerance)
	{
		InvalidInputException.require(normal.domainLength() == normal.rangeLength() && normal.domainLength() == penalty
			.transform().domainLength(), "ADMM: normal operator of " + normal.domainLength() + " values and " + penalty +
				" of " + penalty.transform().domainLength() + " do not match");
		InvalidInputException.require(rho > 0 && Double.isFinite(rho), "ADMM: rho is " + rho +
			", expected a finite number > 0");
		InvalidInputException.require(iterations >= 1, "ADMM: iterations is " + iterations + ", expected >= 1");
		InvalidInputException.require(cgIterations >= 1, "ADMM: CG iterations is " + cgIterations +
			", expected >= 1");
		InvalidInputException.require(tolerance >= 0 && Double.isFinite(tolerance), "ADMM: tolerance is " + tolerance +
			", expected a finite number >= 0");
		this.normal = normal;
		this.penalty = penalty;
		this.rho = rho;
		this.iterations = iterations;
		this.tolerance = tolerance;
		g = penalty.transform();
		gNormal = g.normal();
		system = Operators.sum(normal, Operators.scale(gNormal, rho));
		cg = new ConjugateGradient(system, 0, cgIterations, 0);
		final Backend b = normal.backend();
		final Precision p = normal.precision();
		gx = b.allocate(g.rangeLength(), p);
		z = b.allocate(g.rangeLength(), p);
		zPrev = b.allocate(g.rangeLength(), p);
		u = b.allocate(g.rangeLength(), p);
		rhs = b.allocate(normal.domainLength(), p);
		image = b.allocate(normal.domainLength(), p);
		work = b.allocate(normal.domainLength(), p);
	}

	// -- public API --

	public double rho() { return rho; }

	/** Minimises from the x given (warm start), overwriting x; {@code listener} may be null. */
	public SolverResult solve(final Buffer b, final Buffer x, final double yNorm2, final IterationListener listener) {
		final Backend be = normal.backend();
		Buffer.requireLength(b, normal.domainLength(), "ADMM: right-hand side b");
		Buffer.requireLength(x, normal.domainLength(), "ADMM: solution x");
		final boolean objective = listener != null && listener.wantsObjective();
		g.apply(x, z);
		be.fill(u, 0, 0);
		double primal = Double.NaN;
		for (int k = 1; k <= iterations; k++) {
			// rhs = b + ρGᴴ(z − u)
			be.copy(z, gx);
			be.axpby(-1, u, 1, gx);
			g.applyAdjoint(gx, rhs);
			be.axpby(1, b, rho, rhs);
			cg.solve(rhs, x, null);
			// z = shrink(G x + u, 1/ρ); u += G x − z
			g.apply(x, gx);
			be.copy(z, zPrev);
			be.copy(gx, z);
			be.axpby(1, u, 1, z);
			penalty.shrink(z, 1 / rho);
			be.axpby(1, gx, 1, u);
			be.axpby(-1, z, 1, u);
			// residuals: dual ρ‖Gᴴ(z − z_prev)‖ / ‖ρGᴴu‖ (only to stop on), primal ‖G x − z‖ / max(‖G x‖, ‖z‖)
			double dual = Double.NaN;
			if (tolerance > 0) {
				be.axpby(1, z, -1, zPrev);
				g.applyAdjoint(zPrev, image);
				final double d = be.norm(image);
				g.applyAdjoint(u, image);
				final double un = be.norm(image);
				dual = un == 0 ? (d == 0 ? 0 : Double.POSITIVE_INFINITY) : d / un;
			}
			final double scale = Math.max(be.norm(gx), be.norm(z));
			be.copy(gx, zPrev);
			be.axpby(-1, z, 1, zPrev);
			primal = scale == 0 ? 0 : be.norm(zPrev) / scale;
			final double f = objective ? objective(x, b, yNorm2) : Double.NaN;
			if (listener != null) listener.iteration(k, primal, f);
			if (tolerance > 0 && primal <= tolerance && dual <= tolerance) return new SolverResult("ADMM", k, primal,
				true);
		}
		return new SolverResult("ADMM", iterations, primal, false);
	}

	/** F(x) = ½xᴴNx − Re(xᴴb) + ½‖y‖² + R(G x). */
	public double objective(final Buffer x, final Buffer b, final double yNorm2) {
		final Backend be = normal.backend();
		normal.apply(x, work);
		final double data = 0.5 * be.dot(x, work)[0] - be.dot(x, b)[0] + 0.5 * yNorm2;
		g.apply(x, zPrev);
		return data + penalty.value(zPrev);
	}

	@Override
	public void close() {
		cg.close();
		system.close();
		gNormal.close();
		gx.close();
		z.close();
		zPrev.close();
		u.close();
		rhs.close();
		image.close();
		work.close();
	}
}
