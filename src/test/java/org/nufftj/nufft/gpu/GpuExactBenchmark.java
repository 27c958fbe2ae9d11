package org.nufftj.nufft.gpu;

import java.util.Locale;
import java.util.Random;

import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Trajectory;


/**
 * Issue 8's figure for the exact plan (kernels/exact.cu): sustained GFLOPS of Q and Fᴴd by direct sums, 3D grids of
 * 64³ and 128³ with 2^20 random samples, counted as Stone et al. 2008 count them: per sample-voxel pair, Q (real
 * weights) 12 floating-point operations (the argument k·x 5, 2π 1, sin and cos 2, the real-times-complex accumulate
 * 4) and Fᴴd 16 (a complex multiply-accumulate, 8, instead of 4), per coil. The kernels do fewer: they form the
 * argument once per 4 voxels along x and rotate in between, so this is a rate of pairs in Stone's units, not the
 * instructions issued; pairs per second are printed too. FP32 peak: SMs × FP32 lanes per SM (64 for compute
 * capability 7.x and 8.0, else 128) × 2 × the clock the driver reports. CUDA events around the launch alone (points
 * and inputs on the device), 2 warm-up runs, median of 5. Accuracy: 32 random voxels against the sums in double, relative
 * to the sums' typical size √Σ|s_m|² (random inputs).
 */
final class GpuExactBenchmark {

	private GpuExactBenchmark() {}

	static String report() {
		final StringBuilder md = new StringBuilder("\n## Exact Q and Fᴴd (kernels/exact.cu, Stone et al. 2008 counting)\n\n");
		try (GpuBackend backend = GpuBackend.open(0)) {
			final GpuDevice d = backend.gpu();
			final String[] cc = d.computeCapability().split("\\.");
			final int major = Integer.parseInt(cc[0]), minor = Integer.parseInt(cc[1]);
			final int lanes = major < 8 || (major == 8 && minor == 0) ? 64 : 128;
			final double peak = d.multiprocessors() * (double) lanes * 2 * d.clockKhz() * 1e3 / 1e9;
			md.append(String.format(Locale.ROOT, "FP32 peak %.0f GFLOPS (%d SMs x %d lanes x 2 x %.0f MHz). Pairs = " +
				"samples x voxels; Q 12 and F^H d 16 FLOP per pair and coil; median of 5 after 2 warm-up runs (CUDA " +
				"events); error: 32 random voxels against double sums, relative to √Σ|s|².%n%n", peak, d.multiprocessors(), lanes, d
					.clockKhz() / 1e3));
			md.append("| grid | samples | what | ms | pairs/s | GFLOPS | of peak | max rel. error |\n");
			md.append("|---|---|---|---|---|---|---|---|\n");
			final Random r = new Random(20081124);
			final int m = 1 << 20;
			final double[] k = new double[3 * m];
			for (int i = 0; i < k.length; i++) k[i] = r.nextDouble() - 0.5;
			final Trajectory t = new Trajectory(3, k, "random 3D");
			for (final int n : new int[] { 64, 128 }) {
				final int[] size = { n, n, n };
				for (final int coils : new int[] { 0, 1, 8 }) { // 0: Q (real weights)
					final String line = row(backend, t, size, coils, r, peak);
					System.out.println("EXACT " + line);
					md.append(line).append('\n');
				}
			}
			// The PSF of issue 8's pics workload: 96 x 512 radial samples on the 2N = 512² grid (2D).
			final double[] k2 = new double[2 * 96 * 512];
			for (int s = 0; s < 96; s++) {
				final double a = s * 0.6180339887498949 * Math.PI; // golden-angle increments
				for (int j = 0; j < 512; j++) {
					final double rho = (j - 256) / 1024.0;
					k2[2 * (s * 512 + j)] = rho * Math.cos(a);
					k2[2 * (s * 512 + j) + 1] = rho * Math.sin(a);
				}
			}
			final String line = row(backend, new Trajectory(2, k2, "radial 96x512"), new int[] { 512, 512 }, 0, r, peak);
			System.out.println("EXACT " + line);
			md.append(line).append('\n');
		}
		catch (final RuntimeException e) {
			md.append("FAILED: ").append(Cuda.brief(e)).append('\n');
			e.printStackTrace(System.out);
		}
		return md.toString();
	}

	private static String row(final GpuBackend backend, final Trajectory t, final int[] size, final int coils,
		final Random r, final double peak)
	{
		final int m = t.count(), tr = Math.max(1, coils);
		long px = 1;
		for (final int n : size) px *= n;
		final float[] in = new float[2 * m * tr];
		for (int i = 0; i < in.length; i++) in[i] = coils == 0 && i % 2 == 1 ? 0 : (float) r.nextGaussian();
		final double med;
		final float[] out = new float[(int) (2 * px * tr)];
		try (GpuExactPlan plan = backend.exactPlan(size, Precision.FLOAT); Buffer s = backend.wrap(in);
			Buffer img = backend.allocate(2 * px * tr, Precision.FLOAT))
		{
			plan.setPoints(t);
			med = CudaEvents.medianMs(backend.stream(), 2, 5, i -> plan.adjoint(s, img));
			backend.read(img, out, 0);
		}
		final double pairs = (double) m * px;
		final double gflops = pairs * tr * (coils == 0 ? 12 : 16) / (med * 1e-3) / 1e9;
		// 32 random voxels (of the first coil) against the sum in double.
		double worst = 0;
		for (int v = 0; v < 32; v++) {
			final long idx = (long) (r.nextDouble() * px);
			final int x = (int) (idx % size[0]), y = (int) (idx / size[0] % size[1]);
			final int z = size.length > 2 ? (int) (idx / ((long) size[0] * size[1])) : 0;
			double sr = 0, si = 0, mag = 0;
			for (int p = 0; p < m; p++) {
				double arg = t.k(p, 0) * (x - size[0] / 2) + t.k(p, 1) * (y - size[1] / 2);
				if (size.length > 2) arg += t.k(p, 2) * (z - size[2] / 2);
				final double c = Math.cos(2 * Math.PI * arg), sn = Math.sin(2 * Math.PI * arg);
				sr += in[2 * p] * c - in[2 * p + 1] * sn;
				si += in[2 * p] * sn + in[2 * p + 1] * c;
				mag += in[2 * p] * in[2 * p] + in[2 * p + 1] * in[2 * p + 1];
			}
			// relative to √Σ|s_m|², the typical size of a sum of random terms (a voxel's own value may be near 0)
			worst = Math.max(worst, Math.hypot(out[(int) (2 * idx)] - sr, out[(int) (2 * idx + 1)] - si) / Math.sqrt(mag));
		}
		return String.format(Locale.ROOT, "| %s | %d | %s | %.2f | %.3g | %.0f | %.0f%% | %.1e |", size.length == 3 ?
			size[0] + "³" : size[0] + "²", m, coils == 0 ? "Q (PSF, real weights)" : "Fᴴd, " + coils + " coil" + (coils > 1 ?
				"s" : ""), med, pairs * tr / (med * 1e-3), gflops, 100 * gflops / peak, worst);
	}
}
