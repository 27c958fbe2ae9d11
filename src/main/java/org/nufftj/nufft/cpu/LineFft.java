package org.nufftj.nufft.cpu;

import org.jtransforms.fft.DoubleFFT_1D;

/**
 * One-dimensional complex FFT of length n applied to a block of lines at once, the lines interleaved element by element
 * in split real and imaginary arrays: element i of line b at {@code [i·lines + b]}. Unnormalised:
 * X_k = Σ_j x_j·e^{sign·2πi·jk/n}.
 * <p>
 * Stockham autosort (Govindaraju et al. 2008, "High performance discrete Fourier transforms on graphics processors":
 * stage of radix r with Ns = product of the earlier radices: butterfly j reads x[j + t·n/r], t &lt; r, twiddles them by
 * e^{sign·2πi·t·(j mod Ns)/(Ns·r)}, takes their r-point DFT and writes it to y[(j div Ns)·Ns·r + j mod Ns + t·Ns]),
 * ping-ponging between two work arrays, no bit reversal. Radices 8 (as two radix-4 DFTs; taken first where the
 * length has a factor 3, 5 or 7), 4, 2, 3, 5 and 7 are written out (5 and 7 by their conjugate root pairs); any other
 * prime factor up to {@link #MAX_PRIME} (11, 13, …) takes a direct r-point DFT butterfly. Every butterfly's innermost loop runs over
 * the block's lines with one twiddle, so each pass streams contiguous memory, and nothing is allocated after
 * construction. A length with a larger prime factor goes line by line through JTransforms (Bluestein).
 * <p>
 * Where the JVM has the Vector API ({@link VectorSupport#linePasses}; {@code -Dnufftj.vectorFft=false} turns them off
 * alone), radices 8, 4, 2, 3, 5 and 7 run on vectors of lines
 * ({@link VectorLinePasses}), 8s taken first (512 = 8·8·8: three passes over memory instead of five), and a block's
 * lines are padded to whole vectors ({@link #stride}); the other primes keep the scalar butterfly.
 * </p>
 * One instance per thread: it owns its work arrays.
 */
final class LineFft {

	/** Largest prime factor transformed by the Stockham passes; larger ones go through JTransforms. */
	static final int MAX_PRIME = 31;

	final int n;
	/** Most lines per block (the work arrays hold n·block complex values twice). */
	final int block;
	/** Input of {@link #transform}: element i of line b at [i·lines + b]. */
	final double[] re, im;
	private final double[] re2, im2;
	private final int[] radix;
	/** Per stage: cos and sin of 2π·t·k/(Ns·r) at [k·(r − 1) + t − 1], k &lt; Ns, 1 ≤ t &lt; r. */
	private final double[][] twCos, twSin;
	/** Per stage of a generic radix r: cos and sin of 2π·q/r, q &lt; r. */
	private final double[][] rootCos, rootSin;
	private final double[] gr, gi;
	private final DoubleFFT_1D fallback;
	private final double[] line;
	/** The Vector API passes (radices 2, 3, 4, 5, 7, 8), or null for the scalar ones. */
	private final LinePasses passes;
	private final int lanes;
	private boolean second;

	/**
	 * Lines per block for length n: the four work arrays within about 512 KB (half a core's L2 on current x86), at most
	 * 48. Wider blocks read longer runs of the grid per element of a strided line: the pruned 192³ grid FFT of the 3D
	 * kooshball 32.3–32.6 against 36.5–41.8 ms with the former 256 KB and 16 lines (medians of 25, three alternating
	 * rounds, 2 threads, AVX-512, 2026-11-29); 8 × 360² 4.1–4.5 against 4.8–5.6 ms; 8 × 384² 4.9–6.0 either way.
	 */
	static int blockFor(final int n) {
		return Math.max(1, Math.min(48, 16384 / Math.max(1, n)));
	}

	/** With the Vector API passes where {@link VectorSupport} has them, else the scalar ones. */
	LineFft(final int n) {
		this(n, VectorSupport.linePasses());
	}

	/** With the given vector passes (null: scalar), blocks of {@link #blockFor} lines rounded up to whole vectors. */
	LineFft(final int n, final LinePasses passes) {
		this(n, blockFor(n), passes);
	}

	/**
	 * Scalar passes on a power-of-two length: the stride is made odd, so that a radix-8 pass's eight streams (n/8
	 * strides apart) do not fall on the same cache sets.
	 */
	private final boolean padded;

	LineFft(final int n, final int block, final LinePasses passes) {
		if (n < 1 || block < 1) throw new IllegalArgumentException("FFT length " + n + ", block " + block);
		this.n = n;
		this.passes = passes;
		this.lanes = passes == null ? 1 : passes.lanes();
		this.block = roundUp(block, lanes);
		padded = passes == null && Integer.bitCount(n) == 1;
		re = new double[n * stride(this.block)];
		im = new double[n * stride(this.block)];
		re2 = new double[n * stride(this.block)];
		im2 = new double[n * stride(this.block)];
		final int[] f = factors(n, true);
		if (f == null) {
			radix = new int[0];
			fallback = new DoubleFFT_1D(n);
			line = new double[2 * n];
		}
		else {
			radix = f;
			fallback = null;
			line = null;
		}
		twCos = new double[radix.length][];
		twSin = new double[radix.length][];
		rootCos = new double[radix.length][];
		rootSin = new double[radix.length][];
		int ns = 1, widest = 0;
		for (int s = 0; s < radix.length; s++) {
			final int r = radix[s];
			widest = Math.max(widest, r);
			twCos[s] = new double[ns * (r - 1)];
			twSin[s] = new double[ns * (r - 1)];
			for (int k = 0; k < ns; k++) {
				for (int t = 1; t < r; t++) {
					final double a = 2 * Math.PI * t * k / ((double) ns * r);
					twCos[s][k * (r - 1) + t - 1] = Math.cos(a);
					twSin[s][k * (r - 1) + t - 1] = Math.sin(a);
				}
			}
			if (r > 8) { // the generic pass (11, 13, …): 5 and 7 are written out
				rootCos[s] = new double[r];
				rootSin[s] = new double[r];
				for (int q = 0; q < r; q++) {
					rootCos[s][q] = Math.cos(2 * Math.PI * q / r);
					rootSin[s][q] = Math.sin(2 * Math.PI * q / r);
				}
			}
			ns *= r;
		}
		gr = new double[2 * widest];
		gi = new double[2 * widest];
	}

	/** Whether n is done by the Stockham passes (every prime factor ≤ {@link #MAX_PRIME}), not by the fallback. */
	static boolean stockham(final int n) {
		return factors(n, false) != null;
	}

	private static int roundUp(final int x, final int to) {
		return (x + to - 1) / to * to;
	}

	/**
	 * The radices: 8s first where {@code eight} (the vector and the scalar passes both have radix 8), then 4s, then 2,
	 * 3 and the other primes; null when a prime factor exceeds MAX_PRIME.
	 */
	private static int[] factors(final int n, final boolean eight) {
		final java.util.List<Integer> out = new java.util.ArrayList<>();
		int m = n;
		while (eight && m % 8 == 0) {
			out.add(8);
			m /= 8;
		}
		while (m % 4 == 0) {
			out.add(4);
			m /= 4;
		}
		for (int p = 2; p <= MAX_PRIME && m > 1; p++) {
			while (m % p == 0) {
				out.add(p);
				m /= p;
			}
		}
		if (m != 1) return null;
		final int[] r = new int[out.size()];
		for (int i = 0; i < r.length; i++) r[i] = out.get(i);
		return r;
	}

	/**
	 * The distance between elements i and i + 1 of a line for a block of {@code lines} lines: {@code lines} rounded up
	 * to whole vectors (the vector passes transform every lane; the padding lanes are cleared by {@link #transform}).
	 */
	int stride(final int lines) {
		return padded && lines > 1 ? (lines | 1) : roundUp(lines, lanes);
	}

	/**
	 * Transforms {@code lines} ≤ {@link #block} lines held in {@link #re}/{@link #im}, element i of line l at
	 * [i·{@link #stride}(lines) + l]; the result is then in {@link #resultRe()}/{@link #resultIm()}, same layout.
	 */
	void transform(final int lines, final int sign) {
		if (lines > block) throw new IllegalArgumentException(lines + " lines > block " + block);
		final int b = stride(lines);
		if (fallback != null) {
			byJTransforms(lines, b, sign);
			second = false;
			return;
		}
		if (b > lines) {
			for (int i = 0; i < n; i++) {
				java.util.Arrays.fill(re, i * b + lines, (i + 1) * b, 0);
				java.util.Arrays.fill(im, i * b + lines, (i + 1) * b, 0);
			}
		}
		double[] xr = re, xi = im, yr = re2, yi = im2;
		int ns = 1;
		for (int s = 0; s < radix.length; s++) {
			final int r = radix[s];
			final double[] c = twCos[s], sn = twSin[s];
			if (passes != null && r == 8) passes.radix8(n, ns, b, sign, c, sn, xr, xi, yr, yi);
			else if (passes != null && r == 4) passes.radix4(n, ns, b, sign, c, sn, xr, xi, yr, yi);
			else if (passes != null && r == 2) passes.radix2(n, ns, b, sign, c, sn, xr, xi, yr, yi);
			else if (passes != null && r == 3) passes.radix3(n, ns, b, sign, c, sn, xr, xi, yr, yi);
			else if (passes != null && r == 5) passes.radix5(n, ns, b, sign, c, sn, xr, xi, yr, yi);
			else if (passes != null && r == 7) passes.radix7(n, ns, b, sign, c, sn, xr, xi, yr, yi);
			else {
				switch (r) {
					case 2: radix2(s, ns, b, sign, xr, xi, yr, yi); break;
					case 3: radix3(s, ns, b, sign, xr, xi, yr, yi); break;
					case 4: radix4(s, ns, b, sign, xr, xi, yr, yi); break;
					case 8: radix8(s, ns, b, sign, xr, xi, yr, yi); break;
					case 5: radix5(s, ns, b, sign, xr, xi, yr, yi); break;
					case 7: radix7(s, ns, b, sign, xr, xi, yr, yi); break;
					default: generic(s, r, ns, b, sign, xr, xi, yr, yi);
				}
			}
			ns *= r;
			final double[] tr = xr, ti = xi;
			xr = yr;
			xi = yi;
			yr = tr;
			yi = ti;
		}
		second = xr == re2;
	}

	double[] resultRe() { return second ? re2 : re; }

	double[] resultIm() { return second ? im2 : im; }

	private void radix2(final int s, final int ns, final int b, final int sign, final double[] xr, final double[] xi,
		final double[] yr, final double[] yi)
	{
		final int m = n / 2;
		final double[] c = twCos[s], sn = twSin[s];
		for (int j = 0; j < m; j++) {
			final int k = j % ns;
			final double c1 = c[k], s1 = sign * sn[k];
			final int i0 = j * b, i1 = (j + m) * b;
			final int o0 = ((j / ns) * ns * 2 + k) * b, o1 = o0 + ns * b;
			for (int l = 0; l < b; l++) {
				final double ur = xr[i1 + l], ui = xi[i1 + l];
				final double ar = ur * c1 - ui * s1, ai = ur * s1 + ui * c1;
				final double zr = xr[i0 + l], zi = xi[i0 + l];
				yr[o0 + l] = zr + ar;
				yi[o0 + l] = zi + ai;
				yr[o1 + l] = zr - ar;
				yi[o1 + l] = zi - ai;
			}
		}
	}

	private void radix3(final int s, final int ns, final int b, final int sign, final double[] xr, final double[] xi,
		final double[] yr, final double[] yi)
	{
		final int m = n / 3;
		final double[] c = twCos[s], sn = twSin[s];
		final double h = sign * Math.sqrt(3) / 2; // e^{sign·2πi/3} = −1/2 + i·h
		for (int j = 0; j < m; j++) {
			final int k = j % ns;
			final double c1 = c[2 * k], s1 = sign * sn[2 * k], c2 = c[2 * k + 1], s2 = sign * sn[2 * k + 1];
			final int i0 = j * b, i1 = (j + m) * b, i2 = (j + 2 * m) * b;
			final int o0 = ((j / ns) * ns * 3 + k) * b, o1 = o0 + ns * b, o2 = o1 + ns * b;
			for (int l = 0; l < b; l++) {
				double ur = xr[i1 + l], ui = xi[i1 + l];
				final double ar = ur * c1 - ui * s1, ai = ur * s1 + ui * c1;
				ur = xr[i2 + l];
				ui = xi[i2 + l];
				final double br = ur * c2 - ui * s2, bi = ur * s2 + ui * c2;
				final double zr = xr[i0 + l], zi = xi[i0 + l];
				final double tr = ar + br, ti = ai + bi, dr = ar - br, di = ai - bi;
				final double mr = zr - 0.5 * tr, mi = zi - 0.5 * ti;
				yr[o0 + l] = zr + tr;
				yi[o0 + l] = zi + ti;
				yr[o1 + l] = mr - h * di;
				yi[o1 + l] = mi + h * dr;
				yr[o2 + l] = mr + h * di;
				yi[o2 + l] = mi - h * dr;
			}
		}
	}

	private void radix4(final int s, final int ns, final int b, final int sign, final double[] xr, final double[] xi,
		final double[] yr, final double[] yi)
	{
		final int m = n / 4;
		final double[] c = twCos[s], sn = twSin[s];
		for (int j = 0; j < m; j++) {
			final int k = j % ns;
			final double c1 = c[3 * k], s1 = sign * sn[3 * k];
			final double c2 = c[3 * k + 1], s2 = sign * sn[3 * k + 1];
			final double c3 = c[3 * k + 2], s3 = sign * sn[3 * k + 2];
			final int i0 = j * b, i1 = (j + m) * b, i2 = (j + 2 * m) * b, i3 = (j + 3 * m) * b;
			final int o0 = ((j / ns) * ns * 4 + k) * b, o1 = o0 + ns * b, o2 = o1 + ns * b, o3 = o2 + ns * b;
			for (int l = 0; l < b; l++) {
				double ur = xr[i1 + l], ui = xi[i1 + l];
				final double ar = ur * c1 - ui * s1, ai = ur * s1 + ui * c1;
				ur = xr[i2 + l];
				ui = xi[i2 + l];
				final double br = ur * c2 - ui * s2, bi = ur * s2 + ui * c2;
				ur = xr[i3 + l];
				ui = xi[i3 + l];
				final double cr = ur * c3 - ui * s3, ci = ur * s3 + ui * c3;
				final double zr = xr[i0 + l], zi = xi[i0 + l];
				final double p0r = zr + br, p0i = zi + bi, p1r = zr - br, p1i = zi - bi;
				final double q0r = ar + cr, q0i = ai + ci, q1r = ar - cr, q1i = ai - ci;
				// ω = e^{sign·iπ/2} = sign·i: ω·q1 = (−sign·q1i, sign·q1r)
				yr[o0 + l] = p0r + q0r;
				yi[o0 + l] = p0i + q0i;
				yr[o2 + l] = p0r - q0r;
				yi[o2 + l] = p0i - q0i;
				yr[o1 + l] = p1r - sign * q1i;
				yi[o1 + l] = p1i + sign * q1r;
				yr[o3 + l] = p1r + sign * q1i;
				yi[o3 + l] = p1i - sign * q1r;
			}
		}
	}

	/**
	 * Radix 8 as two radix-4 DFTs (even and odd inputs, after the twiddles) and X_u = E_u + w^u·O_u, X_{u+4} = E_u −
	 * w^u·O_u, w = e^{sign·2πi/8}: one pass over the work arrays where radix 4 and 2 took two.
	 */
	private void radix8(final int s, final int ns, final int b, final int sign, final double[] xr, final double[] xi,
		final double[] yr, final double[] yi)
	{
		final int m = n / 8;
		final double[] c = twCos[s], sn = twSin[s];
		final double h = Math.sqrt(0.5);
		final int mb = m * b, nb = ns * b;
		for (int j = 0; j < m; j++) {
			final int k = j % ns, t = 7 * k;
			final double c1 = c[t], s1 = sign * sn[t], c2 = c[t + 1], s2 = sign * sn[t + 1], c3 = c[t + 2],
				s3 = sign * sn[t + 2], c4 = c[t + 3], s4 = sign * sn[t + 3], c5 = c[t + 4], s5 = sign * sn[t + 4],
				c6 = c[t + 5], s6 = sign * sn[t + 5], c7 = c[t + 6], s7 = sign * sn[t + 6];
			// the eight input streams m·b apart, the eight output streams ns·b apart
			final int i0 = j * b, i1 = i0 + mb, i2 = i1 + mb, i3 = i2 + mb, i4 = i3 + mb, i5 = i4 + mb, i6 = i5 + mb,
				i7 = i6 + mb;
			final int u0 = ((j / ns) * ns * 8 + k) * b, u1 = u0 + nb, u2 = u1 + nb, u3 = u2 + nb, u4 = u3 + nb,
				u5 = u4 + nb, u6 = u5 + nb, u7 = u6 + nb;
			for (int l = 0; l < b; l++) {
				// v_t = x_t · w_k^t (v_0 = x_0)
				final double v0r = xr[i0 + l], v0i = xi[i0 + l];
				double ur = xr[i1 + l], ui = xi[i1 + l];
				final double v1r = ur * c1 - ui * s1, v1i = ur * s1 + ui * c1;
				ur = xr[i2 + l];
				ui = xi[i2 + l];
				final double v2r = ur * c2 - ui * s2, v2i = ur * s2 + ui * c2;
				ur = xr[i3 + l];
				ui = xi[i3 + l];
				final double v3r = ur * c3 - ui * s3, v3i = ur * s3 + ui * c3;
				ur = xr[i4 + l];
				ui = xi[i4 + l];
				final double v4r = ur * c4 - ui * s4, v4i = ur * s4 + ui * c4;
				ur = xr[i5 + l];
				ui = xi[i5 + l];
				final double v5r = ur * c5 - ui * s5, v5i = ur * s5 + ui * c5;
				ur = xr[i6 + l];
				ui = xi[i6 + l];
				final double v6r = ur * c6 - ui * s6, v6i = ur * s6 + ui * c6;
				ur = xr[i7 + l];
				ui = xi[i7 + l];
				final double v7r = ur * c7 - ui * s7, v7i = ur * s7 + ui * c7;
				// E = DFT4(v0, v2, v4, v6), O = DFT4(v1, v3, v5, v7), ω = sign·i
				double p0r = v0r + v4r, p0i = v0i + v4i, p1r = v0r - v4r, p1i = v0i - v4i;
				double q0r = v2r + v6r, q0i = v2i + v6i, q1r = v2r - v6r, q1i = v2i - v6i;
				final double e0r = p0r + q0r, e0i = p0i + q0i, e2r = p0r - q0r, e2i = p0i - q0i;
				final double e1r = p1r - sign * q1i, e1i = p1i + sign * q1r, e3r = p1r + sign * q1i, e3i = p1i - sign * q1r;
				p0r = v1r + v5r;
				p0i = v1i + v5i;
				p1r = v1r - v5r;
				p1i = v1i - v5i;
				q0r = v3r + v7r;
				q0i = v3i + v7i;
				q1r = v3r - v7r;
				q1i = v3i - v7i;
				final double f0r = p0r + q0r, f0i = p0i + q0i, f2r = p0r - q0r, f2i = p0i - q0i;
				final double f1r = p1r - sign * q1i, f1i = p1i + sign * q1r, f3r = p1r + sign * q1i, f3i = p1i - sign * q1r;
				// w^1 = h(1 + sign·i), w^2 = sign·i, w^3 = h(−1 + sign·i)
				final double g1r = h * (f1r - sign * f1i), g1i = h * (f1i + sign * f1r);
				final double g2r = -sign * f2i, g2i = sign * f2r;
				final double g3r = h * (-f3r - sign * f3i), g3i = h * (-f3i + sign * f3r);
				yr[u0 + l] = e0r + f0r;
				yi[u0 + l] = e0i + f0i;
				yr[u4 + l] = e0r - f0r;
				yi[u4 + l] = e0i - f0i;
				yr[u1 + l] = e1r + g1r;
				yi[u1 + l] = e1i + g1i;
				yr[u5 + l] = e1r - g1r;
				yi[u5 + l] = e1i - g1i;
				yr[u2 + l] = e2r + g2r;
				yi[u2 + l] = e2i + g2i;
				yr[u6 + l] = e2r - g2r;
				yi[u6 + l] = e2i - g2i;
				yr[u3 + l] = e3r + g3r;
				yi[u3 + l] = e3i + g3i;
				yr[u7 + l] = e3r - g3r;
				yi[u7 + l] = e3i - g3i;
			}
		}
	}

	/**
	 * Radix 5 written out: with t1 = v1 + v4, t2 = v2 + v3, t3 = v1 − v4, t4 = v2 − v3, X0 = v0 + t1 + t2,
	 * X1,4 = v0 + c1·t1 + c2·t2 ± i·sign·(s1·t3 + s2·t4), X2,3 = v0 + c2·t1 + c1·t2 ± i·sign·(s2·t3 − s1·t4), c_k and s_k
	 * the cosine and sine of 2πk/5 (the conjugate pairs of the 5th roots of unity).
	 */
	private void radix5(final int s, final int ns, final int b, final int sign, final double[] xr, final double[] xi,
		final double[] yr, final double[] yi)
	{
		final int m = n / 5;
		final double[] c = twCos[s], sn = twSin[s];
		final double k1 = Math.cos(2 * Math.PI / 5), k2 = Math.cos(4 * Math.PI / 5);
		final double h1 = sign * Math.sin(2 * Math.PI / 5), h2 = sign * Math.sin(4 * Math.PI / 5);
		final int mb = m * b, nb = ns * b;
		for (int j = 0; j < m; j++) {
			final int k = j % ns, t = 4 * k;
			final double c1 = c[t], s1 = sign * sn[t], c2 = c[t + 1], s2 = sign * sn[t + 1], c3 = c[t + 2],
				s3 = sign * sn[t + 2], c4 = c[t + 3], s4 = sign * sn[t + 3];
			final int i0 = j * b, i1 = i0 + mb, i2 = i1 + mb, i3 = i2 + mb, i4 = i3 + mb;
			final int u0 = ((j / ns) * ns * 5 + k) * b, u1 = u0 + nb, u2 = u1 + nb, u3 = u2 + nb, u4 = u3 + nb;
			for (int l = 0; l < b; l++) {
				final double v0r = xr[i0 + l], v0i = xi[i0 + l];
				double ur = xr[i1 + l], ui = xi[i1 + l];
				final double v1r = ur * c1 - ui * s1, v1i = ur * s1 + ui * c1;
				ur = xr[i2 + l];
				ui = xi[i2 + l];
				final double v2r = ur * c2 - ui * s2, v2i = ur * s2 + ui * c2;
				ur = xr[i3 + l];
				ui = xi[i3 + l];
				final double v3r = ur * c3 - ui * s3, v3i = ur * s3 + ui * c3;
				ur = xr[i4 + l];
				ui = xi[i4 + l];
				final double v4r = ur * c4 - ui * s4, v4i = ur * s4 + ui * c4;
				final double t1r = v1r + v4r, t1i = v1i + v4i, t2r = v2r + v3r, t2i = v2i + v3i;
				final double t3r = v1r - v4r, t3i = v1i - v4i, t4r = v2r - v3r, t4i = v2i - v3i;
				final double a1r = v0r + k1 * t1r + k2 * t2r, a1i = v0i + k1 * t1i + k2 * t2i;
				final double a2r = v0r + k2 * t1r + k1 * t2r, a2i = v0i + k2 * t1i + k1 * t2i;
				final double b1r = h1 * t3r + h2 * t4r, b1i = h1 * t3i + h2 * t4i;
				final double b2r = h2 * t3r - h1 * t4r, b2i = h2 * t3i - h1 * t4i;
				yr[u0 + l] = v0r + t1r + t2r;
				yi[u0 + l] = v0i + t1i + t2i;
				yr[u1 + l] = a1r - b1i;
				yi[u1 + l] = a1i + b1r;
				yr[u4 + l] = a1r + b1i;
				yi[u4 + l] = a1i - b1r;
				yr[u2 + l] = a2r - b2i;
				yi[u2 + l] = a2i + b2r;
				yr[u3 + l] = a2r + b2i;
				yi[u3 + l] = a2i - b2r;
			}
		}
	}

	/**
	 * Radix 7 written out the same way: with p_q = v_q + v_{7−q} and d_q = v_q − v_{7−q} (q = 1, 2, 3),
	 * X_u, X_{7−u} = v0 + Σ_q cos(2πqu/7)·p_q ± i·sign·Σ_q sin(2πqu/7)·d_q for u = 1, 2, 3.
	 */
	private void radix7(final int s, final int ns, final int b, final int sign, final double[] xr, final double[] xi,
		final double[] yr, final double[] yi)
	{
		final int m = n / 7;
		final double[] c = twCos[s], sn = twSin[s];
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
			for (int l = 0; l < b; l++) {
				final double v0r = xr[i0 + l], v0i = xi[i0 + l];
				double ur = xr[i1 + l], ui = xi[i1 + l];
				final double v1r = ur * c1 - ui * s1, v1i = ur * s1 + ui * c1;
				ur = xr[i2 + l];
				ui = xi[i2 + l];
				final double v2r = ur * c2 - ui * s2, v2i = ur * s2 + ui * c2;
				ur = xr[i3 + l];
				ui = xi[i3 + l];
				final double v3r = ur * c3 - ui * s3, v3i = ur * s3 + ui * c3;
				ur = xr[i4 + l];
				ui = xi[i4 + l];
				final double v4r = ur * c4 - ui * s4, v4i = ur * s4 + ui * c4;
				ur = xr[i5 + l];
				ui = xi[i5 + l];
				final double v5r = ur * c5 - ui * s5, v5i = ur * s5 + ui * c5;
				ur = xr[i6 + l];
				ui = xi[i6 + l];
				final double v6r = ur * c6 - ui * s6, v6i = ur * s6 + ui * c6;
				final double p1r = v1r + v6r, p1i = v1i + v6i, d1r = v1r - v6r, d1i = v1i - v6i;
				final double p2r = v2r + v5r, p2i = v2i + v5i, d2r = v2r - v5r, d2i = v2i - v5i;
				final double p3r = v3r + v4r, p3i = v3i + v4i, d3r = v3r - v4r, d3i = v3i - v4i;
				// cos(2πqu/7) and sin(2πqu/7) for qu mod 7 = 4, 5, 6 are cos and −sin of 2π(7 − qu mod 7)/7
				final double a1r = v0r + k1 * p1r + k2 * p2r + k3 * p3r, a1i = v0i + k1 * p1i + k2 * p2i + k3 * p3i;
				final double a2r = v0r + k2 * p1r + k3 * p2r + k1 * p3r, a2i = v0i + k2 * p1i + k3 * p2i + k1 * p3i;
				final double a3r = v0r + k3 * p1r + k1 * p2r + k2 * p3r, a3i = v0i + k3 * p1i + k1 * p2i + k2 * p3i;
				final double b1r = h1 * d1r + h2 * d2r + h3 * d3r, b1i = h1 * d1i + h2 * d2i + h3 * d3i;
				final double b2r = h2 * d1r - h3 * d2r - h1 * d3r, b2i = h2 * d1i - h3 * d2i - h1 * d3i;
				final double b3r = h3 * d1r - h1 * d2r + h2 * d3r, b3i = h3 * d1i - h1 * d2i + h2 * d3i;
				yr[u0 + l] = v0r + p1r + p2r + p3r;
				yi[u0 + l] = v0i + p1i + p2i + p3i;
				yr[u1 + l] = a1r - b1i;
				yi[u1 + l] = a1i + b1r;
				yr[u6 + l] = a1r + b1i;
				yi[u6 + l] = a1i - b1r;
				yr[u2 + l] = a2r - b2i;
				yi[u2 + l] = a2i + b2r;
				yr[u5 + l] = a2r + b2i;
				yi[u5 + l] = a2i - b2r;
				yr[u3 + l] = a3r - b3i;
				yi[u3 + l] = a3i + b3r;
				yr[u4 + l] = a3r + b3i;
				yi[u4 + l] = a3i - b3r;
			}
		}
	}

	/** Radix r by the r-point DFT written out: X_u = Σ_t a_t·e^{sign·2πi·tu/r}. */
	private void generic(final int s, final int r, final int ns, final int b, final int sign, final double[] xr,
		final double[] xi, final double[] yr, final double[] yi)
	{
		final int m = n / r;
		final double[] c = twCos[s], sn = twSin[s], rc = rootCos[s], rs = rootSin[s];
		for (int j = 0; j < m; j++) {
			final int k = j % ns;
			final int o0 = ((j / ns) * ns * r + k) * b;
			for (int l = 0; l < b; l++) {
				gr[0] = xr[j * b + l];
				gi[0] = xi[j * b + l];
				for (int t = 1; t < r; t++) {
					final int i = (j + t * m) * b + l;
					final double wc = c[k * (r - 1) + t - 1], ws = sign * sn[k * (r - 1) + t - 1];
					gr[t] = xr[i] * wc - xi[i] * ws;
					gi[t] = xr[i] * ws + xi[i] * wc;
				}
				for (int u = 0; u < r; u++) {
					double sr = 0, si = 0;
					for (int t = 0, q = 0; t < r; t++, q = (q + u) % r) {
						final double wc = rc[q], ws = sign * rs[q];
						sr += gr[t] * wc - gi[t] * ws;
						si += gr[t] * ws + gi[t] * wc;
					}
					yr[o0 + u * ns * b + l] = sr;
					yi[o0 + u * ns * b + l] = si;
				}
			}
		}
	}

	private void byJTransforms(final int lines, final int b, final int sign) {
		for (int l = 0; l < lines; l++) {
			for (int i = 0; i < n; i++) {
				line[2 * i] = re[i * b + l];
				line[2 * i + 1] = im[i * b + l];
			}
			if (sign < 0) fallback.complexForward(line);
			else fallback.complexInverse(line, false);
			for (int i = 0; i < n; i++) {
				re[i * b + l] = line[2 * i];
				im[i * b + l] = line[2 * i + 1];
			}
		}
	}
}
