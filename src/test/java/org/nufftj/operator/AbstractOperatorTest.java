package org.nufftj.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DirectDft;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Trajectory;

/**
 * The operator layer, written once against {@link Backend} and run for every backend (subclasses open it): the
 * dot-product adjointness test on every operator and on compositions of them, in float and double; the FFT operator
 * against the direct centred DFT and unitary; the NUFFT operator against the exact NUDFT (scale, weights, batch);
 * compositions against the same maths done step by step; mismatches refused. Fresh random inputs; seed in messages.
 */
public abstract class AbstractOperatorTest extends AbstractBackendFixture {

	// -- adjointness --

	/** Every operator kind, and compositions of them, pass the dot-product test. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void everyOperatorAndCompositionIsAdjoint(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-5 : 1e-11;
		for (final LinearOperator op : everyKind(p)) {
			for (int trial = 0; trial < 2; trial++) {
				final double e = Adjointness.mismatch(op, random);
				assertTrue(e <= bound, op + ": adjoint mismatch " + e + " > " + bound + ", seed " + seed);
			}
		}
	}

	/** Every operator overwrites its output, whatever it held before (y = A x, not y += A x): garbage in y first. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void everyOperatorOverwritesItsOutput(final Precision p) {
		for (final LinearOperator op : everyKind(p)) {
			for (final boolean adjoint : new boolean[] { false, true }) {
				final long in = adjoint ? op.rangeLength() : op.domainLength();
				final long out = adjoint ? op.domainLength() : op.rangeLength();
				final Buffer x = keep(Adjointness.gaussian(backend, p, in, random));
				final Buffer clean = keep(backend.allocate(out, p));
				final Buffer dirty = keep(Adjointness.gaussian(backend, p, out, random));
				for (final Buffer y : new Buffer[] { clean, dirty }) {
					if (adjoint) op.applyAdjoint(x, y);
					else op.apply(x, y);
				}
				check(download(clean), download(dirty), p == Precision.FLOAT ? 1e-6 : 1e-13, op + (adjoint ?
					" adjoint" : " apply") + " into a used buffer");
			}
		}
		// The host-array convenience too (on the CPU it writes into the array itself).
		final LinearOperator bart = keep(NufftOperator.bart(backend, plan(new int[] { 12, 10 }, p, 300), 2));
		final float[] k = new float[(int) bart.rangeLength()], clean = new float[(int) bart.domainLength()];
		for (int i = 0; i < k.length; i++) k[i] = (float) random.nextGaussian();
		final float[] dirty = new float[clean.length];
		java.util.Arrays.fill(dirty, Float.NaN);
		Operators.applyAdjoint(bart, k, clean);
		Operators.applyAdjoint(bart, k, dirty);
		final double[] c = new double[clean.length], d = new double[clean.length];
		for (int i = 0; i < c.length; i++) {
			c[i] = clean[i];
			d[i] = dirty[i];
		}
		check(c, d, 1e-6, "host adjoint into a used array");
	}

	/** The test can fail: a conjugated "adjoint" is caught. */
	@Test
	void theDotProductTestDetectsAWrongAdjoint() {
		final NufftPlan plan = plan(new int[] { 16, 16 }, Precision.DOUBLE, 200);
		final LinearOperator good = keep(NufftOperator.unscaled(backend, plan));
		final LinearOperator wrong = new LinearOperator() {
			@Override public Backend backend() { return good.backend(); }
			@Override public Precision precision() { return good.precision(); }
			@Override public long domainLength() { return good.domainLength(); }
			@Override public long rangeLength() { return good.rangeLength(); }
			@Override public void apply(final Buffer x, final Buffer y) { good.apply(x, y); }
			@Override public void applyAdjoint(final Buffer y, final Buffer x) {
				good.applyAdjoint(y, x);
				backend.multiplyConjugate(ones(x.length()), x, x); // x itself conjugated: not the adjoint
			}
		};
		// A wrong adjoint's mismatch is a random sum, ~1/√(range) ≈ 0.07 here but occasionally tiny for one pair of
		// vectors (seed 39860957114462 gave < 1e-2); the largest of four pairs is held against 1e-4, seven decades
		// above the exact adjoint's, so a chance failure needs all four below it.
		double worst = 0;
		for (int trial = 0; trial < 4; trial++) worst = Math.max(worst, Adjointness.mismatch(wrong, random));
		assertTrue(Adjointness.mismatch(good, random) <= 1e-11, "seed " + seed);
		assertTrue(worst > 1e-4, "largest of 4 mismatches " + worst + ", seed " + seed);
	}

	// -- FFT operator --

	/** F against the centred DFT written out, and unitary: ‖F x‖ = ‖x‖, Fᴴ F x = x. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void fftOperatorIsTheCentredUnitaryDft(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-5 : 1e-12;
		for (final int[] size : new int[][] { { 8 }, { 6, 5 }, { 4, 3, 5 }, { 7, 6 } }) {
			final int batch = 2;
			final FftOperator f = keep(new FftOperator(backend, p, size, batch));
			final double[] x = gaussian((int) f.domainLength());
			try (Buffer bx = upload(x, p); Buffer y = backend.allocate(f.rangeLength(), p);
				Buffer back = backend.allocate(f.domainLength(), p))
			{
				f.apply(bx, y);
				final double e = relative(DirectDft.centred(x, size, batch, -1), download(y));
				assertTrue(e <= bound, "F vs centred DFT " + java.util.Arrays.toString(size) + ": " + e + ", seed " + seed);
				assertEquals(backend.norm(bx), backend.norm(y), bound * backend.norm(bx), "unitary, seed " + seed);
				f.applyAdjoint(y, back);
				assertTrue(relative(x, download(back)) <= bound, "F^H F x = x, seed " + seed);
			}
		}
	}

	// -- NUFFT operator --

	/** s·W^{1/2}·F on T transforms against the exact NUDFT, forward and adjoint; BART's s = 1/√pixels. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void nufftOperatorIsScaledWeightedExactTransform(final Precision p) {
		final double eps = p == Precision.FLOAT ? 1e-5 : 1e-9;
		final int[] size = { 24, 20 };
		final int m = 500, t = 2;
		final NufftPlan plan = plan(size, p, m);
		final Trajectory traj = trajectory;
		assertEquals(1 / Math.sqrt(480), NufftOperator.bart(backend, plan).scale(), 1e-15);
		final float[] w = weights(m);
		for (final NufftOperator op : new NufftOperator[] { keep(NufftOperator.bart(backend, plan, t)),
			keep(new NufftOperator(backend, plan, 0.5, w, t)) })
		{
			final double s = op.scale();
			final boolean weighted = s == 0.5;
			final double[] x = gaussian((int) op.domainLength()), y = gaussian((int) op.rangeLength());
			final double[] fx = Nudft.forward(size, traj, x, 2);
			final double[] wy = y.clone();
			for (int i = 0; i < fx.length; i++) {
				final double f = s * (weighted ? Math.sqrt(w[(i / 2) % m]) : 1);
				fx[i] *= f;
				wy[i] *= f;
			}
			final double[] fy = Nudft.adjoint(size, traj, wy, 2);
			try (Buffer bx = upload(x, p); Buffer by = upload(y, p); Buffer ax = backend.allocate(op.rangeLength(), p);
				Buffer ahy = backend.allocate(op.domainLength(), p))
			{
				final double[] before = download(by);
				op.apply(bx, ax);
				op.applyAdjoint(by, ahy);
				assertTrue(relative(fx, download(ax)) <= eps, op + " forward: " + relative(fx, download(ax)) + ", seed " +
					seed);
				assertTrue(relative(fy, download(ahy)) <= eps, op + " adjoint: " + relative(fy, download(ahy)) +
					", seed " + seed);
				assertTrue(java.util.Arrays.equals(before, download(by)), "the adjoint leaves y as it was");
			}
		}
	}

	/** The normal operator is Aᴴ(A x), the same on every application (its work buffer is reused). */
	@Test
	void normalIsAdjointOfForward() {
		final int[] size = { 16, 12 };
		final NufftPlan plan = plan(size, Precision.FLOAT, 250);
		final NufftOperator op = keep(NufftOperator.bart(backend, plan));
		final LinearOperator n = keep(op.normal());
		assertSame(n, n.adjoint(), "self-adjoint");
		final double[] x = gaussian(2 * 192);
		final double[] ref = Nudft.adjoint(size, trajectory, Nudft.forward(size, trajectory, x, 2), 2);
		for (int i = 0; i < ref.length; i++) ref[i] /= 192;
		try (Buffer bx = upload(x, Precision.FLOAT); Buffer out = backend.allocate(2 * 192, Precision.FLOAT)) {
			for (int i = 0; i < 2; i++) {
				n.apply(bx, out);
				assertTrue(relative(ref, download(out)) <= 2e-5, "normal error " + relative(ref, download(out)) +
					", seed " + seed);
			}
		}
	}

	// -- compositions do what they say --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void compositionsMatchTheirStepByStepMaths(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-6 : 1e-13;
		final int[] size = { 6, 5 };
		final int n = 30; // pixels
		final FftOperator f = keep(new FftOperator(backend, p, size, 1));
		final double[] dv = gaussian(2 * n), x = gaussian(2 * n), x2 = gaussian(4 * n);
		final Buffer d = keep(upload(dv, p));
		final LinearOperator diag = keep(Operators.diagonal(d, 2 * n));
		final double[] fx = apply(f, x), dx = apply(diag, x);
		// chain: diag first, then F.
		check(apply(f, dx), apply(keep(Operators.chain(diag, f)), x), bound, "chain");
		// stack: [F x; D x].
		check(concat(fx, dx), apply(keep(Operators.stack(f, diag)), x), bound, "stack");
		// block diagonal: [F x_1; F x_2].
		final double[] a = java.util.Arrays.copyOfRange(x2, 0, 2 * n), b = java.util.Arrays.copyOfRange(x2, 2 * n, 4 * n);
		check(concat(apply(f, a), apply(f, b)), apply(keep(Operators.blockDiagonal(f, 2)), x2), bound,
			"block diagonal");
		// block diagonal of different operators: [F x_1; D x_2], in that order.
		check(concat(apply(f, a), apply(diag, b)), apply(keep(Operators.blockDiagonal(java.util.List.of(f, diag))), x2),
			bound, "block diagonal of a list");
		// sum and scale: F x + (−2) D x.
		final double[] s = new double[2 * n];
		for (int i = 0; i < s.length; i++) s[i] = fx[i] - 2 * dx[i];
		check(s, apply(keep(Operators.sum(f, Operators.scale(diag, -2))), x), bound, "sum and scale");
		// diagonal: complex product; real diagonal: real weights broadcast over a batch of 2.
		final double[] e = new double[2 * n];
		for (int i = 0; i < n; i++) {
			e[2 * i] = x[2 * i] * dv[2 * i] - x[2 * i + 1] * dv[2 * i + 1];
			e[2 * i + 1] = x[2 * i] * dv[2 * i + 1] + x[2 * i + 1] * dv[2 * i];
		}
		check(e, dx, bound, "diagonal");
		final Buffer rw = keep(upload(java.util.Arrays.copyOf(dv, n), p));
		final double[] r = new double[4 * n];
		for (int i = 0; i < r.length; i++) r[i] = x2[i] * dv[(i / 2) % n];
		check(r, apply(keep(Operators.realDiagonal(rw, 4 * n)), x2), bound, "real diagonal");
	}

	/**
	 * The expansion x ↦ d ⊙ [x; …; x] equals chain(stack(I, …, I), diagonal(d)) both ways (3 copies, and 1), and
	 * refuses a d that is not a whole number of copies.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void expansionIsCopiesThenDiagonal(final Precision p) {
		final double bound = p == Precision.FLOAT ? 1e-6 : 1e-13;
		final int n = 30;
		for (final int k : new int[] { 3, 1 }) {
			final Buffer d = keep(upload(gaussian(2 * n * k), p));
			final LinearOperator id = keep(Operators.identity(backend, p, 2 * n));
			final LinearOperator[] ids = new LinearOperator[k];
			java.util.Arrays.fill(ids, id);
			final LinearOperator byParts = keep(Operators.chain(keep(Operators.stack(ids)), keep(Operators.diagonal(d, 2L * n *
				k))));
			final LinearOperator e = keep(Operators.expansion(d, 2 * n));
			assertEquals(2L * n, e.domainLength());
			assertEquals(2L * n * k, e.rangeLength());
			final double[] x = gaussian(2 * n), y = gaussian(2 * n * k);
			check(apply(byParts, x), apply(e, x), bound, "expansion of " + k + ", forward");
			check(apply(byParts.adjoint(), y), apply(e.adjoint(), y), bound, "expansion of " + k + ", adjoint");
		}
		final Buffer odd = keep(upload(gaussian(2 * n + 2), p));
		assertThrows(InvalidInputException.class, () -> Operators.expansion(odd, 2 * n));
	}

	@Test
	void mismatchesAreRefused() {
		final FftOperator f = keep(new FftOperator(backend, Precision.FLOAT, new int[] { 4, 4 }, 1));
		final FftOperator g = keep(new FftOperator(backend, Precision.FLOAT, new int[] { 4, 5 }, 1));
		final FftOperator dbl = keep(new FftOperator(backend, Precision.DOUBLE, new int[] { 4, 4 }, 1));
		assertThrows(InvalidInputException.class, () -> Operators.chain(f, g));
		assertThrows(InvalidInputException.class, () -> Operators.sum(f, g));
		assertThrows(InvalidInputException.class, () -> Operators.stack(f, dbl));
		try (Buffer x = backend.allocate(32, Precision.FLOAT); Buffer y = backend.allocate(30, Precision.FLOAT);
			Buffer z = backend.allocate(32, Precision.DOUBLE))
		{
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> f.apply(x, y));
			assertTrue(e.getMessage().contains("32") && e.getMessage().contains("30"), e.getMessage());
			final InvalidInputException q = assertThrows(InvalidInputException.class, () -> f.apply(x, z));
			assertTrue(q.getMessage().contains("float") && q.getMessage().contains("double"), q.getMessage());
		}
		final NufftPlan plan = plan(new int[] { 8, 8 }, Precision.FLOAT, 10);
		assertThrows(InvalidInputException.class, () -> new NufftOperator(backend, plan, 1, new float[9], 1));
		final float[] w = new float[10];
		w[3] = Float.NaN;
		assertThrows(InvalidInputException.class, () -> new NufftOperator(backend, plan, 1, w, 1));
		assertThrows(InvalidInputException.class, () -> new NufftOperator(backend, plan, 0, null, 1));
	}

	/** The host-array convenience gives what the buffers give. */
	@Test
	void hostArraysConvenience() {
		final FftOperator f = keep(new FftOperator(backend, Precision.DOUBLE, new int[] { 6, 4 }, 1));
		final double[] x = gaussian(48);
		final float[] xf = new float[48], y = new float[48], back = new float[48];
		for (int i = 0; i < 48; i++) xf[i] = (float) x[i];
		Operators.apply(f, xf, y);
		final double[] xd = new double[48];
		for (int i = 0; i < 48; i++) xd[i] = xf[i];
		final double[] ref = apply(f, xd);
		final double[] yd = new double[48];
		for (int i = 0; i < 48; i++) yd[i] = y[i];
		check(ref, yd, 1e-6, "host apply");
		Operators.applyAdjoint(f, y, back);
		for (int i = 0; i < 48; i++) assertEquals(xf[i], back[i], 1e-5, "host adjoint, seed " + seed);
		assertThrows(InvalidInputException.class, () -> Operators.apply(f, new float[46], y));
	}

	// -- helpers --

	/** Every operator kind, and compositions of them (closed with the fixture). */
	private LinearOperator[] everyKind(final Precision p) {
		final int[] size = { 12, 10 };
		final int px = 120, coils = 3;
		final NufftPlan plan = plan(size, p, 300);
		final LinearOperator nufft = keep(NufftOperator.unscaled(backend, plan));
		final LinearOperator bart = keep(NufftOperator.bart(backend, plan, coils));
		final LinearOperator weighted = keep(new NufftOperator(backend, plan, 2.5, weights(300), coils));
		final LinearOperator fft = keep(new FftOperator(backend, p, size, 1));
		final LinearOperator fft3 = keep(new FftOperator(backend, p, new int[] { 5, 4, 3 }, 2));
		final Buffer maps = keep(Adjointness.gaussian(backend, p, 2L * px * coils, random));
		final LinearOperator sense = keep(Operators.diagonal(maps, 2L * px * coils)); // coil maps
		final Buffer image = keep(Adjointness.gaussian(backend, p, 2L * px, random));
		final LinearOperator phase = keep(Operators.diagonal(image, 2L * px * coils)); // broadcast over coils
		final Buffer w = keep(Adjointness.gaussian(backend, p, 300, random));
		final LinearOperator dcf = keep(Operators.realDiagonal(w, 2L * 300 * coils));
		final LinearOperator id = keep(Operators.identity(backend, p, 2L * px));
		final LinearOperator copies = keep(Operators.stack(id, id, id)); // x ↦ [x; x; x]: one image to every coil
		final LinearOperator senseNufft = keep(Operators.chain(copies, sense, bart)); // SENSE forward model
		final LinearOperator expansion = keep(Operators.expansion(maps, 2L * px)); // the same, one operator
		return new LinearOperator[] { nufft, bart, weighted, fft, fft3, sense, phase, dcf, id, copies, senseNufft,
			expansion, keep(Operators.chain(expansion, bart)), keep(Operators.expansion(image, 2L * px)),
			keep(Operators.chain(copies, sense, Operators.blockDiagonal(fft, coils))), // Cartesian SENSE
			keep(Operators.chain(senseNufft, dcf)),
			keep(Operators.stack(nufft, fft, Operators.scale(id, -0.5))),
			keep(Operators.blockDiagonal(nufft, 2)),
			keep(Operators.blockDiagonal(java.util.List.of(nufft, fft, weighted))), // one operator per vector
			keep(Operators.sum(fft, Operators.scale(fft, 3), id)),
			keep(Operators.scale(weighted, -1.5)),
			senseNufft.adjoint(),
			keep(nufft.normal()),
			keep(senseNufft.normal()),
			keep(Operators.chain(fft.adjoint(), Operators.diagonal(image, 2L * px), fft)) };
	}




	private float[] weights(final int m) {
		final float[] w = new float[m];
		for (int i = 0; i < m; i++) w[i] = random.nextFloat() * 3;
		return w;
	}

	private Buffer ones(final long length) {
		final Buffer b = keep(backend.allocate(length, Precision.DOUBLE));
		backend.fill(b, 1, 0);
		return b;
	}

	private static double[] concat(final double[] a, final double[] b) {
		final double[] c = java.util.Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, c, a.length, b.length);
		return c;
	}

}
