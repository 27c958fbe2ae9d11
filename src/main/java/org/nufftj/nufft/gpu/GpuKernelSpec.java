package org.nufftj.nufft.gpu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.nufftj.kernel.KaiserBessel;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelPolynomial;
import org.nufftj.kernel.KernelType;

/**
 * The kernel description every CUDA kernel takes by value ({@code KernelSpec<T>} in kernels/nufft_common.cuh, same C
 * layout: int type, int unused, T beta, T norm, float c[16·10]). Float plans evaluate Kaiser–Bessel as piecewise
 * polynomials ({@link KernelPolynomial}, degree {@value #DEGREE}) when the fit is within {@value #FLOAT_FIT} of the
 * formula, which keeps GPU and CPU within float rounding of each other; otherwise, and in double precision, the
 * kernels evaluate the formulas.
 */
final class GpuKernelSpec {

	static final int ES = 0, KB = 1, GAUSS = 2, KB_POLY = 3;
	static final int MAX_WIDTH = 16, DEGREE = 9, COEFFICIENTS = DEGREE + 1;
	/** Largest fit error (relative to ψ(0)) accepted for the float kernels: a few float roundings. */
	static final double FLOAT_FIT = 1e-7;

	private final int type;
	private final byte[] bytes;

	GpuKernelSpec(final Kernel k, final boolean dbl) {
		final double beta = k.shape();
		final double norm = k.type() == KernelType.KAISER_BESSEL ? 1 / KaiserBessel.besselI0(beta) :
			k.type() == KernelType.GAUSSIAN ? 1 / (2 * beta * beta) : 0;
		final KernelPolynomial poly = !dbl && k.type() == KernelType.KAISER_BESSEL ?
			KernelPolynomial.ofDegree(k, DEGREE) : null;
		final boolean usePoly = poly != null && poly.maxError() <= FLOAT_FIT;
		type = usePoly ? KB_POLY : formula(k.type());
		final int real = dbl ? 8 : 4;
		final ByteBuffer b = ByteBuffer.allocate(8 + 2 * real + 4 * MAX_WIDTH * COEFFICIENTS).order(ByteOrder.LITTLE_ENDIAN);
		b.putInt(type).putInt(0);
		if (dbl) b.putDouble(beta).putDouble(norm);
		else b.putFloat((float) beta).putFloat((float) norm);
		if (usePoly) for (final double c : poly.coefficients()) b.putFloat((float) c);
		bytes = b.array();
	}

	/** The struct's bytes, as a kernel parameter passed by value ({@link KernelArgs#struct}). */
	byte[] bytes() {
		return bytes;
	}

	/** Type code the kernels switch on. */
	int type() { return type; }

	/** Size in bytes (the C struct's). */
	int size() { return bytes.length; }

	static int formula(final KernelType t) {
		switch (t) {
			case AUTO:
			case EXP_SEMICIRCLE: return ES;
			case KAISER_BESSEL: return KB;
			case GAUSSIAN: return GAUSS;
			default: throw new IllegalArgumentException(t.toString());
		}
	}
}
