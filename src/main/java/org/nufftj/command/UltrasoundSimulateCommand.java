package org.nufftj.command;

import java.util.Locale;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Ultrasound;
import org.nufftj.recon.ultrasound.PlaneWave;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

/**
 * Plugins › NUFFT-J › Simulate ultrasound echoes: plane-wave channel data of point scatterers or a seeded speckle /
 * cyst phantom for each transmit angle ({@link Ultrasound}, the same code as {@code nufft-j us-simulate}): a 32-bit
 * stack, one column per element, one row per time sample, one slice per angle; the acquisition is in the image's Info.
 */
@Plugin(type = Command.class, label = "Simulate ultrasound echoes", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Simulate ultrasound echoes", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "ussimulate"))
public class UltrasoundSimulateCommand extends AbstractUltrasoundCommand {

	@Parameter(persist = false, label = "phantom", choices = { "points", "speckle", "cyst" })
	public String phantom = "points";

	@Parameter(persist = false, label = "points", description = "point scatterers x,z;x,z... in mm (phantom=points)")
	public String points = "0,10;-5,20;5,30";

	@Parameter(persist = false, label = "seed", description = "seed of the speckle phantoms")
	public int seed = 1;

	@Parameter(persist = false, label = "angles", description = "transmit angles in degrees, e.g. -10,-5,0,5,10")
	public String angles = "0";

	@Parameter(persist = false, label = "elements")
	public int elements = 128;

	@Parameter(persist = false, label = "depth", description = "deepest depth recorded (mm)")
	public double depth = 40;

	@Parameter(persist = false, label = "bandwidth", description = "fractional bandwidth of the pulse")
	public double bandwidth = 0.6;

	@Parameter(type = ItemIO.OUTPUT, label = "channels")
	public ImagePlus channels;

	@Override
	protected void execute() {
		InvalidInputException.require(bandwidth > 0 && bandwidth <= 2, "bandwidth: expected 0 < bw <= 2, found " +
			bandwidth);
		final double[] a = Ultrasound.parseAngles(angles, "angles");
		final PlaneWave probe = planeWave(elements, 2);
		final int samples = Ultrasound.samplesForDepth(probe, depth);
		final PlaneWave p = planeWave(elements, samples);
		final float[][] ch = Ultrasound.simulate(p, a, Ultrasound.phantom(phantom, p, points, seed), bandwidth);
		final ImageStack s = new ImageStack(elements, samples);
		for (int i = 0; i < ch.length; i++) s.addSlice(String.format(Locale.ROOT, "%.3g deg", Math.toDegrees(a[i])),
			new FloatProcessor(elements, samples, ch[i]));
		channels = new ImagePlus("ultrasound channels", s);
		channels.setProperty("Info", String.format(Locale.ROOT,
			"NUFFT-J Simulate ultrasound echoes: %s, angles %s deg, %d elements, pitch %s mm, fs %s MHz, c %s m/s, " +
				"f0 %s MHz, t0 %s us%n", phantom, angles, elements, pitch, fs, c, f0, t0));
	}
}
