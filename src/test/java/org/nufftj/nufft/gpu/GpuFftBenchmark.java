package org.nufftj.nufft.gpu;

import java.util.Arrays;
import java.util.Locale;

import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;


/**
 * NUFFT-J's own GPU FFT (kernels/fft.cu) against cuFFT on the same buffers: the backend's in-place forward FFT of
 * NUFFT grid sizes (σ = 1.5 grids of 256² and 512² images, 8 coils; a 3D grid), float, CUDA events around the call,
 * median of 20 after 3 warm-up calls, each engine on its own backend (the engine is chosen when a backend opens). The
 * two results are compared too (relative l2).
 */
final class GpuFftBenchmark {

	private GpuFftBenchmark() {}

	static String report() {
		final StringBuilder md = new StringBuilder("\n## Own FFT (kernels/fft.cu) against cuFFT\n\n");
		md.append("In-place forward FFT on the device, float, median of 20 calls after 3 warm-up calls (CUDA events); ")
			.append("difference = relative l2 between the two engines' results.\n\n");
		md.append("| size | batch | cuFFT ms | own ms | own / cuFFT | difference |\n|---|---|---|---|---|---|\n");
		final String before = System.getProperty("nufftj.fft");
		try {
			final int[][] sizes = { { 384, 384 }, { 768, 768 }, { 1024, 1024 }, { 192, 192, 192 } };
			final int[] batches = { 8, 8, 1, 1 };
			for (int s = 0; s < sizes.length; s++) {
				final int[] size = sizes[s];
				final int batch = batches[s];
				long px = 1;
				for (final int n : size) px *= n;
				final float[] x = new float[(int) (2 * px * batch)];
				final java.util.Random r = new java.util.Random(s);
				for (int i = 0; i < x.length; i++) x[i] = (float) r.nextGaussian();
				final double[] ms = new double[2];
				final float[][] out = new float[2][];
				for (int e = 0; e < 2; e++) {
					System.setProperty("nufftj.fft", e == 0 ? "cufft" : "own");
					try (GpuBackend b = GpuBackend.open(0); Buffer buf = b.wrap(x)) {
						ms[e] = time(b, buf, size);
						b.write(x, 0, buf);
						b.fft(buf, size, -1);
						out[e] = new float[x.length];
						b.read(buf, out[e], 0);
					}
				}
				double d = 0, n = 0;
				for (int i = 0; i < x.length; i++) {
					d += (out[0][i] - out[1][i]) * (double) (out[0][i] - out[1][i]);
					n += out[0][i] * (double) out[0][i];
				}
				final String line = String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.2f | %.1e |", Arrays.toString(
					size), batch, ms[0], ms[1], ms[1] / ms[0], Math.sqrt(d / n));
				System.out.println("FFT " + line);
				md.append(line).append('\n');
			}
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

	private static double time(final GpuBackend b, final Buffer buf, final int[] size) {
		return CudaEvents.medianMs(b.stream(), 3, 20, i -> b.fft(buf, size, -1));
	}
}
