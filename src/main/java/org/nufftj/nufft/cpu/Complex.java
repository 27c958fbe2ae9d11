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
		return new Complex() {
			@Override double re(final int i) { return a[2 * i]; }
			@Override double im(final int i) { return a[2 * i + 1]; }
			@Override void set(final int i, final double re, final double im) {
				a[2 * i] = (float) re;
				a[2 * i + 1] = (float) im;
			}
			@Override int length() { return a.length / 2; }
		};
	}

	static Complex of(final double[] a) {
		return new Complex() {
			@Override double re(final int i) { return a[2 * i]; }
			@Override double im(final int i) { return a[2 * i + 1]; }
			@Override void set(final int i, final double re, final double im) {
				a[2 * i] = re;
				a[2 * i + 1] = im;
			}
			@Override int length() { return a.length / 2; }
		};
	}
}
