package org.nufftj.nufft.cpu;

/**
 * The row kernels of one-transform spreading and interpolation: a point's window is a list of rows (offset ro[q] into
 * the grid, weight rk[q] = ψy·ψz of the row) of 2W contiguous values (W cells, complex interleaved). Spreading adds
 * rk[q] times the point's x row (ψx × sample) to every row; interpolation sums rk[q] times every row, then weighs the
 * sum by ψx. The 2W values are walked in blocks of 12, 10, 8, 6, 4 or 2 held in registers across all rows (at most two
 * passes over the rows for W ≤ 12), so each row costs one multiply-add per value and no reload of the x row (3D,
 * W = 5, one thread: the spreading taps took 190 ms with the row in registers against 310 ms reloading it for every
 * row; the whole spread 427 ms in blocks of 10 against 462 ms in blocks of 8 + 2, alternating calls in one process).
 */
final class Rows {

	private Rows() {}

	/** b[ro[q] + j] += rk[q]·row[j] for j &lt; n (n even) and q &lt; rows. */
	static void add(final double[] b, final double[] row, final int n, final double[] rk, final int[] ro,
		final int rows)
	{
		for (int j = 0; j < n;) {
			final int left = n - j;
			if (left >= 12) {
				add12(b, row, j, rk, ro, rows);
				j += 12;
			}
			else {
				switch (left) {
				case 10: add10(b, row, j, rk, ro, rows); break;
				case 8: add8(b, row, j, rk, ro, rows); break;
				case 6: add6(b, row, j, rk, ro, rows); break;
				case 4: add4(b, row, j, rk, ro, rows); break;
				default: add2(b, row, j, rk, ro, rows);
				}
				j += left;
			}
		}
	}

	/** col[j] = Σ_q rk[q]·g[ro[q] + j] for j &lt; n (n even). */
	static void gather(final double[] g, final double[] col, final int n, final double[] rk, final int[] ro,
		final int rows)
	{
		for (int j = 0; j < n;) {
			final int left = n - j;
			if (left >= 12) {
				gather12(g, col, j, rk, ro, rows);
				j += 12;
			}
			else {
				switch (left) {
				case 10: gather10(g, col, j, rk, ro, rows); break;
				case 8: gather8(g, col, j, rk, ro, rows); break;
				case 6: gather6(g, col, j, rk, ro, rows); break;
				case 4: gather4(g, col, j, rk, ro, rows); break;
				default: gather2(g, col, j, rk, ro, rows);
				}
				j += left;
			}
		}
	}

	// -- blocks --

	private static void add12(final double[] b, final double[] row, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		final double v0 = row[j + 0], v1 = row[j + 1], v2 = row[j + 2], v3 = row[j + 3];
		final double v4 = row[j + 4], v5 = row[j + 5], v6 = row[j + 6], v7 = row[j + 7];
		final double v8 = row[j + 8], v9 = row[j + 9], v10 = row[j + 10], v11 = row[j + 11];
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			b[i] += k * v0;
			b[i + 1] += k * v1;
			b[i + 2] += k * v2;
			b[i + 3] += k * v3;
			b[i + 4] += k * v4;
			b[i + 5] += k * v5;
			b[i + 6] += k * v6;
			b[i + 7] += k * v7;
			b[i + 8] += k * v8;
			b[i + 9] += k * v9;
			b[i + 10] += k * v10;
			b[i + 11] += k * v11;
		}
	}

	private static void add10(final double[] b, final double[] row, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		final double v0 = row[j + 0], v1 = row[j + 1], v2 = row[j + 2], v3 = row[j + 3];
		final double v4 = row[j + 4], v5 = row[j + 5], v6 = row[j + 6], v7 = row[j + 7];
		final double v8 = row[j + 8], v9 = row[j + 9];
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			b[i] += k * v0;
			b[i + 1] += k * v1;
			b[i + 2] += k * v2;
			b[i + 3] += k * v3;
			b[i + 4] += k * v4;
			b[i + 5] += k * v5;
			b[i + 6] += k * v6;
			b[i + 7] += k * v7;
			b[i + 8] += k * v8;
			b[i + 9] += k * v9;
		}
	}

	private static void add8(final double[] b, final double[] row, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		final double v0 = row[j + 0], v1 = row[j + 1], v2 = row[j + 2], v3 = row[j + 3];
		final double v4 = row[j + 4], v5 = row[j + 5], v6 = row[j + 6], v7 = row[j + 7];
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
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

	private static void add6(final double[] b, final double[] row, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		final double v0 = row[j + 0], v1 = row[j + 1], v2 = row[j + 2], v3 = row[j + 3];
		final double v4 = row[j + 4], v5 = row[j + 5];
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			b[i] += k * v0;
			b[i + 1] += k * v1;
			b[i + 2] += k * v2;
			b[i + 3] += k * v3;
			b[i + 4] += k * v4;
			b[i + 5] += k * v5;
		}
	}

	private static void add4(final double[] b, final double[] row, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		final double v0 = row[j + 0], v1 = row[j + 1], v2 = row[j + 2], v3 = row[j + 3];
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			b[i] += k * v0;
			b[i + 1] += k * v1;
			b[i + 2] += k * v2;
			b[i + 3] += k * v3;
		}
	}

	private static void add2(final double[] b, final double[] row, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		final double v0 = row[j + 0], v1 = row[j + 1];
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			b[i] += k * v0;
			b[i + 1] += k * v1;
		}
	}

	private static void gather12(final double[] g, final double[] col, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		double c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;
		double c6 = 0, c7 = 0, c8 = 0, c9 = 0, c10 = 0, c11 = 0;
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			c0 += k * g[i];
			c1 += k * g[i + 1];
			c2 += k * g[i + 2];
			c3 += k * g[i + 3];
			c4 += k * g[i + 4];
			c5 += k * g[i + 5];
			c6 += k * g[i + 6];
			c7 += k * g[i + 7];
			c8 += k * g[i + 8];
			c9 += k * g[i + 9];
			c10 += k * g[i + 10];
			c11 += k * g[i + 11];
		}
		col[j] = c0;
		col[j + 1] = c1;
		col[j + 2] = c2;
		col[j + 3] = c3;
		col[j + 4] = c4;
		col[j + 5] = c5;
		col[j + 6] = c6;
		col[j + 7] = c7;
		col[j + 8] = c8;
		col[j + 9] = c9;
		col[j + 10] = c10;
		col[j + 11] = c11;
	}

	private static void gather10(final double[] g, final double[] col, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		double c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;
		double c6 = 0, c7 = 0, c8 = 0, c9 = 0;
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			c0 += k * g[i];
			c1 += k * g[i + 1];
			c2 += k * g[i + 2];
			c3 += k * g[i + 3];
			c4 += k * g[i + 4];
			c5 += k * g[i + 5];
			c6 += k * g[i + 6];
			c7 += k * g[i + 7];
			c8 += k * g[i + 8];
			c9 += k * g[i + 9];
		}
		col[j] = c0;
		col[j + 1] = c1;
		col[j + 2] = c2;
		col[j + 3] = c3;
		col[j + 4] = c4;
		col[j + 5] = c5;
		col[j + 6] = c6;
		col[j + 7] = c7;
		col[j + 8] = c8;
		col[j + 9] = c9;
	}

	private static void gather8(final double[] g, final double[] col, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		double c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;
		double c6 = 0, c7 = 0;
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			c0 += k * g[i];
			c1 += k * g[i + 1];
			c2 += k * g[i + 2];
			c3 += k * g[i + 3];
			c4 += k * g[i + 4];
			c5 += k * g[i + 5];
			c6 += k * g[i + 6];
			c7 += k * g[i + 7];
		}
		col[j] = c0;
		col[j + 1] = c1;
		col[j + 2] = c2;
		col[j + 3] = c3;
		col[j + 4] = c4;
		col[j + 5] = c5;
		col[j + 6] = c6;
		col[j + 7] = c7;
	}

	private static void gather6(final double[] g, final double[] col, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		double c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			c0 += k * g[i];
			c1 += k * g[i + 1];
			c2 += k * g[i + 2];
			c3 += k * g[i + 3];
			c4 += k * g[i + 4];
			c5 += k * g[i + 5];
		}
		col[j] = c0;
		col[j + 1] = c1;
		col[j + 2] = c2;
		col[j + 3] = c3;
		col[j + 4] = c4;
		col[j + 5] = c5;
	}

	private static void gather4(final double[] g, final double[] col, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		double c0 = 0, c1 = 0, c2 = 0, c3 = 0;
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			c0 += k * g[i];
			c1 += k * g[i + 1];
			c2 += k * g[i + 2];
			c3 += k * g[i + 3];
		}
		col[j] = c0;
		col[j + 1] = c1;
		col[j + 2] = c2;
		col[j + 3] = c3;
	}

	private static void gather2(final double[] g, final double[] col, final int j, final double[] rk, final int[] ro,
		final int rows)
	{
		double c0 = 0, c1 = 0;
		for (int q = 0; q < rows; q++) {
			final double k = rk[q];
			final int i = ro[q] + j;
			c0 += k * g[i];
			c1 += k * g[i + 1];
		}
		col[j] = c0;
		col[j + 1] = c1;
	}
}
