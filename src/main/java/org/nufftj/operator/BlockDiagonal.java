package org.nufftj.operator;

import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Buffer;

/**
 * Operators on the vectors of a batch held back to back (coils, frames): [x_1; …; x_n] ↦ [A_1 x_1; …; A_n x_n],
 * adjoint likewise with A_iᴴ — the same operator n times, or one operator per vector (e.g. one trajectory per frame).
 * No work buffers (views of the batch).
 */
final class BlockDiagonal extends AbstractOperator {

	private final List<LinearOperator> blocks;

	BlockDiagonal(final LinearOperator a, final int n) {
		this(copies(a, n));
	}

	BlockDiagonal(final List<LinearOperator> blocks) {
		super("block diagonal " + describe(blocks), first(blocks).backend(), first(blocks).precision(), total(blocks,
			false), total(blocks, true));
		for (final LinearOperator b : blocks) {
			InvalidInputException.require(b.backend() == first(blocks).backend() && b.precision() == first(blocks)
				.precision(), "block diagonal: block " + b + " is on " + b.backend().name() + " in " + b.precision() +
					", the first on " + first(blocks).backend().name() + " in " + first(blocks).precision());
		}
		this.blocks = List.copyOf(blocks);
	}

	@Override
	public void apply(final Buffer x, final Buffer y) {
		check(x, y);
		long d = 0, r = 0;
		for (final LinearOperator a : blocks) {
			a.apply(x.slice(d, a.domainLength()), y.slice(r, a.rangeLength()));
			d += a.domainLength();
			r += a.rangeLength();
		}
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		check(x, y);
		long d = 0, r = 0;
		for (final LinearOperator a : blocks) {
			a.applyAdjoint(y.slice(r, a.rangeLength()), x.slice(d, a.domainLength()));
			d += a.domainLength();
			r += a.rangeLength();
		}
	}

	// -- helpers --

	private static List<LinearOperator> copies(final LinearOperator a, final int n) {
		InvalidInputException.require(n >= 1, "block diagonal: batch must be >= 1, found " + n);
		return java.util.Collections.nCopies(n, a);
	}

	private static LinearOperator first(final List<LinearOperator> blocks) {
		InvalidInputException.require(!blocks.isEmpty(), "block diagonal: no blocks");
		return blocks.get(0);
	}

	private static long total(final List<LinearOperator> blocks, final boolean range) {
		long n = 0;
		for (final LinearOperator b : blocks) n += range ? b.rangeLength() : b.domainLength();
		return n;
	}

	private static String describe(final List<LinearOperator> blocks) {
		final boolean same = blocks.stream().allMatch(b -> b == first(blocks));
		return same ? blocks.size() + " x " + first(blocks) : blocks.size() + " blocks (" + first(blocks) + ", …)";
	}
}
