package org.nufftj.nufft;

import org.nufftj.InvalidInputException;

/**
 * How the GPU engine spreads samples onto the grid (adjoint). The CPU engine has one method and ignores this.
 * <ul>
 * <li>{@link #ATOMIC}: input-driven, one thread per (bin-sorted) sample, global atomics.</li>
 * <li>{@link #SHARED}: binned subproblems accumulated in shared memory, then added to the grid (hybrid gather).</li>
 * <li>{@link #OUTPUT_DRIVEN}: one thread per grid cell, gathering from samples known in closed form (radial).</li>
 * </ul>
 */
public enum SpreadMethod {
	AUTO, ATOMIC, SHARED, OUTPUT_DRIVEN;

	public static SpreadMethod parse(final String s) {
		switch (s.trim().toLowerCase().replace('-', '_')) {
			case "auto": return AUTO;
			case "atomic": case "gm": return ATOMIC;
			case "shared": case "sm": return SHARED;
			case "output": case "output_driven": return OUTPUT_DRIVEN;
			default: throw new InvalidInputException("spread method: expected auto, atomic, shared or output; found '" + s + "'");
		}
	}
}
