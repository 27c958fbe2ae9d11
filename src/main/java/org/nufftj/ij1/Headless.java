package org.nufftj.ij1;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Hashtable;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ij.IJ;
import ij.Menus;

/**
 * Makes {@code run("Reconstruct k-space", …)} work in plain ImageJ 1 with {@code -Djava.awt.headless=true}.
 * <p>
 * Why: ImageJ 1.54's {@code IJ.run} builds its command table on first use through {@code IJ.init()} →
 * {@code Menus.addMenuBar()}, which creates {@code java.awt.Menu}s and so throws {@code HeadlessException} without a
 * display. {@link #install()} fills that table ({@code Menus.pluginsTable}) without AWT, from our plugins.config,
 * ImageJ's own IJ_Props.txt entries and its built-in menu commands ({@link ImageJCommands}), so IJ.run finds ours and
 * ImageJ's own (8-bit, Duplicate..., Measure, ...). Example macros call it first:
 * {@code call("org.nufftj.ij1.Headless.install");}. With a display, or in Fiji (whose legacy layer runs ImageJ 1
 * headless its own way), the table already exists and only missing NUFFT-J entries are added.
 * </p>
 */
public final class Headless {

	private static final Pattern ENTRY = Pattern.compile("^\\s*[^#\"][^,]*,\\s*\"([^\"]+)\"\\s*,\\s*(\\S.*?)\\s*$");
	private static final Pattern PROP = Pattern.compile("^[a-z]+[0-9]+=\"([^\"]+)\",(\\S+)\\s*$");

	private Headless() {}

	/** Adds NUFFT-J's (and, when the table is new, ImageJ's IJ_Props) commands; returns "" or why not. */
	public static String install() {
		try {
			@SuppressWarnings("unchecked")
			Hashtable<String, String> table = java.awt.GraphicsEnvironment.isHeadless() ? null : Menus.getCommands();
			if (table == null) table = existingTable();
			if (table == null) {
				table = new Hashtable<>();
				addIjProps(table);
				// ImageJ's built-in commands (8-bit, Duplicate..., Measure, ...): not in IJ_Props, added by AWT code.
				for (final Map.Entry<String, String> e : ImageJCommands.builtIn().entrySet())
					table.putIfAbsent(e.getKey(), e.getValue());
				setTable(table);
			}
			for (final Map.Entry<String, String> e : ours().entrySet()) table.putIfAbsent(e.getKey(), e.getValue());
			return "";
		}
		catch (final IOException | ReflectiveOperationException | RuntimeException e) {
			IJ.log("NUFFT-J: cannot register commands for headless use: " + e);
			return "failed: " + e;
		}
	}

	/** NUFFT-J's menu commands from plugins.config: label → class("arg"). */
	public static Map<String, String> ours() throws IOException {
		final Map<String, String> out = new java.util.LinkedHashMap<>();
		try (InputStream in = Headless.class.getResourceAsStream("/plugins.config")) {
			if (in == null) throw new IOException("plugins.config not found beside " + Headless.class.getName());
			final BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
			for (String line; (line = r.readLine()) != null;) {
				final Matcher m = ENTRY.matcher(line);
				if (m.matches()) out.put(m.group(1), m.group(2));
			}
		}
		return out;
	}

	// -- helpers --

	@SuppressWarnings("unchecked")
	private static Hashtable<String, String> existingTable() throws ReflectiveOperationException {
		return (Hashtable<String, String>) field().get(null);
	}

	private static void setTable(final Hashtable<String, String> t) throws ReflectiveOperationException {
		field().set(null, t);
	}

	private static Field field() throws NoSuchFieldException {
		final Field f = Menus.class.getDeclaredField("pluginsTable");
		f.setAccessible(true);
		return f;
	}

	private static void addIjProps(final Hashtable<String, String> table) throws IOException {
		try (InputStream in = IJ.class.getResourceAsStream("/IJ_Props.txt")) {
			if (in == null) return;
			final BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
			for (String line; (line = r.readLine()) != null;) {
				final Matcher m = PROP.matcher(line);
				if (m.matches()) table.put(m.group(1).replaceAll("\\[.*\\]$", ""), m.group(2));
			}
		}
	}
}
