package org.nufftj.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Session;
import org.nufftj.io.AtomicFiles;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.ultrasound.EchoSimulator;
import org.nufftj.recon.ultrasound.PlaneWave;
import org.nufftj.recon.ultrasound.PlaneWaveImaging;

import ij.ImagePlus;
import ij.io.Opener;
import ij.process.ImageProcessor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nufft-j us-simulate} and {@code us-recon}: 0° plane-wave ultrasound. Channel data travel as a 32-bit TIFF,
 * one column per element (element i at x = (i − (N−1)/2)·pitch), one row per time sample (t = t0 + row/fs).
 */
final class UltrasoundCommands {

	private UltrasoundCommands() {}

	/** The acquisition parameters shared by both commands (SI units on the command line as the help says). */
	static final class Acquisition {

		@Option(names = "--pitch", paramLabel = "mm", defaultValue = "0.15",
			description = "Element pitch (default: ${DEFAULT-VALUE} mm).")
		double pitchMm;

		@Option(names = "--fs", paramLabel = "MHz", defaultValue = "40",
			description = "Sampling rate (default: ${DEFAULT-VALUE} MHz).")
		double fsMHz;

		@Option(names = "--c", paramLabel = "m/s", defaultValue = "1540",
			description = "Speed of sound (default: ${DEFAULT-VALUE} m/s).")
		double c;

		@Option(names = "--f0", paramLabel = "MHz", defaultValue = "5",
			description = "Pulse centre frequency (default: ${DEFAULT-VALUE} MHz).")
		double f0MHz;

		@Option(names = "--t0", paramLabel = "us", defaultValue = "0",
			description = "Time of the first sample (default: ${DEFAULT-VALUE} us).")
		double t0Us;

		PlaneWave of(final int elements, final int samples) {
			return new PlaneWave(elements, samples, pitchMm * 1e-3, fsMHz * 1e6, c, f0MHz * 1e6, t0Us * 1e-6);
		}
	}

	/** {@code nufft-j us-simulate}. */
	@Command(name = "us-simulate", mixinStandardHelpOptions = true,
		description = { "Simulates 0-degree plane-wave channel data of point scatterers (analytic echoes of a Gaussian-modulated pulse).",
			"Output: a 32-bit TIFF, one column per element, one row per time sample." })
	static final class Simulate implements Callable<Integer> {

		@picocli.CommandLine.Mixin
		Acquisition acq = new Acquisition();

		@Option(names = "--elements", paramLabel = "n", defaultValue = "128",
			description = "Elements (default: ${DEFAULT-VALUE}).")
		int elements;

		@Option(names = "--depth", paramLabel = "mm", defaultValue = "40",
			description = "Deepest depth recorded (default: ${DEFAULT-VALUE} mm).")
		double depthMm;

		@Option(names = "--points", paramLabel = "x,z;x,z...", defaultValue = "0,10;-5,20;5,30",
			description = "Point scatterers, positions in mm (default: ${DEFAULT-VALUE}).")
		String points;

		@Option(names = "--bandwidth", paramLabel = "fraction", defaultValue = "0.6",
			description = "Fractional bandwidth of the pulse (default: ${DEFAULT-VALUE}).")
		double bandwidth;

		@Parameters(paramLabel = "<channels.tif>", description = "Output channel data.")
		Path output;

		@Override
		public Integer call() throws Exception {
			InvalidInputException.require(depthMm > 0, "--depth: expected > 0 mm, found " + depthMm);
			InvalidInputException.require(bandwidth > 0 && bandwidth <= 2,
				"--bandwidth: expected 0 < bw <= 2, found " + bandwidth);
			final PlaneWave probe = acq.of(elements, 2);
			final int samples = (int) Math.ceil((2 * depthMm * 1e-3 / probe.c() - probe.t0()) * probe.fs());
			InvalidInputException.require(samples >= 2, "--depth " + depthMm + " mm is reached before --t0");
			final PlaneWave p = acq.of(elements, samples);
			final List<double[]> list = new ArrayList<>();
			for (final String s : points.split(";")) {
				final String[] xz = s.trim().split(",");
				InvalidInputException.require(xz.length == 2,
					"--points: expected x,z pairs in mm separated by ';', found '" + s + "'");
				list.add(new double[] { Double.parseDouble(xz[0].trim()) * 1e-3, Double.parseDouble(xz[1].trim()) * 1e-3, 1 });
			}
			final float[] ch = EchoSimulator.echoes(p, list.toArray(new double[0][]), bandwidth);
			try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
				TiffWriter.write(batch, output, elements, samples, new float[][] { ch }, 1, 1, 1, null);
				batch.commit();
			}
			return Main.OK;
		}
	}

	/** {@code nufft-j us-recon}. */
	@Command(name = "us-recon", mixinStandardHelpOptions = true,
		description = { "Images 0-degree plane-wave channel data by f-k (Stolt) migration or delay-and-sum.",
			"Input: a 32-bit TIFF, one column per element, one row per time sample. Output: the envelope (linear, or in dB",
			"with --log) as a 32-bit TIFF calibrated in mm; rows at z = row * c/(2 fs), columns at x = x_0 + col * pitch/up." })
	static final class Recon implements Callable<Integer> {

		@picocli.CommandLine.Mixin
		Acquisition acq = new Acquisition();

		@Option(names = "--method", paramLabel = "fk|das", defaultValue = "fk",
			description = "Reconstruction (default: ${DEFAULT-VALUE}).")
		String method;

		@Option(names = "--f-number", paramLabel = "F", defaultValue = "1",
			description = "Delay-and-sum receive f-number, 0 = full aperture (default: ${DEFAULT-VALUE}).")
		double fNumber;

		@Option(names = "--up", paramLabel = "n", defaultValue = "2",
			description = "Lateral upsampling (default: ${DEFAULT-VALUE}).")
		int up;

		@Option(names = "--log", paramLabel = "dB",
			description = "Log-compress to this dynamic range (dB below the maximum).")
		Double logDb;

		@Option(names = "--device", paramLabel = "cpu|gpu|gpu:N|auto", defaultValue = "auto",
			description = "Where the FFTs run (default: ${DEFAULT-VALUE}).")
		String device;

		@Parameters(index = "0", paramLabel = "<channels.tif>", description = "Channel data.")
		Path input;

		@Parameters(index = "1", paramLabel = "<bmode.tif>", description = "Output image.")
		Path output;

		@Override
		public Integer call() throws Exception {
			final String m = method.toLowerCase(Locale.ROOT);
			InvalidInputException.require(m.equals("fk") || m.equals("das"),
				"--method: expected fk or das, found " + method);
			InvalidInputException.require(logDb == null || logDb > 0, "--log: expected > 0 dB, found " + logDb);
			final File f = input.toFile();
			InvalidInputException.require(f.isFile(), input + ": no such file");
			final ImagePlus imp = new Opener().openImage(f.getPath());
			InvalidInputException.require(imp != null, input + ": not a TIFF ImageJ can read");
			InvalidInputException.require(imp.getBitDepth() == 32 || imp.getBitDepth() == 16 || imp.getBitDepth() == 8,
				input + ": channel data must be a grey-level image (found " + imp.getBitDepth() + "-bit RGB)");
			final ImageProcessor ip = imp.getProcessor().convertToFloat();
			final int elements = ip.getWidth(), samples = ip.getHeight();
			final PlaneWave p = acq.of(elements, samples);
			final float[] ch = (float[]) ip.getPixels();
			final float[] img;
			try (Session session = new Session(System.err::println)) {
				final Backend b = session.backend(DeviceChoice.parse(device), 0);
				img = m.equals("fk") ? PlaneWaveImaging.fk(b, p, ch, up) : PlaneWaveImaging.delayAndSum(b, p, ch, up, fNumber);
			}
			if (logDb != null) {
				float max = 0;
				for (final float v : img) max = Math.max(max, v);
				for (int i = 0; i < img.length; i++)
					img[i] = (float) Math.max(-logDb, 20 * Math.log10(Math.max(img[i], 1e-30f) / Math.max(max, 1e-30f)));
			}
			try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
				TiffWriter.write(batch, output, elements * up, samples, new float[][] { img }, 1, 1, 1, new double[] {
					p.pitch() / up * 1e3, p.dz() * 1e3 });
				batch.commit();
			}
			return Main.OK;
		}
	}
}
