package org.nufftj.nufft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.kernel.KernelType;

class ParameterChoiceTest {

	@ParameterizedTest
	@ValueSource(doubles = { 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6 })
	void floatChoiceMeetsTheModelWithinTheAllowedRanges(final double eps) {
		check(new int[] { 256, 256 }, NufftOptions.defaults().withTolerance(eps));
		check(new int[] { 64, 48, 40 }, NufftOptions.defaults().withTolerance(eps));
	}

	@ParameterizedTest
	@ValueSource(doubles = { 1e-7, 1e-9, 1e-11, 1e-12 })
	void doubleChoiceReachesTwelveDigits(final double eps) {
		check(new int[] { 128, 96 }, NufftOptions.defaults().withPrecision(Precision.DOUBLE).withTolerance(eps));
	}

	private static void check(final int[] size, final NufftOptions o) {
		final NufftParameters p = ParameterChoice.choose(size, o);
		assertTrue(p.predictedError() <= o.tolerance(), p.toString());
		// The CPU tries every FFT length from σ = 1.125 (a GPU: σ of 1.25, 1.5 and 2).
		assertTrue(p.oversampling() >= ParameterChoice.MIN_SIGMA - 1e-12 && p.oversampling() <= 2, p.toString());
		for (int a = 0; a < size.length; a++) {
			final int n = p.gridSize()[a];
			assertTrue(n >= p.oversampling() * size[a] - 1e-9 && n % 2 == 0, p.toString());
			int r = n;
			for (final int f : new int[] { 2, 3, 5, 7 })
				while (r % f == 0) r /= f;
			assertEquals(1, r, "grid size " + n + " has a prime factor above 7");
		}
	}

	/**
	 * The model is tight on its own worst case: a Cartesian trajectory puts every sample at the same sub-cell offset on
	 * every axis; on a random image the achieved error is below the model and not far below it (a model loose by 2×
	 * would cost a kernel width, one too tight would let the accuracy tests fail).
	 */
	@ParameterizedTest
	@ValueSource(ints = { 4, 6 })
	void modelBoundsAndTracksTheCartesianWorstCase(final int width) {
		final long seed = TestSeeds.fresh();
		final java.util.Random r = new java.util.Random(seed);
		final int[] size = { 64, 64 };
		final org.nufftj.trajectory.Trajectory t = TestTrajectories.make("cartesian", size, 64 * 64, r);
		final double[] image = Arrays2.gaussian(r, 2 * 64 * 64);
		final double[] exact = Nudft.forward(size, t, image, 0);
		final NufftOptions o = NufftOptions.defaults().withPrecision(Precision.DOUBLE).withKernel(KernelType.KAISER_BESSEL)
			.withWidth(width).withOversampling(2);
		try (NufftPlan plan = Nufft.plan(size, o)) {
			plan.setPoints(t);
			final double[] y = new double[2 * t.count()];
			plan.forward(image, y);
			final double e = Arrays2.relativeError(y, exact), model = plan.parameters().predictedError();
			assertTrue(e <= model && e >= 0.6 * model, "achieved " + e + " vs model " + model + " (seed " + seed + ")");
		}
	}

	@Test
	void explicitWidthAndOversamplingOverrideTheTolerance() {
		final NufftParameters p = ParameterChoice.choose(new int[] { 64, 64 },
			NufftOptions.defaults().withTolerance(1e-6).withWidth(4).withOversampling(2).withKernel(KernelType.KAISER_BESSEL));
		assertEquals(4, p.width());
		assertEquals(128, p.gridSize()[0]);
		assertEquals(KernelType.KAISER_BESSEL, p.kernel().type());
		assertTrue(p.predictedError() > 1e-6, "W=4 cannot reach 1e-6; the model must say so: " + p);
	}

	@Test
	void modelErrorFallsWithWidthAndOversampling() {
		for (final KernelType k : new KernelType[] { KernelType.EXP_SEMICIRCLE, KernelType.KAISER_BESSEL, KernelType.GAUSSIAN }) {
			double last = Double.POSITIVE_INFINITY;
			for (int w = 3; w <= 12; w++) {
				final double e = ParameterChoice.modelError(k, w, 2.0, new int[] { 256 });
				assertTrue(e < last, k + " W=" + w + ": " + e + " >= " + last);
				last = e;
			}
			assertTrue(ParameterChoice.modelError(k, 6, 2.0, new int[] { 256 }) < ParameterChoice.modelError(k, 6, 1.25,
				new int[] { 256 }), k.toString());
		}
	}

	@Test
	void gpuSigmaSetDefaultsAndOverride() {
		assertArrayEquals(new double[] { 1.25, 1.5, 2.0 }, ParameterChoice.parseGpuSigmas(null));
		assertArrayEquals(new double[] { 1.25, 2.0 }, ParameterChoice.parseGpuSigmas(" 1.25, 2"));
		assertMessage(() -> ParameterChoice.parseGpuSigmas("1.5,x"), "nufftj.gpuSigmas");
		assertMessage(() -> ParameterChoice.parseGpuSigmas("1.5,2.75"), "outside");
		assertArrayEquals(ParameterChoice.parseGpuSigmas(null), ParameterChoice.gpuSigmasOrDefault("1.5,x"));
		// The automatic choices stay within σ ≤ 2; an explicit σ up to MAX_SIGMA is accepted.
		for (final DeviceChoice d : new DeviceChoice[] { DeviceChoice.CPU, DeviceChoice.gpu(0) })
			for (final double eps : new double[] { 1e-3, 1e-6 })
				assertTrue(ParameterChoice.choose(new int[] { 128, 128 }, NufftOptions.defaults().withDevice(d)
					.withTolerance(eps)).oversampling() <= 2);
		assertEquals(2.5, ParameterChoice.choose(new int[] { 64, 64 }, NufftOptions.defaults().withOversampling(2.5))
			.oversampling());
	}

	@Test
	void outOfRangeRequestsNameTheProblem() {
		assertMessage(() -> NufftOptions.defaults().withOversampling(1.1), "oversampling");
		assertMessage(() -> NufftOptions.defaults().withOversampling(3), "oversampling");
		assertMessage(() -> NufftOptions.defaults().withWidth(1), "width");
		assertMessage(() -> NufftOptions.defaults().withWidth(40), "width");
		assertMessage(() -> NufftOptions.defaults().withTolerance(0.5), "tolerance");
		assertMessage(() -> NufftOptions.defaults().withTolerance(Double.NaN), "tolerance");
		assertMessage(() -> ParameterChoice.choose(new int[] { 32, 32 }, NufftOptions.defaults().withTolerance(1e-8)),
			"double");
		assertMessage(() -> ParameterChoice.choose(new int[] { 32, 32 },
			NufftOptions.defaults().withPrecision(Precision.DOUBLE).withTolerance(1e-12).withOversampling(1.25)), "reachable");
	}

	private static void assertMessage(final org.junit.jupiter.api.function.Executable e, final String word) {
		final InvalidInputException x = assertThrows(InvalidInputException.class, e);
		assertTrue(x.getMessage().contains(word), x.getMessage());
	}

	@Test
	void smoothSizes() {
		assertEquals(16, ParameterChoice.nextSmooth(15));
		assertEquals(160, ParameterChoice.nextSmooth(160));
		assertEquals(162, ParameterChoice.nextSmooth(161)); // 2·3⁴
		assertEquals(250, ParameterChoice.nextSmooth(243)); // 244 = 4·61, 246 = 6·41, 248 = 8·31, 250 = 2·5³
	}
}
