package org.nufftj.ij1;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.scijava.module.Module;
import org.scijava.module.ModuleItem;

import ij.gui.GenericDialog;

/**
 * The interactive form of a command: a GenericDialog with one field per input whose label is the macro key, so ImageJ
 * 1's Recorder writes exactly the keys the launcher reads back ({@code Macro.trimKey} of a label is its first word).
 */
final class Dialogs {

	private Dialogs() {}

	/** The values entered, or null when cancelled. */
	static Map<String, Object> ask(final String title, final List<ModuleItem<?>> inputs, final Module module) {
		final GenericDialog gd = new GenericDialog(title);
		for (final ModuleItem<?> item : inputs) {
			final String key = item.getName();
			final Object v = module.getInput(key);
			final Class<?> t = item.getType();
			if (t == boolean.class || t == Boolean.class) gd.addCheckbox(key, v != null && (Boolean) v);
			else if (t == File.class) gd.addFileField(key, v == null ? "" : v.toString(), 40);
			else if (t == int.class || t == Integer.class) gd.addNumericField(key, v == null ? 0 : ((Number) v)
				.doubleValue(), 0);
			else if (t == double.class || t == Double.class || t == float.class || t == Float.class) gd.addNumericField(key,
				v == null ? 0 : ((Number) v).doubleValue(), 6, 10, null);
			else if (item.getChoices() != null && !item.getChoices().isEmpty()) {
				final String[] choices = item.getChoices().stream().map(Object::toString).toArray(String[]::new);
				gd.addChoice(key, choices, v == null ? choices[0] : v.toString());
			}
			else gd.addStringField(key, v == null ? "" : v.toString(), 30);
			if (item.getDescription() != null && !item.getDescription().isEmpty()) {
				// Beside short fields; below text and file fields, whose width leaves no room beside them (a description
				// there was clipped at the dialog's right edge: RealWindowIT's screenshot).
				final boolean wide = t == File.class || (t == String.class && (item.getChoices() == null || item
					.getChoices().isEmpty()));
				if (!wide) gd.addToSameRow();
				gd.addMessage(item.getDescription());
			}
		}
		gd.showDialog();
		if (gd.wasCanceled()) return null;
		final Map<String, Object> values = new LinkedHashMap<>();
		for (final ModuleItem<?> item : inputs) {
			final String key = item.getName();
			final Class<?> t = item.getType();
			if (t == boolean.class || t == Boolean.class) values.put(key, gd.getNextBoolean());
			else if (t == File.class) {
				final String s = gd.getNextString().trim();
				values.put(key, s.isEmpty() ? null : new File(s));
			}
			else if (t == int.class || t == Integer.class) values.put(key, (int) Math.round(gd.getNextNumber()));
			else if (t == double.class || t == Double.class) values.put(key, gd.getNextNumber());
			else if (t == float.class || t == Float.class) values.put(key, (float) gd.getNextNumber());
			else if (item.getChoices() != null && !item.getChoices().isEmpty()) values.put(key, gd.getNextChoice());
			else values.put(key, gd.getNextString());
		}
		return values;
	}
}
