package org.nufftj.nufft.gpu;

import java.util.Arrays;
import java.util.Locale;

import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TestBuffers;


/**
 * NUFFT-J's own GPU FFT (kernels/fft.cu) against cuFFT on the same buffers: the backend's in-place forward FFT of
 * NUFFT grid sizes (σ = 1.5 grids of 256² and 512² images, 8 coils; 3D grids), float and double, CUDA events around
 * the call, median of 50 after 5 warm-up calls in 3 rounds over the engines (median of the rounds), each engine on its
 * own backend (the engine is chosen when a backend opens): cuFFT, the own FFT as shipped, the own FFT with the
 * generic kernel only, and with global passes only. Own and cuFFT results are compared
 * too (relative l2).
 */
final class GpuFftBenchmark {

	private GpuFftBenchmark() {}

	/** The busy buffer of the queued timings: 512 MiB of float, filled in ~0.15 ms on an H100/H200. */
	private static final long BUSY_FLOATS = 128L << 20;

	static String report() {
		final StringBuilder md = new StringBuilder("\n## Own FFT (kernels/fft.cu) against cuFFT\n\n");
		md.append("In-place forward FFT on the device, CUDA events; per engine the median of 50 calls after 5 warm-up ")
			.append("calls, in 3 rounds over the engines (each on its own backend: the engine is chosen when a backend ")
			.append("opens), the median of the rounds. own = the shipped path (an axis whose lines fit a block's shared ")
			.append("memory in one launch, with the kernel compiled for its length where there is one, others one launch ")
			.append("per pass); own generic = the same with the run-time-length kernel only (`nufftj.ownFftFixed=false`); ")
			.append("own global = every pass a launch (`nufftj.ownFftShared=false`). difference = relative l2 between ")
			.append("own and cuFFT results. queued = the same calls, each queued behind a ~0.15 ms fill of a 512 MiB ")
			.append("buffer on the stream, so that the events bracket the FFT's kernels back to back without the host's ")
			.append("launch calls between them: the device time of the call, as inside a NUFFT execute (the host issues ")
			.append("ahead there); the columns before include the launch calls (a Java-side launch through JCuda costs ")
			.append("more host time than cuFFT's launches from C).\n\n");
		md.append("| size | batch | precision | cuFFT ms | own ms | own generic ms | own global ms | own / cuFFT | ")
			.append("own generic / cuFFT | own global / cuFFT | cuFFT queued ms | own queued ms | own / cuFFT queued | ")
			.append("difference |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		final String before = System.getProperty("nufftj.fft");
		try {
			final int[][] sizes = { { 384, 384 }, { 768, 768 }, { 1024, 1024 }, { 192, 192, 192 }, { 384, 384 },
				{ 256, 256, 256 }, { 96, 96, 96 } };
			final int[] batches = { 8, 8, 1, 1, 8, 1, 8 };
			final boolean[] dbl = { false, false, false, false, true, false, false };
			final int engines = 4, rounds = 3;
			for (int s = 0; s < sizes.length; s++) {
				final int[] size = sizes[s];
				final int batch = batches[s];
				long px = 1;
				for (final int n : size) px *= n;
				final double[] x = new double[(int) (2 * px * batch)];
				final java.util.Random r = new java.util.Random(s);
				for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian();
				final Precision p = dbl[s] ? Precision.DOUBLE : Precision.FLOAT;
				final double[][] runs = new double[engines][rounds], queued = new double[2][rounds];
				final double[][] out = new double[engines][];
				for (int round = 0; round < rounds; round++) {
					for (int e = 0; e < engines; e++) {
						System.setProperty("nufftj.fft", e == 0 ? "cufft" : "own");
						System.setProperty("nufftj.ownFftFixed", String.valueOf(e == 1));
						System.setProperty("nufftj.ownFftShared", String.valueOf(e != 3));
						try (GpuBackend b = GpuBackend.open(0); Buffer buf = TestBuffers.upload(b, x, p)) {
							runs[e][round] = CudaEvents.medianMs(b.stream(), 5, 50, i -> b.fft(buf, size, -1));
							if (e < 2) {
								try (Buffer busy = b.allocate(BUSY_FLOATS, Precision.FLOAT)) {
									queued[e][round] = CudaEvents.medianMsQueued(b.stream(), 5, 50, () -> b.fill(busy, 0, 0),
										i -> b.fft(buf, size, -1));
								}
							}
							if (round == 0) {
								TestBuffers.write(b, x, buf);
								b.fft(buf, size, -1);
								out[e] = TestBuffers.download(b, buf);
							}
						}
						finally {
							System.clearProperty("nufftj.ownFftShared");
							System.clearProperty("nufftj.ownFftFixed");
						}
					}
				}
				final double[] ms = new double[engines], q = new double[2];
				for (int e = 0; e < engines; e++) {
					Arrays.sort(runs[e]);
					ms[e] = runs[e][rounds / 2];
				}
				for (int e = 0; e < 2; e++) {
					Arrays.sort(queued[e]);
					q[e] = queued[e][rounds / 2];
				}
				final String line = String.format(Locale.ROOT,
					"| %s | %d | %s | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.3f | %.3f | %.2f | %.1e |", Arrays
						.toString(size), batch, p.name().toLowerCase(Locale.ROOT), ms[0], ms[1], ms[2], ms[3], ms[1] / ms[0],
					ms[2] / ms[0], ms[3] / ms[0], q[0], q[1], q[1] / q[0], Arrays2.relativeError(out[1], out[0]));
				System.out.println("FFT " + line);
				md.append(line).append('\n');
			}
			pruned(md);
		}
		catch (final RuntimeException e) {
			md.append("FAILED: ").append(Cuda.brief(e)).append('\n');
			e.printStackTrace(System.out);
		}
		finally {
			if (before == null) System.clearProperty("nufftj.fft");
			else System.setProperty("nufftj.fft", before);
		}
		return md.toString();
	}

	/**
	 * The own FFT's pruned transforms against its full one on the same buffer (float): a σ-oversampled grid whose
	 * image block is N (fftFromBlock: the NUFFT forward's zero padding; fftToBlock: the adjoint's crop).
	 */
	private static void pruned(final StringBuilder md) {
		md.append("\nPruned own FFT (float; fftFromBlock = zero outside the image block, as the NUFFT forward's padded ")
			.append("grid; fftToBlock = only the block kept, as the adjoint's crop), same timing:\n\n")
			.append("| size | batch | block | full ms | fromBlock ms | toBlock ms | fromBlock / full | toBlock / full |\n")
			.append("|---|---|---|---|---|---|---|---|\n");
		final int[][] sizes = { { 384, 384 }, { 512, 512 }, { 192, 192, 192 }, { 256, 256, 256 } };
		final int[][] blocks = { { 256, 256 }, { 256, 256 }, { 128, 128, 128 }, { 128, 128, 128 } };
		final int[] batches = { 8, 8, 1, 1 };
		System.setProperty("nufftj.fft", "own");
		for (int s = 0; s < sizes.length; s++) {
			final int[] size = sizes[s], block = blocks[s];
			long px = 1;
			for (final int n : size) px *= n;
			try (GpuBackend b = GpuBackend.open(0); Buffer buf = b.allocate(2 * px * batches[s], Precision.FLOAT)) {
				final double full = time(b, buf, size);
				final double from = CudaEvents.medianMs(b.stream(), 3, 20, i -> b.fftFromBlock(buf, size, block, -1));
				final double to = CudaEvents.medianMs(b.stream(), 3, 20, i -> b.fftToBlock(buf, size, block, 1));
				final String line = String.format(Locale.ROOT, "| %s | %d | %s | %.3f | %.3f | %.3f | %.2f | %.2f |",
					Arrays.toString(size), batches[s], Arrays.toString(block), full, from, to, from / full, to / full);
				System.out.println("FFT pruned " + line);
				md.append(line).append('\n');
			}
		}
	}

	private static double time(final GpuBackend b, final Buffer buf, final int[] size) {
		return CudaEvents.medianMs(b.stream(), 3, 20, i -> b.fft(buf, size, -1));
	}
}
