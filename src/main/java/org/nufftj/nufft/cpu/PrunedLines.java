package org.nufftj.nufft.cpu;

import java.util.function.IntBinaryOperator;

/**
 * Which lines a pruned separable FFT pass needs ({@link GridFft}, {@link CpuFft}): when only a region of the array
 * is non-zero (transforming the axes in order 0, 1, 2) or only a region of the result is read (order 2, 1, 0), the pass
 * along axis a needs just the lines whose coordinates on the axes after a lie in the region.
 */
final class PrunedLines {

	private PrunedLines() {}

	/**
	 * Per axis a: the mixed-radix indices (axis a+1 fastest, radices {@code n}) over the axes after a of the region's
	 * points; the region has {@code region[b]} coordinates x on axis b, at grid index {@code place(x, b)}.
	 */
	static int[][] laterAxes(final int[] n, final int[] region, final IntBinaryOperator place) {
		final int[][] lines = new int[n.length][];
		for (int a = 0; a < n.length; a++) {
			int count = 1;
			for (int b = a + 1; b < n.length; b++) count *= region[b];
			final int[] list = new int[count];
			for (int i = 0; i < count; i++) {
				int rest = i, o = 0, radix = 1;
				for (int b = a + 1; b < n.length; b++) {
					o += radix * place.applyAsInt(rest % region[b], b);
					rest /= region[b];
					radix *= n[b];
				}
				list[i] = o;
			}
			lines[a] = list;
		}
		return lines;
	}

	/** Per worker, per axis: a line FFT of that axis's length (each owns its work arrays). */
	static LineFft[][] plans(final int threads, final int[] n) {
		final LineFft[][] plans = new LineFft[threads][n.length];
		for (int w = 0; w < threads; w++) for (int a = 0; a < n.length; a++) plans[w][a] = new LineFft(n[a]);
		return plans;
	}

	/** The most lines of any of the axes' blocks (the size of a per-worker list of line offsets). */
	static int widestBlock(final LineFft[] axes) {
		int widest = 1;
		for (final LineFft f : axes) widest = Math.max(widest, f.block);
		return widest;
	}
}
