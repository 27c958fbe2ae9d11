package org.nufftj.recon;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.NufftOptions;

/**
 * What a gridding reconstruction does. Immutable; start from {@link #defaults()} and change with {@code with*}.
 * <p>
 * Defaults: NUFFT {@link NufftOptions#defaults()}, DCF {@link DcfMethod#PIPE_MENON} with {@value #DEFAULT_DCF_ITERATIONS}
 * iterations (it works for every trajectory; choose {@link DcfMethod#RAMP} for radial data when speed matters),
 * combination {@link CoilCombination#SOS}, matrix {@code null} (the caller's), per-coil images not kept.
 * </p>
 */
public final class ReconOptions {

	public static final int DEFAULT_DCF_ITERATIONS = 20;

	private final NufftOptions nufft;
	private final DcfMethod dcf;
	private final CoilCombination combine;
	private final int[] matrix;
	private final boolean keepCoils;
	private final int dcfIterations;
	private final boolean cartesianFft;
	private final PartialFourier partialFourier;

	private ReconOptions(final NufftOptions nufft, final DcfMethod dcf, final CoilCombination combine, final int[] matrix,
		final boolean keepCoils, final int dcfIterations, final boolean cartesianFft, final PartialFourier partialFourier)
	{
		this.nufft = nufft;
		this.dcf = dcf;
		this.combine = combine;
		this.matrix = matrix == null ? null : matrix.clone();
		this.keepCoils = keepCoils;
		this.dcfIterations = dcfIterations;
		this.cartesianFft = cartesianFft;
		this.partialFourier = partialFourier;
	}

	public static ReconOptions defaults() {
		return new ReconOptions(NufftOptions.defaults(), DcfMethod.PIPE_MENON, CoilCombination.SOS, null, false,
			DEFAULT_DCF_ITERATIONS, true, PartialFourier.ZERO);
	}

	// -- public API --

	public NufftOptions nufft() { return nufft; }

	public DcfMethod dcf() { return dcf; }

	public CoilCombination combine() { return combine; }

	/** Image matrix per axis, or null to use the size the caller passes to {@link GriddingRecon#reconstruct}. */
	public int[] matrix() { return matrix == null ? null : matrix.clone(); }

	public boolean keepCoils() { return keepCoils; }

	public int dcfIterations() { return dcfIterations; }

	public ReconOptions withNufft(final NufftOptions o) {
		InvalidInputException.require(o != null, "recon: NUFFT options must not be null");
		return new ReconOptions(o, dcf, combine, matrix, keepCoils, dcfIterations, cartesianFft, partialFourier);
	}

	public ReconOptions withDcf(final DcfMethod m) {
		InvalidInputException.require(m != null, "recon: DCF method must not be null");
		return new ReconOptions(nufft, m, combine, matrix, keepCoils, dcfIterations, cartesianFft, partialFourier);
	}

	public ReconOptions withCombine(final CoilCombination c) {
		InvalidInputException.require(c != null, "recon: coil combination must not be null");
		return new ReconOptions(nufft, dcf, c, matrix, keepCoils, dcfIterations, cartesianFft, partialFourier);
	}

	public ReconOptions withMatrix(final int[] m) {
		if (m != null) {
			InvalidInputException.require(m.length == 2 || m.length == 3,
				"matrix: expected 2 or 3 sizes, found " + m.length);
			for (final int n : m)
				InvalidInputException.require(n >= 2, "matrix: every size must be >= 2, found " + Arrays.toString(m));
		}
		return new ReconOptions(nufft, dcf, combine, m, keepCoils, dcfIterations, cartesianFft, partialFourier);
	}

	public ReconOptions withKeepCoils(final boolean keep) {
		return new ReconOptions(nufft, dcf, combine, matrix, keep, dcfIterations, cartesianFft, partialFourier);
	}

	/**
	 * Whether data on a Cartesian grid with no density compensation is reconstructed by exact FFT ({@link CartesianFft};
	 * the default) or through the NUFFT like any other trajectory.
	 */
	public ReconOptions withCartesianFft(final boolean on) {
		return new ReconOptions(nufft, dcf, combine, matrix, keepCoils, dcfIterations, on, partialFourier);
	}

	public boolean cartesianFft() { return cartesianFft; }

	/**
	 * What the FFT path does with partial Fourier / asymmetric-echo data ({@link PartialFourier}; default zero-filled).
	 * Homodyne is refused for data that does not take the FFT path, or is not partial Fourier.
	 */
	public ReconOptions withPartialFourier(final PartialFourier p) {
		InvalidInputException.require(p != null, "recon: partial Fourier mode must not be null");
		return new ReconOptions(nufft, dcf, combine, matrix, keepCoils, dcfIterations, cartesianFft, p);
	}

	public PartialFourier partialFourier() { return partialFourier; }

	public ReconOptions withDcfIterations(final int n) {
		InvalidInputException.require(n >= 1 && n <= 1000, "DCF iterations: expected 1 to 1000, found " + n);
		return new ReconOptions(nufft, dcf, combine, matrix, keepCoils, n, cartesianFft, partialFourier);
	}

	@Override
	public String toString() {
		return "dcf=" + dcf.key() + (dcf == DcfMethod.PIPE_MENON ? "(" + dcfIterations + " it)" : "") + " combine=" +
			combine.key() + (matrix == null ? "" : " matrix=" + Arrays.toString(matrix)) + (cartesianFft ? "" :
			" cartesian=nufft") + (partialFourier == PartialFourier.ZERO ? "" : " partial-fourier=" +
			partialFourier.key()) + " " + nufft;
	}
}
