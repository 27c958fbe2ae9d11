package org.nufftj.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.scijava.command.Command;
import org.scijava.plugin.Plugin;
import org.scijava.plugin.PluginInfo;

/**
 * Issue 11: our menu labels clash with nothing in ImageJ 1 (ImageJ's own "Benchmark" made every start show "Duplicate
 * command" and headless {@code run("Benchmark", …)} ran ImageJ's), and plugins.config says what the @Plugin
 * annotations say.
 */
class MenuLabelsTest {

	/** Every command label in ImageJ 1's own command table (IJ_Props.txt inside ij.jar): {@code key="Label",class}. */
	static Set<String> imageJCommands() throws IOException {
		final Pattern entry = Pattern.compile("^[A-Za-z_]+[0-9]*=\"([^\"]+)\",\\S+");
		final Set<String> out = new HashSet<>();
		try (InputStream in = ij.IJ.class.getResourceAsStream("/IJ_Props.txt")) {
			assertNotNull(in, "IJ_Props.txt on the class path (inside ij.jar)");
			final BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
			for (String line; (line = r.readLine()) != null;) {
				final Matcher m = entry.matcher(line.trim());
				if (m.find()) out.add(m.group(1));
			}
		}
		return out;
	}

	@Test
	void ourLabelsClashWithNoImageJCommand() throws Exception {
		final Set<String> ij = imageJCommands();
		assertTrue(ij.size() > 200 && ij.contains("Benchmark") && ij.contains("Gaussian Blur..."),
			"ImageJ's table was read: " + ij.size() + " commands");
		final Set<String> ours = new TreeSet<>(Headless.ours().keySet());
		for (final PluginInfo<Command> info : CommandLauncher.commands().values())
			ours.add(info.loadClass().getAnnotation(Plugin.class).label());
		for (final String label : ours)
			assertFalse(ij.contains(label) || ij.contains(label + "..."), "'" + label + "' is also an ImageJ 1 command");
	}

	@Test
	void pluginsConfigAgreesWithTheAnnotations() throws Exception {
		final Map<String, String> config = Headless.ours();
		final Map<String, PluginInfo<Command>> commands = CommandLauncher.commands();
		assertEquals(commands.size(), config.size(), "one plugins.config line per command: " + config);
		for (final Map.Entry<String, PluginInfo<Command>> e : commands.entrySet()) {
			final Plugin p = e.getValue().loadClass().getAnnotation(Plugin.class);
			assertEquals("org.nufftj.ij1.CommandLauncher(\"" + e.getKey() + "\")", config.get(p.label()),
				"plugins.config line for the @Plugin label '" + p.label() + "'");
			assertEquals("Plugins>NUFFT-J>" + p.label(), p.menuPath(), "menu path of " + p.label());
		}
	}
}
