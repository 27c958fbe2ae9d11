package org.nufftj.nufft.cpu;

/**
 * Every point's kernel weights (W per axis) and first grid cells, kept by a plan that is executed again on the same
 * points (CG-SENSE and the other iterative solvers run 2 transforms per iteration on one trajectory): the spreading
 * and interpolation loops copy them instead of evaluating the kernel again. They are the numbers
 * {@link KernelWeights#weights(double, double, double, int, double[], int[])} gives (computed by it, once, through
 * {@code Subgrids.weightsOf}), so the transforms' results do not depend on whether the cache is there.
 */
final class PointWeights {

	/** Most bytes a cache may take (205,824 2D points at W = 6: 20 MB; 3D kooshballs of millions of points do not fit). */
	static final long MAX_BYTES = 64L << 20;

	private final int dims, per;
	private final double[] kw;
	private final int[] starts;

	private PointWeights(final int dims, final int per, final double[] kw, final int[] starts) {
		this.dims = dims;
		this.per = per;
		this.kw = kw;
		this.starts = starts;
	}

	/** Point s's weights and first cells, as {@link #get} gives them. */
	interface Source {
		void weights(int s, double[] out, int[] st);
	}

	/**
	 * The cache of m points' weights from {@code source} (evaluated once, on the workers), or null where it would take
	 * more than {@link #MAX_BYTES}; {@code room}: how far past dims·W the source may write.
	 */
	static PointWeights of(final long m, final int dims, final int width, final int room, final Workers run,
		final Source source)
	{
		final int per = dims * width;
		if (m * (8L * per + 4L * dims) > MAX_BYTES) return null;
		final double[] kw = new double[(int) (m * per)];
		final int[] starts = new int[(int) (m * dims)];
		run.ranges((int) m, (w, from, to) -> {
			final double[] out = new double[per + width + room]; // room: the vector Horner may write past
			final int[] st = new int[3];
			for (int s = from; s < to; s++) {
				source.weights(s, out, st);
				System.arraycopy(out, 0, kw, s * per, per);
				for (int a = 0; a < dims; a++) starts[s * dims + a] = st[a];
			}
		});
		return new PointWeights(dims, per, kw, starts);
	}

	/** Point s's weights into out[0 … dims·W) and its first cells into st[0 … dims), as KernelWeights writes them. */
	void get(final int s, final double[] out, final int[] st) {
		System.arraycopy(kw, s * per, out, 0, per);
		final int b = s * dims;
		st[0] = starts[b];
		st[1] = starts[b + 1];
		if (dims == 3) st[2] = starts[b + 2];
	}

	/** Bytes held. */
	long bytes() {
		return 8L * kw.length + 4L * starts.length;
	}
}
