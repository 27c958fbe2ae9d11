package org.nufftj.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code mvn package} made (run by failsafe in {@code mvn verify}, after package): target/fiji copies over
 * Fiji.app as is, target/imagej/plugins into a plain ImageJ 1, and that ImageJ runs our commands headless.
 */
class InstallLayoutIT {

	static final Path TARGET = Paths.get("target").toAbsolutePath();

	@TempDir
	Path out;

	/** Issue 11: "nufft-j-0.1.0-SNAPSHOT.jar has no underscore: plain ImageJ shows no NUFFT-J menu". */
	@Test
	void fijiFolderHasThePluginJarWithAnUnderscoreAndOnlyJarsFijiLacks() throws IOException {
		assertEquals(List.of("NUFFT-J_.jar"), names(TARGET.resolve("fiji/plugins")));
		try (JarFile jar = new JarFile(TARGET.resolve("fiji/plugins/NUFFT-J_.jar").toFile())) {
			assertTrue(jar.getEntry("plugins.config") != null, "ImageJ 1 menu entries at the jar's root");
			assertTrue(jar.getEntry("META-INF/json/org.scijava.plugin.Plugin") != null, "the SciJava plugin index");
		}
		final List<String> jars = names(TARGET.resolve("fiji/jars"));
		for (final String shipped : fijiShips())
			for (final String j : jars)
				assertFalse(j.matches(shipped), j + " would shadow Fiji's own copy (" + shipped + ")");
		for (final String needed : new String[] { "jhdf-", "jcuda-", "jcufft-", "picocli-", "compress-lzf-" })
			assertTrue(jars.stream().anyMatch(j -> j.startsWith(needed)), "Fiji lacks " + needed + "*: " + jars);
		// issue 14: the driver-API natives for Linux and Windows, so the GPU engine (own FFT) needs no CUDA toolkit
		for (final String os : new String[] { "linux-x86_64", "windows-x86_64" })
			for (final String lib : new String[] { "jcuda-natives-", "jcufft-natives-" })
				assertTrue(jars.stream().anyMatch(j -> j.startsWith(lib) && j.endsWith("-" + os + ".jar")), lib + "*-" +
					os + ".jar missing: " + jars);
	}

	@Test
	void plainImageJFolderHasEveryDependencyButImageJ() throws IOException {
		assertTrue(Files.isRegularFile(TARGET.resolve("imagej/plugins/NUFFT-J_.jar")));
		final List<String> jars = names(TARGET.resolve("imagej/plugins/jars"));
		assertFalse(jars.stream().anyMatch(j -> j.matches("ij-.*\\.jar")), "ImageJ's own ij.jar is not copied: " + jars);
		for (final String needed : new String[] { "scijava-common-", "imglib2-", "jhdf-", "jcuda-" })
			assertTrue(jars.stream().anyMatch(j -> j.startsWith(needed)), "plain ImageJ needs " + needed + "*: " + jars);
	}

	/** The README's headless form, plain ImageJ 1 with the packaged folder: the menu loads and a command runs. */
	@Test
	void plainImageJRunsOurCommandsHeadlessFromThePackagedFolder() throws Exception {
		final Path macro = out.resolve("run.ijm"), kspace = out.resolve("sim.cfl"), image = out.resolve("recon.tif");
		Files.writeString(macro, String.join("\n",
			"call(\"org.nufftj.ij1.Headless.install\");",
			"setBatchMode(true);",
			"run(\"Simulate k-space\", \"trajectory=radial matrix=32 coils=2 output=[" + kspace + "]\");",
			"run(\"Reconstruct k-space\", \"kspace=[" + kspace + "] device=cpu\");",
			"saveAs(\"Tiff\", \"" + image + "\");",
			"print(\"size \" + getWidth() + \"x\" + getHeight());", ""));
		final List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
			.toString(), "-Djava.awt.headless=true", "-Dplugins.dir=" + TARGET.resolve("imagej"), "-jar",
			TARGET.resolve("ij/ij.jar").toString(), "-batch", macro.toString()));
		final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
		final String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertTrue(p.waitFor(180, TimeUnit.SECONDS), "ended: " + log);
		assertFalse(log.contains("Duplicate command") || log.contains("Plugin configuration error"), log);
		assertTrue(log.contains("size 32x32"), log);
		assertTrue(Files.size(image) > 32 * 32 * 4, "the reconstruction was saved: " + log);
	}

	/**
	 * Issue 11: "-batch exits 0 when a NUFFT-J command failed, so scripts cannot detect failure". Plain
	 * {@code ij.ImageJ -batch}: a failing command ends the process with status 1 after its one line, before the macro's
	 * next line; a macro whose commands succeed still exits 0.
	 */
	@Test
	void plainImageJBatchExitsNonZeroWhenACommandFails() throws Exception {
		final Path bad = out.resolve("bad.ijm"), good = out.resolve("good.ijm");
		Files.writeString(bad, String.join("\n", "call(\"org.nufftj.ij1.Headless.install\");", "setBatchMode(true);",
			"run(\"Reconstruct k-space\", \"kspace=[" + out.resolve("missing.cfl") + "] device=cpu\");",
			"print(\"after the failure\");", ""));
		Files.writeString(good, String.join("\n", "call(\"org.nufftj.ij1.Headless.install\");", "setBatchMode(true);",
			"run(\"Simulate k-space\", \"matrix=16 coils=1 output=[" + out.resolve("s.cfl") + "] device=cpu\");",
			"print(\"done\");", ""));
		final Process p = start(bad);
		final String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertTrue(p.waitFor(180, TimeUnit.SECONDS), log);
		assertEquals(1, p.exitValue(), log);
		assertTrue(log.contains("NUFFT-J: ") && log.contains("missing.hdr: file not found"), log);
		assertFalse(log.contains("after the failure") || log.contains("Exception"), log);
		final Process q = start(good);
		final String ok = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertTrue(q.waitFor(180, TimeUnit.SECONDS), ok);
		assertEquals(0, q.exitValue(), ok);
		assertTrue(ok.contains("done"), ok);
	}

	/**
	 * Every example of the README's command table, each in its own headless plain ImageJ 1: the label is found, the
	 * keys are known, and it runs (Compare CPU and GPU may say that no GPU is usable, as one line).
	 */
	@Test
	void everyReadmeMacroExampleRuns() throws Exception {
		final java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\| ([^|]+?) \\|.*\\| `(run\\(.*\\);)` \\|$",
			java.util.regex.Pattern.MULTILINE).matcher(Files.readString(Paths.get("README.md")));
		final List<String> labels = new ArrayList<>();
		while (m.find()) {
			final String label = m.group(1), example = m.group(2).replace("/tmp/", out.toString() + "/");
			labels.add(label);
			assertTrue(example.startsWith("run(\"" + label + "\""), "the example runs its own row's command: " + example);
			final Path macro = out.resolve(labels.size() + ".ijm");
			Files.writeString(macro, String.join("\n", "call(\"org.nufftj.ij1.Headless.install\");",
				"setBatchMode(true);", "newImage(\"img\", \"32-bit ramp\", 32, 32, 1);", example,
				"print(\"done \" + nImages);", ""));
			final String log = imagej(macro);
			if (label.equals("Compare CPU and GPU") && log.contains("GPU")) continue;
			assertTrue(log.contains("done "), label + ": " + log);
			assertFalse(log.contains("Unrecognized command") || log.contains("unknown key") || log.contains("Exception"),
				label + ": " + log);
		}
		assertEquals(Headless.ours().keySet(), new TreeSet<>(labels), "one README example per menu command");
	}

	// -- helpers --

	/** Starts headless plain ImageJ 1 with the packaged folder on {@code -batch macro}. */
	private static Process start(final Path macro) throws IOException {
		return new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
			"-Djava.awt.headless=true", "-Dplugins.dir=" + TARGET.resolve("imagej"), "-jar", TARGET.resolve("ij/ij.jar")
				.toString(), "-batch", macro.toString()).redirectErrorStream(true).start();
	}

	/** Runs a macro in headless plain ImageJ 1 with the packaged folder; returns its output. */
	private static String imagej(final Path macro) throws IOException, InterruptedException {
		final Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
			"-Djava.awt.headless=true", "-Dplugins.dir=" + TARGET.resolve("imagej"), "-jar", TARGET.resolve("ij/ij.jar")
				.toString(), "-batch", macro.toString()).redirectErrorStream(true).start();
		final String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertTrue(p.waitFor(180, TimeUnit.SECONDS), "ended: " + log);
		return log;
	}

	private static List<String> names(final Path dir) throws IOException {
		try (Stream<Path> s = Files.list(dir)) {
			return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
		}
	}

	/** The "yes" rows of fiji-shipped.txt as regular expressions over jar names. */
	private static Set<String> fijiShips() throws IOException {
		final Set<String> out = new TreeSet<>();
		for (final String line : Files.readAllLines(TARGET.resolve("fiji/fiji-shipped.txt"))) {
			if (line.startsWith("#")) continue;
			final String[] cols = line.split("\\|");
			if (cols.length >= 2 && cols[1].trim().equals("yes"))
				out.add(cols[0].trim().replace(".", "\\.").replace("*", ".*"));
		}
		assertTrue(out.size() >= 5, "read the list: " + out);
		return out;
	}
}
