package org.nufftj.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nufftj.command.ReconstructCommand;
import org.scijava.Context;
import org.scijava.command.CommandService;

import ij.ImagePlus;
import ij.io.Opener;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;

/**
 * Every macro in macros/ through the real ImageJ 1 {@code -batch} path, headless, in a child JVM with the Fiji-ready
 * layout ({@code plugins/} holds our jar, {@code jars/} the runtime classpath), exactly as docs/fiji.md tells users:
 * {@code java -Djava.awt.headless=true -Dplugins.dir=L -cp "L/jars/*:L/plugins/*" ij.ImageJ -batch macro arg}.
 * The layout is built here from target/classes and the test classpath, because surefire runs before
 * {@code mvn package} makes target/fiji. Then bad input through macros: one message in the Log, no exception, the
 * macro stops (nothing written after the failed step).
 */
class MacroBatchTest {

	static final Path ROOT = Paths.get("").toAbsolutePath();

	@TempDir
	static Path layout;

	@BeforeAll
	static void buildLayout() throws IOException {
		final Path plugins = Files.createDirectories(layout.resolve("plugins"));
		final Path jars = Files.createDirectories(layout.resolve("jars"));
		jar(ROOT.resolve("target/classes"), plugins.resolve("nufft-j.jar"));
		for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			final Path p = Paths.get(entry);
			final String name = p.getFileName().toString();
			if (!name.endsWith(".jar") || name.matches("(junit|opentest4j|apiguardian|jmh|jopt|surefire).*")) continue;
			Files.createSymbolicLink(jars.resolve(name), p.toAbsolutePath());
		}
	}

	// -- the example macros --

	/** What each example macro is run with and must write; a macro without an entry here fails the test. */
	static Stream<Arguments> macros() throws IOException {
		try (Stream<Path> s = Files.list(ROOT.resolve("macros"))) {
			return s.filter(p -> p.toString().endsWith(".ijm")).sorted().map(p -> Arguments.of(p.getFileName()
				.toString())).toList().stream();
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("macros")
	void exampleMacroRunsHeadlessAndWritesItsImages(final String macro, @TempDir final Path out) throws Exception {
		switch (macro) {
			case "reconstruct_sample.ijm": {
				final Result r = batch(ROOT.resolve("macros").resolve(macro), out.toString());
				r.assertClean();
				checkIsmrmrdSample(out.resolve("radial_shepp_logan.tif"));
				final ImagePlus bart = open(out.resolve("radial_bart.tif"));
				assertEquals(64, bart.getWidth());
				assertEqualsInProcess(bart, Map.of("kspace", ROOT.resolve("sample-data/bart/radial.cfl").toFile(), "dcf",
					"pipe-menon", "combine", "sos", "device", "cpu"));
				break;
			}
			case "batch_reconstruct_folder.ijm": {
				final Path in = Files.createDirectories(out.resolve("in"));
				final Path res = Files.createDirectories(out.resolve("out"));
				Files.copy(ROOT.resolve("sample-data/ismrmrd/radial_shepp_logan.h5"), in.resolve("radial_shepp_logan.h5"));
				for (final String f : new String[] { "radial.cfl", "radial.hdr", "radial_traj.cfl", "radial_traj.hdr" })
					Files.copy(ROOT.resolve("sample-data/bart").resolve(f), in.resolve(f));
				final Result r = batch(ROOT.resolve("macros").resolve(macro), in + "|" + res);
				r.assertClean();
				assertTrue(r.output.contains("batch: 2 file(s) reconstructed"), r.output);
				checkIsmrmrdSample(res.resolve("radial_shepp_logan.tif"));
				assertEquals(64, open(res.resolve("radial.tif")).getWidth());
				try (Stream<Path> files = Files.list(res)) {
					assertEquals(2, files.count(), "one TIFF per k-space file, no trajectory reconstructed");
				}
				break;
			}
			case "simulate_compare_cpu_gpu.ijm": {
				final Result r = batch(ROOT.resolve("macros").resolve(macro), out.toString());
				r.assertClean();
				for (final String f : new String[] { "simulated.cfl", "simulated.hdr", "simulated_traj.cfl",
					"simulated_traj.hdr", "compare.csv" }) assertTrue(Files.exists(out.resolve(f)), f);
				final ImagePlus phantom = open(out.resolve("simulated_phantom.tif"));
				final ImagePlus recon = open(out.resolve("simulated_recon.tif"));
				final ImagePlus cpu = open(out.resolve("compare_cpu.tif"));
				assertEquals(64, recon.getWidth());
				assertEquals(64, cpu.getWidth());
				// The reconstruction resembles the phantom it was simulated from.
				final double nrmse = org.nufftj.recon.ImageComparison.of((float[]) phantom.getProcessor().getPixels(),
					(float[]) recon.getProcessor().getPixels()).scaledNrmse();
				assertTrue(nrmse < 0.5, "scaled NRMSE reconstruction vs phantom " + nrmse);
				final String csv = Files.readString(out.resolve("compare.csv"));
				assertTrue(csv.contains("CPU ms"), csv);
				if (Files.exists(out.resolve("compare_gpu.tif"))) {
					assertTrue(Files.exists(out.resolve("compare_difference.tif")));
				}
				else {
					assertTrue(r.output.contains("no GPU image: "), r.output);
				}
				break;
			}
			case "iterative_sample.ijm": {
				final Result r = batch(ROOT.resolve("macros").resolve(macro), out.toString());
				r.assertClean();
				final ImagePlus tv = open(out.resolve("iterative_tv.tif"));
				assertEquals(64, tv.getWidth());
				assertTrue(String.valueOf(tv.getProperty("Info")).contains("regularization=tv"), "parameters in the info");
				final ImagePlus maps = open(out.resolve("iterative_maps.tif"));
				assertEquals(64, maps.getWidth());
				assertEquals(8, maps.getStackSize(), "4 coils x magnitude and phase");
				break;
			}
			case "ultrasound_simulate_compound.ijm": {
				final Result r = batch(ROOT.resolve("macros").resolve(macro), out.toString());
				r.assertClean();
				assertEquals(5, open(out.resolve("cyst_channels.tif")).getStackSize(), "one slice per angle");
				final ImagePlus b = open(out.resolve("cyst_fk_compound.tif"));
				assertEquals(128, b.getWidth());
				assertEquals("mm", b.getCalibration().getUnit());
				assertEquals(0.075, b.getCalibration().pixelWidth, 1e-6);
				// The cyst (radius 3 mm at the centre of the 5-25 mm speckle) is darker than the speckle beside it.
				final double in = mean(b, 0, 15, 1.5), beside = mean(b, 3.3, 8, 1.2);
				assertTrue(in < beside - 10, "cyst " + in + " dB, speckle " + beside + " dB");
				break;
			}
			case "ultrasound_uff_sample.ijm": {
				final Result r = batch(ROOT.resolve("macros").resolve(macro), out.toString());
				r.assertClean();
				for (final String f : new String[] { "uff_fk.tif", "uff_das.tif" }) {
					final ImagePlus b = open(out.resolve(f));
					assertEquals(96, b.getWidth(), f);
					// Each of the sample's four points is bright (within 12 dB of the maximum) within 0.4 mm of its place,
					// and the background between them is dark.
					for (final double[] q : new double[][] { { 0, 6 }, { -2, 10 }, { 2.5, 14 }, { 0, 18 } }) {
						final double m = max(b, q[0], q[1], 0.4);
						assertTrue(m > -12, f + ": the point at " + q[0] + ", " + q[1] + " mm peaks at " + m + " dB");
					}
					assertTrue(max(b, -3, 16, 1) < -25, f + ": background at (-3, 16) mm " + max(b, -3, 16, 1) + " dB");
				}
				break;
			}
			default:
				fail("macros/" + macro + " has no expectations in MacroBatchTest; add what it must write");
		}
	}

	/** Mean pixel value within {@code r} mm of (x, z) mm, by the image's calibration. */
	private static double mean(final ImagePlus b, final double x, final double z, final double r) {
		double sum = 0;
		int n = 0;
		final float[] px = (float[]) b.getProcessor().getPixels();
		for (int i = 0; i < px.length; i++) {
			final double dx = b.getCalibration().getX(i % b.getWidth()) - x, dz = b.getCalibration().getY(i / b
				.getWidth()) - z;
			if (dx * dx + dz * dz < r * r) {
				sum += px[i];
				n++;
			}
		}
		return sum / n;
	}

	/** Largest pixel value within {@code r} mm of (x, z) mm. */
	private static double max(final ImagePlus b, final double x, final double z, final double r) {
		double m = Double.NEGATIVE_INFINITY;
		final float[] px = (float[]) b.getProcessor().getPixels();
		for (int i = 0; i < px.length; i++) {
			final double dx = b.getCalibration().getX(i % b.getWidth()) - x, dz = b.getCalibration().getY(i / b
				.getWidth()) - z;
			if (dx * dx + dz * dz < r * r) m = Math.max(m, px[i]);
		}
		return m;
	}

	// -- bad input through macros --

	static Stream<Arguments> badInput() {
		return Stream.of(Arguments.of("missing", "kspace=[" + "/no/such/scan.h5" + "]", "file not found"), Arguments.of(
			"not ISMRMRD", "kspace=[@other.h5]", "not an ISMRMRD file"), Arguments.of("truncated",
				"kspace=[@cut.h5]", "truncated"), Arguments.of("cfl without hdr", "kspace=[@lonely.cfl]", ".hdr"), Arguments
					.of("unknown kernel", "kspace=[@good.h5] kernel=sinc", "kernel: unknown value 'sinc'"), Arguments.of(
						"unknown key", "kspace=[@good.h5] kernal=kb", "unknown key 'kernal'"), Arguments.of("bad number",
							"kspace=[@good.h5] width=wide", "width: 'wide' is not an integer"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badInput")
	void badInputIsOneLogMessageAndStopsTheMacro(final String name, final String options, final String expected,
		@TempDir final Path dir) throws Exception
	{
		final Path sample = ROOT.resolve("sample-data/ismrmrd/radial_shepp_logan.h5");
		Files.copy(sample, dir.resolve("good.h5"));
		try (WritableHdfFile w = HdfFile.write(dir.resolve("other.h5"))) {
			w.putDataset("values", new int[] { 1, 2, 3 });
		}
		Files.copy(sample, dir.resolve("cut.h5"));
		try (FileChannel ch = FileChannel.open(dir.resolve("cut.h5"), StandardOpenOption.WRITE)) {
			ch.truncate(Files.size(sample) / 2);
		}
		Files.copy(ROOT.resolve("sample-data/bart/radial.cfl"), dir.resolve("lonely.cfl"));
		final Path macro = dir.resolve("bad.ijm");
		final Path after = dir.resolve("written_after_the_error.tif");
		Files.writeString(macro, "call(\"org.nufftj.ij1.Headless.install\");\nsetBatchMode(true);\n" +
			"run(\"Reconstruct k-space\", \"" + options.replace("@", dir + File.separator) + "\");\n" +
			"print(\"still running after the error\");\nnewImage(\"x\", \"32-bit black\", 4, 4, 1);\n" +
			"saveAs(\"Tiff\", \"" + after + "\");\n");
		final Result r = batch(macro, "");
		// ImageJ's -batch would exit 0 here; the failed command ends the process with status 1 (issue 11).
		assertEquals(CommandLauncher.BATCH_FAILURE_STATUS, r.exit, r.output);
		assertFalse(r.output.contains("Exception"), "no exception may surface:\n" + r.output);
		final List<String> messages = new ArrayList<>();
		for (final String line : r.output.split("\n")) if (isError(line)) messages.add(line);
		assertEquals(1, messages.size(), "exactly one NUFFT-J message:\n" + r.output);
		assertTrue(messages.get(0).contains(expected), messages.get(0) + " should say " + expected);
		assertFalse(r.output.contains("still running after the error"), "the macro must stop after the error");
		assertFalse(Files.exists(after), "the macro must stop after the error");
	}

	// -- helpers --

	static final class Result {

		final int exit;
		final String output;

		Result(final int exit, final String output) {
			this.exit = exit;
			this.output = output;
		}

		void assertClean() {
			assertEquals(0, exit, output);
			assertFalse(output.contains("Exception"), output);
			for (final String line : output.split("\n"))
				assertFalse(isError(line), "no error expected:\n" + output);
		}
	}

	/** A NUFFT-J message other than the engine's "no usable GPU …; running on the CPU" notice of device=auto. */
	static boolean isError(final String line) {
		return line.startsWith("NUFFT-J: ") && !line.endsWith("running on the CPU");
	}

	/** Runs a macro in a child JVM: the documented headless ImageJ 1 command line. */
	static Result batch(final Path macro, final String arg) throws IOException, InterruptedException {
		final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
		final List<String> cmd = new ArrayList<>(List.of(java, "-Xmx1g", "-Djava.awt.headless=true", "-Dplugins.dir=" +
			layout, "-cp", layout.resolve("jars") + File.separator + "*" + File.pathSeparator + layout.resolve("plugins") +
				File.separator + "*", "ij.ImageJ", "-batch", macro.toString()));
		if (!arg.isEmpty()) cmd.add(arg);
		final Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true).start();
		final String out = new String(p.getInputStream().readAllBytes());
		if (!p.waitFor(300, TimeUnit.SECONDS)) {
			p.destroyForcibly();
			fail("macro " + macro + " did not finish in 300 s:\n" + out);
		}
		return new Result(p.exitValue(), out.replace("\r", ""));
	}

	static ImagePlus open(final Path tif) {
		assertTrue(Files.exists(tif), tif + " was not written");
		final ImagePlus imp = new Opener().openImage(tif.toString());
		assertNotNull(imp, tif.toString());
		assertEquals(ImagePlus.GRAY32, imp.getType(), tif.toString());
		return imp;
	}

	/** The ISMRMRD sample's image: 64 x 64, 4 mm pixels (256 mm recon FOV / 64), as the command makes it here. */
	static void checkIsmrmrdSample(final Path tif) throws Exception {
		final ImagePlus imp = open(tif);
		assertEquals(64, imp.getWidth());
		assertEquals(64, imp.getHeight());
		assertEquals(4.0, imp.getCalibration().pixelWidth, 1e-9);
		assertEquals(4.0, imp.getCalibration().pixelHeight, 1e-9);
		assertEquals("mm", imp.getCalibration().getUnit());
		assertEqualsInProcess(imp, Map.of("kspace", ROOT.resolve("sample-data/ismrmrd/radial_shepp_logan.h5").toFile(),
			"device", "cpu"));
	}

	/** The image a macro wrote equals the same command run in this JVM (so options reached the command intact). */
	static void assertEqualsInProcess(final ImagePlus written, final Map<String, Object> inputs) throws Exception {
		final Context context = new Context(CommandService.class);
		try {
			final ImagePlus here = (ImagePlus) context.service(CommandService.class).run(ReconstructCommand.class, true,
				inputs).get().getOutput("image");
			final float[] a = (float[]) here.getProcessor().getPixels(), b = (float[]) written.getProcessor().getPixels();
			float max = 0;
			for (final float v : a) max = Math.max(max, Math.abs(v));
			for (int i = 0; i < a.length; i++) assertEquals(a[i], b[i], 1e-5 * max, "pixel " + i);
		}
		finally {
			context.dispose();
		}
	}

	/** A jar of a class folder (ImageJ 1 reads plugins.config from jars in its plugins folder). */
	static void jar(final Path classes, final Path jar) throws IOException {
		try (OutputStream fos = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(fos);
			Stream<Path> files = Files.walk(classes))
		{
			for (final Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
				out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
				Files.copy(f, out);
				out.closeEntry();
			}
		}
	}
}
