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
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestBuffers;
import org.nufftj.nufft.cpu.CpuBackend;
import org.nufftj.trajectory.Trajectory;

/**
 * NUFFT-J's own GPU FFT (kernels/fft.cu, {@link GpuOwnFft}) on GPU 0, selected by {@code nufftj.fft=own}: the backend's
 * FFT against the CPU backend's (JTransforms) on fresh random data — 1D to 3D, every radix (8, 4, 2, 3, 5, 7),
 * batches, both signs, float and double, through shared-memory axes and global passes —, its pruned transforms
 * (fftFromBlock, fftToBlock) against the full CPU FFT where they promise it, and whole NUFFT plans running on it (pruned
 * on the wrapped image range) against the exact NUDFT to their ε, so the GPU engine works without cuFFT. Lengths with
 * a prime factor above 7 are refused naming the length.
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
		// shared-memory axes (whole blocks and partial ones, contiguous and strided) and axes too long for a block
		// (global passes: 32768; a strided 4096), and both paths forced through global passes
		final int[][] sizes = { { 8 }, { 7 }, { 384 }, { 12, 10 }, { 9, 14 }, { 40, 35 }, { 6, 5, 4 }, { 16, 21, 10 },
			{ 1, 8 }, { 250, 3 }, { 1000, 5 }, { 6, 1000 }, { 36, 30, 28 }, { 32768 }, { 4, 4096 } };
		for (final boolean shared : new boolean[] { true, false }) {
			System.setProperty("nufftj.ownFftShared", String.valueOf(shared));
			try {
				compareWithTheCpu(p, sizes, bound, shared);
			}
			finally {
				System.clearProperty("nufftj.ownFftShared");
			}
		}
	}

	/**
	 * The kernels compiled for one length (GpuOwnFft.FIXED) against the CPU FFT: each length as a contiguous axis, as a
	 * strided one (12 and 16 neighbouring lines: tiles of 4, the last partial for 12; GpuOwnFftFactorsTest checks that
	 * these axes take the per-length kernel), inside 3D arrays, and pruned
	 * (the NUFFT's padded and cropped grids); then the same with the generic kernel forced, both directions.
	 */
	@ParameterizedTest
	@EnumSource(Precision.class)
	void fixedLengthKernelsMatchTheCpuFft(final Precision p) {
		final double bound = p == Precision.FLOAT ? 2e-6 : 1e-13;
		final java.util.List<int[]> sizes = new java.util.ArrayList<>();
		for (final int n : GpuOwnFft.FIXED) {
			sizes.add(new int[] { n });
			sizes.add(new int[] { n, 6 });
			sizes.add(new int[] { 16, n });
			sizes.add(new int[] { 12, n });
		}
		sizes.add(new int[] { 64, 96, 20 });
		sizes.add(new int[] { 10, 128, 64 });
		for (final boolean fixed : new boolean[] { true, false }) {
			System.setProperty("nufftj.ownFftFixed", String.valueOf(fixed));
			try {
				compareWithTheCpu(p, sizes.toArray(new int[0][]), bound, true);
				try (GpuBackend gpu = GpuBackend.open(0); CpuBackend cpu = new CpuBackend(2)) {
					final int[][] grids = { { 384, 384 }, { 96, 64, 128 } };
					final int[][] blocks = { { 256, 256 }, { 64, 40, 90 } };
					for (int s = 0; s < grids.length; s++) {
						final int[] size = grids[s], block = blocks[s];
						for (final boolean toBlock : new boolean[] { false, true }) {
							final int sign = toBlock ? 1 : -1;
							int px = 1;
							for (final int n : size) px *= n;
							final double[] x = new double[2 * px * 2];
							for (int i = 0; i < x.length; i++) {
								if (toBlock || inBlock(i / 2 % px, size, block)) x[i] = random.nextGaussian();
							}
							final double[] expected = run(cpu, x, size, sign, p);
							final double[] actual = runPruned(gpu, x, size, block, sign, p, toBlock);
							if (toBlock) {
								for (int i = 0; i < x.length; i++) {
									if (!inBlock(i / 2 % px, size, block)) expected[i] = actual[i] = 0;
								}
							}
							final double e = Arrays2.relativeError(actual, expected);
							assertTrue(e <= bound, Arrays.toString(size) + " block " + Arrays.toString(block) + (toBlock ?
								", fftToBlock" : ", fftFromBlock") + ", " + p + ", fixed-length kernels " + fixed + ": " + e +
								" > " + bound + ", seed " + seed);
						}
					}
				}
			}
			finally {
				System.clearProperty("nufftj.ownFftFixed");
			}
		}
	}

	private void compareWithTheCpu(final Precision p, final int[][] sizes, final double bound, final boolean shared) {
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
					final double e = Arrays2.relativeError(actual, expected);
					assertTrue(e <= bound, Arrays.toString(size) + " x " + batch + ", sign " + sign + ", " + p +
						": own FFT (" + (shared ? "shared-memory axes where they fit" : "global passes") + ") vs CPU FFT " + e +
						" > " + bound + ", seed " + seed);
				}
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Precision.class)
	void prunedTransformsMatchTheFullCpuFftWhereTheyPromise(final Precision p) {
		final double bound = p == Precision.FLOAT ? 2e-6 : 1e-13;
		final int[][] sizes = { { 40, 36 }, { 24, 20, 18 }, { 30, 12 }, { 16, 15, 14 }, { 4, 4096 } };
		final int[][] blocks = { { 25, 17 }, { 13, 11, 9 }, { 30, 5 }, { 16, 1, 7 }, { 3, 1000 } };
		try (GpuBackend gpu = GpuBackend.open(0); CpuBackend cpu = new CpuBackend(2)) {
			for (int s = 0; s < sizes.length; s++) {
				final int[] size = sizes[s], block = blocks[s];
				for (final boolean toBlock : new boolean[] { false, true }) {
					final int sign = random.nextBoolean() ? -1 : 1, batch = 1 + random.nextInt(3);
					int px = 1;
					for (final int n : size) px *= n;
					final double[] x = new double[2 * px * batch];
					for (int i = 0; i < x.length; i++) {
						if (toBlock || inBlock(i / 2 % px, size, block)) x[i] = random.nextGaussian();
					}
					final double[] expected = run(cpu, x, size, sign, p);
					final double[] actual = runPruned(gpu, x, size, block, sign, p, toBlock);
					if (toBlock) { // only the block is promised
						for (int i = 0; i < x.length; i++) {
							if (!inBlock(i / 2 % px, size, block)) expected[i] = actual[i] = 0;
						}
					}
					final double e = Arrays2.relativeError(actual, expected);
					assertTrue(e <= bound, Arrays.toString(size) + " block " + Arrays.toString(block) + " x " + batch +
						(toBlock ? ", fftToBlock" : ", fftFromBlock") + ", sign " + sign + ", " + p + ": pruned own FFT " +
						"vs full CPU FFT " + e + " > " + bound + ", seed " + seed);
				}
			}
		}
	}

	@Test
	void nufftPlansOnTheOwnFftMeetTheirTolerance() {
		try (GpuBackend gpu = GpuBackend.open(0)) {
			for (final int[] size : new int[][] { { 48, 40 }, { 47, 33 }, { 20, 18, 16 }, { 21, 17, 15 } }) {
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
					final double ef = Arrays2.relativeError(f, Nudft.forward(size, t, img, 2));
					final double ea = Arrays2.relativeError(a, Nudft.adjoint(size, t, smp, 2));
					assertTrue(ef <= 1e-4 && ea <= 1e-4, Arrays.toString(size) + ": forward " + ef + ", adjoint " + ea +
						" against the NUDFT (ε 1e-5, parameters " + plan.parameters() + "), seed " + seed);
				}
			}
		}
	}

	/**
	 * Slices of one buffer (same shape, different offsets) are different transforms: the launch cache keys on the
	 * address with its offset (JCuda's pointer equality ignores the offset; the regularisers' FFTs of bands failed).
	 */
	@Test
	void slicesOfOneBufferAreTransformedSeparately() {
		final int[] size = { 12, 10 };
		final int px = 120, bands = 3;
		final double[] x = new double[2 * px * bands];
		for (int i = 0; i < x.length; i++) x[i] = random.nextGaussian();
		try (GpuBackend gpu = GpuBackend.open(0); CpuBackend cpu = new CpuBackend(2); Buffer g = gpu.allocate(x.length,
			Precision.DOUBLE); Buffer c = cpu.allocate(x.length, Precision.DOUBLE))
		{
			gpu.write(x, 0, g);
			cpu.write(x, 0, c);
			for (int repeat = 0; repeat < 2; repeat++) {
				for (int b = 0; b < bands; b++) {
					gpu.fft(g.slice(2L * px * b, 2L * px), size, -1);
					cpu.fft(c.slice(2L * px * b, 2L * px), size, -1);
				}
			}
			final double[] expected = new double[x.length], actual = new double[x.length];
			cpu.read(c, expected, 0);
			gpu.read(g, actual, 0);
			final double e = Arrays2.relativeError(actual, expected);
			assertTrue(e <= 1e-13, "bands transformed in slices: " + e + ", seed " + seed);
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
		return transform(b, x, p, buf -> b.fft(buf, size, sign));
	}

	/** x written to a fresh buffer of precision p, {@code op} applied to it, the result read back. */
	private static double[] transform(final Backend b, final double[] x, final Precision p,
		final java.util.function.Consumer<Buffer> op)
	{
		try (Buffer buf = TestBuffers.upload(b, x, p)) {
			op.accept(buf);
			return TestBuffers.download(b, buf);
		}
	}

	/** True when pixel p of an array of size lies in the centred block (CentredBlock's placement). */
	private static boolean inBlock(final int p, final int[] size, final int[] block) {
		int r = p;
		for (int a = 0; a < size.length; a++) {
			final int c = r % size[a], o = size[a] / 2 - block[a] / 2;
			if (c < o || c >= o + block[a]) return false;
			r /= size[a];
		}
		return true;
	}

	private static double[] runPruned(final GpuBackend b, final double[] x, final int[] size, final int[] block,
		final int sign, final Precision p, final boolean toBlock)
	{
		return transform(b, x, p, buf -> {
			if (toBlock) b.fftToBlock(buf, size, block, sign);
			else b.fftFromBlock(buf, size, block, sign);
		});
	}

}
