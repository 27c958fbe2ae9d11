package org.nufftj.phantom;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.trajectory.Trajectory;

/**
 * Simulated multi-coil k-space of an analytic phantom: y_c(k_m) = Σ_j a_cj·F(k_m − q_cj) + n_cm, exact (see
 * {@link CoilSensitivities}; F from {@link AnalyticPhantom}) plus complex Gaussian noise ({@link Noise}). The scale is
 * NUFFT-J's unscaled forward transform (y ≈ Σ_x f(x)·s_c(x)·e^{−2πi k·x}, docs/conventions.md), so a gridding
 * reconstruction returns the phantom at its own intensity.
 * <p>
 * The transform of ellipses costs a Bessel function per component and frequency, so the points are shared out over
 * {@code threads} worker threads (0 = all cores) that live for one call; the phantom and the sensitivities are
 * immutable, and each worker writes its own points. Results do not depend on the thread count.
 * </p>
 */
public final class Simulation {

	/** Sub-samples per axis and pixel of {@link #truth()}: 4 in 2D, 2 in 3D (64 and 8 per pixel). */
	public static final int TRUTH_SUPERSAMPLE_2D = 4, TRUTH_SUPERSAMPLE_3D = 2;

	private static final int CHUNK = 256;

	private final AnalyticPhantom phantom;
	private final CoilSensitivities coils;

	public Simulation(final AnalyticPhantom phantom, final CoilSensitivities coils) {
		coils.requireCompatible(phantom);
		phantom.checkMatrix(coils.matrix());
		this.phantom = phantom;
		this.coils = coils;
	}

	/** The result of {@link #run}: the samples, the RMS magnitude of the noiseless samples and the σ added. */
	public static final class Result {

		private final KSpace kspace;
		private final double signalRms, sigma;

		Result(final KSpace kspace, final double signalRms, final double sigma) {
			this.kspace = kspace;
			this.signalRms = signalRms;
			this.sigma = sigma;
		}

		/** Samples: one frame, coils as in {@link KSpace}. */
		public KSpace kspace() { return kspace; }

		/** rms|y| of the noiseless samples over all coils. */
		public double signalRms() { return signalRms; }

		/** Noise standard deviation per real/imaginary component (0: none). */
		public double sigma() { return sigma; }
	}

	// -- public API --

	public AnalyticPhantom phantom() { return phantom; }

	public CoilSensitivities coils() { return coils; }

	public int[] matrix() { return coils.matrix(); }

	/**
	 * The exact noiseless samples in double, interleaved (re, im), sample fastest then coil: element (m, c) at
	 * {@code 2·(m + M·c)}.
	 */
	public double[] noiseless(final Trajectory t, final int threads) {
		final int d = phantom.dimensions();
		InvalidInputException.require(t.dimensions() == d, "phantom " + phantom.name() + " is " + d + "D, trajectory " +
			t.name() + " is " + t.dimensions() + "D");
		final int m = t.count(), nc = coils.coils();
		InvalidInputException.require(2L * m * nc <= Integer.MAX_VALUE - 8, "simulation of " + m + " points x " + nc +
			" coils is too large for one array");
		final double[] out = new double[2 * m * nc];
		final int[] matrix = coils.matrix();
		final double[][] shifts = coils.shifts();
		final int chunks = (m + CHUNK - 1) / CHUNK;
		parallel(threads, chunks, () -> {
			final double[] f = new double[2 * shifts.length], k = new double[d], p = new double[d];
			return chunk -> {
				for (int pt = chunk * CHUNK, end = Math.min(m, pt + CHUNK); pt < end; pt++) {
					for (int u = 0; u < shifts.length; u++) {
						for (int a = 0; a < d; a++) k[a] = t.k(pt, a) - shifts[u][a];
						f[2 * u] = 0;
						f[2 * u + 1] = 0;
						phantom.addKSpace(k, matrix, p, f, 2 * u);
					}
					for (int c = 0; c < nc; c++) {
						double yr = 0, yi = 0;
						for (int j = 0; j < coils.terms(c); j++) {
							final int u = coils.shiftOf(c, j);
							final double ar = coils.re(c, j), ai = coils.im(c, j);
							yr += ar * f[2 * u] - ai * f[2 * u + 1];
							yi += ar * f[2 * u + 1] + ai * f[2 * u];
						}
						out[2 * (pt + m * c)] = yr;
						out[2 * (pt + m * c) + 1] = yi;
					}
				}
			};
		});
		return out;
	}

	/** The noiseless samples plus noise, as float k-space (one frame). */
	public Result run(final Trajectory t, final Noise noise, final int threads) {
		final double[] y = noiseless(t, threads);
		final double rms = Noise.rms(y);
		final double sigma = noise.sigmaFor(y);
		noise.addTo(y, sigma);
		final float[] f = new float[y.length];
		for (int i = 0; i < y.length; i++) f[i] = (float) y[i];
		return new Result(new KSpace(f, t.count(), coils.coils(), 1), rms, sigma);
	}

	/** The coil-combined ground truth with the default supersampling ({@link #TRUTH_SUPERSAMPLE_2D}, _3D). */
	public ComplexImage truth() {
		return truth(phantom.dimensions() == 3 ? TRUTH_SUPERSAMPLE_3D : TRUTH_SUPERSAMPLE_2D);
	}

	/**
	 * The coil-combined ground truth: the root sum of squares of the coil images f·s_c, i.e.
	 * |f(x)|·√(Σ_c |s_c(x)|²), with f the phantom averaged over {@code supersample}^d points per pixel and s_c at
	 * the pixel centre. It is what a sum-of-squares reconstruction estimates (|f| for one unit coil). Real, one
	 * channel.
	 */
	public ComplexImage truth(final int supersample) {
		final int[] matrix = coils.matrix();
		final ComplexImage f = phantom.image(matrix, supersample);
		final float[] fd = f.data();
		final int pixels = f.pixels();
		final float[] out = new float[2 * pixels];
		final int d = matrix.length, nx = matrix[0], ny = matrix[1];
		final double[] x = new double[d];
		for (int i = 0; i < pixels; i++) {
			x[0] = i % nx - nx / 2;
			x[1] = (i / nx) % ny - ny / 2;
			if (d == 3) x[2] = i / (nx * ny) - matrix[2] / 2;
			double s2 = 0;
			for (int c = 0; c < coils.coils(); c++) {
				final double[] s = coils.value(c, x);
				s2 += s[0] * s[0] + s[1] * s[1];
			}
			out[2 * i] = (float) (Math.hypot(fd[2 * i], fd[2 * i + 1]) * Math.sqrt(s2));
		}
		return new ComplexImage(out, matrix, 1, 1, null);
	}

	// -- helpers --

	private interface Chunk {
		void run(int chunk);
	}

	private interface Worker {
		/** A chunk runner with its own scratch arrays. */
		Chunk make();
	}

	/** Runs chunks [0, n) on up to {@code threads} threads (0 = all cores), handed out one at a time. */
	private static void parallel(final int threads, final int n, final Worker worker) {
		final int t = Math.max(1, Math.min(threads > 0 ? threads : Runtime.getRuntime().availableProcessors(), n));
		if (t == 1) {
			final Chunk c = worker.make();
			for (int i = 0; i < n; i++) c.run(i);
			return;
		}
		final AtomicInteger next = new AtomicInteger(), names = new AtomicInteger();
		final ExecutorService pool = Executors.newFixedThreadPool(t, r -> {
			final Thread th = new Thread(r, "nufft-j-simulate-" + names.incrementAndGet());
			th.setDaemon(true);
			return th;
		});
		try {
			final List<Future<?>> fs = new ArrayList<>(t);
			for (int i = 0; i < t; i++)
				fs.add(pool.submit(() -> {
					final Chunk c = worker.make();
					for (int item; (item = next.getAndIncrement()) < n;) c.run(item);
				}));
			for (final Future<?> f : fs) f.get();
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new java.util.concurrent.CancellationException("simulation interrupted");
		}
		catch (final ExecutionException e) {
			final Throwable c = e.getCause();
			if (c instanceof RuntimeException) throw (RuntimeException) c;
			if (c instanceof Error) throw (Error) c;
			throw new IllegalStateException(c);
		}
		finally {
			pool.shutdownNow();
		}
	}
}
