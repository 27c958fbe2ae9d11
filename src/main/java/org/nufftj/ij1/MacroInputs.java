package org.nufftj.ij1;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.nufftj.InvalidInputException;
import org.scijava.Context;
import org.scijava.module.ModuleItem;
import org.scijava.service.Service;

import ij.ImagePlus;
import ij.Macro;

/**
 * ImageJ 1 macro options ({@code "key=value key=[value with spaces] flag"}) → a command's {@code @Parameter} inputs.
 * The key is the field name; check boxes are a bare word (present = true); keys the command does not have are an
 * error, so a typo in a macro is reported instead of silently ignored.
 */
public final class MacroInputs {

	private static final Pattern TOKEN = Pattern.compile("([A-Za-z0-9_]+)(=(\\[[^\\]]*\\]|\\S*))?");

	private MacroInputs() {}

	// -- public API --

	/** The user-settable inputs of a command: not services, not the context, not images (taken from the screen). */
	public static List<ModuleItem<?>> userInputs(final Iterable<ModuleItem<?>> inputs) {
		final List<ModuleItem<?>> out = new ArrayList<>();
		for (final ModuleItem<?> item : inputs) {
			final Class<?> t = item.getType();
			if (Service.class.isAssignableFrom(t) || Context.class.isAssignableFrom(t) || ImagePlus.class
				.isAssignableFrom(t)) continue;
			out.add(item);
		}
		return out;
	}

	/** Parses {@code options} into values for the given inputs (only keys present in the options). */
	public static Map<String, Object> parse(final String command, final List<ModuleItem<?>> inputs,
		final String options)
	{
		final Map<String, ModuleItem<?>> byName = new LinkedHashMap<>();
		for (final ModuleItem<?> item : inputs) byName.put(item.getName(), item);
		final Map<String, Object> values = new LinkedHashMap<>();
		final Matcher m = TOKEN.matcher(options == null ? "" : options);
		while (m.find()) {
			final String key = m.group(1).toLowerCase(Locale.ROOT);
			final ModuleItem<?> item = byName.get(key);
			if (item == null) throw new InvalidInputException(command + ": unknown key '" + key + "', expected " +
				byName.keySet());
			String raw = m.group(3);
			if (raw != null && raw.startsWith("[") && raw.endsWith("]")) raw = raw.substring(1, raw.length() - 1);
			values.put(key, convert(key, item.getType(), raw));
		}
		return values;
	}

	/** Reads a value the ImageJ 1 way (for callers that prefer {@link Macro#getValue}). */
	public static String value(final String options, final String key) {
		return Macro.getValue(options, key, null);
	}

	// -- helpers --

	static Object convert(final String key, final Class<?> type, final String raw) {
		if (type == boolean.class || type == Boolean.class) {
			if (raw == null || raw.equalsIgnoreCase("true")) return true;
			if (raw.equalsIgnoreCase("false")) return false;
			throw new InvalidInputException(key + ": '" + raw + "' is not true or false");
		}
		if (raw == null) throw new InvalidInputException(key + ": no value given (write " + key + "=...)");
		try {
			if (type == int.class || type == Integer.class) return Integer.parseInt(raw.trim());
			if (type == long.class || type == Long.class) return Long.parseLong(raw.trim());
			if (type == double.class || type == Double.class) return Double.parseDouble(raw.trim());
			if (type == float.class || type == Float.class) return Float.parseFloat(raw.trim());
		}
		catch (final NumberFormatException e) {
			throw new InvalidInputException(key + ": '" + raw + "' is not " + (type == int.class || type == long.class ||
				type == Integer.class || type == Long.class ? "an integer" : "a number"));
		}
		if (type == File.class) return raw.isEmpty() ? null : new File(raw);
		if (type == String.class) return raw;
		throw new InvalidInputException(key + ": inputs of type " + type.getSimpleName() + " cannot come from a macro");
	}
}
