package org.nufftj.app.tune;

import java.util.Arrays;

import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.SpreadMethod;

/**
 * The explicit plan parameters a tuner chose (the winner kept in the wisdom file): kernel, σ, W, spreading method,
 * GPU bins (null: the heuristic's) and kernel evaluation. {@link #apply} writes them into typed {@link NufftOptions}
 * (explicit kernel / σ / W override the tolerance-driven choice, as the command line's --kernel, --oversampling,
 * --width do).
 */
public final class TunedParameters {

	private final KernelType kernel;
	private final double oversampling;
	private final int width;
	private final SpreadMethod spread;
	private final int[] bins;
	private final NufftOptions.Evaluation evaluation;

	public TunedParameters(final KernelType kernel, final double oversampling, final int width,
		final SpreadMethod spread, final int[] bins, final NufftOptions.Evaluation evaluation)
	{
		this.kernel = kernel;
		this.oversampling = oversampling;
		this.width = width;
		this.spread = spread;
		this.bins = bins == null ? null : bins.clone();
		this.evaluation = evaluation;
	}

	/** The parameters of a resolved plan made from {@code options} (its spread, bins and evaluation). */
	static TunedParameters of(final NufftParameters p, final NufftOptions options) {
		return new TunedParameters(p.kernel().type(), p.oversampling(), p.width(), options.spreadMethod(),
			options.bins(), options.evaluation());
	}

	// -- public API --

	public KernelType kernel() { return kernel; }

	public double oversampling() { return oversampling; }

	public int width() { return width; }

	public SpreadMethod spread() { return spread; }

	public int[] bins() { return bins == null ? null : bins.clone(); }

	public NufftOptions.Evaluation evaluation() { return evaluation; }

	/** {@code options} with these parameters set explicitly (fails naming the field when one is out of range). */
	public NufftOptions apply(final NufftOptions options) {
		return options.withKernel(kernel).withOversampling(oversampling).withWidth(width).withSpreadMethod(spread)
			.withBins(bins).withEvaluation(evaluation);
	}

	/** e.g. "kb W=6 sigma=1.25 spread=shared bins=32x32 online". */
	@Override
	public String toString() {
		final StringBuilder b = new StringBuilder(kernel.key()).append(" W=").append(width).append(" sigma=")
			.append(oversampling).append(" spread=").append(spread.name().toLowerCase());
		if (bins != null) {
			b.append(" bins=");
			for (int a = 0; a < bins.length; a++) b.append(a == 0 ? "" : "x").append(bins[a]);
		}
		if (evaluation != NufftOptions.Evaluation.ONLINE) b.append(' ').append(evaluation.name().toLowerCase());
		return b.toString();
	}

	@Override
	public boolean equals(final Object o) {
		if (!(o instanceof TunedParameters)) return false;
		final TunedParameters t = (TunedParameters) o;
		return kernel == t.kernel && oversampling == t.oversampling && width == t.width && spread == t.spread &&
			Arrays.equals(bins, t.bins) && evaluation == t.evaluation;
	}

	@Override
	public int hashCode() {
		return toString().hashCode();
	}
}
