package org.nufftj.nufft.cpu;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LinePasses} with {@code jdk.incubator.vector}: the same butterflies as {@link LineFft}'s scalar passes, each
 * over a vector of lines (8 doubles with AVX-512) with the twiddles broadcast. Loaded only by {@link VectorSupport},
 * when the JVM has the module. The twiddle products are written out in every pass on purpose: the same sums through
 * two small static helpers (twRe/twIm) made the grid FFT 1.7–1.9× slower (JMH A/B, 384² and 512² × 8, 2026-11-25;
 * docs/cpu-runs/2026-11-25/jmh-ab-twiddle-helpers-reverted.md),
 * C2 no longer keeping radix 8's vectors unboxed.
 */
final class VectorLinePasses implements LinePasses {

	private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
	/** √½: the real and imaginary size of e^{±iπ/4}. */
	private static final double H = Math.sqrt(0.5);

	@Override
	public int lanes() { return S.length(); }

	@Override
	public void radix2(final int n, final int ns, final int b, final int sign, final double[] c, final double[] sn,
		final double[] xr, final double[] xi, final double[] yr, final double[] yi)
	{
		final int m = n / 2, step = S.length();
		for (int j = 0; j < m; j++) {
			final int k = j % ns;
			final double c1 = c[k], s1 = sign * sn[k];
			final int i0 = j * b, i1 = (j + m) * b;
			final int o0 = ((j / ns) * ns * 2 + k) * b, o1 = o0 + ns * b;
			for (int l = 0; l < b; l += step) {
				final DoubleVector ur = DoubleVector.fromArray(S, xr, i1 + l), ui = DoubleVector.fromArray(S, xi, i1 + l);
				final DoubleVector ar = ur.mul(c1).sub(ui.mul(s1)), ai = ur.mul(s1).add(ui.mul(c1));
				final DoubleVector zr = DoubleVector.fromArray(S, xr, i0 + l), zi = DoubleVector.fromArray(S, xi, i0 + l);
				zr.add(ar).intoArray(yr, o0 + l);
				zi.add(ai).intoArray(yi, o0 + l);
				zr.sub(ar).intoArray(yr, o1 + l);
				zi.sub(ai).intoArray(yi, o1 + l);
			}
		}
	}

	@Override
	public void radix3(final int n, final int ns, final int b, final int sign, final double[] c, final double[] sn,
		final double[] xr, final double[] xi, final double[] yr, final double[] yi)
	{
		final int m = n / 3, step = S.length();
		final double h = sign * Math.sqrt(3) / 2;
		for (int j = 0; j < m; j++) {
			final int k = j % ns;
			final double c1 = c[2 * k], s1 = sign * sn[2 * k], c2 = c[2 * k + 1], s2 = sign * sn[2 * k + 1];
			final int i0 = j * b, i1 = (j + m) * b, i2 = (j + 2 * m) * b;
			final int o0 = ((j / ns) * ns * 3 + k) * b, o1 = o0 + ns * b, o2 = o1 + ns * b;
			for (int l = 0; l < b; l += step) {
				DoubleVector ur = DoubleVector.fromArray(S, xr, i1 + l), ui = DoubleVector.fromArray(S, xi, i1 + l);
				final DoubleVector ar = ur.mul(c1).sub(ui.mul(s1)), ai = ur.mul(s1).add(ui.mul(c1));
				ur = DoubleVector.fromArray(S, xr, i2 + l);
				ui = DoubleVector.fromArray(S, xi, i2 + l);
				final DoubleVector br = ur.mul(c2).sub(ui.mul(s2)), bi = ur.mul(s2).add(ui.mul(c2));
				final DoubleVector zr = DoubleVector.fromArray(S, xr, i0 + l), zi = DoubleVector.fromArray(S, xi, i0 + l);
				final DoubleVector tr = ar.add(br), ti = ai.add(bi), dr = ar.sub(br).mul(h), di = ai.sub(bi).mul(h);
				final DoubleVector mr = zr.sub(tr.mul(0.5)), mi = zi.sub(ti.mul(0.5));
				zr.add(tr).intoArray(yr, o0 + l);
				zi.add(ti).intoArray(yi, o0 + l);
				mr.sub(di).intoArray(yr, o1 + l);
				mi.add(dr).intoArray(yi, o1 + l);
				mr.add(di).intoArray(yr, o2 + l);
				mi.sub(dr).intoArray(yi, o2 + l);
			}
		}
	}

	@Override
	public void radix4(final int n, final int ns, final int b, final int sign, final double[] c, final double[] sn,
		final double[] xr, final double[] xi, final double[] yr, final double[] yi)
	{
		final int m = n / 4, step = S.length();
		for (int j = 0; j < m; j++) {
			final int k = j % ns;
			final double c1 = c[3 * k], s1 = sign * sn[3 * k];
			final double c2 = c[3 * k + 1], s2 = sign * sn[3 * k + 1];
			final double c3 = c[3 * k + 2], s3 = sign * sn[3 * k + 2];
			final int i0 = j * b, i1 = (j + m) * b, i2 = (j + 2 * m) * b, i3 = (j + 3 * m) * b;
			final int o0 = ((j / ns) * ns * 4 + k) * b, o1 = o0 + ns * b, o2 = o1 + ns * b, o3 = o2 + ns * b;
			for (int l = 0; l < b; l += step) {
				DoubleVector ur = DoubleVector.fromArray(S, xr, i1 + l), ui = DoubleVector.fromArray(S, xi, i1 + l);
				final DoubleVector ar = ur.mul(c1).sub(ui.mul(s1)), ai = ur.mul(s1).add(ui.mul(c1));
				ur = DoubleVector.fromArray(S, xr, i2 + l);
				ui = DoubleVector.fromArray(S, xi, i2 + l);
				final DoubleVector br = ur.mul(c2).sub(ui.mul(s2)), bi = ur.mul(s2).add(ui.mul(c2));
				ur = DoubleVector.fromArray(S, xr, i3 + l);
				ui = DoubleVector.fromArray(S, xi, i3 + l);
				final DoubleVector cr = ur.mul(c3).sub(ui.mul(s3)), ci = ur.mul(s3).add(ui.mul(c3));
				final DoubleVector zr = DoubleVector.fromArray(S, xr, i0 + l), zi = DoubleVector.fromArray(S, xi, i0 + l);
				final DoubleVector p0r = zr.add(br), p0i = zi.add(bi), p1r = zr.sub(br), p1i = zi.sub(bi);
				final DoubleVector q0r = ar.add(cr), q0i = ai.add(ci);
				// ω·q1 with ω = e^{sign·iπ/2} = sign·i: (−sign·q1i, sign·q1r)
				final DoubleVector wr = ai.sub(ci).mul(-sign), wi = ar.sub(cr).mul(sign);
				p0r.add(q0r).intoArray(yr, o0 + l);
				p0i.add(q0i).intoArray(yi, o0 + l);
				p0r.sub(q0r).intoArray(yr, o2 + l);
				p0i.sub(q0i).intoArray(yi, o2 + l);
				p1r.add(wr).intoArray(yr, o1 + l);
				p1i.add(wi).intoArray(yi, o1 + l);
				p1r.sub(wr).intoArray(yr, o3 + l);
				p1i.sub(wi).intoArray(yi, o3 + l);
			}
		}
	}

	/**
	 * Radix 8 as two 4-point DFTs, of the even and the odd inputs, joined by W8^u = e^{sign·2πi·u/8}:
	 * X_u = E_u + W8^u·O_u, X_{u+4} = E_u − W8^u·O_u.
	 */
	@Override
	public void radix8(final int n, final int ns, final int b, final int sign, final double[] c, final double[] sn,
		final double[] xr, final double[] xi, final double[] yr, final double[] yi)
	{
		final int m = n / 8, step = S.length();
		final double g = sign;
		for (int j = 0; j < m; j++) {
			final int k = j % ns, t = 7 * k;
			final double c1 = c[t], s1 = g * sn[t], c2 = c[t + 1], s2 = g * sn[t + 1], c3 = c[t + 2], s3 = g * sn[t + 2];
			final double c4 = c[t + 3], s4 = g * sn[t + 3], c5 = c[t + 4], s5 = g * sn[t + 4], c6 = c[t + 5],
				s6 = g * sn[t + 5], c7 = c[t + 6], s7 = g * sn[t + 6];
			final int i0 = j * b, mb = m * b;
			final int o0 = ((j / ns) * ns * 8 + k) * b, ob = ns * b;
			for (int l = 0; l < b; l += step) {
				final int i = i0 + l;
				final DoubleVector a0r = DoubleVector.fromArray(S, xr, i), a0i = DoubleVector.fromArray(S, xi, i);
				DoubleVector ur = DoubleVector.fromArray(S, xr, i + mb), ui = DoubleVector.fromArray(S, xi, i + mb);
				final DoubleVector a1r = ur.mul(c1).sub(ui.mul(s1)), a1i = ur.mul(s1).add(ui.mul(c1));
				ur = DoubleVector.fromArray(S, xr, i + 2 * mb);
				ui = DoubleVector.fromArray(S, xi, i + 2 * mb);
				final DoubleVector a2r = ur.mul(c2).sub(ui.mul(s2)), a2i = ur.mul(s2).add(ui.mul(c2));
				ur = DoubleVector.fromArray(S, xr, i + 3 * mb);
				ui = DoubleVector.fromArray(S, xi, i + 3 * mb);
				final DoubleVector a3r = ur.mul(c3).sub(ui.mul(s3)), a3i = ur.mul(s3).add(ui.mul(c3));
				ur = DoubleVector.fromArray(S, xr, i + 4 * mb);
				ui = DoubleVector.fromArray(S, xi, i + 4 * mb);
				final DoubleVector a4r = ur.mul(c4).sub(ui.mul(s4)), a4i = ur.mul(s4).add(ui.mul(c4));
				ur = DoubleVector.fromArray(S, xr, i + 5 * mb);
				ui = DoubleVector.fromArray(S, xi, i + 5 * mb);
				final DoubleVector a5r = ur.mul(c5).sub(ui.mul(s5)), a5i = ur.mul(s5).add(ui.mul(c5));
				ur = DoubleVector.fromArray(S, xr, i + 6 * mb);
				ui = DoubleVector.fromArray(S, xi, i + 6 * mb);
				final DoubleVector a6r = ur.mul(c6).sub(ui.mul(s6)), a6i = ur.mul(s6).add(ui.mul(c6));
				ur = DoubleVector.fromArray(S, xr, i + 7 * mb);
				ui = DoubleVector.fromArray(S, xi, i + 7 * mb);
				final DoubleVector a7r = ur.mul(c7).sub(ui.mul(s7)), a7i = ur.mul(s7).add(ui.mul(c7));
				// E = DFT4(a0, a2, a4, a6), O = DFT4(a1, a3, a5, a7); ω = sign·i turns (r, i) into (−sign·i, sign·r).
				final DoubleVector es0r = a0r.add(a4r), es0i = a0i.add(a4i), ed0r = a0r.sub(a4r), ed0i = a0i.sub(a4i);
				final DoubleVector es1r = a2r.add(a6r), es1i = a2i.add(a6i);
				final DoubleVector ew1r = a2i.sub(a6i).mul(-g), ew1i = a2r.sub(a6r).mul(g);
				final DoubleVector e0r = es0r.add(es1r), e0i = es0i.add(es1i), e2r = es0r.sub(es1r), e2i = es0i.sub(es1i);
				final DoubleVector e1r = ed0r.add(ew1r), e1i = ed0i.add(ew1i), e3r = ed0r.sub(ew1r), e3i = ed0i.sub(ew1i);
				final DoubleVector os0r = a1r.add(a5r), os0i = a1i.add(a5i), od0r = a1r.sub(a5r), od0i = a1i.sub(a5i);
				final DoubleVector os1r = a3r.add(a7r), os1i = a3i.add(a7i);
				final DoubleVector ow1r = a3i.sub(a7i).mul(-g), ow1i = a3r.sub(a7r).mul(g);
				final DoubleVector o0r = os0r.add(os1r), o0i = os0i.add(os1i), o2r = os0r.sub(os1r), o2i = os0i.sub(os1i);
				final DoubleVector o1r = od0r.add(ow1r), o1i = od0i.add(ow1i), o3r = od0r.sub(ow1r), o3i = od0i.sub(ow1i);
				// W8^1 = √½·(1, sign), W8^2 = sign·i, W8^3 = √½·(−1, sign)
				final DoubleVector w1r = o1r.sub(o1i.mul(g)).mul(H), w1i = o1i.add(o1r.mul(g)).mul(H);
				final DoubleVector w2r = o2i.mul(-g), w2i = o2r.mul(g);
				final DoubleVector w3r = o3r.add(o3i.mul(g)).mul(-H), w3i = o3r.mul(g).sub(o3i).mul(H);
				e0r.add(o0r).intoArray(yr, o0 + l);
				e0i.add(o0i).intoArray(yi, o0 + l);
				e1r.add(w1r).intoArray(yr, o0 + ob + l);
				e1i.add(w1i).intoArray(yi, o0 + ob + l);
				e2r.add(w2r).intoArray(yr, o0 + 2 * ob + l);
				e2i.add(w2i).intoArray(yi, o0 + 2 * ob + l);
				e3r.add(w3r).intoArray(yr, o0 + 3 * ob + l);
				e3i.add(w3i).intoArray(yi, o0 + 3 * ob + l);
				e0r.sub(o0r).intoArray(yr, o0 + 4 * ob + l);
				e0i.sub(o0i).intoArray(yi, o0 + 4 * ob + l);
				e1r.sub(w1r).intoArray(yr, o0 + 5 * ob + l);
				e1i.sub(w1i).intoArray(yi, o0 + 5 * ob + l);
				e2r.sub(w2r).intoArray(yr, o0 + 6 * ob + l);
				e2i.sub(w2i).intoArray(yi, o0 + 6 * ob + l);
				e3r.sub(w3r).intoArray(yr, o0 + 7 * ob + l);
				e3i.sub(w3i).intoArray(yi, o0 + 7 * ob + l);
			}
		}
	}

	/** Radix 5 by its conjugate root pairs, as {@link LineFft}'s scalar radix5. */
	@Override
	public void radix5(final int n, final int ns, final int b, final int sign, final double[] c, final double[] sn,
		final double[] xr, final double[] xi, final double[] yr, final double[] yi)
	{
		final int m = n / 5, step = S.length();
		final double k1 = Math.cos(2 * Math.PI / 5), k2 = Math.cos(4 * Math.PI / 5);
		final double h1 = sign * Math.sin(2 * Math.PI / 5), h2 = sign * Math.sin(4 * Math.PI / 5);
		final int mb = m * b, nb = ns * b;
		for (int j = 0; j < m; j++) {
			final int k = j % ns, t = 4 * k;
			final double c1 = c[t], s1 = sign * sn[t], c2 = c[t + 1], s2 = sign * sn[t + 1], c3 = c[t + 2],
				s3 = sign * sn[t + 2], c4 = c[t + 3], s4 = sign * sn[t + 3];
			final int i0 = j * b, i1 = i0 + mb, i2 = i1 + mb, i3 = i2 + mb, i4 = i3 + mb;
			final int u0 = ((j / ns) * ns * 5 + k) * b, u1 = u0 + nb, u2 = u1 + nb, u3 = u2 + nb, u4 = u3 + nb;
			for (int l = 0; l < b; l += step) {
				final DoubleVector v0r = DoubleVector.fromArray(S, xr, i0 + l), v0i = DoubleVector.fromArray(S, xi, i0 + l);
				DoubleVector ur = DoubleVector.fromArray(S, xr, i1 + l), ui = DoubleVector.fromArray(S, xi, i1 + l);
				final DoubleVector v1r = ur.mul(c1).sub(ui.mul(s1)), v1i = ur.mul(s1).add(ui.mul(c1));
				ur = DoubleVector.fromArray(S, xr, i2 + l);
				ui = DoubleVector.fromArray(S, xi, i2 + l);
				final DoubleVector v2r = ur.mul(c2).sub(ui.mul(s2)), v2i = ur.mul(s2).add(ui.mul(c2));
				ur = DoubleVector.fromArray(S, xr, i3 + l);
				ui = DoubleVector.fromArray(S, xi, i3 + l);
				final DoubleVector v3r = ur.mul(c3).sub(ui.mul(s3)), v3i = ur.mul(s3).add(ui.mul(c3));
				ur = DoubleVector.fromArray(S, xr, i4 + l);
				ui = DoubleVector.fromArray(S, xi, i4 + l);
				final DoubleVector v4r = ur.mul(c4).sub(ui.mul(s4)), v4i = ur.mul(s4).add(ui.mul(c4));
				final DoubleVector t1r = v1r.add(v4r), t1i = v1i.add(v4i), t2r = v2r.add(v3r), t2i = v2i.add(v3i);
				final DoubleVector t3r = v1r.sub(v4r), t3i = v1i.sub(v4i), t4r = v2r.sub(v3r), t4i = v2i.sub(v3i);
				final DoubleVector a1r = v0r.add(t1r.mul(k1)).add(t2r.mul(k2)), a1i = v0i.add(t1i.mul(k1)).add(t2i.mul(k2));
				final DoubleVector a2r = v0r.add(t1r.mul(k2)).add(t2r.mul(k1)), a2i = v0i.add(t1i.mul(k2)).add(t2i.mul(k1));
				final DoubleVector b1r = t3r.mul(h1).add(t4r.mul(h2)), b1i = t3i.mul(h1).add(t4i.mul(h2));
				final DoubleVector b2r = t3r.mul(h2).sub(t4r.mul(h1)), b2i = t3i.mul(h2).sub(t4i.mul(h1));
				v0r.add(t1r).add(t2r).intoArray(yr, u0 + l);
				v0i.add(t1i).add(t2i).intoArray(yi, u0 + l);
				a1r.sub(b1i).intoArray(yr, u1 + l);
				a1i.add(b1r).intoArray(yi, u1 + l);
				a1r.add(b1i).intoArray(yr, u4 + l);
				a1i.sub(b1r).intoArray(yi, u4 + l);
				a2r.sub(b2i).intoArray(yr, u2 + l);
				a2i.add(b2r).intoArray(yi, u2 + l);
				a2r.add(b2i).intoArray(yr, u3 + l);
				a2i.sub(b2r).intoArray(yi, u3 + l);
			}
		}
	}

	/** Radix 7 by its conjugate root pairs, as {@link LineFft}'s scalar radix7. */
	@Override
	public void radix7(final int n, final int ns, final int b, final int sign, final double[] c, final double[] sn,
		final double[] xr, final double[] xi, final double[] yr, final double[] yi)
	{
		final int m = n / 7, step = S.length();
		final double k1 = Math.cos(2 * Math.PI / 7), k2 = Math.cos(4 * Math.PI / 7), k3 = Math.cos(6 * Math.PI / 7);
		final double h1 = sign * Math.sin(2 * Math.PI / 7), h2 = sign * Math.sin(4 * Math.PI / 7),
			h3 = sign * Math.sin(6 * Math.PI / 7);
		final int mb = m * b, nb = ns * b;
		for (int j = 0; j < m; j++) {
			final int k = j % ns, t = 6 * k;
			final double c1 = c[t], s1 = sign * sn[t], c2 = c[t + 1], s2 = sign * sn[t + 1], c3 = c[t + 2],
				s3 = sign * sn[t + 2], c4 = c[t + 3], s4 = sign * sn[t + 3], c5 = c[t + 4], s5 = sign * sn[t + 4],
				c6 = c[t + 5], s6 = sign * sn[t + 5];
			final int i0 = j * b, i1 = i0 + mb, i2 = i1 + mb, i3 = i2 + mb, i4 = i3 + mb, i5 = i4 + mb, i6 = i5 + mb;
			final int u0 = ((j / ns) * ns * 7 + k) * b, u1 = u0 + nb, u2 = u1 + nb, u3 = u2 + nb, u4 = u3 + nb,
				u5 = u4 + nb, u6 = u5 + nb;
			for (int l = 0; l < b; l += step) {
				final DoubleVector v0r = DoubleVector.fromArray(S, xr, i0 + l), v0i = DoubleVector.fromArray(S, xi, i0 + l);
				DoubleVector ur = DoubleVector.fromArray(S, xr, i1 + l), ui = DoubleVector.fromArray(S, xi, i1 + l);
				final DoubleVector v1r = ur.mul(c1).sub(ui.mul(s1)), v1i = ur.mul(s1).add(ui.mul(c1));
				ur = DoubleVector.fromArray(S, xr, i2 + l);
				ui = DoubleVector.fromArray(S, xi, i2 + l);
				final DoubleVector v2r = ur.mul(c2).sub(ui.mul(s2)), v2i = ur.mul(s2).add(ui.mul(c2));
				ur = DoubleVector.fromArray(S, xr, i3 + l);
				ui = DoubleVector.fromArray(S, xi, i3 + l);
				final DoubleVector v3r = ur.mul(c3).sub(ui.mul(s3)), v3i = ur.mul(s3).add(ui.mul(c3));
				ur = DoubleVector.fromArray(S, xr, i4 + l);
				ui = DoubleVector.fromArray(S, xi, i4 + l);
				final DoubleVector v4r = ur.mul(c4).sub(ui.mul(s4)), v4i = ur.mul(s4).add(ui.mul(c4));
				ur = DoubleVector.fromArray(S, xr, i5 + l);
				ui = DoubleVector.fromArray(S, xi, i5 + l);
				final DoubleVector v5r = ur.mul(c5).sub(ui.mul(s5)), v5i = ur.mul(s5).add(ui.mul(c5));
				ur = DoubleVector.fromArray(S, xr, i6 + l);
				ui = DoubleVector.fromArray(S, xi, i6 + l);
				final DoubleVector v6r = ur.mul(c6).sub(ui.mul(s6)), v6i = ur.mul(s6).add(ui.mul(c6));
				final DoubleVector p1r = v1r.add(v6r), p1i = v1i.add(v6i), d1r = v1r.sub(v6r), d1i = v1i.sub(v6i);
				final DoubleVector p2r = v2r.add(v5r), p2i = v2i.add(v5i), d2r = v2r.sub(v5r), d2i = v2i.sub(v5i);
				final DoubleVector p3r = v3r.add(v4r), p3i = v3i.add(v4i), d3r = v3r.sub(v4r), d3i = v3i.sub(v4i);
				final DoubleVector a1r = v0r.add(p1r.mul(k1)).add(p2r.mul(k2)).add(p3r.mul(k3));
				final DoubleVector a1i = v0i.add(p1i.mul(k1)).add(p2i.mul(k2)).add(p3i.mul(k3));
				final DoubleVector a2r = v0r.add(p1r.mul(k2)).add(p2r.mul(k3)).add(p3r.mul(k1));
				final DoubleVector a2i = v0i.add(p1i.mul(k2)).add(p2i.mul(k3)).add(p3i.mul(k1));
				final DoubleVector a3r = v0r.add(p1r.mul(k3)).add(p2r.mul(k1)).add(p3r.mul(k2));
				final DoubleVector a3i = v0i.add(p1i.mul(k3)).add(p2i.mul(k1)).add(p3i.mul(k2));
				final DoubleVector b1r = d1r.mul(h1).add(d2r.mul(h2)).add(d3r.mul(h3));
				final DoubleVector b1i = d1i.mul(h1).add(d2i.mul(h2)).add(d3i.mul(h3));
				final DoubleVector b2r = d1r.mul(h2).sub(d2r.mul(h3)).sub(d3r.mul(h1));
				final DoubleVector b2i = d1i.mul(h2).sub(d2i.mul(h3)).sub(d3i.mul(h1));
				final DoubleVector b3r = d1r.mul(h3).sub(d2r.mul(h1)).add(d3r.mul(h2));
				final DoubleVector b3i = d1i.mul(h3).sub(d2i.mul(h1)).add(d3i.mul(h2));
				v0r.add(p1r).add(p2r).add(p3r).intoArray(yr, u0 + l);
				v0i.add(p1i).add(p2i).add(p3i).intoArray(yi, u0 + l);
				a1r.sub(b1i).intoArray(yr, u1 + l);
				a1i.add(b1r).intoArray(yi, u1 + l);
				a1r.add(b1i).intoArray(yr, u6 + l);
				a1i.sub(b1r).intoArray(yi, u6 + l);
				a2r.sub(b2i).intoArray(yr, u2 + l);
				a2i.add(b2r).intoArray(yi, u2 + l);
				a2r.add(b2i).intoArray(yr, u5 + l);
				a2i.sub(b2r).intoArray(yi, u5 + l);
				a3r.sub(b3i).intoArray(yr, u3 + l);
				a3i.add(b3r).intoArray(yi, u3 + l);
				a3r.add(b3i).intoArray(yr, u4 + l);
				a3i.sub(b3r).intoArray(yi, u4 + l);
			}
		}
	}
}
