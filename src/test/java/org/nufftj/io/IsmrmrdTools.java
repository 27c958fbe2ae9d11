package org.nufftj.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;

/**
 * Test access to the ISMRMRD reference tools (Debian ismrmrd-tools) and to the C fixture writer in src/test/c, built
 * here with gcc against libismrmrd-dev. Each lookup returns null (and says why in {@link #why}) when a tool is absent,
 * so tests can skip with a stated reason.
 */
public final class IsmrmrdTools {

	private IsmrmrdTools() {}

	public static String why = "";

	/** The named executable on PATH, or null. */
	public static Path tool(final String name) {
		for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
			final Path p = Paths.get(dir, name);
			if (Files.isExecutable(p)) return p;
		}
		why = name + " not on PATH (install ismrmrd-tools)";
		return null;
	}

	/** The fixture writer, compiled once into target/test-native; null when gcc or the ISMRMRD/HDF5 headers are absent. */
	public static synchronized Path fixtureWriter() throws IOException, InterruptedException {
		final Path exe = Paths.get("target", "test-native", "ismrmrd_noncart_fixture").toAbsolutePath();
		final Path src = Paths.get("src", "test", "c", "ismrmrd_noncart_fixture.c").toAbsolutePath();
		if (Files.isExecutable(exe) && Files.getLastModifiedTime(exe).compareTo(Files.getLastModifiedTime(src)) > 0)
			return exe;
		if (tool("gcc") == null) return null;
		if (!Files.exists(Paths.get("/usr/include/ismrmrd/ismrmrd.h"))) {
			why = "libismrmrd-dev headers not installed";
			return null;
		}
		Files.createDirectories(exe.getParent());
		final List<String> cmd = new ArrayList<>(Arrays.asList("gcc", "-O2", "-o", exe.toString(), src.toString()));
		for (final String inc : new String[] { "/usr/include/hdf5/serial" })
			if (Files.isDirectory(Paths.get(inc))) cmd.add(1, "-I" + inc);
		cmd.add("-lismrmrd");
		cmd.add("-lm");
		final String out = run(cmd, null);
		if (!Files.isExecutable(exe)) {
			why = "gcc could not build the fixture writer: " + out;
			return null;
		}
		return exe;
	}

	/** Runs a command, fails the test when it fails; returns its output. */
	public static String run(final List<String> cmd, final Path dir) throws IOException, InterruptedException {
		final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
		if (dir != null) pb.directory(dir.toFile());
		final Process p = pb.start();
		final String out = new String(p.getInputStream().readAllBytes());
		if (!p.waitFor(120, TimeUnit.SECONDS)) {
			p.destroyForcibly();
			throw new IOException("timed out: " + cmd);
		}
		if (p.exitValue() != 0 && !cmd.get(0).equals("gcc"))
			throw new IOException(cmd + " exited with " + p.exitValue() + ": " + out);
		return out;
	}

	/** The image ismrmrd_recon_cartesian_2d appended to the file (the first float image dataset under /dataset). */
	public static float[] referenceImage(final Path file, final int n) {
		try (HdfFile h = new HdfFile(file)) {
			for (final io.jhdf.api.Node g : ((io.jhdf.api.Group) h.getChild("dataset")).getChildren().values()) {
				if (!(g instanceof io.jhdf.api.Group)) continue;
				final io.jhdf.api.Node d = ((io.jhdf.api.Group) g).getChild("data");
				if (!(d instanceof Dataset)) continue;
				final Object v = ((Dataset) d).getDataFlat();
				if (v instanceof float[] && ((float[]) v).length == n * n) return (float[]) v;
			}
		}
		throw new AssertionError("no reconstructed image found in " + file);
	}

}
