package org.nufftj.recon.iterative;

import java.util.Random;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.operator.LinearOperator;

/**
 * The largest eigenvalue of a Hermitian positive semi-definite operator N by power iteration (BART's
 * {@code estimate_maxeigenval}, 30 iterations, under {@code pics -e}): v ← N v / ‖N v‖ from a seeded Gaussian start,
 * λ ≈ ‖N v‖ for unit v.
 */
public final class PowerIteration {

	private PowerIteration() {}

	/** λ_max(N) after {@code iterations} steps. */
	public static double largestEigenvalue(final LinearOperator normal, final int iterations, final long seed) {
		final Backend b = normal.backend();
		final int n = (int) normal.domainLength();
		final Random r = new Random(seed);
		final double[] start = new double[n];
		for (int i = 0; i < n; i++) start[i] = r.nextGaussian();
		try (Buffer v = b.allocate(n, normal.precision()); Buffer w = b.allocate(n, normal.precision())) {
			if (normal.precision() == org.nufftj.nufft.Precision.DOUBLE) b.write(start, 0, v);
			else {
				final float[] f = new float[n];
				for (int i = 0; i < n; i++) f[i] = (float) start[i];
				b.write(f, 0, v);
			}
			b.scale(v, 1 / b.norm(v));
			double lambda = 0;
			for (int k = 0; k < iterations; k++) {
				normal.apply(v, w);
				lambda = b.norm(w);
				if (lambda == 0) return 0;
				b.copy(w, v);
				b.scale(v, 1 / lambda);
			}
			return lambda;
		}
	}
}
