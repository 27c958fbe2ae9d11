package org.nufftj.ij1;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import ij.Menus;

/**
 * ImageJ 1's built-in menu commands ({@code 8-bit}, {@code Duplicate...}, {@code Measure}, {@code Image
 * Calculator...}), which are not in IJ_Props.txt: {@code Menus.addMenuBar()} adds them in code, with AWT menus, so
 * without a display they never reach the command table. Read here from the string constants of {@code ij/Menus.class}:
 * each {@code addPlugInItem(menu, "Label", "ij.plugin.Class(\"arg\")", …)} puts its two strings next to each other in
 * the class's constant pool (javac numbers constants in order of first use). Only pairs whose class exists are kept.
 */
final class ImageJCommands {

	private static final Pattern CLASS = Pattern.compile("ij\\.[A-Za-z0-9_.$]+(\\(\".*\"\\))?");

	private ImageJCommands() {}

	/** Label → class("arg") of ImageJ's built-in menu commands, in menu order; empty if Menus.class cannot be read. */
	static Map<String, String> builtIn() {
		final Map<String, String> out = new LinkedHashMap<>();
		try (InputStream in = Menus.class.getResourceAsStream("Menus.class")) {
			if (in == null) return out;
			final List<String> strings = strings(new DataInputStream(in));
			for (int i = 1; i < strings.size(); i++) {
				final String label = strings.get(i - 1), target = strings.get(i);
				if (!CLASS.matcher(target).matches() || CLASS.matcher(label).matches() || label.isBlank() ||
					label.length() > 40 || !exists(target)) continue;
				out.putIfAbsent(label, target);
			}
		}
		catch (final IOException | RuntimeException e) {
			// An unexpected class file: headless runs keep IJ_Props' commands only.
		}
		return out;
	}

	// -- helpers --

	/** The values of the CONSTANT_String entries of a class file, in constant-pool order. */
	private static List<String> strings(final DataInputStream in) throws IOException {
		if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
		in.readUnsignedShort();
		in.readUnsignedShort();
		final int n = in.readUnsignedShort();
		final String[] utf8 = new String[n];
		final List<Integer> stringRefs = new ArrayList<>();
		for (int i = 1; i < n; i++) {
			final int tag = in.readUnsignedByte();
			switch (tag) {
				case 1: utf8[i] = in.readUTF(); break;
				case 8: stringRefs.add(in.readUnsignedShort()); break;
				case 7: case 16: case 19: case 20: in.readUnsignedShort(); break;
				case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
				case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break;
				case 5: case 6: in.readLong(); i++; break;
				default: throw new IOException("constant-pool tag " + tag);
			}
		}
		final List<String> out = new ArrayList<>();
		for (final int ref : stringRefs) out.add(utf8[ref]);
		return out;
	}

	private static boolean exists(final String target) {
		final int paren = target.indexOf('(');
		final String cls = paren < 0 ? target : target.substring(0, paren);
		try {
			Class.forName(cls, false, Menus.class.getClassLoader());
			return true;
		}
		catch (final ClassNotFoundException | LinkageError e) {
			return false;
		}
	}
}
