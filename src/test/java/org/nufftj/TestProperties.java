package org.nufftj;

/** Tests that switch a system property for a block: set, run, then restore what was there (or clear it). */
public final class TestProperties {

	private TestProperties() {}

	/** Runs {@code block} with the system property {@code key} set to {@code value}, restoring it afterwards. */
	public static void with(final String key, final String value, final Runnable block) {
		with(key, value, () -> {
			block.run();
			return null;
		});
	}

	/** {@link #with(String, String, Runnable)} for a block that returns a value. */
	public static <T> T with(final String key, final String value, final java.util.function.Supplier<T> block) {
		final String before = System.getProperty(key);
		System.setProperty(key, value);
		try {
			return block.get();
		}
		finally {
			if (before == null) System.clearProperty(key);
			else System.setProperty(key, before);
		}
	}
}
