package org.nufftj.kernel;

/** Gauss–Legendre nodes and weights on [a, b] (Newton iteration on Legendre polynomials; exact to double rounding). */
final class GaussLegendre {

	final double[] nodes;
	final double[] weights;

	GaussLegendre(final int n, final double a, final double b) {
		nodes = new double[n];
		weights = new double[n];
		final double mid = 0.5 * (a + b), half = 0.5 * (b - a);
		for (int i = 0; i < (n + 1) / 2; i++) {
			double z = Math.cos(Math.PI * (i + 0.75) / (n + 0.5));
			double dp = 0;
			for (int it = 0; it < 100; it++) {
				double p0 = 1, p1 = 0;
				for (int j = 1; j <= n; j++) {
					final double p2 = p1;
					p1 = p0;
					p0 = ((2 * j - 1) * z * p1 - (j - 1) * p2) / j;
				}
				dp = n * (z * p0 - p1) / (z * z - 1);
				final double dz = p0 / dp;
				z -= dz;
				if (Math.abs(dz) < 1e-16) break;
			}
			nodes[i] = mid - half * z;
			nodes[n - 1 - i] = mid + half * z;
			weights[i] = weights[n - 1 - i] = 2 * half / ((1 - z * z) * dp * dp);
		}
	}

	/** The weights times ψ at the nodes, for repeated {@link #evenFourier}. */
	static double[] weighted(final Kernel k, final GaussLegendre q) {
		final double[] c = new double[q.nodes.length];
		for (int i = 0; i < c.length; i++) c[i] = q.weights[i] * k.value(q.nodes[i]);
		return c;
	}

	/**
	 * ∫_0^{W/2} ψ(x)·2cos(2πxu) dx, the Fourier transform of an even kernel supported on (−W/2, W/2), from its
	 * {@link #weighted} values at the nodes.
	 */
	static double evenFourier(final double[] weighted, final GaussLegendre q, final double u) {
		double s = 0;
		for (int i = 0; i < weighted.length; i++) s += weighted[i] * Math.cos(2 * Math.PI * q.nodes[i] * u);
		return 2 * s;
	}

}
