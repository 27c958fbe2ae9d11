package org.nufftj.nufft.cpu;

/**
 * The Stockham passes of {@link LineFft} on the Vector API ({@link VectorSupport}): one butterfly's lines in vectors
 * of the platform's preferred width, one twiddle broadcast over them. The block's lines are a multiple of
 * {@link #lanes()} ({@link LineFft#stride}). Arguments as {@link LineFft}'s scalar passes: stage twiddles cos/sin of
 * 2π·t·k/(Ns·r) at [k·(r − 1) + t − 1], input x, output y, b lines per element.
 */
interface LinePasses {

	/** Lines per vector. */
	int lanes();

	void radix2(int n, int ns, int b, int sign, double[] c, double[] s, double[] xr, double[] xi, double[] yr,
		double[] yi);

	void radix3(int n, int ns, int b, int sign, double[] c, double[] s, double[] xr, double[] xi, double[] yr,
		double[] yi);

	void radix4(int n, int ns, int b, int sign, double[] c, double[] s, double[] xr, double[] xi, double[] yr,
		double[] yi);

	void radix8(int n, int ns, int b, int sign, double[] c, double[] s, double[] xr, double[] xi, double[] yr,
		double[] yi);

	void radix5(int n, int ns, int b, int sign, double[] c, double[] s, double[] xr, double[] xi, double[] yr,
		double[] yi);

	void radix7(int n, int ns, int b, int sign, double[] c, double[] s, double[] xr, double[] xi, double[] yr,
		double[] yi);
}
