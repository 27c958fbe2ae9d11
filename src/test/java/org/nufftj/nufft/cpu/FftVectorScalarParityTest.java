package org.nufftj.nufft.cpu;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Supplier;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Arrays2;

/**
 * The line FFT's Vector API passes ({@link VectorLinePasses}) against its scalar passes on fresh random inputs, alone
 * and inside the two callers: every radix mix the engine's grids use, both signs, full and partial blocks;
 * {@link CpuFft} on float and double buffers, whole and pruned (from and to a centred block), several arrays;
 * {@link GridFft} pruned, several transforms. Relative l2 ≤ 1e-12 in double, ≤ 1e-6 for float buffers. Skipped, with
 * the reason, where the JVM has no vector module (the scalar passes alone are checked by {@link LineFftTest}).
 */
class FftVectorScalarParityTest {

	private static final int[] LENGTHS = { 96, 128, 192, 256, 320, 384, 480, 512, 640, 768, 1024, 8, 16, 24, 48, 64, 7,
		13, 31, 37, 97, 5, 35, 360, 378, 392, 400, 448, 486, 500 };

	private final long seed = TestSeeds.fresh();
	private final Random random = new Random(seed);

	@BeforeEach
	void needsTheVectorModule() {
		final String why = VectorSupport.unavailableReason();
		Assumptions.assumeTrue(why == null, "no Vector API passes in this JVM: " + why);
	}

	@Test
	void linePassesAgree() {
		for (final int n : LENGTHS) {
			final LineFft v = new LineFft(n, VectorSupport.availablePasses()), s = new LineFft(n, null);
			for (final int lines : new int[] { 1, Math.min(5, s.block), Math.min(v.block, s.block) }) {
				for (final int sign : new int[] { -1, 1 }) {
					final double[][] x = new double[lines][2 * n];
					for (final double[] line : x) for (int i = 0; i < 2 * n; i++) line[i] = random.nextGaussian();
					final double[] a = run(v, x, sign), b = run(s, x, sign);
					final double e = Arrays2.relativeError(a, b);
					assertTrue(e <= 1e-12, "n " + n + ", " + lines + " lines, sign " + sign + ": vector vs scalar " + e +
						", seed " + seed);
				}
			}
		}
	}

	@Test
	void backendFftsAgree() {
		final int[][] sizes = { { 384, 96 }, { 64, 48, 20 }, { 512 }, { 320, 30 } };
		for (final int[] size : sizes) {
			final int[] block = new int[size.length];
			int px = 1;
			for (int a = 0; a < size.length; a++) {
				block[a] = size[a] / 2 + 1;
				px *= size[a];
			}
			for (final boolean single : new boolean[] { true, false }) {
				final double[] x = Arrays2.gaussian(random, 2 * px * 3);
				for (int mode = 0; mode < 3; mode++) {
					final int m = mode;
					final double[] a = withPasses(true, () -> backendFft(size, block, x, single, m));
					final double[] b = withPasses(false, () -> backendFft(size, block, x, single, m));
					final double e = Arrays2.relativeError(a, b), limit = single ? 1e-6 : 1e-12;
					assertTrue(e <= limit, java.util.Arrays.toString(size) + (single ? " float" : " double") + ", mode " +
						m + ": vector vs scalar " + e + ", seed " + seed);
				}
			}
		}
	}

	@Test
	void gridFftsAgree() {
		for (final int[] size : new int[][] { { 384, 384 }, { 96, 80, 48 }, { 480, 320 } }) {
			final int[] image = new int[size.length];
			int cells = 1;
			for (int a = 0; a < size.length; a++) {
				image[a] = size[a] * 2 / 3;
				cells *= size[a];
			}
			for (final int transforms : new int[] { 1, 8, 3 }) {
				final double[] g = Arrays2.gaussian(random, 2 * cells * transforms);
				for (final int sign : new int[] { -1, 1 }) {
					final double[] a = withPasses(true, () -> gridFft(size, image, g, transforms, sign));
					final double[] b = withPasses(false, () -> gridFft(size, image, g, transforms, sign));
					final double e = Arrays2.relativeError(a, b);
					assertTrue(e <= 1e-12, java.util.Arrays.toString(size) + ", " + transforms + " transforms, sign " +
						sign + ": vector vs scalar " + e + ", seed " + seed);
				}
			}
		}
	}

	// -- helpers --

	/** Transforms the lines x with f; the result line by line, interleaved. */
	private static double[] run(final LineFft f, final double[][] x, final int sign) {
		final int n = f.n, lines = x.length, b = f.stride(lines);
		for (int l = 0; l < lines; l++) {
			for (int i = 0; i < n; i++) {
				f.re[i * b + l] = x[l][2 * i];
				f.im[i * b + l] = x[l][2 * i + 1];
			}
		}
		f.transform(lines, sign);
		final double[] out = new double[2 * n * lines];
		for (int l = 0; l < lines; l++) {
			for (int i = 0; i < n; i++) {
				out[2 * (l * n + i)] = f.resultRe()[i * b + l];
				out[2 * (l * n + i) + 1] = f.resultIm()[i * b + l];
			}
		}
		return out;
	}

	/** mode 0: the whole FFT (sign −1); 1: from the centred block (sign +1); 2: to the centred block (sign −1). */
	private static double[] backendFft(final int[] size, final int[] block, final double[] x, final boolean single,
		final int mode)
	{
		try (Workers w = new Workers(2)) {
			final CpuFft fft = new CpuFft(size, w);
			final float[] f = single ? new float[x.length] : null;
			final double[] d = single ? null : x.clone();
			if (single) for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
			final CpuBuffer buffer = new CpuBuffer(null, f, d, 0, x.length);
			if (mode == 0) fft.transform(buffer, -1);
			else fft.transform(buffer, mode == 1 ? 1 : -1, block, mode == 1);
			if (!single) return d;
			final double[] out = new double[x.length];
			for (int i = 0; i < x.length; i++) out[i] = f[i];
			return out;
		}
	}

	private static double[] gridFft(final int[] size, final int[] image, final double[] g, final int transforms,
		final int sign)
	{
		try (Workers w = new Workers(2)) {
			final double[] out = g.clone();
			new GridFft(size, image, w).transform(out, transforms, sign);
			return out;
		}
	}

	/** The passes are on by default where the module is, and {@code -Dnufftj.vectorFft=false} turns them off alone. */
	@Test
	void vectorPassesAreTheDefaultAndCanBeTurnedOffAlone() {
		final String fft = System.getProperty("nufftj.vectorFft");
		try {
			System.clearProperty("nufftj.vectorFft");
			assertNotNull(VectorSupport.linePasses(), "default: vector passes");
			System.setProperty("nufftj.vectorFft", "false");
			assertNull(VectorSupport.linePasses(), "-Dnufftj.vectorFft=false: scalar passes");
			assertNotNull(VectorSupport.kernels(), "the tap kernels stay on the Vector API");
		}
		finally {
			if (fft == null) System.clearProperty("nufftj.vectorFft");
			else System.setProperty("nufftj.vectorFft", fft);
		}
	}

	/** Runs make with the vector passes on or off (the property is read when a line FFT is made). */
	private static double[] withPasses(final boolean on, final Supplier<double[]> make) {
		final String before = System.getProperty("nufftj.vector"), fft = System.getProperty("nufftj.vectorFft");
		System.setProperty("nufftj.vector", Boolean.toString(on));
		System.setProperty("nufftj.vectorFft", Boolean.toString(on));
		try {
			if (on) assertNotNull(VectorSupport.linePasses(), "vector passes on");
			else assertNull(VectorSupport.linePasses(), "scalar passes");
			return make.get();
		}
		finally {
			if (before == null) System.clearProperty("nufftj.vector");
			else System.setProperty("nufftj.vector", before);
			if (fft == null) System.clearProperty("nufftj.vectorFft");
			else System.setProperty("nufftj.vectorFft", fft);
		}
	}
}
