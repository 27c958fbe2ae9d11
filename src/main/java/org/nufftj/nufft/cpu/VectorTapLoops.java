package org.nufftj.nufft.cpu;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link TapLoops} with the Vector API, 4 doubles per vector (256 bits: on the build machine's AMD EPYC with AVX-512,
 * 512-bit vectors spread at 1.1 ns per coil-tap against 0.8 ns for 256-bit and 1.5 ns for the scalar loops, 8 coils,
 * one thread, docs/benchmarks.md). Loaded only through {@link TapLoops#vector()}: this class links against
 * {@code jdk.incubator.vector}, which a JVM started without {@code --add-modules jdk.incubator.vector} lacks.
 */
final class VectorTapLoops implements TapLoops {

	private static final VectorSpecies<Double> S = DoubleVector.SPECIES_256;
	private static final int L = 4;

	@Override
	public int spread(final double[] c, final int len, final double[] tw, final int[] ti, final int n,
		final double[] g)
	{
		int j = 0;
		for (; j + L <= len; j += L) {
			final DoubleVector v = DoubleVector.fromArray(S, c, j);
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				DoubleVector.fromArray(S, g, i).add(v.mul(tw[t])).intoArray(g, i);
			}
		}
		return j;
	}

	@Override
	public int interpolate(final double[] acc, final int len, final double[] tw, final int[] ti, final int n,
		final double[] g)
	{
		int j = 0;
		for (; j + L <= len; j += L) {
			DoubleVector a = DoubleVector.zero(S);
			for (int t = 0; t < n; t++) a = a.add(DoubleVector.fromArray(S, g, ti[t] + j).mul(tw[t]));
			a.intoArray(acc, j);
		}
		return j;
	}
}
