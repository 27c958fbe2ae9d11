package org.nufftj.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ImageJ 1 with real windows (issue 11): started from the packaged {@code target/imagej} folder in its own JVM on an X
 * display — a fresh Xvfb through {@code xvfb-run} when installed (.ci/run installs it), else the session's
 * {@code DISPLAY} — and driven by {@link RealWindowDriver}: the Plugins › NUFFT-J menu lists every command, no plugin
 * configuration error or exception window appears, and Simulate k-space run from its menu item through its dialog (OK
 * pressed) shows a reconstruction of the simulated phantom. Screenshots of the dialog and the result:
 * {@code target/real-window/} (with the driver's output, driver.txt). Skipped, saying so, when there is neither xvfb-run nor a display.
 */
class RealWindowIT {

	static final Path TARGET = Paths.get("target").toAbsolutePath();

	@TempDir
	Path tmp;

	@Test
	void menuDialogAndResultInRealWindows() throws Exception {
		final String xvfb = onPath("xvfb-run"), display = System.getenv("DISPLAY");
		Assumptions.assumeTrue(xvfb != null || (display != null && !display.isEmpty()),
			"no X display: neither xvfb-run on the PATH (apt-get install xvfb) nor DISPLAY set");
		final Path shots = TARGET.resolve("real-window");
		try (Stream<Path> s = Files.exists(shots) ? Files.list(shots) : Stream.empty()) {
			for (final Path p : s.collect(Collectors.toList())) Files.delete(p);
		}
		// The driver alone on the class path beside ij.jar: NUFFT-J itself comes only from the packaged plugin folder.
		final Path driver = tmp.resolve("driver/org/nufftj/ij1");
		Files.createDirectories(driver);
		try (Stream<Path> s = Files.list(TARGET.resolve("test-classes/org/nufftj/ij1"))) {
			for (final Path p : s.filter(p -> p.getFileName().toString().startsWith("RealWindowDriver")).collect(
				Collectors.toList())) Files.copy(p, driver.resolve(p.getFileName()));
		}
		final List<String> cmd = new ArrayList<>();
		if (xvfb != null) cmd.addAll(List.of(xvfb, "-a", "-s", "-screen 0 1600x1200x24"));
		cmd.addAll(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
			"-Djava.awt.headless=false", "-Dplugins.dir=" + TARGET.resolve("imagej"), "-Duser.home=" + tmp, "-Djava.io.tmpdir=" + tmp, "-cp",
			TARGET.resolve("ij/ij.jar") + File.pathSeparator + tmp.resolve("driver"), RealWindowDriver.class.getName(),
			shots.toString()));
		final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).directory(tmp.toFile()).start();
		final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertTrue(p.waitFor(240, TimeUnit.SECONDS), "ended: " + out);
		Files.writeString(shots.resolve("driver.txt"), out);

		assertFalse(out.contains("FAIL"), out);
		// Every command of the plugin index is in the menu, under its plugins.config label.
		final TreeSet<String> menu = lines(out, "MENU ");
		assertEquals(Headless.ours().keySet(), menu, out);
		// No configuration error (ImageJ writes it to the Log) and no exception window, before or after the run.
		for (final String line : out.split("\n")) {
			if (line.startsWith("LOG ") || line.startsWith("WINDOW "))
				assertFalse(line.contains("configuration error") || line.contains("Duplicate command") || line.contains(
					"Exception") || line.contains("NUFFT-J: "), line + "\n" + out);
		}
		assertTrue(out.contains("DIALOG Simulate k-space"), out);
		// The result: the 64x64 reconstruction the dialog asked for, showing the phantom.
		final Matcher m = Pattern.compile("IMAGE (\\d+)x(\\d+) correlation-with-phantom (\\S+)").matcher(out);
		assertTrue(m.find(), out);
		assertEquals("64x64", m.group(1) + "x" + m.group(2), "matrix 64 typed into the dialog reached the command");
		assertTrue(Double.parseDouble(m.group(3)) > 0.8, "the reconstruction shows the phantom: " + m.group(0));
		for (final String png : new String[] { "dialog.png", "result.png" }) {
			final java.awt.image.BufferedImage img = ImageIO.read(shots.resolve(png).toFile());
			assertTrue(img != null && img.getWidth() > 50 && img.getHeight() > 50, png + " saved");
		}
	}

	// -- helpers --

	private static TreeSet<String> lines(final String out, final String prefix) {
		final TreeSet<String> s = new TreeSet<>();
		for (final String line : out.split("\n"))
			if (line.startsWith(prefix)) s.add(line.substring(prefix.length()).trim());
		return s;
	}

	private static String onPath(final String name) throws IOException {
		final String path = System.getenv("PATH");
		if (path == null) return null;
		for (final String dir : path.split(File.pathSeparator)) {
			final Path p = Paths.get(dir, name);
			if (Files.isExecutable(p)) return p.toString();
		}
		return null;
	}
}
