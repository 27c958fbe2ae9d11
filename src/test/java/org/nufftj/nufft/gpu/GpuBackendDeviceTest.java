package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.DirectDft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

/**
 * The GPU backend against host references computed here in double (fresh random inputs, seed in every message): buffer
 * transfers and slices, every vector operation in float and double with broadcasting, the FFT against a direct DFT,
 * Walsh on coils that are one image times complex constants (where the combination is known exactly), the Buffer
 * forms of the plan against its host-array forms (chunked too), the error rules, and the bookkeeping.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuBackendDeviceTest {

	private static GpuBackend backend;

	@BeforeAll
	static void open() {
		GpuTests.assumeGpu();
		backend = GpuBackend.open(0);
	}

	@AfterAll
	static void close() {
		if (backend != null) backend.close();
	}

	// -- buffers --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void transfersAndSlicesRoundTrip(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final double[] x = Arrays2.gaussian(r, 1000);
		try (Buffer a = backend.allocate(1000, p); Buffer b = wrap(x, p)) {
			assertEquals(0, norm(read(a, p)), "allocate gives zeros");
			assertEquals(1000, b.length());
			assertTrue(err(read(b, p), x, p) == 0, "wrap / read, seed " + seed);
			final Buffer s = b.slice(100, 50);
			final double[] part = new double[50];
			System.arraycopy(x, 100, part, 0, 50);
			assertTrue(err(read(s, p), part, p) == 0, "slice read, seed " + seed);
			final double[] y = Arrays2.gaussian(r, 80);
			write(y, 30, a.slice(500, 50), p); // values 30..79 of y into a[500, 550)
			final double[] back = read(a, p);
			for (int i = 0; i < 1000; i++) {
				final double want = i >= 500 && i < 550 ? round(y[30 + i - 500], p) : 0;
				assertEquals(want, back[i], 0, "a[" + i + "] after a slice write, seed " + seed);
			}
			s.close(); // a view: closing it frees nothing
			assertTrue(err(read(b.slice(100, 50), p), part, p) == 0, "parent intact after closing a slice");
			assertThrows(InvalidInputException.class, () -> b.slice(990, 20));
		}
	}

	@Test
	void mismatchesAreRefusedNamingBoth() {
		try (Buffer f = backend.allocate(8, Precision.FLOAT); Buffer d = backend.allocate(8, Precision.DOUBLE);
			Buffer odd = backend.allocate(7, Precision.FLOAT))
		{
			InvalidInputException e = assertThrows(InvalidInputException.class, () -> backend.copy(f, d));
			assertTrue(e.getMessage().contains("float") && e.getMessage().contains("double"), e.getMessage());
			e = assertThrows(InvalidInputException.class, () -> backend.write(new float[8], 0, d));
			assertTrue(e.getMessage().contains("precision"), e.getMessage());
			e = assertThrows(InvalidInputException.class, () -> backend.fill(odd, 1, 0));
			assertTrue(e.getMessage().contains("7"), e.getMessage());
			try (Buffer b3 = backend.allocate(6, Precision.FLOAT)) {
				e = assertThrows(InvalidInputException.class, () -> backend.multiply(f, b3, f));
				assertTrue(e.getMessage().contains("6") && e.getMessage().contains("8"), e.getMessage());
			}
			try (GpuBackend other = GpuBackend.open(0); Buffer g = other.allocate(8, Precision.FLOAT)) {
				e = assertThrows(InvalidInputException.class, () -> backend.copy(g, f));
				assertTrue(e.getMessage().contains("belongs to"), e.getMessage());
			}
		}
	}

	@Test
	void closingTheBackendFreesItsBuffersAndRefusesUse() {
		final GpuBackend b = GpuBackend.open(0);
		final long before = b.gpu().memoryInfo()[0];
		final Buffer kept = b.allocate(64L << 20, Precision.FLOAT); // 256 MiB, never closed by the caller
		assertTrue(b.gpu().memoryInfo()[0] < before - (200L << 20), "allocated");
		assertEquals(1, b.openBuffers());
		try (Buffer x = b.allocate(16, Precision.DOUBLE)) {
			assertEquals(2, b.openBuffers());
		}
		assertEquals(1, b.openBuffers(), "a closed buffer is forgotten");
		final GpuNufftPlan plan = b.gpuPlan(new int[] { 16, 16 }, NufftOptions.defaults()); // left open
		plan.setPoints(TestTrajectories.make("random", new int[] { 16, 16 }, 100, new Random()));
		b.close();
		assertThrows(IllegalStateException.class, () -> b.allocate(4, Precision.FLOAT));
		assertThrows(IllegalStateException.class, () -> plan.forward(new float[512], new float[200]), "plan closed");
		assertThrows(IllegalStateException.class, () -> ((GpuBuffer) kept).pointer());
		try (GpuBackend c = GpuBackend.open(0)) {
			assertTrue(c.gpu().memoryInfo()[0] > before - (32L << 20), "the backend freed the buffer it made");
		}
		kept.close(); // idempotent after the backend
	}

	// -- vector operations --

	@ParameterizedTest
	@EnumSource(Precision.class)
	void elementwiseOperationsMatchHostReferences(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int n = 3 * 1000; // complex elements of a: 3 batches of 1000
		final double[] a = Arrays2.gaussian(r, 2 * n), b = Arrays2.gaussian(r, 2 * 1000), w = Arrays2.gaussian(r, 1000);
		for (int i = 0; i < 1000; i += 7) b[2 * i] = b[2 * i + 1] = 0; // divide: 0 where b is 0
		final double tol = p == Precision.DOUBLE ? 1e-14 : 2e-6;
		final String s = " (" + p + ", seed " + seed + ")";
		try (Buffer ga = wrap(a, p); Buffer gb = wrap(b, p); Buffer gw = wrap(w, p);
			Buffer out = backend.allocate(2 * n, p))
		{
			final double[] mul = new double[2 * n], con = new double[2 * n], div = new double[2 * n],
				real = new double[2 * n];
			for (int i = 0; i < n; i++) {
				final int j = i % 1000;
				final double ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * j], bi = b[2 * j + 1];
				mul[2 * i] = ar * br - ai * bi;
				mul[2 * i + 1] = ar * bi + ai * br;
				con[2 * i] = ar * br + ai * bi;
				con[2 * i + 1] = ai * br - ar * bi;
				final double d = br * br + bi * bi;
				div[2 * i] = d == 0 ? 0 : (ar * br + ai * bi) / d;
				div[2 * i + 1] = d == 0 ? 0 : (ai * br - ar * bi) / d;
				real[2 * i] = ar * w[j];
				real[2 * i + 1] = ai * w[j];
			}
			backend.multiply(ga, gb, out);
			assertTrue(err(read(out, p), mul, p) <= tol, "multiply" + s);
			backend.multiplyConjugate(ga, gb, out);
			assertTrue(err(read(out, p), con, p) <= tol, "multiplyConjugate" + s);
			backend.divide(ga, gb, out);
			assertTrue(err(read(out, p), div, p) <= 10 * tol, "divide" + s);
			backend.multiplyReal(ga, gw, out);
			assertTrue(err(read(out, p), real, p) <= tol, "multiplyReal" + s);
			backend.copy(ga, out);
			backend.multiply(out, gb, out); // in place
			assertTrue(err(read(out, p), mul, p) <= tol, "multiply in place" + s);

			backend.copy(ga, out);
			assertTrue(err(read(out, p), a, p) == 0, "copy" + s);
			backend.scale(out, -2.5);
			final double[] sc = a.clone();
			for (int i = 0; i < sc.length; i++) sc[i] *= -2.5;
			assertTrue(err(read(out, p), sc, p) <= tol, "scale" + s);
			backend.axpby(0.5, ga, 3, out); // out = 0.5 a + 3 (−2.5 a) = −7 a
			for (int i = 0; i < sc.length; i++) sc[i] = -7 * a[i];
			assertTrue(err(read(out, p), sc, p) <= tol, "axpby" + s);
			backend.fill(out, 1.5, -2);
			final double[] fl = new double[2 * n];
			for (int i = 0; i < n; i++) {
				fl[2 * i] = 1.5;
				fl[2 * i + 1] = -2;
			}
			assertTrue(err(read(out, p), fl, p) == 0, "fill" + s);

			double dre = 0, dim = 0, nn = 0;
			for (int i = 0; i < n; i++) {
				dre += a[2 * i] * mul[2 * i] + a[2 * i + 1] * mul[2 * i + 1];
				dim += a[2 * i] * mul[2 * i + 1] - a[2 * i + 1] * mul[2 * i];
				nn += a[2 * i] * a[2 * i] + a[2 * i + 1] * a[2 * i + 1];
			}
			backend.multiply(ga, gb, out);
			final double[] dot = backend.dot(ga, out);
			final double scale = Math.sqrt(nn) * Arrays2.norm(mul);
			assertTrue(Math.abs(dot[0] - dre) <= tol * scale && Math.abs(dot[1] - dim) <= tol * scale, "dot " +
				java.util.Arrays.toString(dot) + " vs " + dre + ", " + dim + s);
			assertEquals(Math.sqrt(nn), backend.norm(ga), tol * Math.sqrt(nn), "norm" + s);
		}
	}

	@ParameterizedTest
	@EnumSource(Precision.class)
	void batchReductionsAndConversionsMatchHostReferences(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int coils = 5, px = 777;
		final double[] x = Arrays2.gaussian(r, 2 * px * coils);
		final double tol = p == Precision.DOUBLE ? 1e-14 : 2e-6;
		final String s = " (" + p + ", seed " + seed + ")";
		try (Buffer gx = wrap(x, p); Buffer sum = backend.allocate(2 * px, p); Buffer sos = backend.allocate(2 * px, p);
			Buffer re = backend.allocate(px * coils, p); Buffer back = backend.allocate(2 * px * coils, p))
		{
			final double[] rs = new double[2 * px], rq = new double[2 * px], rr = new double[px * coils],
				rc = new double[2 * px * coils];
			for (int c = 0; c < coils; c++) {
				for (int i = 0; i < px; i++) {
					final double vr = x[2 * (c * px + i)], vi = x[2 * (c * px + i) + 1];
					rs[2 * i] += vr;
					rs[2 * i + 1] += vi;
					rq[2 * i] += vr * vr + vi * vi;
					rr[c * px + i] = vr;
					rc[2 * (c * px + i)] = vr;
				}
			}
			for (int i = 0; i < px; i++) rq[2 * i] = Math.sqrt(rq[2 * i]);
			backend.sumBatch(gx, coils, sum);
			assertTrue(err(read(sum, p), rs, p) <= tol, "sumBatch" + s);
			backend.sumOfSquares(gx, coils, sos);
			assertTrue(err(read(sos, p), rq, p) <= tol, "sumOfSquares" + s);
			backend.complexToReal(gx, re);
			assertTrue(err(read(re, p), rr, p) == 0, "complexToReal" + s);
			backend.realToComplex(re, back);
			assertTrue(err(read(back, p), rc, p) == 0, "realToComplex" + s);
		}
	}

	/** X_k = Σ_n x_n e^{sign·2πi Σ_a k_a n_a / N_a}, unnormalised, no shift, for 1D to 3D and a batch of 3. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void fftMatchesADirectDft(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		for (final int[] size : new int[][] { { 30 }, { 12, 10 }, { 6, 5, 4 } }) {
			int px = 1;
			for (final int v : size) px *= v;
			final int batch = 3;
			final double[] x = Arrays2.gaussian(r, 2 * px * batch);
			for (final int sign : new int[] { -1, 1 }) {
				final double[] ref = DirectDft.dft(x, size, batch, sign);
				try (Buffer g = wrap(x, p)) {
					backend.fft(g, size, sign);
					final double e = err(read(g, p), ref, p);
					assertTrue(e <= (p == Precision.DOUBLE ? 1e-12 : 1e-5), "fft " + java.util.Arrays.toString(size) +
						" sign " + sign + ": " + e + " (" + p + ", seed " + seed + ")");
				}
			}
		}
	}

	/**
	 * Coils x_c = a_c·f (one image f, complex constants a_c): R = |f|²·a aᴴ over every window, so Walsh's combination is
	 * ‖a‖·e^{i arg a_ref}·f with ref the coil of largest |a_c| — on the register kernels (≤ 32 coils) and the
	 * shared-memory one (40), 2D and 3D.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void walshOfScaledCopiesIsTheImageTimesTheCoilNorm(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		for (final int[] size : new int[][] { { 20, 16 }, { 12, 10, 3 } }) {
			for (final int coils : new int[] { 1, 3, 8, 40 }) {
				int px = 1;
				for (final int v : size) px *= v;
				final double[] f = Arrays2.gaussian(r, 2 * px), a = Arrays2.gaussian(r, 2 * coils);
				final double[] x = new double[2 * px * coils];
				int ref = 0;
				double an = 0, best = -1;
				for (int c = 0; c < coils; c++) {
					final double m2 = a[2 * c] * a[2 * c] + a[2 * c + 1] * a[2 * c + 1];
					an += m2;
					if (m2 > best) {
						best = m2;
						ref = c;
					}
					for (int i = 0; i < px; i++) {
						x[2 * (c * px + i)] = a[2 * c] * f[2 * i] - a[2 * c + 1] * f[2 * i + 1];
						x[2 * (c * px + i) + 1] = a[2 * c] * f[2 * i + 1] + a[2 * c + 1] * f[2 * i];
					}
				}
				final double ph = Math.atan2(a[2 * ref + 1], a[2 * ref]), k = Math.sqrt(an);
				final double[] want = new double[2 * px];
				for (int i = 0; i < px; i++) {
					want[2 * i] = k * (Math.cos(ph) * f[2 * i] - Math.sin(ph) * f[2 * i + 1]);
					want[2 * i + 1] = k * (Math.cos(ph) * f[2 * i + 1] + Math.sin(ph) * f[2 * i]);
				}
				try (Buffer g = wrap(x, p); Buffer out = backend.allocate(2 * px, p)) {
					backend.walsh(g, size, coils, out);
					final double e = err(read(out, p), want, p);
					assertTrue(e <= (p == Precision.DOUBLE ? 1e-10 : 1e-4), "walsh " + java.util.Arrays.toString(size) +
						" x " + coils + " coils: " + e + " (" + p + ", seed " + seed + ")");
				}
			}
		}
	}

	// -- plans on buffers --

	/** forward / adjoint on device buffers equal the host-array forms of the same plan, in one chunk and in chunks of 2. */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void bufferTransformsEqualHostArrayTransforms(final Precision p) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = { 40, 36 };
		final int t = 5;
		final Trajectory traj = TestTrajectories.make("golden angle", size, 3000, r);
		final NufftOptions o = NufftOptions.defaults().withTolerance(p == Precision.DOUBLE ? 1e-9 : 1e-4)
			.withPrecision(p).withDevice(DeviceChoice.CPU); // the backend decides the device
		final int px = 40 * 36, m = traj.count();
		final double[] x = Arrays2.gaussian(r, 2 * px * t), y = Arrays2.gaussian(r, 2 * m * t);
		for (final int limit : new int[] { Integer.MAX_VALUE, 2 }) {
			try (GpuNufftPlan plan = backend.gpuPlan(size, o); Buffer gx = wrap(x, p); Buffer gy = wrap(y, p);
				Buffer fx = backend.allocate(2L * m * t, p); Buffer ay = backend.allocate(2L * px * t, p))
			{
				assertTrue(plan.backend().startsWith("gpu"), plan.backend());
				plan.setPoints(traj);
				plan.limitBatch(limit);
				plan.forward(gx, fx);
				plan.adjoint(gy, ay);
				final double[] hf = new double[2 * m * t], ha = new double[2 * px * t];
				plan.forward(x, hf);
				plan.adjoint(y, ha);
				final double tol = p == Precision.DOUBLE ? 1e-12 : 1e-6;
				final String s = " (" + p + ", limit " + limit + ", seed " + seed + ")";
				assertTrue(err(read(fx, p), hf, p) <= tol, "forward on buffers" + s);
				assertTrue(err(read(ay, p), ha, p) <= tol, "adjoint on buffers" + s);
				assertTrue(plan.times().snapshot().containsKey("fft"), "stage times" + s);
				try (Buffer wrong = backend.allocate(2L * m * t, p == Precision.DOUBLE ? Precision.FLOAT :
					Precision.DOUBLE))
				{
					final InvalidInputException e = assertThrows(InvalidInputException.class, () -> plan.forward(gx,
						wrong));
					assertTrue(e.getMessage().contains("samples") && e.getMessage().contains("plan is"), e.getMessage());
				}
				try (Buffer shortY = backend.allocate(2L * m * t - 2, p)) {
					assertThrows(InvalidInputException.class, () -> plan.adjoint(shortY, ay));
				}
			}
		}
	}

	/** Points replaced by more points: host-array calls after the replacement equal a fresh plan's (buffers regrow). */
	@Test
	void replacingPointsByMorePointsRegrowsTheBuffers() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = { 32, 32 };
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-4);
		final Trajectory few = TestTrajectories.make("random", size, 500, r);
		final Trajectory many = TestTrajectories.make("random", size, 5000, r);
		final float[] x = Arrays2.gaussianFloat(r, 2 * 32 * 32 * 3);
		try (GpuNufftPlan reused = backend.gpuPlan(size, o); GpuNufftPlan fresh = backend.gpuPlan(size, o)) {
			reused.setPoints(few);
			reused.forward(x, new float[2 * few.count() * 3]);
			reused.setPoints(many);
			fresh.setPoints(many);
			final float[] a = new float[2 * many.count() * 3], b = new float[a.length];
			reused.forward(x, a);
			fresh.forward(x, b);
			final double[] bd = new double[b.length];
			for (int i = 0; i < b.length; i++) bd[i] = b[i];
			assertTrue(err(toDouble(a), bd, Precision.FLOAT) == 0, "seed " + seed);
		}
	}

	// -- helpers --

	private static double[] toDouble(final float[] f) {
		final double[] d = new double[f.length];
		for (int i = 0; i < f.length; i++) d[i] = f[i];
		return d;
	}

	private static Buffer wrap(final double[] x, final Precision p) {
		return p == Precision.DOUBLE ? backend.wrap(x) : backend.wrap(toFloat(x));
	}

	private static void write(final double[] x, final int offset, final Buffer dst, final Precision p) {
		if (p == Precision.DOUBLE) backend.write(x, offset, dst);
		else backend.write(toFloat(x), offset, dst);
	}

	private static double[] read(final Buffer b, final Precision p) {
		if (p == Precision.DOUBLE) {
			final double[] d = new double[(int) b.length()];
			backend.read(b, d, 0);
			return d;
		}
		final float[] f = new float[(int) b.length()];
		backend.read(b, f, 0);
		final double[] d = new double[f.length];
		for (int i = 0; i < f.length; i++) d[i] = f[i];
		return d;
	}

	/** ‖got − want‖ / ‖want‖ (want rounded to the precision first, so exact transfers give 0). */
	private static double err(final double[] got, final double[] want, final Precision p) {
		double num = 0, den = 0;
		for (int i = 0; i < want.length; i++) {
			final double w = round(want[i], p), d = got[i] - w;
			num += d * d;
			den += w * w;
		}
		return den == 0 ? Math.sqrt(num) : Math.sqrt(num / den);
	}

	private static double norm(final double[] x) {
		double s = 0;
		for (final double v : x) s += v * v;
		return Math.sqrt(s);
	}

	private static double round(final double v, final Precision p) {
		return p == Precision.DOUBLE ? v : (float) v;
	}

	private static float[] toFloat(final double[] x) {
		final float[] f = new float[x.length];
		for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
		return f;
	}
}
