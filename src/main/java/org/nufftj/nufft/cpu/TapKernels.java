package org.nufftj.nufft.cpu;

/**
 * The batch tap loops of the CPU engine: several transforms (coils) per grid cell, T innermost, so that a tap moves
 * 2T consecutive values. The scalar loops are written out in {@link Subgrids} and {@link CpuNufftPlan}; this
 * interface is the Vector API version ({@link VectorSupport}).
 */
interface TapKernels {

	/** Doubles per vector: a length that is a multiple of it runs with no scalar tail. */
	int lanes();

	/** b[ti[t] + j] += tw[t]·c[j] for every tap t &lt; n and value j &lt; len (len even). */
	void add(double[] b, double[] c, int len, double[] tw, int[] ti, int n);

	/** The same in float: the subgrids of a float plan's several-transform spreading ({@link Subgrids}). */
	void add(float[] b, float[] c, int len, float[] tw, int[] ti, int n);

	/**
	 * A point's whole window on a float subgrid of several transforms without a tap list: for e &lt; wz, r &lt; w and
	 * a &lt; w, with the point's weights at kw[ko …] (x, then y at ko + w, z at ko + 2w) and
	 * k = (float) ((kw[ko + w + r]·kw[ko + 2w + e])·kw[ko + a]), b[len·(base + e·planeStride + r·rowStride + a) + j] +=
	 * k·c[j] for j &lt; len: the sums of {@link #add(float[], float[], int, float[], int[], int)} over the tap list that
	 * {@link Subgrids} would build (the same bits). len must be one or two vectors of floats ({@link #window}).
	 */
	void addWindow(float[] b, float[] c, int len, double[] kw, int ko, int w, int wz, int base, int rowStride,
		int planeStride);

	/** Whether {@link #addWindow} takes a length of len floats: 2·{@link #lanes()} or 4·{@link #lanes()}. */
	default boolean window(final int len) {
		return len == 2 * lanes() || len == 4 * lanes();
	}

	/**
	 * One transform's window rows on a float subgrid without a tap list: for e &lt; wz and r &lt; w, with the weight
	 * k = (float) (kw[ko + w + r]·kw[ko + 2w + e]), b[base + e·planeStride + r·rowStride + j] += k·row[j] for j &lt; len
	 * (a multiple of 2·{@link #lanes()}): the sums of {@link #add(float[], float[], int, float[], int[], int)} over the
	 * same rows.
	 */
	void addRows(float[] b, float[] row, int len, double[] kw, int ko, int w, int wz, int base, int rowStride,
		int planeStride);

	/** The same on a double subgrid (weights k = kw[w + r]·kw[2w + e]; len a multiple of {@link #lanes()}). */
	void addRows(double[] b, double[] row, int len, double[] kw, int w, int wz, int base, int rowStride,
		int planeStride);

	/**
	 * A point's window as a tap list, as the scalar loop of CpuNufftPlan builds it: for e &lt; wz, b &lt; w, a &lt; w and
	 * t = (e·w + b)·w + a, tw[t] = (kw[w + b]·kw[2w + e])·kw[a] and ti[t] = len·(cells[w + e·w + b] + cells[a]), one
	 * row of W taps per vector. Returns w²·wz, or −1 (nothing written) where a row does not fit one vector: W more than
	 * {@link #lanes()}, or kw or cells shorter than a vector (it reads kw[0 … lanes()) and cells[0 … lanes())). May
	 * write up to {@link #lanes()} values past the last tap.
	 */
	int taps(double[] kw, int w, int wz, int[] cells, int len, double[] tw, int[] ti);

	/** acc[j] = Σ_t tw[t]·g[ti[t] + j] for j &lt; len (len even). */
	void gather(double[] g, double[] acc, int len, double[] tw, int[] ti, int n);

	/**
	 * out[o + j] = Horner's c[degree·stride + j]·z^degree + … + c[j] for every j &lt; stride (stride a multiple of
	 * {@link #lanes()}): the kernel weights of one axis, all cells at once, with the sums of the scalar Horner's rule
	 * (the same bits).
	 */
	void horner(double[] c, int stride, int degree, double z, double[] out, int o);

	/**
	 * {@link #horner} for {@code n} (1 to 3) axes at once, z_a into out[o_a …], stored in axis order (a later axis may
	 * overwrite what an earlier one wrote past its W values): the chains are independent, so they run interleaved
	 * instead of one after the other.
	 */
	void horner(double[] c, int stride, int degree, double z0, double z1, double z2, int n, double[] out, int o0,
		int o1, int o2);
}
