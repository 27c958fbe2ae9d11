package org.nufftj.nufft;

/**
 * Host arrays in double to and from backend buffers of either precision, for the tests and benchmarks written once
 * for both precisions: values are rounded to float for a FLOAT buffer and widened back on reading.
 */
public final class TestBuffers {

	private TestBuffers() {}

	/** A new buffer of precision {@code p} on {@code backend} holding {@code v}; the caller closes it. */
	public static Buffer upload(final Backend backend, final double[] v, final Precision p) {
		final Buffer b = backend.allocate(v.length, p);
		write(backend, v, b);
		return b;
	}

	/** Writes {@code v} to the start of {@code b}, in b's precision. */
	public static void write(final Backend backend, final double[] v, final Buffer b) {
		if (b.precision() == Precision.DOUBLE) backend.write(v, 0, b);
		else backend.write(Nudft.toFloat(v), 0, b);
	}

	/** The whole of {@code b}, in double. */
	public static double[] download(final Backend backend, final Buffer b) {
		final double[] out = new double[(int) b.length()];
		if (b.precision() == Precision.DOUBLE) backend.read(b, out, 0);
		else {
			final float[] f = new float[out.length];
			backend.read(b, f, 0);
			for (int i = 0; i < f.length; i++) out[i] = f[i];
		}
		return out;
	}
}
