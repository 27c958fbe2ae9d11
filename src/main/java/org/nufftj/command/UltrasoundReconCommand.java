package org.nufftj.command;

import java.io.File;
import java.util.Locale;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Options;
import org.nufftj.app.Ultrasound;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.ultrasound.PlaneWave;
import org.nufftj.recon.ultrasound.PlaneWaveImaging;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.measure.Calibration;
import ij.process.FloatProcessor;

/**
 * Plugins › NUFFT-J › Ultrasound plane-wave reconstruction: f-k (Stolt) migration or delay-and-sum of plane-wave
 * channel data, coherently compounded over the transmit angles ({@link Ultrasound}, the same code as
 * {@code nufft-j us-recon}). Input: the channel-data image (one column per element, one row per time sample, one
 * slice per angle, acquisition from the parameters) or a UFF file ({@code file}, acquisition from the file). Output:
 * the envelope (linear, or in dB with {@code log} &gt; 0) calibrated in mm, x origin at the array's centre, z = 0 at
 * the array.
 */
@Plugin(type = Command.class, label = "Ultrasound plane-wave reconstruction", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Ultrasound plane-wave reconstruction", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "usrecon"))
public class UltrasoundReconCommand extends AbstractUltrasoundCommand {

	@Parameter(required = false, label = "channel data")
	public ImagePlus channels;

	@Parameter(persist = false, required = false, label = "file", description = "UFF file (.uff) to read instead of the image")
	public File file;

	@Parameter(persist = false, label = "method", choices = { "fk", "das" })
	public String method = "fk";

	@Parameter(persist = false, label = "angles", description = "transmit angles in degrees, one per slice")
	public String angles = "0";

	@Parameter(persist = false, label = "fnumber", description = "delay-and-sum receive f-number, 0 = full aperture")
	public double fnumber = 1;

	@Parameter(persist = false, label = "up", description = "lateral upsampling")
	public int up = 2;

	@Parameter(persist = false, label = "log", description = "dynamic range of the log compression (dB), 0 = linear envelope")
	public double log = 0;

	@Parameter(persist = false, label = "device", choices = { "auto", "cpu", "gpu" })
	public String device = "auto";

	@Parameter(type = ItemIO.OUTPUT, label = "B-mode")
	public ImagePlus bmode;

	@Override
	protected void execute() {
		final PlaneWaveImaging.Method m = PlaneWaveImaging.Method.parse(method);
		InvalidInputException.require(log >= 0 && Double.isFinite(log), "log: expected >= 0 dB (0 = linear), found " +
			log);
		final DeviceChoice dev = Options.device(device);
		final Ultrasound.Channels in;
		if (file != null) {
			InvalidInputException.require(file.getName().toLowerCase(Locale.ROOT).endsWith(".uff"), "file: expected a .uff file, found " + file);
			in = Ultrasound.readUff(file.toPath());
		}
		else {
			InvalidInputException.require(channels != null, "channel data: open the channel-data image or give file=");
			InvalidInputException.require(channels.getBitDepth() != 24, "channel data: expected a grey-level image, found RGB");
			final double[] a = Ultrasound.parseAngles(angles, "angles");
			InvalidInputException.require(channels.getStackSize() == a.length, "channel data '" + channels.getTitle() +
				"': expected one slice per transmit angle (" + a.length + "), found " + channels.getStackSize());
			final PlaneWave p = planeWave(channels.getWidth(), channels.getHeight());
			final float[][] ch = new float[a.length][];
			for (int s = 0; s < a.length; s++)
				ch[s] = ((float[]) channels.getStack().getProcessor(s + 1).convertToFloat().getPixels()).clone();
			in = new Ultrasound.Channels(p, a, ch);
		}
		final Ultrasound.Image img = Ultrasound.reconstruct(session(), dev, in.probe, in.angles,
			in.data, m, up, fnumber, log > 0 ? log : null);
		bmode = new ImagePlus("B-mode " + m.key(), new FloatProcessor(img.width, img.height, img.pixels));
		final Calibration cal = bmode.getCalibration();
		cal.setUnit("mm");
		cal.pixelWidth = img.dxMm;
		cal.pixelHeight = img.dzMm;
		cal.xOrigin = -img.x0Mm / img.dxMm;
		cal.yOrigin = -img.z0Mm / img.dzMm;
		bmode.setProperty("Info", String.format(Locale.ROOT, "NUFFT-J Ultrasound plane-wave reconstruction: %s, %d angle(s)" +
			", %s%n", m.key(), in.angles.length, log > 0 ? "log, " + log + " dB" : "linear envelope"));
	}
}
