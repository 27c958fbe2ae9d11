package org.nufftj.nufft.cpu;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link TapKernels} with {@code jdk.incubator.vector}: the 2T values of a tap in vectors of the platform's preferred
 * width (8 doubles with AVX-512), two vectors held in registers across all taps, the rest in one vector, then pairs.
 * Loaded only by {@link VectorSupport}, when the JVM has the module. The sums are written {@code b − v·(−k)} rather
 * than {@code b + v·k} (the same bits): {@link VectorSupport} says why every vector loop here uses {@code sub}.
 */
final class VectorKernels implements TapKernels {

	private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
	private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
	/** Ints with as many lanes as {@link #S}: the offsets of a row of taps beside its weights. */
	private static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED.length() == S.length() ?
		IntVector.SPECIES_PREFERRED : VectorSpecies.of(int.class, VectorShape.forBitSize(32 * S.length()));

	@Override
	public int lanes() { return S.length(); }

	@Override
	public void add(final double[] b, final double[] c, final int len, final double[] tw, final int[] ti, final int n) {
		final int l = S.length();
		int j = 0;
		for (; j + 2 * l <= len; j += 2 * l) {
			final DoubleVector v0 = DoubleVector.fromArray(S, c, j), v1 = DoubleVector.fromArray(S, c, j + l);
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				final double k = -tw[t];
				DoubleVector.fromArray(S, b, i).sub(v0.mul(k)).intoArray(b, i);
				DoubleVector.fromArray(S, b, i + l).sub(v1.mul(k)).intoArray(b, i + l);
			}
		}
		for (; j + l <= len; j += l) {
			final DoubleVector v0 = DoubleVector.fromArray(S, c, j);
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				DoubleVector.fromArray(S, b, i).sub(v0.mul(-tw[t])).intoArray(b, i);
			}
		}
		for (; j < len; j += 2) {
			final double vr = c[j], vi = c[j + 1];
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				b[i] += tw[t] * vr;
				b[i + 1] += tw[t] * vi;
			}
		}
	}

	@Override
	public void add(final float[] b, final float[] c, final int len, final float[] tw, final int[] ti, final int n) {
		final int l = F.length();
		int j = 0;
		for (; j + 2 * l <= len; j += 2 * l) {
			final FloatVector v0 = FloatVector.fromArray(F, c, j), v1 = FloatVector.fromArray(F, c, j + l);
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				final float k = -tw[t];
				FloatVector.fromArray(F, b, i).sub(v0.mul(k)).intoArray(b, i);
				FloatVector.fromArray(F, b, i + l).sub(v1.mul(k)).intoArray(b, i + l);
			}
		}
		for (; j + l <= len; j += l) {
			final FloatVector v0 = FloatVector.fromArray(F, c, j);
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				FloatVector.fromArray(F, b, i).sub(v0.mul(-tw[t])).intoArray(b, i);
			}
		}
		for (; j < len; j += 2) {
			final float vr = c[j], vi = c[j + 1];
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				b[i] += tw[t] * vr;
				b[i + 1] += tw[t] * vi;
			}
		}
	}

	@Override
	public void addWindow(final float[] b, final float[] c, final int len, final double[] kw, final int ko, final int w,
		final int wz, final int base, final int rowStride, final int planeStride)
	{
		final int l = F.length();
		if (len == l) {
			final FloatVector v0 = FloatVector.fromArray(F, c, 0);
			for (int e = 0; e < wz; e++) {
				final double kz = kw[ko + 2 * w + e];
				for (int r = 0; r < w; r++) {
					final double kyz = kw[ko + w + r] * kz;
					int i = len * (base + e * planeStride + r * rowStride);
					for (int a = 0; a < w; a++, i += len) {
						final float k = (float) (kyz * kw[ko + a]);
						FloatVector.fromArray(F, b, i).sub(v0.mul(-k)).intoArray(b, i);
					}
				}
			}
			return;
		}
		if (len != 2 * l) throw new IllegalArgumentException("addWindow: " + len + " values, expected " + l + " or " + 2 * l);
		final FloatVector v0 = FloatVector.fromArray(F, c, 0), v1 = FloatVector.fromArray(F, c, l);
		for (int e = 0; e < wz; e++) {
			final double kz = kw[ko + 2 * w + e];
			for (int r = 0; r < w; r++) {
				final double kyz = kw[ko + w + r] * kz;
				int i = len * (base + e * planeStride + r * rowStride);
				for (int a = 0; a < w; a++, i += len) {
					final float k = -(float) (kyz * kw[ko + a]);
					FloatVector.fromArray(F, b, i).sub(v0.mul(k)).intoArray(b, i);
					FloatVector.fromArray(F, b, i + l).sub(v1.mul(k)).intoArray(b, i + l);
				}
			}
		}
	}

	@Override
	public void addRows(final float[] b, final float[] row, final int len, final double[] kw, final int ko,
		final int w, final int wz, final int base, final int rowStride, final int planeStride)
	{
		final int l = F.length();
		for (int j = 0; j < len; j += l) {
			final FloatVector v = FloatVector.fromArray(F, row, j);
			for (int e = 0; e < wz; e++) {
				final double kz = kw[ko + 2 * w + e];
				final int plane = base + e * planeStride + j;
				for (int r = 0; r < w; r++) {
					final int i = plane + r * rowStride;
					final float k = (float) (kw[ko + w + r] * kz);
					FloatVector.fromArray(F, b, i).sub(v.mul(-k)).intoArray(b, i);
				}
			}
		}
	}

	@Override
	public void addRows(final double[] b, final double[] row, final int len, final double[] kw, final int w,
		final int wz, final int base, final int rowStride, final int planeStride)
	{
		final int l = S.length();
		for (int j = 0; j < len; j += l) {
			final DoubleVector v = DoubleVector.fromArray(S, row, j);
			for (int e = 0; e < wz; e++) {
				final double kz = kw[2 * w + e];
				final int plane = base + e * planeStride + j;
				for (int r = 0; r < w; r++) {
					final int i = plane + r * rowStride;
					DoubleVector.fromArray(S, b, i).sub(v.mul(-(kw[w + r] * kz))).intoArray(b, i);
				}
			}
		}
	}

	@Override
	public int taps(final double[] kw, final int w, final int wz, final int[] cells, final int len, final double[] tw,
		final int[] ti)
	{
		final int l = S.length();
		if (w > l || kw.length < l || cells.length < l) return -1;
		final DoubleVector kx = DoubleVector.fromArray(S, kw, 0);
		final IntVector cx = IntVector.fromArray(I, cells, 0).mul(len);
		int t = 0;
		for (int e = 0; e < wz; e++) {
			final double kz = kw[2 * w + e];
			for (int b = 0; b < w; b++, t += w) {
				kx.mul(kw[w + b] * kz).intoArray(tw, t);
				cx.add(len * cells[w + e * w + b]).intoArray(ti, t);
			}
		}
		return t;
	}

	@Override
	public void gather(final double[] g, final double[] acc, final int len, final double[] tw, final int[] ti,
		final int n)
	{
		final int l = S.length();
		int j = 0;
		for (; j + 2 * l <= len; j += 2 * l) {
			DoubleVector a0 = DoubleVector.zero(S), a1 = DoubleVector.zero(S);
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				final double k = -tw[t];
				a0 = a0.sub(DoubleVector.fromArray(S, g, i).mul(k));
				a1 = a1.sub(DoubleVector.fromArray(S, g, i + l).mul(k));
			}
			a0.intoArray(acc, j);
			a1.intoArray(acc, j + l);
		}
		for (; j + l <= len; j += l) {
			DoubleVector a0 = DoubleVector.zero(S);
			for (int t = 0; t < n; t++) a0 = a0.sub(DoubleVector.fromArray(S, g, ti[t] + j).mul(-tw[t]));
			a0.intoArray(acc, j);
		}
		for (; j < len; j += 2) {
			double ar = 0, ai = 0;
			for (int t = 0; t < n; t++) {
				final int i = ti[t] + j;
				ar += tw[t] * g[i];
				ai += tw[t] * g[i + 1];
			}
			acc[j] = ar;
			acc[j + 1] = ai;
		}
	}

	@Override
	public void horner(final double[] c, final int stride, final int degree, final double z, final double[] out,
		final int o)
	{
		final int l = S.length();
		final double nz = -z;
		for (int j = 0; j < stride; j += l) {
			DoubleVector v = DoubleVector.fromArray(S, c, degree * stride + j);
			for (int d = degree - 1; d >= 0; d--) v = DoubleVector.fromArray(S, c, d * stride + j).sub(v.mul(nz));
			v.intoArray(out, o + j);
		}
	}

	@Override
	public void horner(final double[] c, final int stride, final int degree, final double z0, final double z1,
		final double z2, final int n, final double[] out, final int o0, final int o1, final int o2)
	{
		if (stride != S.length() || n < 2) {
			horner(c, stride, degree, z0, out, o0);
			if (n > 1) horner(c, stride, degree, z1, out, o1);
			if (n > 2) horner(c, stride, degree, z2, out, o2);
			return;
		}
		final double n0 = -z0, n1 = -z1, n2 = -z2;
		final DoubleVector top = DoubleVector.fromArray(S, c, degree * stride);
		DoubleVector v0 = top, v1 = top;
		if (n == 2) {
			for (int d = degree - 1; d >= 0; d--) {
				final DoubleVector k = DoubleVector.fromArray(S, c, d * stride);
				v0 = k.sub(v0.mul(n0));
				v1 = k.sub(v1.mul(n1));
			}
			v0.intoArray(out, o0);
			v1.intoArray(out, o1);
			return;
		}
		DoubleVector v2 = top;
		for (int d = degree - 1; d >= 0; d--) {
			final DoubleVector k = DoubleVector.fromArray(S, c, d * stride);
			v0 = k.sub(v0.mul(n0));
			v1 = k.sub(v1.mul(n1));
			v2 = k.sub(v2.mul(n2));
		}
		v0.intoArray(out, o0);
		v1.intoArray(out, o1);
		v2.intoArray(out, o2);
	}
}
