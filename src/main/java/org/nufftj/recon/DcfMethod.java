package org.nufftj.recon;

import org.nufftj.InvalidInputException;

/**
 * How density-compensation weights are computed (see {@link DensityCompensation}).
 * <ul>
 * <li>{@link #NONE}: all weights equal (then normalised; a plain adjoint up to scale).</li>
 * <li>{@link #RAMP}: analytic |k| ramp, for radial / stack-of-stars / kooshball (|k|² in 3D).</li>
 * <li>{@link #VORONOI}: area of each sample's Voronoi cell (2D only).</li>
 * <li>{@link #PIPE_MENON}: Pipe &amp; Menon 1999 iterative weights, any trajectory.</li>
 * </ul>
 */
public enum DcfMethod {
	NONE("none"), RAMP("ramp"), VORONOI("voronoi"), PIPE_MENON("pipe-menon");

	private final String key;

	DcfMethod(final String key) {
		this.key = key;
	}

	/** Short name used on the command line and in macros. */
	public String key() { return key; }

	/** Parses "none", "ramp", "voronoi", "pipe-menon" (also "pipe_menon", "pipemenon", "iterative"). */
	public static DcfMethod parse(final String s) {
		final String t = s.trim().toLowerCase().replace('_', '-').replace(' ', '-');
		switch (t) {
			case "none": return NONE;
			case "ramp": return RAMP;
			case "voronoi": return VORONOI;
			case "pipe-menon": case "pipemenon": case "iterative": case "pipe": return PIPE_MENON;
			default: throw new InvalidInputException("density compensation: expected none, ramp, voronoi or pipe-menon;" +
				" found '" + s + "'");
		}
	}
}
