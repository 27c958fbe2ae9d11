package org.nufftj.recon.iterative;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.LinearOperator;
import org.nufftj.operator.NufftOperator;
import org.nufftj.operator.Operators;

/**
 * The non-Cartesian SENSE forward model (Pruessmann et al. 2001): one image x of N pixels to C coils' samples,
 * y_c = s · W^{1/2} · F (S_c ⊙ x), with S_c the coil maps, F the plan's NUFFT, s a real scale (BART's 1/√N by
 * {@link #bart}) and W optional sample weights. Composed from the operator package, not rewritten:
 * {@code chain(expansion(S), NufftOperator(plan, s, w, C))} — x multiplied by each coil's map [coil][pixel] in one
 * broadcast product, transformed as C transforms of one plan. The adjoint is Σ_c conj(S_c) ⊙ Fᴴ W^{1/2} s y_c.
 * <p>
 * It owns the parts it makes (the expansion, the NUFFT operator and their work buffers), not the plan nor the maps
 * buffer (their makers close those, after this operator).
 * </p>
 */
public final class SenseOperator implements LinearOperator {

	private final int coils;
	private final LinearOperator maps, nufft, chain;

	/**
	 * @param backend the backend that made {@code plan} and holds {@code maps}
	 * @param plan    a plan whose points are set, in the precision of {@code maps}
	 * @param maps    coil maps [coil][pixel] complex: 2·C·N values
	 * @param coils   C ≥ 1
	 * @param scale   s, finite and non-zero
	 * @param weights w (one per sample, ≥ 0) or null
	 */
	public SenseOperator(final Backend backend, final NufftPlan plan, final Buffer maps, final int coils,
		final double scale, final float[] weights)
	{
		InvalidInputException.require(coils >= 1, "SENSE operator: coils is " + coils + ", expected >= 1");
		long px = 1;
		for (final int n : plan.imageSize()) px *= n;
		InvalidInputException.require(maps.length() == 2 * px * coils, "SENSE operator: maps hold " + maps.length() / 2 +
			" complex values, expected " + coils + " coils x " + px + " pixels of " + Arrays.toString(plan
				.imageSize()) + " = " + coils * px);
		InvalidInputException.require(maps.precision() == plan.parameters().precision(), "SENSE operator: maps are " +
			name(maps.precision()) + ", the plan " + name(plan.parameters().precision()));
		this.coils = coils;
		this.maps = Operators.expansion(maps, 2 * px);
		nufft = new NufftOperator(backend, plan, scale, weights, coils);
		chain = Operators.chain(this.maps, nufft);
	}

	/** With BART's NUFFT scaling 1/√N and no weights: the forward model of {@code bart pics} with a trajectory. */
	public static SenseOperator bart(final Backend backend, final NufftPlan plan, final Buffer maps, final int coils) {
		return new SenseOperator(backend, plan, maps, coils, NufftOperator.bartScale(plan.imageSize()), null);
	}

	// -- public API --

	public int coils() { return coils; }

	/**
	 * AᴴA through a normal operator of the NUFFT part instead of forward then adjoint:
	 * x ↦ Σ_c conj(S_c) ⊙ M_c (S_c ⊙ x), with {@code coilNormal} = M on the C coil images [coil][pixel] at once (a
	 * {@link ToeplitzNormal} of C transforms, built with this operator's scale and weights). The result owns its
	 * intermediates (closed by its {@code close()}), not {@code coilNormal} nor this operator.
	 */
	public LinearOperator normal(final LinearOperator coilNormal) {
		InvalidInputException.require(coilNormal.domainLength() == maps.rangeLength() && coilNormal.rangeLength() ==
			maps.rangeLength(), "SENSE operator: the coil normal operator takes " + coilNormal.domainLength() + " -> " +
				coilNormal.rangeLength() + " values, expected " + coils + " coil images of " + domainLength() +
				" values each");
		return Operators.chain(maps, coilNormal, maps.adjoint());
	}

	@Override
	public Backend backend() { return chain.backend(); }

	@Override
	public Precision precision() { return chain.precision(); }

	@Override
	public long domainLength() { return chain.domainLength(); }

	@Override
	public long rangeLength() { return chain.rangeLength(); }

	@Override
	public void apply(final Buffer x, final Buffer y) {
		chain.apply(x, y);
	}

	@Override
	public void applyAdjoint(final Buffer y, final Buffer x) {
		chain.applyAdjoint(y, x);
	}

	@Override
	public String toString() {
		return "SENSE operator (" + coils + " coils, " + rangeLength() + " x " + domainLength() + " values)";
	}

	@Override
	public void close() {
		chain.close();
		nufft.close();
		maps.close();
	}

	// -- helpers --

	private static String name(final Precision p) {
		return p.name().toLowerCase();
	}
}
