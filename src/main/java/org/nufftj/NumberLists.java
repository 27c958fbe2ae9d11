package org.nufftj;

/** Comma-separated numbers typed by a user (an option, a macro key, a system property), checked one by one. */
public final class NumberLists {

	private NumberLists() {}

	/**
	 * "a, b, c" → {a, b, c}; an item that is not a number fails with one line naming {@code what}, the item's noun
	 * ({@code item}), its index and its text.
	 */
	public static double[] parse(final String list, final String what, final String item) {
		final String[] parts = list.split(",");
		final double[] out = new double[parts.length];
		for (int i = 0; i < parts.length; i++) {
			try {
				out[i] = Double.parseDouble(parts[i].trim());
			}
			catch (final NumberFormatException e) {
				throw new InvalidInputException(what + ": " + item + " " + i + " is not a number: '" + parts[i].trim() +
					"'");
			}
		}
		return out;
	}
}
