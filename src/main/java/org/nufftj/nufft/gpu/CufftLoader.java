package org.nufftj.nufft.gpu;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jcuda.jcufft.JCufft;

/**
 * Makes cuFFT usable for JCufft 11.8.0, whose native library links {@code libcufft.so.10} with versioned symbols.
 * <p>
 * When a real {@code libcufft.so.10} is on the library path nothing is done ("native"). Otherwise the shim built from
 * {@code src/main/c/cufft_shim.c} (SONAME libcufft.so.10, forwarding every entry point to the newest real
 * {@code libcufft.so.12}/{@code .11}) is extracted to a temporary directory and {@code System.load}ed before JCufft's
 * class initialises, so the dynamic linker resolves JCufft against it. Loading a native library is process-wide, so
 * the outcome is computed once per class loader ({@link #status()}); it never throws.
 * </p>
 */
public final class CufftLoader {

	/** Resource path of the shim inside the jar. */
	static final String SHIM_RESOURCE = "/org/nufftj/gpu/linux-x86_64/libcufft.so.10";

	private CufftLoader() {}

	/** What was found and loaded: whether cuFFT works, its version, and how it was reached. */
	public static final class Status {

		public final boolean usable;
		/** cufftGetVersion(), e.g. 12000, or 0. */
		public final int version;
		/** "native libcufft.so.10 (path)", "shim -> libcufft.so.12 (path)" or the reason cuFFT is unusable. */
		public final String description;

		Status(final boolean usable, final int version, final String description) {
			this.usable = usable;
			this.version = version;
			this.description = description;
		}

		@Override
		public String toString() {
			return usable ? "cuFFT " + version + " via " + description : "no cuFFT: " + description;
		}
	}

	/** Loads (once) and reports cuFFT; never throws. */
	public static Status status() {
		return Holder.STATUS;
	}

	private static final class Holder {

		static final Status STATUS = load();
	}

	// -- helpers --

	private static Status load() {
		if (!System.getProperty("os.name", "").toLowerCase().contains("linux") ||
			!System.getProperty("os.arch", "").matches("amd64|x86_64"))
		{
			return tryJCufft("native cuFFT of this platform (no shim for " + System.getProperty("os.name") + "/" +
				System.getProperty("os.arch") + ")");
		}
		final File real10 = find("libcufft.so.10");
		if (real10 != null) return tryJCufft("native libcufft.so.10 (" + real10 + ")");
		final File newer = find("libcufft.so.12") != null ? find("libcufft.so.12") : find("libcufft.so.11");
		final String how;
		try {
			final Path dir = Files.createTempDirectory("nufftj-cufft");
			final Path lib = dir.resolve("libcufft.so.10");
			try (InputStream in = CufftLoader.class.getResourceAsStream(SHIM_RESOURCE)) {
				if (in == null) return new Status(false, 0, "the cuFFT shim resource " + SHIM_RESOURCE + " is missing");
				Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
			}
			lib.toFile().deleteOnExit();
			dir.toFile().deleteOnExit();
			System.load(lib.toAbsolutePath().toString());
			how = "shim libcufft.so.10 -> " + (newer != null ? newer.toString() : "libcufft.so.12/.11 from the loader path");
		}
		catch (final IOException | LinkageError | SecurityException e) {
			return new Status(false, 0, "could not load the cuFFT shim: " + Cuda.brief(e));
		}
		return tryJCufft(how);
	}

	private static Status tryJCufft(final String how) {
		try {
			JCufft.setExceptionsEnabled(false);
			final int[] v = new int[1];
			final int r = JCufft.cufftGetVersion(v);
			if (r != 0) {
				return new Status(false, 0, "cufftGetVersion returned " + jcuda.jcufft.cufftResult.stringFor(r) +
					" through " + how + " (no real libcufft.so.12/.11/.10 found?)");
			}
			return new Status(true, v[0], how);
		}
		catch (final LinkageError | RuntimeException e) {
			return new Status(false, 0, "JCufft could not load through " + how + ": " + Cuda.brief(e));
		}
	}

	/** The first existing file of that name in LD_LIBRARY_PATH, java.library.path and the usual CUDA/system dirs. */
	static File find(final String name) {
		final Set<String> dirs = new LinkedHashSet<>();
		final List<String> paths = new ArrayList<>();
		paths.add(System.getenv("LD_LIBRARY_PATH"));
		paths.add(System.getProperty("java.library.path"));
		for (final String p : paths) {
			if (p == null) continue;
			for (final String d : p.split(File.pathSeparator))
				if (!d.isEmpty()) dirs.add(d);
		}
		final String[] std = { "/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
			"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu", "/lib64",
			"/usr/local/nvidia/lib64", "/usr/local/lib" };
		for (final String d : std) dirs.add(d);
		final File[] cudas = new File("/usr/local").listFiles((f, n) -> n.startsWith("cuda-"));
		if (cudas != null) for (final File c : cudas) dirs.add(new File(c, "lib64").getPath());
		for (final String d : dirs) {
			final File f = new File(d, name);
			if (f.exists()) return f;
		}
		return null;
	}
}
