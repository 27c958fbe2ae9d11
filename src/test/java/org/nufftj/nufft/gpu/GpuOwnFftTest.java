package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.cpu.CpuBackend;
import org.nufftj.trajectory.Trajectory;

/**
 * NUFFT-J's own GPU FFT (kernels/fft.cu, {@link GpuOwnFft}) on GPU 0, selected by {@code nufftj.fft=own}: the backend's
 * FFT against the CPU backend's (JTransforms) on fresh random data — 1D to 3D, every radix (8, 4, 2, 3, 5, 7),
 * batches, both signs, float and double —, and whole NUFFT plans running on it against the exact NUDFT to their ε, so
 * the GPU engine works without cuFFT. Lengths with a prime factor above 7 are refused naming the length.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuOwnFftTest {

	private String before;
	private long seed;
	private Random random;

	@BeforeEach
	void own() {
		before = System.getProperty("nufftj.fft");
		System.setProperty("nufftj.fft", "own");
		seed = TestSeeds.fresh();
		random = new Random(seed);
	}

	@AfterEach
	void restore() {
		if (before == null) System.clearProperty("nufftj.fft");
		else System.setProperty("nufftj.fft", before);
	}

	@ParameterizedTest
	@EnumSource(Precision.class)
	void matchesTheCpuFft(final Precision p) {
		final double bound = p == Precision.FLOAT ? 2e-6 : 1e-13;
		final int[][] sizes = { { 8 }, { 7 }, { 384 }, { 12, 10 }, { 9, 14 }, { 40, 35 }, { 6, 5, 4 }, { 16, 21, 10 },
			{ 1, 8 }, { 250, 3 } };
		try (GpuBackend gpu = GpuBackend.open(0); CpuBackend cpu = new CpuBackend(2)) {
			assertTrue(GpuFfts.useOwn(), "own FFT selected");
			for (final int[] size : sizes) {
				for (final int sign : new int[] { -1, 1 }) {
					final int batch = 1 + random.nextInt(3);
					int px = 1;
					for (final int n : size) px *= n;
					final double[] x = new double[2 * px * batch];
					for (int i = 0; i < x.length; i++) x[i] = random.nextGaussian();
					final double[] expected = run(cpu, x, size, sign, p), actual = run(gpu, x, size, sign, p);
					final double e = relative(expected, actual);
					assertTrue(e <= bound, Arrays.toString(size) + " x " + batch + ", sign " + sign + ", " + p +
						": own FFT vs CPU FFT " + e + " > " + bound + ", seed " + seed);
				}
			}
		}
	}

	@Test
	void nufftPlansOnTheOwnFftMeetTheirTolerance() {
		try (GpuBackend gpu = GpuBackend.open(0)) {
			for (final int[] size : new int[][] { { 48, 40 }, { 20, 18, 16 } }) {
				final int m = 2000;
				final double[] k = new double[size.length * m];
				for (int i = 0; i < k.length; i++) k[i] = random.nextDouble() - 0.5;
				final Trajectory t = new Trajectory(size.length, k, "random");
				int px = 1;
				for (final int n : size) px *= n;
				final double[] img = new double[2 * px], smp = new double[2 * m];
				for (int i = 0; i < img.length; i++) img[i] = random.nextGaussian();
				for (int i = 0; i < smp.length; i++) smp[i] = random.nextGaussian();
				try (NufftPlan plan = gpu.plan(size, NufftOptions.defaults().withTolerance(1e-5))) {
					plan.setPoints(t);
					final float[] f = new float[2 * m], a = new float[2 * px];
					plan.forward(Nudft.toFloat(img), f);
					plan.adjoint(Nudft.toFloat(smp), a);
					final double ef = relative(Nudft.forward(size, t, img, 2), Nudft.toDouble(f));
					final double ea = relative(Nudft.adjoint(size, t, smp, 2), Nudft.toDouble(a));
					assertTrue(ef <= 1e-4 && ea <= 1e-4, Arrays.toString(size) + ": forward " + ef + ", adjoint " + ea +
						" against the NUDFT (ε 1e-5, parameters " + plan.parameters() + "), seed " + seed);
				}
			}
		}
	}

	@Test
	void lengthsWithLargerPrimesAreRefused() {
		try (GpuBackend gpu = GpuBackend.open(0); Buffer b = gpu.allocate(2 * 22, Precision.FLOAT)) {
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> gpu.fft(b, new int[] { 22 },
				-1));
			assertTrue(e.getMessage().contains("22") && e.getMessage().contains("11"), e.getMessage());
		}
	}

	// -- helpers --

	private static double[] run(final Backend b, final double[] x, final int[] size, final int sign, final Precision p) {
		try (Buffer buf = b.allocate(x.length, p)) {
			if (p == Precision.DOUBLE) b.write(x, 0, buf);
			else b.write(Nudft.toFloat(x), 0, buf);
			b.fft(buf, size, sign);
			final double[] out = new double[x.length];
			if (p == Precision.DOUBLE) b.read(buf, out, 0);
			else {
				final float[] f = new float[x.length];
				b.read(buf, f, 0);
				for (int i = 0; i < f.length; i++) out[i] = f[i];
			}
			return out;
		}
	}

	private static double relative(final double[] expected, final double[] actual) {
		double d = 0, n = 0;
		for (int i = 0; i < expected.length; i++) {
			d += (expected[i] - actual[i]) * (expected[i] - actual[i]);
			n += expected[i] * expected[i];
		}
		return Math.sqrt(d / n);
	}
}
