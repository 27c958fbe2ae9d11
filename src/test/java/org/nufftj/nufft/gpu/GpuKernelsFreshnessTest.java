package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The committed kernel modules (src/main/resources/org/nufftj/gpu/*.fatbin) are built from the current kernels/:
 * kernels.sha256, written by scripts/gpu-build-kernels.sh, must list the SHA-256 of every file in kernels/. Runs
 * without a GPU (CI); fails when a kernel source changed and the modules were not rebuilt.
 */
class GpuKernelsFreshnessTest {

	@Test
	void committedModulesMatchKernelSources() throws IOException, NoSuchAlgorithmException {
		final Path kernels = Paths.get("kernels");
		Assumptions.assumeTrue(Files.isDirectory(kernels), "kernels/ not found from " + Paths.get("").toAbsolutePath());
		final Map<String, String> recorded = new TreeMap<>();
		try (var in = GpuKernelsFreshnessTest.class.getResourceAsStream("/org/nufftj/gpu/kernels.sha256")) {
			assertNotNull(in, "kernels.sha256 resource missing: run scripts/gpu-build-kernels.sh");
			for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
				if (line.isBlank() || line.startsWith("#")) continue;
				final String[] f = line.trim().split("\\s+", 2);
				recorded.put(f[1].replace("*", ""), f[0]);
			}
		}
		final Map<String, String> current = new TreeMap<>();
		final MessageDigest sha = MessageDigest.getInstance("SHA-256");
		try (Stream<Path> files = Files.list(kernels)) {
			for (final Path p : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
				current.put(p.getFileName().toString(), HexFormat.of().formatHex(sha.digest(Files.readAllBytes(p))));
			}
		}
		assertEquals(current, recorded, "committed GPU modules are stale against kernels/: run scripts/gpu-build-kernels.sh");
		for (final String m : GpuDevice.MODULES) {
			assertNotNull(GpuKernelsFreshnessTest.class.getResource("/org/nufftj/gpu/" + m + ".fatbin"), m + ".fatbin");
		}
		assertNotNull(GpuKernelsFreshnessTest.class.getResource(CufftLoader.SHIM_RESOURCE), "cuFFT shim resource");
	}

	/**
	 * The modules GpuDevice loads are exactly the kernels/*.cu files (each launch names its module, so a kernel can only
	 * be found in the file that defines it), and each defines extern "C" entry points.
	 */
	@Test
	void modulesAreTheKernelSources() throws IOException {
		final Path kernels = Paths.get("kernels");
		Assumptions.assumeTrue(Files.isDirectory(kernels), "kernels/ not found from " + Paths.get("").toAbsolutePath());
		final java.util.Set<String> sources = new java.util.TreeSet<>();
		try (Stream<Path> files = Files.list(kernels)) {
			files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".cu"))
				.forEach(f -> sources.add(f.substring(0, f.length() - 3)));
		}
		assertEquals(sources, new java.util.TreeSet<>(java.util.List.of(GpuDevice.MODULES)), "modules vs kernels/*.cu");
		final Pattern entry = Pattern.compile("extern \"C\"\\s+__global__\\s+void\\s+(?:__launch_bounds__\\([^)]*\\)\\s+)?(\\w+)");
		for (final String module : GpuDevice.MODULES) {
			final Matcher m = entry.matcher(Files.readString(kernels.resolve(module + ".cu")));
			assertTrue(m.find(), module + ".cu: no extern \"C\" kernel entries found");
		}
	}
}
