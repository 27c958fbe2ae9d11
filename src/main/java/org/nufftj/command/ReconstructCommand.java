package org.nufftj.command;

import java.util.Locale;

import org.nufftj.app.Devices;
import org.nufftj.app.Options;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.recon.ReconOptions;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.measure.ResultsTable;

/**
 * Plugins › NUFFT-J › Reconstruct k-space: gridding reconstruction (DCF, adjoint NUFFT, coil combination) of an
 * ISMRMRD or BART k-space file into a calibrated 32-bit stack. Field names are the macro keys.
 */
@Plugin(type = Command.class, label = "Reconstruct k-space", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Reconstruct k-space", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "reconstruct"))
public class ReconstructCommand extends AbstractScanCommand {

	@Parameter(persist = false, label = "device",
		description = "auto, cpu, gpu, gpu:N, or gpu:all / a list such as gpu:0,1 (frames split over the GPUs)",
		choices = { "auto", "cpu", "gpu", "gpu:all" })
	public String device = "auto";

	@Parameter(persist = false, label = "output", choices = { "magnitude", "magnitude and phase", "real and imaginary" })
	public String output = "magnitude";

	@Parameter(persist = false, label = "coils", description = "also show the per-coil images")
	public boolean coils = false;

	@Parameter(persist = false, label = "compare", description = "also reconstruct on the other device (CPU vs GPU) and compare")
	public boolean compare = false;

	// One Log line per reconstruction by default (200 runs once wrote 1,600 lines); the details are in the image's Info.
	@Parameter(persist = false, label = "verbose", description = "write the details to the Log too (they are always in " +
		"Image > Show Info)")
	public boolean verbose = false;

	@Parameter(type = ItemIO.OUTPUT, label = "image")
	public ImagePlus image;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "coil images")
	public ImagePlus coilimages;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "difference")
	public ImagePlus difference;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "comparison")
	public ResultsTable table;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "log")
	public String log;

	@Override
	protected void execute() {
		nufftOptions(device);
		final String out = Options.choice("output", output, Options.OUTPUTS);
		final Scan scan = loadScan();
		final ReconOptions ro = reconOptions(scan, device).withKeepCoils(coils);
		final IJProgress progress = new IJProgress("Reconstruct k-space");
		final Reconstruction rec;
		try {
			rec = Reconstruction.run(scan, ro, progress, session(), Devices.parse(device));
		}
		finally {
			progress.done();
		}
		image = Stacks.stack(scan.title(), rec.images(), Stacks.parts(out), scan.slices(), scan.pixelMm());
		final double[] pixel = scan.pixelMm();
		final StringBuilder info = new StringBuilder();
		info.append("NUFFT-J Reconstruct k-space\n");
		info.append("kspace=").append(kspace).append('\n');
		info.append("input: ").append(scan.notes()).append('\n');
		info.append("matrix=").append(Options.describeMatrix(scan.matrix())).append(" coils=").append(scan.coils())
			.append(" frames=").append(scan.frames()).append(" slices=").append(scan.slices()).append('\n');
		info.append("pixel size: ").append(pixel == null ? "unknown (no field of view in the file)"
			: String.format(Locale.ROOT, "%.4g x %.4g mm (width x height)", pixel[1], pixel[0])).append('\n');
		info.append("options: ").append(ro).append('\n');
		info.append("reconstruction: ").append(rec.describe()).append('\n');
		info.append(String.format(Locale.ROOT, "time: %.1f ms on %s%n", rec.millis(), rec.backend()));
		if (coils && !rec.coils().isEmpty()) {
			coilimages = Stacks.stack(scan.title() + " coils", rec.coils(), Stacks.parts(out), scan.slices(), pixel);
		}
		if (compare) {
			final ComparisonView cmp = ComparisonView.of(scan, ro, rec, session());
			difference = cmp.difference;
			table = cmp.table;
			info.append(cmp.summary).append('\n');
		}
		image.setProperty("Info", info.toString());
		log = verbose ? info.toString().trim() : summary(scan, rec);
	}

	/** The one Log line of a reconstruction. */
	private String summary(final Scan scan, final Reconstruction rec) {
		return String.format(Locale.ROOT, "NUFFT-J Reconstruct k-space: %s -> '%s' %s, %d coil(s), %d frame(s), %.1f ms " +
			"on %s%s (details: Image > Show Info)", kspace == null ? "" : kspace.getName(), image.getTitle(), Options
				.describeMatrix(scan.matrix()), scan.coils(), scan.frames(), rec.millis(), rec.backend(), compare
					? "; CPU vs GPU in the comparison table" : "");
	}
}
