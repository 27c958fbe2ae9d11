package org.nufftj.command;

import java.io.File;
import java.util.Locale;

import org.nufftj.ij1.CommandLauncher;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.ReconOptions;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.measure.ResultsTable;

/**
 * Plugins › NUFFT-J › Reconstruct k-space: gridding reconstruction (DCF, adjoint NUFFT, coil combination) of an
 * ISMRMRD or BART k-space file into a calibrated 32-bit stack. Field names are the macro keys.
 */
@Plugin(type = Command.class, label = "Reconstruct k-space", menuRoot = CommandLauncher.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Reconstruct k-space", headless = true)
public class ReconstructCommand extends NufftCommand {

	@Parameter(persist = false, label = "kspace", description = "k-space file: ISMRMRD .h5 or BART .cfl", style = "open")
	public File kspace;

	@Parameter(persist = false, label = "traj", description = "trajectory file (BART .cfl or CSV), only for data without coordinates",
		required = false, style = "open")
	public File traj;

	@Parameter(persist = false, label = "trajectory", description = "trajectory design for data stored without coordinates",
		choices = { "from file", "radial", "golden angle", "tiny golden", "spiral", "stack of stars", "3D radial",
			"PROPELLER", "Cartesian" })
	public String trajectory = "from file";

	@Parameter(persist = false, label = "matrix", description = "image matrix: auto (from the file), N, NxM or NxMxL")
	public String matrix = "auto";

	@Parameter(persist = false, label = "kernel", choices = { "auto", "es", "kb", "gauss" })
	public String kernel = "auto";

	@Parameter(persist = false, label = "oversampling", description = "grid oversampling sigma, 0 = auto")
	public double oversampling = 0;

	@Parameter(persist = false, label = "width", description = "kernel width W in grid cells, 0 = auto")
	public int width = 0;

	@Parameter(persist = false, label = "tolerance", description = "requested NUFFT accuracy")
	public double tolerance = NufftOptions.DEFAULT_TOLERANCE;

	@Parameter(persist = false, label = "dcf", description = "density compensation; auto = none for Cartesian, else Pipe-Menon",
		choices = { "auto", "none", "ramp", "voronoi", "pipe-menon" })
	public String dcf = "auto";

	@Parameter(persist = false, label = "combine", choices = { "sos", "walsh", "none" })
	public String combine = "sos";

	@Parameter(persist = false, label = "precision", choices = { "float", "double" })
	public String precision = "float";

	@Parameter(persist = false, label = "device", description = "auto, cpu, gpu or gpu:N", choices = { "auto", "cpu", "gpu" })
	public String device = "auto";

	@Parameter(persist = false, label = "output", choices = { "magnitude", "magnitude and phase", "real and imaginary" })
	public String output = "magnitude";

	@Parameter(persist = false, label = "coils", description = "also show the per-coil images")
	public boolean coils = false;

	@Parameter(persist = false, label = "compare", description = "also reconstruct on the other device (CPU vs GPU) and compare")
	public boolean compare = false;

	/** The session's GPUs (null in a context without the service: plans open their own device). */
	@Parameter(required = false)
	private NufftGpuService gpus;

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
		final NufftOptions nufft = Options.nufft(kernel, oversampling, width, tolerance, precision, device);
		final String out = Options.choice("output", output, Options.OUTPUTS);
		final String comb = Options.choice("combine", combine, Options.COMBINES);
		Options.choice("dcf", dcf, Options.DCFS);
		final KSpaceSource.Scan scan = KSpaceSource.load(kspace, traj, trajectory, Options.matrix(matrix));
		final ReconOptions ro = Options.recon(nufft, Options.dcf(dcf, scan.cartesian), Options.combine(comb))
			.withKeepCoils(coils);
		final IJProgress progress = new IJProgress("Reconstruct k-space");
		final Reconstruction rec;
		try {
			rec = Reconstruction.run(scan, ro, progress, NufftGpuService.devicesOf(gpus));
		}
		finally {
			progress.done();
		}
		image = Stacks.stack(scan.title, rec.images, Stacks.parts(out), scan.slices, scan.pixelMm);
		final StringBuilder info = new StringBuilder();
		info.append("NUFFT-J Reconstruct k-space\n");
		info.append("kspace=").append(kspace).append('\n');
		info.append("input: ").append(scan.notes).append('\n');
		info.append("matrix=").append(Options.describeMatrix(scan.matrix)).append(" coils=").append(scan.coils)
			.append(" frames=").append(scan.frames).append(" slices=").append(scan.slices).append('\n');
		info.append("pixel size: ").append(scan.pixelMm == null ? "unknown (no field of view in the file)"
			: String.format(Locale.ROOT, "%.4g x %.4g mm", scan.pixelMm[0], scan.pixelMm[1])).append('\n');
		info.append("options: ").append(ro).append('\n');
		info.append("reconstruction: ").append(rec.describe()).append('\n');
		info.append(String.format(Locale.ROOT, "time: %.1f ms on %s%n", rec.millis, rec.backend()));
		if (coils && !rec.coils.isEmpty()) {
			coilimages = Stacks.stack(scan.title + " coils", rec.coils, Stacks.parts(out), scan.slices, scan.pixelMm);
		}
		if (compare) {
			final Comparison cmp = Comparison.run(scan, ro, rec, NufftGpuService.devicesOf(gpus));
			difference = cmp.difference;
			table = cmp.table;
			info.append(cmp.summary).append('\n');
		}
		image.setProperty("Info", info.toString());
		log = info.toString().trim();
	}
}
