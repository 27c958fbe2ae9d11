package org.nufftj;

/**
 * The seed of a test's fresh random inputs: a new one each run ({@code System.nanoTime()}), printed in the test's
 * messages, and settable with {@code -Dnufftj.seed=…} to replay a failure exactly.
 */
public final class TestSeeds {

	private TestSeeds() {}

	/** {@code -Dnufftj.seed} if set, else a fresh seed. */
	public static long fresh() {
		return Long.getLong("nufftj.seed", System.nanoTime());
	}
}
