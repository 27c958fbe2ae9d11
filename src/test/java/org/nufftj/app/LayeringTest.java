package org.nufftj.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The layering of the application layer and the front ends, by a scan of the sources (imports and fully qualified
 * names): front ends never touch the GPU engine; the application layer reaches today's engine and recon entry points
 * only in {@link Session} (and {@link BartNufft} for the BART-scaled operator), the places to switch to the backend;
 * no ImageJ, AWT, picocli or SciJava in the application layer or the ImgLib2 API; {@code command} does not use
 * {@code ij1} (no command ⇄ ij1 cycle).
 */
class LayeringTest {

	static final Path MAIN = Path.of("src", "main", "java", "org", "nufftj");

	@Test
	void frontEndsNeverTouchTheGpuEngine() throws IOException {
		for (final String p : new String[] { "cli", "command", "ij1", "imglib" })
			assertEquals(List.of(), offenders(p, "org.nufftj.nufft.gpu"), p + " uses the GPU engine");
	}

	@Test
	void engineAndReconEntryPointsAreCalledInSessionOnly() throws IOException {
		assertEquals(List.of("Session.java"), offenders("app", "org.nufftj.nufft.gpu"));
		for (final String entry : new String[] { "GriddingRecon", "Nufft.plan", "import org.nufftj.nufft.Nufft;",
			"DensityCompensation" })
			for (final String p : new String[] { "app", "cli", "command", "ij1", "imglib" }) {
				final List<String> found = offenders(p, entry);
				assertEquals(p.equals("app") ? List.of("Session.java") : List.of(), found, entry + " in " + p);
			}
		for (final String p : new String[] { "cli", "command", "ij1", "imglib" })
			assertEquals(List.of(), offenders(p, "NufftOperator"), "NufftOperator in " + p);
		assertEquals(List.of("BartNufft.java"), offenders("app", "NufftOperator"));
	}

	@Test
	void noUserInterfaceBelowTheFrontEnds() throws IOException {
		for (final String p : new String[] { "app", "imglib" })
			for (final String ui : new String[] { "import ij.", "java.awt", "picocli", "org.scijava", "org.nufftj.cli",
				"org.nufftj.command", "org.nufftj.ij1" })
				assertEquals(List.of(), offenders(p, ui), ui + " in " + p);
		assertEquals(List.of(), offenders("app", "org.nufftj.imglib"), "app below imglib");
	}

	@Test
	void commandDoesNotUseIj1() throws IOException {
		assertEquals(List.of(), offenders("command", "org.nufftj.ij1"));
		assertEquals(List.of(), offenders("command", "org.nufftj.cli"));
		assertEquals(List.of(), offenders("cli", "org.nufftj.command"));
	}

	/** Files of package {@code p} (not its sub-packages) whose code (comments aside) contains {@code text}. */
	static List<String> offenders(final String p, final String text) throws IOException {
		final List<String> out = new ArrayList<>();
		try (Stream<Path> files = Files.list(MAIN.resolve(p))) {
			for (final Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java")).sorted()::iterator) {
				final String code = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
				if (code.contains(text)) out.add(f.getFileName().toString());
			}
		}
		return out;
	}
}
