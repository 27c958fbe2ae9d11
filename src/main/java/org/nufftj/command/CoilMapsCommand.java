package org.nufftj.command;

import java.util.List;
import java.util.Locale;

import org.nufftj.app.IterativeReconstruction;
import org.nufftj.app.Options;
import org.nufftj.app.Scan;
import org.nufftj.data.ComplexImage;
import org.nufftj.recon.sense.EspiritMaps;
import org.nufftj.recon.sense.EspiritOptions;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;

/**
 * Plugins › NUFFT-J › Estimate coil sensitivities: ESPIRiT maps ({@code bart ecalib}'s parameters) from an ISMRMRD
 * or BART k-space file, the calibration region gridded from the data ({@link IterativeReconstruction#espirit}, the
 * path "Iterative reconstruction" uses), one set per slice from its first frame as that command does (a scan of one
 * slice and several frames: from frame 1); output a calibrated stack, one channel per coil (magnitude and phase), one
 * frame per set.
 */
@Plugin(type = Command.class, label = "Estimate coil sensitivities", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Estimate coil sensitivities", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "coilmaps"))
public class CoilMapsCommand extends AbstractScanCommand {

	@Parameter(persist = false, label = "calibration", description = "calibration region size (bart ecalib -r)")
	public int calibration = EspiritOptions.DEFAULT_CALIBRATION;

	@Parameter(persist = false, label = "ksize", description = "kernel size (bart ecalib -k)")
	public int ksize = EspiritOptions.DEFAULT_KERNEL;

	@Parameter(persist = false, label = "threshold", description = "singular-value threshold (bart ecalib -t)")
	public double threshold = EspiritOptions.DEFAULT_THRESHOLD;

	@Parameter(persist = false, label = "crop", description = "eigenvalue crop (bart ecalib -c)")
	public double crop = EspiritOptions.DEFAULT_CROP;

	@Parameter(persist = false, label = "device", description = "auto, cpu, gpu or gpu:N (for the gridding)",
		choices = { "auto", "cpu", "gpu" })
	public String device = "auto";

	@Parameter(type = ItemIO.OUTPUT, label = "maps")
	public ImagePlus image;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "log")
	public String log;

	@Override
	protected void execute() {
		final EspiritOptions o = EspiritOptions.defaults().withMaps(1).withCalibration(calibration).withKernel(ksize)
			.withThreshold(threshold).withCrop(crop);
		final Scan scan = loadScan();
		// One set per slice, from the slice's first frame, as "Iterative reconstruction" estimates them.
		final EspiritMaps[] m = IterativeReconstruction.espiritPerSet(scan, reconOptions(scan, device), o, session());
		final int sets = m.length;
		final int length = 2 * (int) ComplexImage.pixels(scan.matrix()) * scan.coils();
		final float[] all = new float[sets * length];
		final StringBuilder kernels = new StringBuilder();
		for (int set = 0; set < sets; set++) {
			System.arraycopy(m[set].maps(), 0, all, set * length, length);
			kernels.append(sets > 1 ? "slice " + (set + 1) + ": " : "").append(m[set]).append('\n');
		}
		final ComplexImage maps = new ComplexImage(all, scan.matrix(), scan.coils(), sets, scan.pixelMm());
		image = Stacks.stack(scan.title() + " coil maps", List.of(maps), Stacks.parts("magnitude and phase"), sets ==
			scan.slices() ? sets : 1, scan.pixelMm());
		final String info = "NUFFT-J Estimate coil sensitivities\nkspace=" + kspace + "\nmatrix=" + Options
			.describeMatrix(scan.matrix()) + " coils=" + scan.coils() + (sets > 1 ? " slices=" + sets : "") + "\n" + o +
			"\n" + kernels + String.format(Locale.ROOT, "dcf=%s device=%s%n", dcf, device);
		image.setProperty("Info", info);
		log = info.trim();
	}
}
