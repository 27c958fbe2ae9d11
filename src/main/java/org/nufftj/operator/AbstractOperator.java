package org.nufftj.operator;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.Precision;

/** Identity, lengths and the checks every application makes; owned work buffers are closed by {@link #close()}. */
abstract class AbstractOperator implements LinearOperator {

	private final String name;
	private final Backend backend;
	private final Precision precision;
	private final long domain, range;
	private final java.util.List<Buffer> owned = new java.util.ArrayList<>();

	AbstractOperator(final String name, final Backend backend, final Precision precision, final long domain,
		final long range)
	{
		InvalidInputException.require(domain > 0 && range > 0 && domain % 2 == 0 && range % 2 == 0, name +
			": domain and range must be complex vectors of positive even lengths, found " + domain + " and " + range);
		this.name = name;
		this.backend = backend;
		this.precision = precision;
		this.domain = domain;
		this.range = range;
	}

	@Override
	public Backend backend() { return backend; }

	@Override
	public Precision precision() { return precision; }

	@Override
	public long domainLength() { return domain; }

	@Override
	public long rangeLength() { return range; }

	@Override
	public void close() {
		for (final Buffer b : owned) b.close();
		owned.clear();
	}

	@Override
	public String toString() { return name + " (" + range + " x " + domain + " values, " + precision.name()
		.toLowerCase() + ")"; }

	/** A work buffer of {@code length} values in this operator's precision, freed by {@link #close()}. */
	Buffer work(final long length) {
		final Buffer b = backend.allocate(length, precision);
		owned.add(b);
		return b;
	}

	/** Writes host values into a buffer of this operator's precision (converted to float where it is float). */
	void upload(final double[] v, final Buffer dst) {
		if (dst.precision() == Precision.DOUBLE) backend.write(v, 0, dst);
		else {
			final float[] f = new float[v.length];
			for (int i = 0; i < v.length; i++) f[i] = (float) v[i];
			backend.write(f, 0, dst);
		}
	}

	/** Fails unless x and y are this operator's domain and range vectors (backend, precision, lengths). */
	void check(final Buffer x, final Buffer y) {
		require(x, domain, "domain vector x");
		require(y, range, "range vector y");
	}

	private void require(final Buffer b, final long length, final String what) {
		InvalidInputException.require(b.backend() == backend, name + ": " + what + " belongs to backend " + b.backend()
			.name() + ", the operator to " + backend.name());
		InvalidInputException.require(b.precision() == precision, name + ": " + what + " is " + b.precision().name()
			.toLowerCase() + ", the operator " + precision.name().toLowerCase());
		Buffer.requireLength(b, length, name + " " + what);
	}

	/** Fails unless every operator shares the first one's backend and precision. */
	static void requireCompatible(final String what, final LinearOperator... ops) {
		InvalidInputException.require(ops.length >= 1, what + ": needs at least one operator");
		for (final LinearOperator o : ops) {
			InvalidInputException.require(o.backend() == ops[0].backend() && o.precision() == ops[0].precision(), what +
				": operators of different backends or precisions (" + ops[0] + " on " + ops[0].backend().name() + ", " +
				o + " on " + o.backend().name() + ")");
		}
	}
}
