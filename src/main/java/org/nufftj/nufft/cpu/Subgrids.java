package org.nufftj.nufft.cpu;

import java.util.Arrays;

/**
 * Spreading on private subgrids (issue 10 item 1): each subproblem of {@link PointOrder} (the points of one bin) is
 * spread into a small zeroed grid of its own that covers exactly the windows of its points — no wrap, contiguous
 * rows, a few tens of kilobytes that stay in cache — and that subgrid is then added once, wrapped, to the plan's grid.
 * The slabs of one parity are handed out to the workers one at a time (load balancing), those of the other parity
 * after them; their windows never share a grid row, so no add needs a lock, and one worker adds a slab's subgrids in
 * their sorted order, so the sums do not depend on the schedule (the same numbers on every run and thread count).
 * <p>
 * The layout of a subgrid is the grid's: cell (x, y, z) of the box at {@code ((z·ey + y)·ex + x)·2T}, the T
 * transforms innermost. One transform forms its x row (kernel × sample, 2W values) once per point and adds ψy·ψz
 * times it to each of its W (2D) or W² (3D) rows; several transforms add one tap weight times the point's 2T values
 * per cell; both in vectors where the JVM has the Vector API ({@link VectorSupport}), else in scalar register blocks.
 * With the vector loops, a float plan's transforms go through float subgrids ({@link #spreadFloat}: one transform's
 * row of W ≤ 8 then fills one vector of 16 floats with AVX-512, where a double row took two; the 3D kooshball's
 * spread 175–179 against 192–218 ms, alternating processes, 2026-11-25) and one transform's rows are padded to whole
 * vectors. Boxes are fixed at setPoints.
 * </p>
 */
final class Subgrids {

	/**
	 * Points whose kernel weights (and, for one transform, samples) {@link #spreadFloat} gathers before it adds them: a
	 * subproblem in chunks of this many, ~53 KB of weights at W = 6 however many points its bin holds.
	 */
	static final int WEIGHT_CHUNK = 256;

	private final PointOrder order;
	/** The Vector API batch loops, or null for the scalar ones ({@link VectorSupport}). */
	private final TapKernels vector;
	private final KernelWeights weights;
	private final int dims, width;
	private final int[] grid;
	private final int[][] wrap;
	private final int[] wrapOffset;
	/** Box of subproblem q: first cell lo[3q + a] and extent ext[3q + a] along axis a (z: 0 and 1 in 2D). */
	private final int[] lo, ext;
	/** Most cells of one box. */
	private final int maxCells;
	/** Zero cells after a one-transform x row, so that its 2(W + rowPad) values fill whole vectors. */
	private final int rowPad;
	/** The same for a float subgrid's row (twice the lanes per vector). */
	private final int rowPadFloat;
	/**
	 * The transforms of a float plan go through float subgrids ({@link #spreadFloat}) where the vector loops run:
	 * twice the lanes per vector there. The scalar loops keep double subgrids: float ones gave them no measurable
	 * speed and changed `pics`' float CG iterates by their rounding (docs/benchmarks.md, round 6).
	 */
	private final boolean single;
	private double[][] scratch = new double[0][];
	private float[][] scratchFloat = new float[0][];
	/** The points' kernel weights once kept (PointWeights), or null: evaluate them; and the executes on these points. */
	private PointWeights kept;
	private int executes;

	Subgrids(final PointOrder order, final KernelWeights weights, final int dims, final int[] grid, final int[][] wrap,
		final int[] wrapOffset, final TapKernels vector, final boolean single)
	{
		this.order = order;
		this.single = single;
		this.vector = vector;
		this.weights = weights;
		this.dims = dims;
		this.width = weights.width;
		this.grid = grid;
		this.wrap = wrap;
		this.wrapOffset = wrapOffset;
		// One transform's x row in whole vectors: 2W values padded with zeros to a multiple of the lanes (W = 5: two
		// vectors of 8 per row instead of one and a scalar pair). The zeros land on the next cells of the box (x + 0 is
		// x) or, after its last row, on slack at the end of the scratch subgrid that nothing reads.
		rowPad = vector == null ? 0 : (-2 * width & vector.lanes() - 1) / 2;
		rowPadFloat = vector == null ? 0 : (-2 * width & 2 * vector.lanes() - 1) / 2;
		final int subs = order.subStart.length - 1;
		lo = new int[3 * subs];
		ext = new int[3 * subs];
		int most = 0;
		for (int q = 0; q < subs; q++) {
			int cells = 1;
			for (int a = 0; a < 3; a++) {
				if (a >= dims) {
					ext[3 * q + a] = 1;
					continue;
				}
				int min = Integer.MAX_VALUE, max = Integer.MIN_VALUE;
				final double[] t = order.t[a];
				for (int s = order.subStart[q]; s < order.subStart[q + 1]; s++) {
					final int start = KernelWeights.start(t[s], width);
					min = Math.min(min, start);
					max = Math.max(max, start);
				}
				lo[3 * q + a] = min;
				ext[3 * q + a] = max - min + width;
				cells *= ext[3 * q + a];
			}
			most = Math.max(most, cells);
		}
		maxCells = most;
	}

	/**
	 * Counts a forward or adjoint on these points; at the second, keeps every point's kernel weights (PointWeights,
	 * when they fit), so that the loops copy them from then on instead of evaluating the kernel — the same numbers
	 * either way. Scalar loops only (what `pics` and Fiji without the Vector API run): JMH, 256² radial, 8 coils,
	 * ε = 1e-4, forward 0.86× and adjoint 0.87× of the time without; the vector loops evaluate an axis in one vector
	 * Horner, where keeping them measured 0.93–1.07× (noise). True when the weights were kept by this call.
	 */
	boolean executed(final Workers run) {
		if (++executes != 2 || vector != null) return false;
		kept = PointWeights.of(order.count(), dims, width, weights.room(), run, this::weightsOf); // evaluates: none kept yet
		return kept != null;
	}

	/** Whether the points' kernel weights are kept. */
	boolean keepsWeights() {
		return kept != null;
	}

	/** Sorted point s's kernel weights into kw (axis a at a·W) and its first cells into st: kept, or evaluated. */
	void weightsOf(final int s, final double[] kw, final int[] st) {
		if (kept != null) kept.get(s, kw, st);
		else weights.weights(order.t[0][s], order.t[1][s], dims == 3 ? order.t[2][s] : 0, dims, kw, st);
	}

	/** Adds transforms [first, first + count) of the samples, spread, to the batch grid g (T = count innermost). */
	void spread(final Complex samples, final int first, final int count, final double[] g, final Workers run) {
		if (single && vector != null) {
			spreadFloat(samples, first, count, g, run);
			return;
		}
		final int len = 2 * count;
		final double[][] sub = scratch(run.threads(), len);
		final int m = order.count();
		final int slabs = order.slabs;
		for (int parity = 0; parity < Math.min(2, slabs); parity++) {
			final int par = parity;
			run.each(slabs == 1 ? 1 : slabs / 2, (w, i) -> {
				final int slab = slabs == 1 ? 0 : 2 * i + par;
				final double[] b = sub[w];
				final double[] kw = new double[2 * width + weights.room()];
				final int[] st = new int[3];
				final double[] c = new double[len];
				final double[] row = new double[2 * (width + rowPad)];
				final double[] tw = new double[width * width * width];
				final int[] ti = new int[width * width * width];
				for (int q = order.slabSub[slab]; q < order.slabSub[slab + 1]; q++) {
					final int ex = ext[3 * q], ey = ext[3 * q + 1], ez = ext[3 * q + 2];
					Arrays.fill(b, 0, ex * ey * ez * len, 0);
					for (int s = order.subStart[q]; s < order.subStart[q + 1]; s++) {
						final int p = order.perm[s];
						for (int tr = 0; tr < count; tr++) {
							c[2 * tr] = samples.re(p + m * (first + tr));
							c[2 * tr + 1] = samples.im(p + m * (first + tr));
						}
						weightsOf(s, kw, st);
						final int x0 = st[0] - lo[3 * q];
						final int y0 = st[1] - lo[3 * q + 1];
						final int z0;
						if (dims == 3) z0 = st[2] - lo[3 * q + 2];
						else {
							z0 = 0;
							kw[2 * width] = 1;
						}
						if (count == 1) spreadOne(b, kw, c, row, tw, ti, x0, y0, z0, ex, ey);
						else spreadMany(b, kw, c, tw, ti, x0, y0, z0, ex, ey, len);
					}
					addWrapped(b, q, len, g);
				}
			});
		}
	}

	/**
	 * {@link #spread} for several transforms of a float plan on the vector loops: the samples, tap weights and subgrid
	 * in float (twice the values per vector, half the bytes per tap), each subgrid added once to the double grid. The
	 * float sums of a subgrid cell carry a relative rounding of ~1e-7 per point added, far below the ε a float plan
	 * reaches. It repeats {@link #spread}'s loops for float arrays: one addWrapped for both types measured 3% slower
	 * on the 32-coil adjoint (docs/benchmarks.md, round 6).
	 */
	private void spreadFloat(final Complex samples, final int first, final int count, final double[] g,
		final Workers run)
	{
		final int len = 2 * count;
		final float[][] sub = scratchFloat(run.threads(), len);
		final int m = order.count();
		final int slabs = order.slabs;
		for (int parity = 0; parity < Math.min(2, slabs); parity++) {
			final int par = parity;
			run.each(slabs == 1 ? 1 : slabs / 2, (w, i) -> {
				final int slab = slabs == 1 ? 0 : 2 * i + par;
				final float[] b = sub[w];
				final float[] c = new float[len];
				final float[] row = new float[2 * (width + rowPadFloat)];
				final float[] tw = new float[width * width * width];
				final int[] ti = new int[width * width * width];
				final int wz = dims == 3 ? width : 1;
				// The kernel weights of up to WEIGHT_CHUNK points: point k's axes at kwBin[k·slot + a·W …] (the last
				// axis's vector Horner may write up to `room` values past its W; a 2D point's z weight is 1), its first
				// cells at stBin[3k …].
				final int slot = 3 * width + weights.room();
				final double[] kwBin = new double[WEIGHT_CHUNK * slot];
				final int[] stBin = new int[3 * WEIGHT_CHUNK];
				// One transform: the chunk's samples gathered first, in a loop of independent loads (they sit in
				// acquisition order, so sorted points read them at random): the 3D kooshball's spread 167–171 against
				// 176–177 ms (alternating processes, 2026-11-25, a whole subproblem at a time).
				final float[] bin = count == 1 ? new float[2 * WEIGHT_CHUNK] : null;
				for (int q = order.slabSub[slab]; q < order.slabSub[slab + 1]; q++) {
					final int ex = ext[3 * q], ey = ext[3 * q + 1], ez = ext[3 * q + 2];
					Arrays.fill(b, 0, ex * ey * ez * len, 0);
					final int s0 = order.subStart[q], s1 = order.subStart[q + 1];
					for (int c0 = s0; c0 < s1; c0 += WEIGHT_CHUNK) {
						final int c1 = Math.min(s1, c0 + WEIGHT_CHUNK);
						if (bin != null) {
							for (int s = c0; s < c1; s++) {
								final int p = order.perm[s] + m * first;
								bin[2 * (s - c0)] = (float) samples.re(p);
								bin[2 * (s - c0) + 1] = (float) samples.im(p);
							}
						}
						// The chunk's weights first: each point's Horner chains are independent of the others', so the
						// core overlaps them, where one point's chains between its adds ran alone.
						for (int s = c0; s < c1; s++) {
							final int k = s - c0;
							weights.weights(order.t[0][s], order.t[1][s], dims == 3 ? order.t[2][s] : 0, dims, kwBin, k *
								slot, stBin, 3 * k);
							if (dims == 2) kwBin[k * slot + 2 * width] = 1;
						}
						for (int s = c0; s < c1; s++) {
							final int k = s - c0, ko = k * slot;
							if (bin != null) {
								c[0] = bin[2 * k];
								c[1] = bin[2 * k + 1];
							}
							else {
								final int p = order.perm[s];
								for (int tr = 0; tr < count; tr++) {
									c[2 * tr] = (float) samples.re(p + m * (first + tr));
									c[2 * tr + 1] = (float) samples.im(p + m * (first + tr));
								}
							}
							final int x0 = stBin[3 * k] - lo[3 * q];
							final int y0 = stBin[3 * k + 1] - lo[3 * q + 1];
							final int z0 = dims == 3 ? stBin[3 * k + 2] - lo[3 * q + 2] : 0;
							if (count == 1) spreadOne(b, kwBin, ko, c, row, x0, y0, z0, ex, ey);
							else if (vector.window(len)) {
								vector.addWindow(b, c, len, kwBin, ko, width, wz, (z0 * ey + y0) * ex + x0, ex, ey * ex);
							}
							else spreadMany(b, kwBin, ko, c, tw, ti, x0, y0, z0, ex, ey, len);
						}
					}
					addWrapped(b, q, len, g);
				}
			});
		}
	}

	/**
	 * One transform: the point's x row (ψx × sample, 2W values) formed once, then ψy·ψz times it added to each of its
	 * W (2D) or W² (3D) window rows ({@link Rows#add}, or the same sums in vectors: the 3D kooshball's spread 258
	 * against 276 ms at W = 5, 411 against 665 ms at W = 8; alternating calls in one process, AVX-512, 2026-11-25).
	 */
	private void spreadOne(final double[] b, final double[] kw, final double[] c, final double[] row,
		final double[] rk, final int[] ro, final int x0, final int y0, final int z0, final int ex, final int ey)
	{
		final int w = width, wz = dims == 3 ? w : 1;
		final double cr = c[0], ci = c[1];
		for (int a = 0; a < w; a++) {
			row[2 * a] = kw[a] * cr;
			row[2 * a + 1] = kw[a] * ci;
		}
		if (vector != null) {
			vector.addRows(b, row, 2 * (w + rowPad), kw, w, wz, 2 * ((z0 * ey + y0) * ex + x0), 2 * ex, 2 * ex * ey);
			return;
		}
		int rows = 0;
		for (int e = 0; e < wz; e++) {
			final double kz = kw[2 * w + e];
			for (int r = 0; r < w; r++, rows++) {
				rk[rows] = kw[w + r] * kz;
				ro[rows] = 2 * (((z0 + e) * ey + y0 + r) * ex + x0);
			}
		}
		Rows.add(b, row, 2 * w, rk, ro, rows);
	}

	/**
	 * {@link #spreadOne(double[], double[], double[], double[], double[], int[], int, int, int, int, int)} on a float
	 * subgrid (the float path runs only with {@link #vector}): a row of W ≤ 8 is one vector of 16 floats with AVX-512,
	 * where the double row took two.
	 */
	private void spreadOne(final float[] b, final double[] kw, final int ko, final float[] c, final float[] row,
		final int x0, final int y0, final int z0, final int ex, final int ey)
	{
		final int w = width, wz = dims == 3 ? w : 1;
		final double cr = c[0], ci = c[1];
		for (int a = 0; a < w; a++) {
			row[2 * a] = (float) (kw[ko + a] * cr);
			row[2 * a + 1] = (float) (kw[ko + a] * ci);
		}
		vector.addRows(b, row, 2 * (w + rowPadFloat), kw, ko, w, wz, 2 * ((z0 * ey + y0) * ex + x0), 2 * ex, 2 * ex *
			ey);
	}

	/**
	 * Several transforms: the point's taps listed (weight, subgrid offset), then the 2T values in vectors
	 * ({@link VectorKernels}) or in scalar blocks of 8. The scalar blocks are the sums of {@link Rows#add} with the taps
	 * as rows, but written out here: through Rows.add the 8-coil spread of the radial row took 30.5 against 27.8 ms
	 * (blocks of 8 in both; alternating calls in one process, 2026-11-25). The vectors: 17.8 against 26.1 ms (8 coils),
	 * 56.3 against 90.7 ms (32 coils), AVX-512, the same way.
	 */
	private void spreadMany(final double[] b, final double[] kw, final double[] c, final double[] tw, final int[] ti,
		final int x0, final int y0, final int z0, final int ex, final int ey, final int len)
	{
		final int w = width, wz = dims == 3 ? w : 1;
		int n = 0;
		for (int e = 0; e < wz; e++) {
			for (int r = 0; r < w; r++) {
				final double kyz = kw[w + r] * kw[2 * w + e];
				final int base = ((z0 + e) * ey + y0 + r) * ex + x0;
				for (int a = 0; a < w; a++, n++) {
					tw[n] = kyz * kw[a];
					ti[n] = len * (base + a);
				}
			}
		}
		if (vector != null) {
			vector.add(b, c, len, tw, ti, n);
			return;
		}
		int j = 0;
		for (; j + 8 <= len; j += 8) {
			final double v0 = c[j], v1 = c[j + 1], v2 = c[j + 2], v3 = c[j + 3];
			final double v4 = c[j + 4], v5 = c[j + 5], v6 = c[j + 6], v7 = c[j + 7];
			for (int t = 0; t < n; t++) {
				final double k = tw[t];
				final int i = ti[t] + j;
				b[i] += k * v0;
				b[i + 1] += k * v1;
				b[i + 2] += k * v2;
				b[i + 3] += k * v3;
				b[i + 4] += k * v4;
				b[i + 5] += k * v5;
				b[i + 6] += k * v6;
				b[i + 7] += k * v7;
			}
		}
		for (; j < len; j += 2) {
			final double vr = c[j], vi = c[j + 1];
			for (int t = 0; t < n; t++) {
				final double k = tw[t];
				final int i = ti[t] + j;
				b[i] += k * vr;
				b[i + 1] += k * vi;
			}
		}
	}

	/**
	 * {@link #spreadMany} on a float subgrid, in vectors (the float path runs only with {@link #vector}), for the
	 * transform counts whose 2T values are not one or two vectors; 8 and 16 (AVX-512) go through
	 * {@link TapKernels#addWindow} instead, which walks the window without listing its taps: the 8-coil adjoint at ε
	 * 1e-4 (radial 256², 2 threads, with the subproblem's weights computed first) 18.3–19.8 against 21.7–23.2 ms,
	 * alternating processes, 2026-11-29.
	 */
	private void spreadMany(final float[] b, final double[] kw, final int ko, final float[] c, final float[] tw,
		final int[] ti, final int x0, final int y0, final int z0, final int ex, final int ey, final int len)
	{
		final int w = width, wz = dims == 3 ? w : 1;
		int n = 0;
		for (int e = 0; e < wz; e++) {
			for (int r = 0; r < w; r++) {
				final double kyz = kw[ko + w + r] * kw[ko + 2 * w + e];
				final int base = ((z0 + e) * ey + y0 + r) * ex + x0;
				for (int a = 0; a < w; a++, n++) {
					tw[n] = (float) (kyz * kw[ko + a]);
					ti[n] = len * (base + a);
				}
			}
		}
		vector.add(b, c, len, tw, ti, n);
	}

	/** g += subgrid q, each box cell at its wrapped grid cell; whole rows at once where x does not wrap. */
	private void addWrapped(final double[] b, final int q, final int len, final double[] g) {
		final int ex = ext[3 * q], ey = ext[3 * q + 1], ez = ext[3 * q + 2];
		final int lx = lo[3 * q], ly = lo[3 * q + 1], lz = lo[3 * q + 2];
		final int n0 = grid[0], n1 = grid[1];
		final int gx0 = wrap[0][wrapOffset[0] + lx];
		final boolean straight = gx0 + ex <= n0;
		final int rowLen = ex * len;
		for (int z = 0; z < ez; z++) {
			final int plane = dims == 3 ? n1 * wrap[2][wrapOffset[2] + lz + z] : 0;
			for (int y = 0; y < ey; y++) {
				final int rowCell = n0 * (plane + wrap[1][wrapOffset[1] + ly + y]);
				final int src = (z * ey + y) * rowLen;
				if (straight) {
					final int dst = (rowCell + gx0) * len;
					for (int j = 0; j < rowLen; j++) g[dst + j] += b[src + j];
				}
				else {
					for (int x = 0; x < ex; x++) {
						final int dst = (rowCell + wrap[0][wrapOffset[0] + lx + x]) * len;
						final int from = src + x * len;
						for (int j = 0; j < len; j++) g[dst + j] += b[from + j];
					}
				}
			}
		}
	}

	/** {@link #addWrapped(double[], int, int, double[])} from a float subgrid. */
	private void addWrapped(final float[] b, final int q, final int len, final double[] g) {
		final int ex = ext[3 * q], ey = ext[3 * q + 1], ez = ext[3 * q + 2];
		final int lx = lo[3 * q], ly = lo[3 * q + 1], lz = lo[3 * q + 2];
		final int n0 = grid[0], n1 = grid[1];
		final int gx0 = wrap[0][wrapOffset[0] + lx];
		final boolean straight = gx0 + ex <= n0;
		final int rowLen = ex * len;
		for (int z = 0; z < ez; z++) {
			final int plane = dims == 3 ? n1 * wrap[2][wrapOffset[2] + lz + z] : 0;
			for (int y = 0; y < ey; y++) {
				final int rowCell = n0 * (plane + wrap[1][wrapOffset[1] + ly + y]);
				final int src = (z * ey + y) * rowLen;
				if (straight) {
					final int dst = (rowCell + gx0) * len;
					for (int j = 0; j < rowLen; j++) g[dst + j] += b[src + j];
				}
				else {
					for (int x = 0; x < ex; x++) {
						final int dst = (rowCell + wrap[0][wrapOffset[0] + lx + x]) * len;
						final int from = src + x * len;
						for (int j = 0; j < len; j++) g[dst + j] += b[from + j];
					}
				}
			}
		}
	}

	/** One subgrid per worker, large enough for the largest box of 2T values per cell and a padded row's slack. */
	private double[][] scratch(final int threads, final int len) {
		final long need = (long) maxCells * len + 2 * rowPad;
		if (scratch.length < threads || scratch[0].length < need) {
			final double[][] s = new double[threads][];
			for (int i = 0; i < threads; i++) s[i] = new double[Math.toIntExact(need)];
			scratch = s;
		}
		return scratch;
	}

	private float[][] scratchFloat(final int threads, final int len) {
		final long need = (long) maxCells * len + 2 * rowPadFloat;
		if (scratchFloat.length < threads || scratchFloat[0].length < need) {
			final float[][] s = new float[threads][];
			for (int i = 0; i < threads; i++) s[i] = new float[Math.toIntExact(need)];
			scratchFloat = s;
		}
		return scratchFloat;
	}
}
