package org.nufftj.nufft.cpu;

import java.util.Arrays;

import org.nufftj.nufft.AbstractExactPlan;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Trajectory;

/**
 * The CPU's exact plan ({@link org.nufftj.nufft.Backend#exactPlan}): the direct sums of {@link Nudft}, in double on
 * the backend's worker count whatever the plan's precision (float buffers are widened and the result rounded once),
 * so float results are the NUDFT rounded to float. Per-axis phase factors make the adjoint's inner loop a complex
 * multiply-add per sample-pixel pair.
 */
final class CpuExactPlan extends AbstractExactPlan {

	private final CpuBackend backend;
	private Trajectory points;
	private boolean closed;

	CpuExactPlan(final CpuBackend backend, final int[] size, final Precision precision) {
		super(backend, size, precision);
		this.backend = backend;
	}

	// -- public API --

	@Override
	public void setPoints(final Trajectory trajectory) {
		ensureOpen();
		parameters.requireDimensions(trajectory);
		points = trajectory;
	}

	@Override
	public int points() { return points == null ? 0 : points.count(); }

	@Override
	public void forward(final float[] image, final float[] samples) {
		check(image.length, samples.length);
		copy(run(true, Nudft.toDouble(image)), samples);
	}

	@Override
	public void adjoint(final float[] samples, final float[] image) {
		check(image.length, samples.length);
		copy(run(false, Nudft.toDouble(samples)), image);
	}

	@Override
	public void forward(final double[] image, final double[] samples) {
		check(image.length, samples.length);
		final double[] r = run(true, image);
		System.arraycopy(r, 0, samples, 0, r.length);
	}

	@Override
	public void adjoint(final double[] samples, final double[] image) {
		check(image.length, samples.length);
		final double[] r = run(false, samples);
		System.arraycopy(r, 0, image, 0, r.length);
	}

	@Override
	public void forward(final Buffer image, final Buffer samples) {
		final CpuBuffer i = own(image, "exact forward image"), s = own(samples, "exact forward samples");
		check(i.length, s.length);
		put(run(true, get(i)), s);
	}

	@Override
	public void adjoint(final Buffer samples, final Buffer image) {
		final CpuBuffer s = own(samples, "exact adjoint samples"), i = own(image, "exact adjoint image");
		check(i.length, s.length);
		put(run(false, get(s)), i);
	}

	@Override
	public void close() { closed = true; }

	@Override
	public String toString() {
		return "exact plan " + Arrays.toString(size) + " on " + backend.name();
	}

	// -- helpers --

	private double[] run(final boolean forward, final double[] in) {
		final long t0 = System.nanoTime();
		final double[] out = forward ? Nudft.forward(size, points, in, backend.threads()) : Nudft.adjoint(size, points,
			in, backend.threads());
		times.clear();
		times.add(forward ? "direct forward" : "direct adjoint", (System.nanoTime() - t0) / 1e6);
		return out;
	}

	private void check(final long imageLength, final long sampleLength) {
		ensureOpen();
		NufftPlan.transforms(this, imageLength, sampleLength);
	}

	private CpuBuffer own(final Buffer b, final String what) {
		return backend.own(b, what, parameters.precision());
	}

	private static double[] get(final CpuBuffer b) {
		final double[] d = new double[b.length];
		for (int i = 0; i < d.length; i++) d[i] = b.get(i);
		return d;
	}

	private static void put(final double[] v, final CpuBuffer b) {
		for (int i = 0; i < v.length; i++) b.set(i, v[i]);
	}

	private static void copy(final double[] from, final float[] to) {
		for (int i = 0; i < from.length; i++) to[i] = (float) from[i];
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("exact plan is closed");
	}
}
