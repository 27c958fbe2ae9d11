package org.nufftj.recon.ultrasound;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SparseMatrix;

/**
 * Stolt's f-k migration of plane-wave frames of one transmit angle on a {@link Backend}, every step on the backend
 * (PlaneWaveImaging's class comment gives the maths): the transposes, the transmit-delay phases, the Stolt
 * interpolation, the steering compensation and the crop are five {@link SparseMatrix} products made once per geometry,
 * between the four batched 1D FFTs; frames run in batches of {@link #batch()}, so that on a GPU nothing goes back to
 * the host between the channel data and the image. Float throughout. Close it before the backend.
 */
public final class FkMigration implements AutoCloseable {

	/** Values of the two work buffers per frame at most: frames per batch = max(1, this / per-frame values). */
	static final long BATCH_VALUES = 64L << 20;

	private final Backend backend;
	private final int n, t, nt, nx, half, wx, width, frameBatch;
	private final SparseMatrix pack, shift, stolt, steer, crop;
	private Buffer real, complex, images, work1, work2;
	private int workFrames;
	private boolean closed;

	/**
	 * Tables for frames of {@code p} (channel data [sample][element], element fastest) transmitted at {@code angle}
	 * (radians), images {@code up} times laterally upsampled.
	 */
	public FkMigration(final Backend backend, final PlaneWave p, final double angle, final int up) {
		this(backend, p, angle, up, BATCH_VALUES);
	}

	/** As the public constructor, work buffers of at most {@code batchValues} values each (tests: small batches). */
	FkMigration(final Backend backend, final PlaneWave p, final double angle, final int up, final long batchValues) {
		PlaneWave.checkAngles(angle);
		InvalidInputException.require(up >= 1 && up <= 16, "lateral upsampling: expected 1 to 16, found " + up);
		this.backend = backend;
		n = p.elements();
		t = p.samples();
		nx = 2 * n;
		nt = 2 * t;
		half = nt / 2;
		wx = nx * up;
		width = n * up;
		final long perFrame = 2L * Math.max((long) nx * nt, (long) t * wx);
		frameBatch = (int) Math.max(1, Math.min(Integer.MAX_VALUE / perFrame, batchValues / perFrame));
		final double sin = Math.sin(angle), cos = Math.cos(angle);
		final double v = p.c() / Math.sqrt(1 + cos + sin * sin);
		final double beta = Math.pow(1 + cos, 1.5) / (1 + cos + sin * sin), gamma = sin / (2 - cos);
		final double df = p.fs() / nt;
		SparseMatrix a = null, b = null, c = null, d = null, e = null;
		boolean ok = false;
		try {
			// 1. [sample][element] → [element][time], time zero-padded to nt.
			int[] ix = new int[n * nt];
			double[] w = new double[2 * n * nt];
			for (int i = 0; i < n; i++)
				for (int k = 0; k < nt; k++) {
					final int r = i * nt + k;
					ix[r] = k < t ? k * n + i : -1;
					w[2 * r] = 1;
				}
			a = backend.sparse(n * nt, t * n, 1, ix, w, Precision.FLOAT);
			// 2. Transmit delay and start time on the positive frequencies, [element][f] → [f][x], x zero-padded to nx.
			ix = new int[half * nx];
			w = new double[2 * half * nx];
			for (int q = 0; q < half; q++)
				for (int i = 0; i < nx; i++) {
					final int r = q * nx + i;
					if (i >= n) {
						ix[r] = -1;
						continue;
					}
					final double ph = -2 * Math.PI * q * df * (p.t0() - p.x(i) * sin / p.c());
					ix[r] = i * nt + q;
					w[2 * r] = Math.cos(ph);
					w[2 * r + 1] = Math.sin(ph);
				}
			b = backend.sparse(half * nx, n * nt, 1, ix, w, Precision.FLOAT);
			// 3. Stolt mapping f' → k_z = 2f/c, [f][k_x] → [k_x][k_z] (k_z > 0 only; linear interpolation in f).
			ix = new int[2 * nx * nt];
			w = new double[4 * nx * nt];
			java.util.Arrays.fill(ix, -1);
			for (int jx = 0; jx < nx; jx++) {
				final double kx = signed(jx, nx) / (nx * p.pitch());
				for (int m = 1; m < half; m++) {
					final double f = m * df, kz = 2 * f / p.c();
					final double fs = v * Math.sqrt(kx * kx + kz * kz / (beta * beta));
					if (fs < p.c() * Math.abs(kx)) continue;
					final double fi = fs / df;
					final int q = (int) Math.floor(fi);
					if (q + 1 >= half) continue;
					final double frac = fi - q, obl = f / fs;
					final int r = jx * nt + m;
					ix[2 * r] = q * nx + jx;
					ix[2 * r + 1] = (q + 1) * nx + jx;
					w[4 * r] = obl * (1 - frac);
					w[4 * r + 2] = obl * frac;
				}
			}
			c = backend.sparse(nx * nt, half * nx, 2, ix, w, Precision.FLOAT);
			// 4. Steering compensation e^{+2πi k_x γ z} per depth, [k_x][z] → [z][k_x], k_x zero-padded to wx.
			ix = new int[t * wx];
			w = new double[2 * t * wx];
			java.util.Arrays.fill(ix, -1);
			for (int jx = 0; jx < nx; jx++) {
				final double kx = signed(jx, nx) / (nx * p.pitch());
				final int col = Math.floorMod(signed(jx, nx), wx);
				for (int m = 0; m < t; m++) {
					final int r = m * wx + col;
					final double ph = 2 * Math.PI * kx * gamma * m * p.dz();
					ix[r] = jx * nt + m;
					w[2 * r] = gamma == 0 ? 1 : Math.cos(ph);
					w[2 * r + 1] = gamma == 0 ? 0 : Math.sin(ph);
				}
			}
			d = backend.sparse(t * wx, nx * nt, 1, ix, w, Precision.FLOAT);
			// 5. The image's columns, [z][wx] → [z][width].
			ix = new int[t * width];
			w = new double[2 * t * width];
			for (int m = 0; m < t; m++)
				for (int j = 0; j < width; j++) {
					ix[m * width + j] = m * wx + j;
					w[2 * (m * width + j)] = 1;
				}
			e = backend.sparse(t * width, t * wx, 1, ix, w, Precision.FLOAT);
			ok = true;
		}
		finally {
			if (!ok) for (final SparseMatrix s : new SparseMatrix[] { a, b, c, d, e })
				if (s != null) s.close();
		}
		pack = a;
		shift = b;
		stolt = c;
		steer = d;
		crop = e;
	}

	/** Frames per batch: the work buffers of a batch hold at most {@link #BATCH_VALUES} values each. */
	public int batch() { return frameBatch; }

	/** Values of one frame's channel data (samples × elements, real). */
	public int frameValues() { return t * n; }

	/** Values of one frame's analytic image (Z × W complex: 2 · samples · elements · up). */
	public int imageValues() { return 2 * t * width; }

	/**
	 * The analytic images (complex [F][Z][W]) of F ≤ {@link #batch()} frames whose channel data {@code channels} holds
	 * as complex values [F][sample][element] (imaginary parts zero), into {@code images}; both float buffers of this
	 * backend. Asynchronous on the backend's stream.
	 */
	public void analytic(final Buffer channels, final Buffer images) {
		ensureOpen();
		final long f = channels.length() / (2L * t * n);
		InvalidInputException.require(f >= 1 && f <= frameBatch && channels.length() == f * 2L * t * n &&
			images.length() == f * imageValues(), "f-k migration: channel data of " + channels.length() +
				" values (2 x " + t + " samples x " + n + " elements x F) and images of " + images.length() +
				" values (" + imageValues() + " x F) for F = 1 to " + frameBatch + " frames");
		final int fr = (int) f;
		ensureWork(fr);
		final Buffer a = work1.slice(0, 2L * fr * n * nt), s = work2.slice(0, 2L * fr * half * nx);
		final Buffer dd = work1.slice(0, 2L * fr * nx * nt), e = work2.slice(0, 2L * fr * t * wx);
		backend.apply(pack, channels, a);
		backend.fft(a, new int[] { nt }, -1);
		backend.apply(shift, a, s);
		backend.fft(s, new int[] { nx }, -1);
		backend.apply(stolt, s, dd);
		backend.fft(dd, new int[] { nt }, +1);
		backend.apply(steer, dd, e);
		backend.fft(e, new int[] { wx }, +1);
		backend.apply(crop, e, images);
	}

	/**
	 * The analytic images of {@code frames} (each [sample][element] real) as host arrays, complex [Z][W] per frame:
	 * uploads, migrates and downloads in batches of {@link #batch()}.
	 */
	public float[][] analytic(final float[][] frames) {
		return run(frames, false);
	}

	/**
	 * The envelopes |analytic image| of {@code frames}, [Z][W] per frame, the modulus taken on the backend (half the
	 * values to download).
	 */
	public float[][] envelopes(final float[][] frames) {
		return run(frames, true);
	}

	private float[][] run(final float[][] frames, final boolean envelope) {
		ensureOpen();
		final float[][] out = new float[frames.length][];
		final int fv = frameValues(), iv = imageValues(), ov = envelope ? iv / 2 : iv;
		for (int i = 0; i < frames.length; i++) {
			InvalidInputException.require(frames[i] != null && frames[i].length == fv, "channel data frame " + i +
				": expected " + t + " samples x " + n + " elements = " + fv + " values, found " + (frames[i] == null ?
					0 : frames[i].length));
		}
		for (int f0 = 0; f0 < frames.length; f0 += frameBatch) {
			final int fb = Math.min(frameBatch, frames.length - f0);
			ensureWork(fb);
			final Buffer r = real.slice(0, (long) fb * fv), cx = complex.slice(0, 2L * fb * fv);
			final Buffer img = images.slice(0, (long) fb * iv);
			// Each frame straight from its array into its part of the buffer, and each result straight into a new one:
			// no batch-sized host copies.
			for (int i = 0; i < fb; i++) backend.write(frames[f0 + i], 0, r.slice((long) i * fv, fv));
			backend.realToComplex(r, cx);
			analytic(cx, img);
			Buffer result = img;
			if (envelope) {
				// |z| as (|z|, 0) into the complex input's storage, then its real parts: half the values to download.
				final Buffer mod = complex.slice(0, (long) fb * iv);
				result = real.slice(0, (long) fb * ov);
				backend.sumOfSquares(img, 1, mod);
				backend.complexToReal(mod, result);
			}
			for (int i = 0; i < fb; i++) {
				out[f0 + i] = new float[ov];
				backend.read(result.slice((long) i * ov, ov), out[f0 + i], 0);
			}
		}
		return out;
	}

	/**
	 * Buffers for {@code frames} frames at least (grown, never beyond a batch): the two work buffers; for host frames
	 * the real channel data (also the envelopes), its complex form (also the modulus) and the images.
	 */
	private void ensureWork(final int frames) {
		if (workFrames >= frames) return;
		for (final Buffer b : new Buffer[] { real, complex, images, work1, work2 })
			if (b != null) b.close();
		real = complex = images = work1 = work2 = null;
		workFrames = 0;
		final long perFrame = 2L * Math.max((long) nx * nt, (long) t * wx);
		work1 = backend.allocate(perFrame * frames, Precision.FLOAT);
		work2 = backend.allocate(perFrame * frames, Precision.FLOAT);
		real = backend.allocate((long) Math.max(frameValues(), imageValues() / 2) * frames, Precision.FLOAT);
		complex = backend.allocate((long) Math.max(2 * frameValues(), imageValues()) * frames, Precision.FLOAT);
		images = backend.allocate((long) imageValues() * frames, Precision.FLOAT);
		workFrames = frames;
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("f-k migration is closed");
	}

	private static int signed(final int j, final int n) {
		return j < n / 2 ? j : j - n;
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		for (final Buffer b : new Buffer[] { real, complex, images, work1, work2 })
			if (b != null) b.close();
		for (final SparseMatrix s : new SparseMatrix[] { pack, shift, stolt, steer, crop })
			if (s != null) s.close();
	}
}
