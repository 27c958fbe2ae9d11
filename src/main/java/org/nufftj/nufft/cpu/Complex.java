package org.nufftj.nufft.cpu;

/**
 * Read/write access to a caller's interleaved complex array, float or double, so that the engine's loops are written
 * once in double arithmetic. Calls are made once per sample or pixel, not per kernel tap.
 */
abstract class Complex {

	abstract double re(int i);

	abstract double im(int i);

	abstract void set(int i, double re, double im);

	abstract int length();

	static Complex of(final float[] a) {
		return of(a, 0, a.length);
	}

	static Complex of(final double[] a) {
		return of(a, 0, a.length);
	}

	/** The complex values held by a CPU buffer (its array from its offset). */
	static Complex of(final CpuBuffer b) {
		return b.f != null ? of(b.f, b.offset, b.length) : of(b.d, b.offset, b.length);
	}

	/** Values [o, o + n) of {@code a} as n/2 complex numbers. */
	static Complex of(final float[] a, final int o, final int n) {
		return new Complex() {
			@Override double re(final int i) { return a[o + 2 * i]; }
			@Override double im(final int i) { return a[o + 2 * i + 1]; }
			@Override void set(final int i, final double re, final double im) {
				a[o + 2 * i] = (float) re;
				a[o + 2 * i + 1] = (float) im;
			}
			@Override int length() { return n / 2; }
		};
	}

	static Complex of(final double[] a, final int o, final int n) {
		return new Complex() {
			@Override double re(final int i) { return a[o + 2 * i]; }
			@Override double im(final int i) { return a[o + 2 * i + 1]; }
			@Override void set(final int i, final double re, final double im) {
				a[o + 2 * i] = re;
				a[o + 2 * i + 1] = im;
			}
			@Override int length() { return n / 2; }
		};
	}
}
