package org.nufftj.recon;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Trajectory;

/**
 * Real-time golden-angle radial reconstruction as the spokes arrive (issue 9, item 6): spokes are pushed in groups of
 * {@code advance}; once {@code window} spokes have arrived, every push returns the image of the last {@code window}
 * spokes (a sliding window), ramp-weighted gridding of every coil and root sum of squares. Spoke i lies at angle
 * i·π/φ (φ the golden ratio) with {@code samples} points k = (j − samples/2)/samples along it (as the benchmark
 * trajectories); the readout is usually 2N for an N² image. Written against {@link Backend}: the k-space of the window
 * stays on the backend in a ring of {@code window} spokes per coil (a push uploads only its new spokes, into the
 * slots of the oldest), the plan takes the window's trajectory in ring order (setPoints per frame: the points are
 * sorted on the device on a GPU), and only the combined image comes back. Float. Not thread-safe; close before the
 * backend.
 */
public final class SlidingWindowRecon implements AutoCloseable {

	private static final double PHI = (1 + Math.sqrt(5)) / 2;

	private final Backend backend;
	private final int n, coils, samples, window, advance;
	private final NufftPlan plan;
	private final Buffer ring, weighted, weights, images, combined, magnitude;
	private final double[] coords;
	private final float[] out;
	private long pushed;
	private boolean closed;

	/**
	 * A reconstruction of {@code size}² images from {@code coils} coils, {@code samples} per spoke, a window of
	 * {@code window} spokes moved by {@code advance} spokes per frame ({@code window} a multiple of it), NUFFT
	 * {@code options} (precision: float).
	 */
	public SlidingWindowRecon(final Backend backend, final int size, final int coils, final int samples,
		final int window, final int advance, final NufftOptions options)
	{
		InvalidInputException.require(size >= 2 && coils >= 1 && samples >= 2, "sliding window: expected size >= 2, " +
			"coils >= 1 and samples per spoke >= 2, found " + size + ", " + coils + ", " + samples);
		InvalidInputException.require(advance >= 1 && window >= advance && window % advance == 0, "sliding window: " +
			"expected a window of spokes that is a multiple of the spokes per frame, found window " + window +
			", advance " + advance);
		this.backend = backend;
		this.n = size;
		this.coils = coils;
		this.samples = samples;
		this.window = window;
		this.advance = advance;
		final long points = (long) window * samples;
		InvalidInputException.require(2 * points * coils <= Integer.MAX_VALUE, "sliding window: " + window + " spokes x " +
			samples + " samples x " + coils + " coils is too large");
		coords = new double[(int) (2 * points)];
		out = new float[size * size];
		final Precision p = Precision.FLOAT;
		Buffer r = null, w = null, wt = null, im = null, c = null, mg = null;
		NufftPlan pl = null;
		boolean ok = false;
		try {
			pl = backend.plan(new int[] { size, size }, options.withPrecision(p));
			r = backend.allocate(2 * points * coils, p);
			backend.fill(r, 0, 0);
			w = backend.allocate(2 * points * coils, p);
			// The ramp of a spoke's samples (|k|, the centre sample at a quarter of the spacing): the same in every slot.
			setSpokes(0, window);
			final float[] ramp = DensityCompensation.ramp(new Trajectory(2, coords, samples, window, "window"));
			wt = backend.allocate(points, p);
			backend.write(ramp, 0, wt);
			im = backend.allocate(2L * size * size * coils, p);
			c = backend.allocate(2L * size * size, p);
			mg = backend.allocate((long) size * size, p);
			ok = true;
		}
		finally {
			if (!ok) {
				for (final Buffer b : new Buffer[] { r, w, wt, im, c, mg })
					if (b != null) b.close();
				if (pl != null) pl.close();
			}
		}
		plan = pl;
		ring = r;
		weighted = w;
		weights = wt;
		images = im;
		combined = c;
		magnitude = mg;
	}

	/** Spokes pushed so far. */
	public long spokes() { return pushed; }

	/**
	 * Pushes the next {@code advance} spokes, {@code spokes} = [coil][spoke][sample] complex interleaved (2 · coils ·
	 * advance · samples values), and returns the magnitude image [y][x] of the last window (a view, overwritten by the
	 * next push), or null while fewer than {@code window} spokes have arrived.
	 */
	public float[] push(final float[] spokes) {
		if (closed) throw new IllegalStateException("sliding window reconstruction is closed");
		final int per = 2 * advance * samples;
		InvalidInputException.require(spokes != null && spokes.length == coils * per, "sliding window: expected " +
			coils + " coils x " + advance + " spokes x " + samples + " samples complex = " + coils * per +
			" values, found " + (spokes == null ? 0 : spokes.length));
		final int slot = (int) (pushed % window);
		for (int c = 0; c < coils; c++) {
			backend.write(spokes, c * per, ring.slice(2L * ((long) c * window * samples + (long) slot * samples), per));
		}
		setSpokes(pushed, advance);
		pushed += advance;
		if (pushed < window) return null;
		plan.setPoints(new Trajectory(2, coords, samples, window, "golden-angle window"));
		backend.multiplyReal(ring, weights, weighted);
		plan.adjoint(weighted, images);
		backend.sumOfSquares(images, coils, combined);
		backend.complexToReal(combined, magnitude);
		backend.read(magnitude, out, 0);
		return out;
	}

	/**
	 * Writes the coordinates of spokes first … first + count − 1 into their ring slots (spoke s in slot s mod window),
	 * so that the coordinates always hold the window's trajectory in ring order and a push computes only its own.
	 */
	private void setSpokes(final long first, final int count) {
		for (long s = first; s < first + count; s++) {
			final int j = (int) (s % window);
			final double a = angle(s), cs = Math.cos(a), sn = Math.sin(a);
			for (int i = 0; i < samples; i++) {
				final double k = (i - samples / 2) / (double) samples;
				coords[2 * (j * samples + i)] = k * cs;
				coords[2 * (j * samples + i) + 1] = k * sn;
			}
		}
	}

	/** Spoke i's angle, i·π/φ (radians). */
	public static double angle(final long spoke) {
		return spoke * Math.PI / PHI;
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		for (final Buffer b : new Buffer[] { ring, weighted, weights, images, combined, magnitude }) b.close();
		plan.close();
	}
}
