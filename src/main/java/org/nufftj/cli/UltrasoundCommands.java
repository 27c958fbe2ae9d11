package org.nufftj.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Session;
import org.nufftj.app.Ultrasound;
import org.nufftj.io.AtomicFiles;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.ultrasound.PlaneWave;
import org.nufftj.recon.ultrasound.PlaneWaveImaging;

import ij.ImagePlus;
import ij.io.Opener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nufft-j us-simulate} and {@code us-recon}: plane-wave ultrasound (steered transmits, coherent compounding;
 * the work is in {@link Ultrasound}, shared with the Fiji commands). Channel data travel as a 32-bit TIFF, one column
 * per element (element i at x = (i − (N−1)/2)·pitch), one row per time sample (t = t0 + row/fs), one slice per angle.
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
		description = { "Simulates plane-wave channel data of point scatterers or of a seeded speckle or cyst phantom.",
			"Analytic echoes of a Gaussian-modulated pulse, one transmit per --angles entry.",
			"Output: a 32-bit TIFF, one column per element, one row per time sample, one slice per angle." })
	static final class Simulate implements Callable<Integer> {

		@picocli.CommandLine.Mixin
		Acquisition acq = new Acquisition();

		@Option(names = "--elements", paramLabel = "n", defaultValue = "128",
			description = "Elements (default: ${DEFAULT-VALUE}).")
		int elements;

		@Option(names = "--depth", paramLabel = "mm", defaultValue = "40",
			description = "Deepest depth recorded (default: ${DEFAULT-VALUE} mm).")
		double depthMm;

		@Option(names = "--angles", paramLabel = "deg,...", defaultValue = "0",
			description = "Transmit steering angles, degrees, within +-45 (default: ${DEFAULT-VALUE}).")
		String angles;

		@Option(names = "--phantom", paramLabel = "points|speckle|cyst", defaultValue = "points",
			description = "Scatterers: the --points list, speckle, or speckle with an anechoic cyst (default: ${DEFAULT-VALUE}).")
		String phantom;

		@Option(names = "--points", paramLabel = "x,z;x,z...", defaultValue = "0,10;-5,20;5,30",
			description = "Point scatterers, positions in mm (default: ${DEFAULT-VALUE}).")
		String points;

		@Option(names = "--seed", paramLabel = "n", defaultValue = "1",
			description = "Seed of the speckle phantoms (default: ${DEFAULT-VALUE}).")
		long seed;

		@Option(names = "--bandwidth", paramLabel = "fraction", defaultValue = "0.6",
			description = "Fractional bandwidth of the pulse (default: ${DEFAULT-VALUE}).")
		double bandwidth;

		@Parameters(paramLabel = "<channels.tif>", description = "Output channel data.")
		Path output;

		@Override
		public Integer call() throws Exception {
			InvalidInputException.require(bandwidth > 0 && bandwidth <= 2,
				"--bandwidth: expected 0 < bw <= 2, found " + bandwidth);
			final double[] a = Ultrasound.parseAngles(angles, "--angles");
			final int samples = Ultrasound.samplesForDepth(acq.of(elements, 2), depthMm);
			final PlaneWave p = acq.of(elements, samples);
			final float[][] ch = Ultrasound.simulate(p, a, Ultrasound.phantom(phantom, p, points, seed), bandwidth);
			try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
				TiffWriter.write(batch, output, elements, samples, ch, 1, ch.length, 1, null);
				batch.commit();
			}
			return Main.OK;
		}
	}

	/** {@code nufft-j us-recon}. */
	@Command(name = "us-recon", mixinStandardHelpOptions = true,
		description = { "Images plane-wave channel data by f-k (Stolt) migration or delay-and-sum, compounding the angles.",
			"Input: a 32-bit TIFF, one column per element, one row per time sample, one slice per angle. Output: the envelope (linear, or in dB",
			"with --log) as a 32-bit TIFF calibrated in mm; rows at z = row * c/(2 fs), columns at x = x_0 + col * pitch/up." })
	static final class Recon implements Callable<Integer> {

		@picocli.CommandLine.Mixin
		Acquisition acq = new Acquisition();

		@Option(names = "--angles", paramLabel = "deg,...", defaultValue = "0",
			description = "Transmit steering angles, degrees, one per input slice; several are compounded coherently (default: ${DEFAULT-VALUE}).")
		String angles;

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

		@picocli.CommandLine.Mixin
		FftOption fft = new FftOption();

		@Parameters(index = "0", paramLabel = "<channels.tif|.uff>",
			description = "Channel data: a TIFF (acquisition from the options) or a UFF file (acquisition, angles included, from the file).")
		Path input;

		@Parameters(index = "1", paramLabel = "<bmode.tif>", description = "Output image.")
		Path output;

		@Override
		public Integer call() throws Exception {
			fft.apply();
			final PlaneWaveImaging.Method m = PlaneWaveImaging.Method.parse(method);
			final double[] a = Ultrasound.parseAngles(angles, "--angles");
			final Ultrasound.Channels in = input.toString().toLowerCase(java.util.Locale.ROOT).endsWith(".uff") ? Ultrasound
				.readUff(input) : tiff(input, a);
			final Ultrasound.Image img;
			try (Session session = new Session(System.err::println)) {
				img = Ultrasound.reconstruct(session, DeviceChoice.parse(device), in.probe, in.angles, in.data, m, up, fNumber,
					logDb);
			}
			try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
				TiffWriter.write(batch, output, img.width, img.height, new float[][] { img.pixels }, 1, 1, 1, new double[] {
					img.dxMm, img.dzMm }, new double[] { -img.x0Mm / img.dxMm, -img.z0Mm / img.dzMm });
				batch.commit();
			}
			return Main.OK;
		}
	
		/** Channel data from a TIFF (one slice per angle), the acquisition from the options. */
		private Ultrasound.Channels tiff(final Path input, final double[] a) {
			final File f = input.toFile();
			InvalidInputException.require(f.isFile(), input + ": no such file");
			final ImagePlus imp = new Opener().openImage(f.getPath());
			InvalidInputException.require(imp != null, input + ": not a TIFF ImageJ can read");
			InvalidInputException.require(imp.getBitDepth() == 32 || imp.getBitDepth() == 16 || imp.getBitDepth() == 8,
				input + ": channel data must be a grey-level image (found " + imp.getBitDepth() + "-bit RGB)");
			InvalidInputException.require(imp.getStackSize() == a.length, input + ": expected one slice per transmit angle (" +
				a.length + " angles), found " + imp.getStackSize() + " slices");
			final PlaneWave p = acq.of(imp.getWidth(), imp.getHeight());
			final float[][] ch = new float[a.length][];
			for (int s = 0; s < a.length; s++)
				ch[s] = (float[]) imp.getStack().getProcessor(s + 1).convertToFloat().getPixels();
			return new Ultrasound.Channels(p, a, ch);
		}
	}
}
