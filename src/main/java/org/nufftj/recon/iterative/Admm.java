package org.nufftj.recon.iterative;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.Operators;

/**
 * ADMM (Boyd et al., Found. Trends Mach. Learn. 3:1 (2011), scaled form) for min_x ½‖A x − y‖² + R(G x) with R a
 * {@link Penalty} on the coefficients of its transform G (one {@link L1Penalty}, e.g. total variation with G the
 * finite differences, or a {@link PenaltySum} of several), given N = AᴴA and b = Aᴴy — BART's {@code pics -R T}
 * (its ADMM: ρ = 0.5 and 10 CG iterations by default):
 * <pre>
 *   x ← argmin ½‖A x − y‖² + ρ/2‖G x − z + u‖²,  i.e. (N + ρGᴴG) x = b + ρGᴴ(z − u), by CG warm-started at x
 *   h ← α G x + (1 − α) z   (over-relaxation, Boyd §3.4.3; α = 1: none)
 *   z ← prox_{R/ρ}(h + u)   (soft thresholding at λ/ρ)
 *   u ← u + h − z
 * </pre>
 * {@link #bart} configures it as BART 0.8's {@code iter/admm.c} with the settings {@code pics} gives it
 * ({@code grecon/italgo.c}, {@code iter/iter.c}): α = 1.6; each x-update's CG stops at ‖r‖ ≤ 10⁻³·‖rhs‖ or after
 * the per-step maximum, warm-started at the previous x; and the outer loop stops once the CG iterations run so far
 * (BART's {@code nr_invokes}, one normal-operator application each) exceed the budget — BART's {@code -i} for ADMM
 * counts these, not outer steps.
 * Residual reported and stopped on: the relative primal residual ‖G x − z‖ / max(‖G x‖, ‖z‖) (Boyd §3.3); with a
 * tolerance the solve also needs the relative dual residual ρ‖Gᴴ(z − z_prev)‖ / ‖ρGᴴu‖ below it. z starts at G x of
 * the x given (warm start) and u at 0. The objective F(x) = ½xᴴNx − Re(xᴴb) + ½‖y‖² + R(G x) costs one more normal
 * application per iteration when asked for.
 */
public final class Admm implements AutoCloseable {

	private final LinearOperator normal, g, gNormal, system;
	private final Penalty penalty;
	private final double rho, tolerance, relaxation;
	private final int iterations, cgBudget;
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
	public Admm(final LinearOperator normal, final Penalty penalty, final double rho, final int iterations,
		final int cgIterations, final double tolerance)
	{
		this(normal, penalty, rho, iterations, cgIterations, tolerance, 1, 0, 0);
	}

	/**
	 * BART 0.8's ADMM as {@code pics} runs it (see above): over-relaxation 1.6, CG tolerance 10⁻³ relative to the
	 * x-update's right-hand side, at most {@code cgIterations} CG iterations per step, and stopping once more than
	 * {@code budget} CG iterations have run (or after {@code budget} steps).
	 *
	 * @param budget BART's {@code -i}: CG iterations (normal-operator applications) in all, ≥ 1
	 */
	public static Admm bart(final LinearOperator normal, final Penalty penalty, final double rho, final int budget,
		final int cgIterations, final double tolerance)
	{
		InvalidInputException.require(budget >= 1, "ADMM: iterations is " + budget + ", expected >= 1");
		return new Admm(normal, penalty, rho, budget, cgIterations, tolerance, 1.6, 1e-3, budget);
	}

	/**
	 * @param normal       N = AᴴA (not owned)
	 * @param penalty      R with its transform G (not owned)
	 * @param rho          ρ > 0
	 * @param iterations   outer iterations ≥ 1
	 * @param cgIterations CG iterations per x-update ≥ 1
	 * @param tolerance    relative primal and dual residual to stop at; 0 runs every iteration
	 * @param relaxation   over-relaxation α in (0, 2); 1: none
	 * @param cgTolerance  each CG solve stops at ‖r‖ ≤ cgTolerance·‖rhs‖; 0: runs cgIterations
	 * @param cgBudget     stop once the CG iterations of all steps exceed this; 0: no budget
	 */
	public Admm(final LinearOperator normal, final Penalty penalty, final double rho, final int iterations,
		final int cgIterations, final double tolerance, final double relaxation, final double cgTolerance,
		final int cgBudget)
	{
		InvalidInputException.require(relaxation > 0 && relaxation < 2, "ADMM: relaxation is " + relaxation +
			", expected a number in (0, 2)");
		InvalidInputException.require(cgBudget >= 0, "ADMM: CG budget is " + cgBudget + ", expected >= 0");
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
		this.relaxation = relaxation;
		this.cgBudget = cgBudget;
		cg = new ConjugateGradient(system, 0, cgIterations, cgTolerance);
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
		long cgRun = 0;
		for (int k = 1; k <= iterations; k++) {
			// rhs = b + ρGᴴ(z − u)
			be.copy(z, gx);
			be.axpby(-1, u, 1, gx);
			g.applyAdjoint(gx, rhs);
			be.axpby(1, b, rho, rhs);
			cgRun += cg.solve(rhs, x, null).iterations();
			// h = α G x + (1 − α) z; z = shrink(h + u, 1/ρ); u += h − z (zPrev holds h until z is known)
			g.apply(x, gx);
			be.copy(z, zPrev);
			if (relaxation != 1) be.axpby(relaxation, gx, 1 - relaxation, zPrev);
			else be.copy(gx, zPrev);
			be.axpby(1, zPrev, 1, u); // u = h + u
			be.copy(z, zPrev); // zPrev = z_old
			be.copy(u, z);
			penalty.shrink(z, 1 / rho);
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
			if (cgBudget > 0 && cgRun > cgBudget) return new SolverResult("ADMM", k, primal, false);
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
