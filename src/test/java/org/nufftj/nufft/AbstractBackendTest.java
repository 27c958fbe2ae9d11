package org.nufftj.nufft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.recon.CoilCombine;

/**
 * The {@link Backend} contract, written once and run for every backend (subclasses open it): every vector operation
 * against a plain-Java double reference on fresh random data (the seed is in every failure message), in float and
 * double, with broadcasting, slices and in-place use; the FFT against a direct DFT; mismatched precisions and lengths
 * refused naming both.
 */
public abstract class AbstractBackendTest {

	/** Opens the backend under test (closed after each test). */
	protected abstract Backend open();

	protected Backend backend;
	private long seed;
	private Random random;

	@BeforeEach
	void openBackend() {
		backend = open();
		seed = TestSeeds.fresh();
		random = new Random(seed);
	}

	@AfterEach
	void closeBackend() {
		backend.close();
	}

	// -- element-wise operations --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void fillCopyScaleAxpby(final Precision p) {
		final int n = 2 * 1013;
		final double[] x = gaussian(n), y = gaussian(n);
		try (Buffer bx = upload(x, p); Buffer by = upload(y, p); Buffer c = backend.allocate(n, p)) {
			backend.fill(c, 1.5, -2.5);
			final double[] fill = new double[n];
			for (int i = 0; i < n; i += 2) {
				fill[i] = 1.5;
				fill[i + 1] = -2.5;
			}
			check(fill, download(c), p, "fill");
			backend.copy(bx, c);
			check(x, download(c), p, "copy");
			backend.scale(c, -0.75);
			check(map(x, v -> -0.75 * v), download(c), p, "scale");
			backend.axpby(0.5, bx, -2, by);
			final double[] e = new double[n];
			for (int i = 0; i < n; i++) e[i] = 0.5 * x[i] - 2 * y[i];
			check(e, download(by), p, "axpby");
		}
	}

	@ParameterizedTest
	@EnumSource(Precision.class)
	void dotAndNorm(final Precision p) {
		final int n = 2 * 777;
		final double[] x = rounded(gaussian(n), p), y = rounded(gaussian(n), p);
		try (Buffer bx = upload(x, p); Buffer by = upload(y, p)) {
			double re = 0, im = 0, s = 0;
			for (int i = 0; i < n; i += 2) {
				re += x[i] * y[i] + x[i + 1] * y[i + 1];
				im += x[i] * y[i + 1] - x[i + 1] * y[i];
				s += x[i] * x[i] + x[i + 1] * x[i + 1];
			}
			final double[] d = backend.dot(bx, by);
			// Inputs are exactly representable: only the accumulation (double on every backend) differs.
			assertEquals(re, d[0], 1e-10 * n, "dot re, seed " + seed);
			assertEquals(im, d[1], 1e-10 * n, "dot im, seed " + seed);
			assertEquals(Math.sqrt(s), backend.norm(bx), 1e-10 * Math.sqrt(s), "norm, seed " + seed);
		}
	}

	@ParameterizedTest
	@EnumSource(Precision.class)
	void complexProductsBroadcastOverTheBatch(final Precision p) {
		final int period = 2 * 301, batch = 3;
		final double[] a = gaussian(period * batch), b = gaussian(period);
		b[4] = 0;
		b[5] = 0; // a zero divisor: the quotient is 0 there
		try (Buffer ba = upload(a, p); Buffer bb = upload(b, p); Buffer out = backend.allocate(a.length, p)) {
			for (int op = 0; op < 3; op++) {
				final double[] e = new double[a.length];
				for (int i = 0; i < a.length; i += 2) {
					final int j = i % period;
					final double ar = a[i], ai = a[i + 1], br = b[j], bi = op == 1 ? -b[j + 1] : b[j + 1];
					if (op == 2) {
						final double m = br * br + bi * bi;
						e[i] = m == 0 ? 0 : (ar * br + ai * bi) / m;
						e[i + 1] = m == 0 ? 0 : (ai * br - ar * bi) / m;
					}
					else {
						e[i] = ar * br - ai * bi;
						e[i + 1] = ar * bi + ai * br;
					}
				}
				if (op == 0) backend.multiply(ba, bb, out);
				else if (op == 1) backend.multiplyConjugate(ba, bb, out);
				else backend.divide(ba, bb, out);
				check(e, download(out), p, new String[] { "multiply", "multiplyConjugate", "divide" }[op]);
			}
			// In place: out aliases a.
			backend.multiply(ba, bb, ba);
			final double[] e = new double[a.length];
			for (int i = 0; i < a.length; i += 2) {
				final int j = i % period;
				e[i] = a[i] * b[j] - a[i + 1] * b[j + 1];
				e[i + 1] = a[i] * b[j + 1] + a[i + 1] * b[j];
			}
			check(e, download(ba), p, "multiply in place");
		}
	}

	@ParameterizedTest
	@EnumSource(Precision.class)
	void realWeightsSumsAndConversions(final Precision p) {
		final int m = 257, batch = 4;
		final double[] a = gaussian(2 * m * batch), w = gaussian(m);
		try (Buffer ba = upload(a, p); Buffer bw = upload(w, p); Buffer out = backend.allocate(a.length, p);
			Buffer sum = backend.allocate(2 * m, p); Buffer re = backend.allocate(m * batch, p))
		{
			backend.multiplyReal(ba, bw, out);
			final double[] e = new double[a.length];
			for (int i = 0; i < a.length; i++) e[i] = a[i] * w[(i / 2) % m];
			check(e, download(out), p, "multiplyReal");
			backend.sumBatch(ba, batch, sum);
			final double[] s = new double[2 * m];
			for (int i = 0; i < a.length; i++) s[i % (2 * m)] += a[i];
			check(s, download(sum), p, "sumBatch");
			backend.complexToReal(ba, re);
			final double[] r = new double[m * batch];
			for (int i = 0; i < r.length; i++) r[i] = a[2 * i];
			check(r, download(re), p, "complexToReal");
			backend.realToComplex(re, out);
			final double[] c = new double[a.length];
			for (int i = 0; i < r.length; i++) c[2 * i] = r[i];
			check(c, download(out), p, "realToComplex");
		}
	}

	@ParameterizedTest
	@EnumSource(Precision.class)
	void sumOfSquaresAndWalsh(final Precision p) {
		final int[] size = { 13, 11 };
		final int coils = 3, px = size[0] * size[1];
		final double[] x = rounded(gaussian(2 * px * coils), Precision.FLOAT);
		try (Buffer bx = upload(x, p); Buffer out = backend.allocate(2 * px, p)) {
			backend.sumOfSquares(bx, coils, out);
			final double[] e = new double[2 * px];
			for (int q = 0; q < px; q++) {
				double s = 0;
				for (int c = 0; c < coils; c++) s += x[2 * (q + px * c)] * x[2 * (q + px * c)] + x[2 * (q + px * c) + 1] *
					x[2 * (q + px * c) + 1];
				e[2 * q] = Math.sqrt(s);
			}
			check(e, download(out), p, "sumOfSquares");
			backend.walsh(bx, size, coils, out);
			final float[] host = CoilCombine.walsh(toFloat(x), 0, size, coils);
			final double[] h = new double[host.length];
			for (int i = 0; i < h.length; i++) h[i] = host[i];
			// The host form stores float; the maths (double) is the same on every backend.
			assertTrue(relative(h, download(out)) < 1e-5, "walsh vs CoilCombine.walsh: " + relative(h, download(out)) +
				", seed " + seed);
		}
	}

	// -- FFT --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void fftMatchesDirectDft(final Precision p) {
		for (final int[] size : new int[][] { { 8 }, { 6, 5 }, { 4, 3, 5 } }) {
			int px = 1;
			for (final int n : size) px *= n;
			final int batch = 2;
			final double[] x = gaussian(2 * px * batch);
			for (final int sign : new int[] { -1, 1 }) {
				try (Buffer b = upload(x, p)) {
					backend.fft(b, size, sign);
					check(DirectDft.dft(x, size, batch, sign), download(b), p, "fft " + java.util.Arrays.toString(size) + " sign " +
						sign);
				}
			}
		}
	}

	/**
	 * The pruned FFTs against the direct DFT: fftFromBlock of arrays zero outside their centred block is the whole
	 * transform; fftToBlock leaves the transform's centred block (the rest is undefined). 1D to 3D, odd and even
	 * sizes and blocks, batches.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void prunedFftsMatchTheDirectDftWhereTheyPromise(final Precision p) {
		final int[][][] cases = { { { 8 }, { 5 } }, { { 12, 10 }, { 6, 5 } }, { { 9, 8 }, { 4, 7 } }, { { 6, 4, 10 }, {
			3, 2, 5 } }, { { 5, 6, 4 }, { 5, 3, 4 } } };
		for (final int[][] c : cases) {
			final int[] size = c[0], block = c[1];
			final int batch = 1 + random.nextInt(3);
			final boolean[] inBlock = inCentredBlock(size, block);
			final int px = inBlock.length;
			final String what = java.util.Arrays.toString(block) + " in " + java.util.Arrays.toString(size) + " x " + batch;
			for (final int sign : new int[] { -1, 1 }) {
				final double[] x = gaussian(2 * px * batch);
				final double[] zeroOutside = x.clone();
				for (int t = 0; t < batch; t++) for (int i = 0; i < px; i++) if (!inBlock[i]) {
					zeroOutside[2 * (t * px + i)] = 0;
					zeroOutside[2 * (t * px + i) + 1] = 0;
				}
				try (Buffer b = upload(zeroOutside, p)) {
					backend.fftFromBlock(b, size, block, sign);
					check(DirectDft.dft(zeroOutside, size, batch, sign), download(b), p, "fftFromBlock " + what);
				}
				try (Buffer b = upload(x, p)) {
					backend.fftToBlock(b, size, block, sign);
					final double[] expected = DirectDft.dft(x, size, batch, sign), actual = download(b);
					for (int t = 0; t < batch; t++) for (int i = 0; i < px; i++) if (!inBlock[i]) {
						expected[2 * (t * px + i)] = actual[2 * (t * px + i)] = 0;
						expected[2 * (t * px + i) + 1] = actual[2 * (t * px + i) + 1] = 0;
					}
					check(expected, actual, p, "fftToBlock " + what);
				}
			}
		}
		try (Buffer b = backend.allocate(2 * 20, p)) {
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> backend.fftToBlock(b,
				new int[] { 4, 5 }, new int[] { 5, 5 }, 1));
			assertTrue(e.getMessage().contains("[5, 5]") && e.getMessage().contains("[4, 5]"), e.getMessage());
		}
	}

	/**
	 * convolveBlock (Toeplitz embedding's x ← FFT⁺¹(K ⊙ FFT⁻¹(x)), K broadcast over a batch) against the direct DFT on
	 * arrays zero outside their centred block, compared on the block (the rest is undefined); 1D to 3D, odd and even
	 * sizes and blocks, batches.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void convolveBlockMatchesTheDirectDftOnTheBlock(final Precision p) {
		final int[][][] cases = { { { 8 }, { 5 } }, { { 12, 10 }, { 6, 5 } }, { { 9, 8 }, { 4, 7 } }, { { 6, 4, 10 }, {
			3, 2, 5 } }, { { 5, 6, 4 }, { 5, 3, 4 } }, { { 16, 16 }, { 8, 8 } } };
		for (final int[][] c : cases) {
			final int[] size = c[0], block = c[1];
			final int batch = 1 + random.nextInt(3);
			final boolean[] inBlock = inCentredBlock(size, block);
			final int px = inBlock.length;
			final double[] x = gaussian(2 * px * batch), k = gaussian(2 * px);
			for (int t = 0; t < batch; t++) for (int i = 0; i < px; i++) if (!inBlock[i]) {
				x[2 * (t * px + i)] = 0;
				x[2 * (t * px + i) + 1] = 0;
			}
			final double[] expected = DirectDft.dft(x, size, batch, -1);
			for (int t = 0; t < batch; t++) for (int i = 0; i < px; i++) {
				final int j = 2 * (t * px + i);
				final double re = expected[j] * k[2 * i] - expected[j + 1] * k[2 * i + 1];
				expected[j + 1] = expected[j] * k[2 * i + 1] + expected[j + 1] * k[2 * i];
				expected[j] = re;
			}
			final double[] want = DirectDft.dft(expected, size, batch, +1);
			try (Buffer b = upload(x, p); Buffer kb = upload(k, p)) {
				backend.convolveBlock(b, size, block, kb);
				final double[] actual = download(b);
				for (int t = 0; t < batch; t++) for (int i = 0; i < px; i++) if (!inBlock[i]) {
					want[2 * (t * px + i)] = actual[2 * (t * px + i)] = 0;
					want[2 * (t * px + i) + 1] = actual[2 * (t * px + i) + 1] = 0;
				}
				check(want, actual, p, "convolveBlock " + java.util.Arrays.toString(block) + " in " + java.util.Arrays
					.toString(size) + " x " + batch);
			}
		}
	}

	/** Per pixel of {@code size} (x fastest): whether it lies in the centred block (placed as copyCentred places it). */
	private static boolean[] inCentredBlock(final int[] size, final int[] block) {
		int px = 1;
		for (final int n : size) px *= n;
		final boolean[] in = new boolean[px];
		for (int i = 0; i < px; i++) {
			boolean inside = true;
			for (int a = 0, rest = i; a < size.length; rest /= size[a], a++) {
				final int off = rest % size[a] - (size[a] / 2 - block[a] / 2);
				inside &= off >= 0 && off < block[a];
			}
			in[i] = inside;
		}
		return in;
	}

	// -- plans on buffers --

	/**
	 * A plan of this backend on its buffers: forward and adjoint of a batch of T = 2 against the exact NUDFT; spread
	 * and interpolate against the direct kernel sums g_b[l] = Σ_m s_b[m]·ψ(l − t_m) (periodic grid, t_m = k_m·n) and
	 * their transpose, within the kernel evaluation's bound ({@link KernelSums}); the online plan and the precomputed
	 * matrix plan ({@link MatrixNufftPlan}).
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void planStagesOnBuffers(final Precision p) {
		for (final NufftOptions.Evaluation eval : new NufftOptions.Evaluation[] { NufftOptions.Evaluation.ONLINE,
			NufftOptions.Evaluation.MATRIX })
			for (final int[] size : new int[][] { { 12, 10 }, { 8, 6, 10 } }) planStages(p, eval, size);
	}

	private void planStages(final Precision p, final NufftOptions.Evaluation eval, final int[] size) {
		final org.nufftj.trajectory.Trajectory t = TestTrajectories.make("random", size, 150, random);
		final int px = (int) Arrays2.pixels(size), m = t.count(), batch = 2;
		final double eps = p == Precision.FLOAT ? 1e-4 : 1e-9;
		try (NufftPlan plan = backend.plan(size, NufftOptions.defaults().withPrecision(p).withTolerance(eps)
			.withEvaluation(eval)))
		{
			assertEquals(eval == NufftOptions.Evaluation.MATRIX, plan instanceof MatrixNufftPlan, plan.backend());
			plan.setPoints(t);
			final double[] image = gaussian(2 * px * batch), samples = gaussian(2 * m * batch);
			try (Buffer bi = upload(image, p); Buffer bs = backend.allocate(2L * m * batch, p)) {
				plan.forward(bi, bs);
				final double ef = relative(Nudft.forward(size, t, image, 0), download(bs));
				assertTrue(ef < 10 * eps, "forward on buffers " + java.util.Arrays.toString(size) + " " + eval + ": " +
					ef + ", seed " + seed);
			}
			try (Buffer bs = upload(samples, p); Buffer bi = backend.allocate(2L * px * batch, p)) {
				plan.adjoint(bs, bi);
				final double ea = relative(Nudft.adjoint(size, t, samples, 0), download(bi));
				assertTrue(ea < 10 * eps, "adjoint on buffers " + java.util.Arrays.toString(size) + " " + eval + ": " +
					ea + ", seed " + seed);
			}
			final NufftParameters params = plan.parameters();
			final int gp = (int) params.gridPoints();
			final double[] grid = gaussian(2 * gp * batch);
			final KernelSums sums = new KernelSums(params, t);
			final double rounding = p == Precision.FLOAT ? 2e-6 : 1e-12;
			try (Buffer bs = upload(samples, p); Buffer bg = backend.allocate(2L * gp * batch, p)) {
				backend.fill(bg, 3, 3); // overwritten, not added to
				plan.spread(bs, bg);
				KernelSums.check(sums.spread(samples, 0, batch, 0, 2 * gp * batch), download(bg), rounding,
					"spread (" + p + ", " + eval + "), seed " + seed);
			}
			try (Buffer bg = upload(grid, p); Buffer bs = backend.allocate(2L * m * batch, p)) {
				plan.interpolate(bg, bs);
				KernelSums.check(sums.interpolate(grid, 0, batch, 0, 2 * m * batch), download(bs), rounding,
					"interpolate (" + p + ", " + eval + "), seed " + seed);
			}
			try (Buffer bs = backend.allocate(2L * m, p); Buffer bg = backend.allocate(2L * gp + 2, p)) {
				final InvalidInputException e = assertThrows(InvalidInputException.class, () -> plan.spread(bs, bg));
				assertTrue(e.getMessage().contains(String.valueOf(2L * gp + 2)), e.getMessage());
			}
		}
	}

	// -- slices --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void slicesAreViews(final Precision p) {
		final double[] x = gaussian(40);
		try (Buffer b = upload(x, p)) {
			final Buffer s = b.slice(10, 20);
			assertEquals(20, s.length());
			backend.scale(s, 2);
			final double[] e = x.clone();
			for (int i = 10; i < 30; i++) e[i] *= 2;
			check(e, download(b), p, "scale of a slice");
			final Buffer t = s.slice(4, 6);
			backend.fill(t, 0, 0);
			for (int i = 14; i < 20; i++) e[i] = 0;
			check(e, download(b), p, "fill of a slice of a slice");
			assertThrows(InvalidInputException.class, () -> b.slice(30, 11));
			assertThrows(InvalidInputException.class, () -> b.slice(-1, 2));
			s.close(); // a view owns nothing: the parent stays usable
			check(e, download(b), p, "parent after closing a view");
		}
	}

	// -- mismatches --

	/**
	 * copyCentred pads (writing the block only) and crops T images, 1 to 3 axes, odd and even sizes, against the
	 * centred-index rule written out here: small pixel i ↔ big pixel i + ⌊B/2⌋ − ⌊N/2⌋ per axis.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void copyCentredPadsAndCrops(final Precision p) {
		final int[][][] cases = { { { 5 }, { 8 } }, { { 4, 3 }, { 8, 6 } }, { { 3, 4 }, { 7, 9 } }, { { 3, 2, 5 }, { 6,
			4, 10 } }, { { 2, 3, 3 }, { 5, 3, 4 } }, { { 4, 4 }, { 4, 4 } } };
		for (final int[][] c : cases) {
			final int[] n = c[0], b = c[1];
			final int t = 1 + random.nextInt(3);
			int sp = 1, bp = 1;
			for (int a = 0; a < n.length; a++) {
				sp *= n[a];
				bp *= b[a];
			}
			final double[] small = gaussian(2 * sp * t), bigInit = gaussian(2 * bp * t), big = bigInit.clone(),
				cropped = new double[2 * sp * t];
			for (int tt = 0; tt < t; tt++) {
				for (int i = 0; i < sp; i++) {
					int rest = i, bi = 0, stride = 1;
					for (int a = 0; a < n.length; a++) {
						final int x = rest % n[a];
						rest /= n[a];
						bi += (x + b[a] / 2 - n[a] / 2) * stride;
						stride *= b[a];
					}
					final int s = 2 * (tt * sp + i), g = 2 * (tt * bp + bi);
					big[g] = small[s];
					big[g + 1] = small[s + 1];
					cropped[s] = bigInit[g];
					cropped[s + 1] = bigInit[g + 1];
				}
			}
			final String what = java.util.Arrays.toString(n) + " in " + java.util.Arrays.toString(b) + " x " + t;
			try (Buffer bs = upload(small, p); Buffer bb = upload(bigInit, p); Buffer out = backend.allocate(2L * sp * t,
				p))
			{
				backend.copyCentred(bb, b, out, n);
				check(cropped, download(out), p, "crop " + what);
				backend.copyCentred(bs, n, bb, b);
				check(big, download(bb), p, "pad " + what);
			}
		}
		try (Buffer f = backend.allocate(2 * 12, p); Buffer g = backend.allocate(2 * 20, p)) {
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> backend.copyCentred(f,
				new int[] { 4, 3 }, g, new int[] { 2, 10 }));
			assertTrue(e.getMessage().contains("[4, 3]") && e.getMessage().contains("[2, 10]"), e.getMessage());
			final InvalidInputException l = assertThrows(InvalidInputException.class, () -> backend.copyCentred(f,
				new int[] { 4, 3 }, g, new int[] { 5, 5 }));
			assertTrue(l.getMessage().contains("24") && l.getMessage().contains("40"), l.getMessage());
		}
	}

	// -- sparse matrices --

	/**
	 * A random ELL matrix (entries −1, repeated columns in a row, complex weights) applied to a batch of 4 vectors, and
	 * to a slice of one, against the dense product in double.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void sparseApplyIsTheProductWithTheMatrix(final Precision p) {
		final int rows = 301, cols = 173, k = 3, t = 4;
		final int[] index = new int[rows * k];
		for (int i = 0; i < index.length; i++) index[i] = random.nextInt(8) == 0 ? -1 : random.nextInt(cols);
		index[k] = index[k + 1] = 5; // a repeated column: both terms count
		final double[] w = rounded(gaussian(2 * rows * k), p), x = rounded(gaussian(2 * cols * t), p);
		final double[] e = dense(index, w, rows, cols, k, t, x, false);
		try (SparseMatrix a = backend.sparse(rows, cols, k, index, w, p); Buffer bx = upload(x, p);
			Buffer by = backend.allocate(2L * rows * t, p))
		{
			assertEquals(rows, a.rows());
			assertEquals(cols, a.columns());
			assertEquals(k, a.entriesPerRow());
			backend.apply(a, bx, by);
			check(e, download(by), p, "sparse apply, batch of " + t);
			try (Buffer one = backend.allocate(2L * rows, p)) {
				backend.apply(a, bx.slice(2L * cols * 2, 2L * cols), one);
				check(java.util.Arrays.copyOfRange(e, 2 * rows * 2, 2 * rows * 3), download(one), p,
					"sparse apply to a slice (vector 2)");
			}
			// The adjoint: x_t[c] = Σ conj(w)·y_t[r] over the entries pointing at c (repeated columns add up).
			final double[] y = rounded(gaussian(2 * rows * t), p), ea = dense(index, w, rows, cols, k, t, y, true);
			try (Buffer yb = upload(y, p); Buffer xb = upload(gaussian(2 * cols * t), p)) {
				backend.applyAdjoint(a, yb, xb); // xb's old values are overwritten
				check(ea, download(xb), p, "sparse adjoint, batch of " + t);
			}
		}
	}

	/**
	 * The product of the ELL matrix (index, w) with T vectors, term by term in double: y_t[r] = Σ w·x_t[c], or its
	 * adjoint x_t[c] = Σ conj(w)·y_t[r] (repeated columns add up).
	 */
	private static double[] dense(final int[] index, final double[] w, final int rows, final int cols, final int k,
		final int t, final double[] v, final boolean adjoint)
	{
		final double[] out = new double[2 * (adjoint ? cols : rows) * t];
		for (int b = 0; b < t; b++)
			for (int r = 0; r < rows; r++)
				for (int j = 0; j < k; j++) {
					final int c = index[r * k + j];
					if (c < 0) continue;
					final double wr = w[2 * (r * k + j)], wi = adjoint ? -w[2 * (r * k + j) + 1] : w[2 * (r * k + j) + 1];
					final int from = 2 * (b * (adjoint ? rows : cols) + (adjoint ? r : c));
					final int to = 2 * (b * (adjoint ? cols : rows) + (adjoint ? c : r));
					out[to] += wr * v[from] - wi * v[from + 1];
					out[to + 1] += wr * v[from + 1] + wi * v[from];
				}
		return out;
	}

	/** Bad tables and operands of sparse matrices are refused, naming the entry or the lengths. */
	@Test
	void badSparseMatricesAreRefusedNamingTheEntry() {
		final InvalidInputException range = assertThrows(InvalidInputException.class, () -> backend.sparse(2, 3, 2,
			new int[] { 0, 1, 3, -1 }, new double[8], Precision.FLOAT));
		assertTrue(range.getMessage().contains("index 3 of row 1, entry 0"), range.getMessage());
		final InvalidInputException length = assertThrows(InvalidInputException.class, () -> backend.sparse(2, 3, 2,
			new int[] { 0, 1, 2 }, new double[8], Precision.FLOAT));
		assertTrue(length.getMessage().contains("expected 4 indices"), length.getMessage());
		final InvalidInputException nan = assertThrows(InvalidInputException.class, () -> backend.sparse(1, 3, 1,
			new int[] { 0 }, new double[] { 1, Double.NaN }, Precision.FLOAT));
		assertTrue(nan.getMessage().contains("imaginary"), nan.getMessage());
		try (SparseMatrix a = backend.sparse(2, 3, 1, new int[] { 0, 2 }, new double[] { 1, 0, 1, 0 }, Precision.FLOAT);
			Buffer x = backend.allocate(12, Precision.FLOAT); Buffer y = backend.allocate(6, Precision.FLOAT);
			Buffer d = backend.allocate(4, Precision.DOUBLE))
		{
			final InvalidInputException batch = assertThrows(InvalidInputException.class, () -> backend.apply(a, x, y));
			assertTrue(batch.getMessage().contains("12") && batch.getMessage().contains("6"), batch.getMessage());
			assertThrows(InvalidInputException.class, () -> backend.apply(a, x.slice(0, 6), d));
			assertThrows(InvalidInputException.class, () -> backend.apply(a, x.slice(0, 6), x.slice(2, 4)));
			a.close();
			assertThrows(IllegalStateException.class, () -> backend.apply(a, x.slice(0, 6), y.slice(0, 4)));
		}
	}

	@Test
	void mismatchedPrecisionsAndLengthsAreRefusedNamingBoth() {
		try (Buffer f = backend.allocate(8, Precision.FLOAT); Buffer d = backend.allocate(8, Precision.DOUBLE);
			Buffer g = backend.allocate(6, Precision.FLOAT))
		{
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> backend.copy(f, d));
			assertTrue(e.getMessage().contains("float") && e.getMessage().contains("double"), e.getMessage());
			final InvalidInputException l = assertThrows(InvalidInputException.class, () -> backend.axpby(1, f, 1, g));
			assertTrue(l.getMessage().contains("8") && l.getMessage().contains("6"), l.getMessage());
			assertThrows(InvalidInputException.class, () -> backend.multiply(f, g, f));
			assertThrows(InvalidInputException.class, () -> backend.sumBatch(f, 3, g));
			assertThrows(InvalidInputException.class, () -> backend.fft(f, new int[] { 3 }, -1));
		}
	}

	// -- helpers --

	protected double[] gaussian(final int n) {
		final double[] a = new double[n];
		for (int i = 0; i < n; i++) a[i] = random.nextGaussian();
		return a;
	}

	protected Buffer upload(final double[] v, final Precision p) {
		return TestBuffers.upload(backend, v, p);
	}

	protected double[] download(final Buffer b) {
		return TestBuffers.download(backend, b);
	}

	private void check(final double[] expected, final double[] actual, final Precision p, final String what) {
		check(expected, actual, p == Precision.FLOAT ? 1e-6 : 1e-13, what, p);
	}

	private void check(final double[] expected, final double[] actual, final double bound, final String what,
		final Precision p)
	{
		assertEquals(expected.length, actual.length, what + ": length");
		final double e = relative(expected, actual);
		assertTrue(e <= bound, what + " (" + p + "): relative error " + e + " > " + bound + ", seed " + seed);
	}

	static double relative(final double[] expected, final double[] actual) {
		double d = 0, n = 0;
		for (int i = 0; i < expected.length; i++) {
			d += (expected[i] - actual[i]) * (expected[i] - actual[i]);
			n += expected[i] * expected[i];
		}
		return Math.sqrt(d / Math.max(n, Double.MIN_NORMAL));
	}

	private static double[] rounded(final double[] v, final Precision p) {
		if (p == Precision.FLOAT) for (int i = 0; i < v.length; i++) v[i] = (float) v[i];
		return v;
	}

	private static float[] toFloat(final double[] v) {
		final float[] f = new float[v.length];
		for (int i = 0; i < v.length; i++) f[i] = (float) v[i];
		return f;
	}

	private static double[] map(final double[] v, final java.util.function.DoubleUnaryOperator f) {
		final double[] o = new double[v.length];
		for (int i = 0; i < v.length; i++) o[i] = f.applyAsDouble(v[i]);
		return o;
	}

}
