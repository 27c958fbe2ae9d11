package org.nufftj.nufft;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;

import org.nufftj.trajectory.Trajectory;

/**
 * The exact non-uniform DFT, in double, multithreaded: the oracle for tests and an engine for small problems.
 * Same maths, layout and (lack of) scaling as {@link NufftPlan}: forward y_m = Σ_x f(x)e^{−2πi k_m·x}, adjoint
 * f(x) = Σ_m y_m e^{+2πi k_m·x}, x = index − N/2. Cost O(points × pixels) per transform. Phase factors are computed
 * per axis with {@code cos}/{@code sin} (no recurrences, so no accumulated rounding).
 */
public final class Nudft {

	private Nudft() {}

	// -- public API --

	/** Forward: image (2·pixels·T) → samples (2·M·T). */
	public static double[] forward(final int[] size, final Trajectory t, final double[] image, final int threads) {
		final int pixels = pixels(size);
		final int m = t.count();
		final int transforms = image.length / (2 * pixels);
		final double[] out = new double[2 * m * transforms];
		parallel(threads, m, (from, to) -> {
			final double[][] ph = phaseBuffers(size);
			for (int p = from; p < to; p++) {
				phases(size, t, p, -1, ph);
				for (int tr = 0; tr < transforms; tr++) {
					final double[] s = sum(size, ph, image, 2 * pixels * tr);
					out[2 * (m * tr + p)] = s[0];
					out[2 * (m * tr + p) + 1] = s[1];
				}
			}
		});
		return out;
	}

	/** Adjoint: samples (2·M·T) → image (2·pixels·T). */
	public static double[] adjoint(final int[] size, final Trajectory t, final double[] samples, final int threads) {
		final int pixels = pixels(size);
		final int m = t.count();
		final int transforms = samples.length / (2 * m);
		final double[] out = new double[2 * pixels * transforms];
		// Parallel over the outermost image axis so threads write disjoint pixels.
		final int d = size.length;
		final int outer = size[d - 1];
		final int inner = pixels / outer;
		parallel(threads, outer, (from, to) -> {
			final double[][] ph = phaseBuffers(size);
			for (int p = 0; p < m; p++) {
				phases(size, t, p, +1, ph);
				for (int tr = 0; tr < transforms; tr++) {
					final double yr = samples[2 * (m * tr + p)], yi = samples[2 * (m * tr + p) + 1];
					final int base = 2 * pixels * tr;
					for (int o = from; o < to; o++) {
						final double or = ph[d - 1][2 * o], oi = ph[d - 1][2 * o + 1];
						final double ar = yr * or - yi * oi, ai = yr * oi + yi * or;
						if (d == 2) {
							addRow(out, base + 2 * inner * o, ph[0], ar, ai, size[0]);
						}
						else {
							for (int y = 0; y < size[1]; y++) {
								final double qr = ph[1][2 * y], qi = ph[1][2 * y + 1];
								addRow(out, base + 2 * (inner * o + size[0] * y), ph[0], ar * qr - ai * qi,
									ar * qi + ai * qr, size[0]);
							}
						}
					}
				}
			}
		});
		return out;
	}

	/** Convenience: float arrays in and out, computed in double. */
	public static float[] forward(final int[] size, final Trajectory t, final float[] image, final int threads) {
		return toFloat(forward(size, t, toDouble(image), threads));
	}

	public static float[] adjoint(final int[] size, final Trajectory t, final float[] samples, final int threads) {
		return toFloat(adjoint(size, t, toDouble(samples), threads));
	}

	public static double[] toDouble(final float[] a) {
		final double[] d = new double[a.length];
		for (int i = 0; i < a.length; i++) d[i] = a[i];
		return d;
	}

	public static float[] toFloat(final double[] a) {
		final float[] f = new float[a.length];
		for (int i = 0; i < a.length; i++) f[i] = (float) a[i];
		return f;
	}

	// -- helpers --

	private interface Range {
		void run(int from, int to) throws Exception;
	}

	private static void parallel(final int threads, final int n, final Range body) {
		final int t = Math.max(1, Math.min(threads > 0 ? threads : Runtime.getRuntime().availableProcessors(), n));
		if (t == 1) {
			try {
				body.run(0, n);
			}
			catch (final Exception e) {
				throw new RuntimeException(e);
			}
			return;
		}
		final ExecutorService pool = Executors.newFixedThreadPool(t);
		try {
			final List<Future<?>> fs = new ArrayList<>();
			for (int i = 0; i < t; i++) {
				final int from = (int) ((long) n * i / t), to = (int) ((long) n * (i + 1) / t);
				fs.add(pool.submit(() -> {
					body.run(from, to);
					return null;
				}));
			}
			for (final Future<?> f : fs) f.get();
		}
		catch (final Exception e) {
			throw new RuntimeException("NUDFT failed: " + e.getMessage(), e);
		}
		finally {
			pool.shutdown();
		}
	}

	private static double[][] phaseBuffers(final int[] size) {
		final double[][] ph = new double[size.length][];
		for (int a = 0; a < size.length; a++) ph[a] = new double[2 * size[a]];
		return ph;
	}

	/** ph[a][2x] + i ph[a][2x+1] = e^{sign·2πi k_a (x − N_a/2)}. */
	private static void phases(final int[] size, final Trajectory t, final int p, final int sign, final double[][] ph) {
		for (int a = 0; a < size.length; a++) {
			final double k = t.k(p, a);
			final int n = size[a];
			for (int x = 0; x < n; x++) {
				final double arg = sign * 2 * Math.PI * k * (x - n / 2);
				ph[a][2 * x] = Math.cos(arg);
				ph[a][2 * x + 1] = Math.sin(arg);
			}
		}
	}

	private static double[] sum(final int[] size, final double[][] ph, final double[] img, final int base) {
		final int d = size.length;
		double sr = 0, si = 0;
		final int n0 = size[0], n1 = size[1], n2 = d == 3 ? size[2] : 1;
		for (int z = 0; z < n2; z++) {
			final double zr = d == 3 ? ph[2][2 * z] : 1, zi = d == 3 ? ph[2][2 * z + 1] : 0;
			for (int y = 0; y < n1; y++) {
				double rr = 0, ri = 0;
				final int off = base + 2 * n0 * (y + n1 * z);
				final double[] p0 = ph[0];
				for (int x = 0; x < n0; x++) {
					final double fr = img[off + 2 * x], fi = img[off + 2 * x + 1];
					final double cr = p0[2 * x], ci = p0[2 * x + 1];
					rr += fr * cr - fi * ci;
					ri += fr * ci + fi * cr;
				}
				final double yr = ph[1][2 * y], yi = ph[1][2 * y + 1];
				final double qr = yr * zr - yi * zi, qi = yr * zi + yi * zr;
				sr += rr * qr - ri * qi;
				si += rr * qi + ri * qr;
			}
		}
		return new double[] { sr, si };
	}

	private static void addRow(final double[] out, final int off, final double[] p0, final double ar, final double ai,
		final int n0)
	{
		for (int x = 0; x < n0; x++) {
			final double cr = p0[2 * x], ci = p0[2 * x + 1];
			out[off + 2 * x] += ar * cr - ai * ci;
			out[off + 2 * x + 1] += ar * ci + ai * cr;
		}
	}

	private static int pixels(final int[] size) {
		int p = 1;
		for (final int n : size) p *= n;
		return p;
	}
}
