package org.nufftj.command;

import java.io.File;

import org.nufftj.ij1.CommandLauncher;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.ReconOptions;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.measure.ResultsTable;

/** Plugins › NUFFT-J › Compare CPU and GPU: one reconstruction on both engines, difference image and error table. */
@Plugin(type = Command.class, label = "Compare CPU and GPU", menuRoot = CommandLauncher.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Compare CPU and GPU", headless = true)
public class CompareCommand extends NufftCommand {

	@Parameter(persist = false, label = "kspace", description = "k-space file: ISMRMRD .h5 or BART .cfl", style = "open")
	public File kspace;

	@Parameter(persist = false, label = "traj", required = false, style = "open")
	public File traj;

	@Parameter(persist = false, label = "trajectory", choices = { "from file", "radial", "golden angle", "tiny golden", "spiral",
		"stack of stars", "3D radial", "PROPELLER", "Cartesian" })
	public String trajectory = "from file";

	@Parameter(persist = false, label = "matrix")
	public String matrix = "auto";

	@Parameter(persist = false, label = "kernel", choices = { "auto", "es", "kb", "gauss" })
	public String kernel = "auto";

	@Parameter(persist = false, label = "oversampling")
	public double oversampling = 0;

	@Parameter(persist = false, label = "width")
	public int width = 0;

	@Parameter(persist = false, label = "tolerance")
	public double tolerance = NufftOptions.DEFAULT_TOLERANCE;

	@Parameter(persist = false, label = "dcf", choices = { "auto", "none", "ramp", "voronoi", "pipe-menon" })
	public String dcf = "auto";

	@Parameter(persist = false, label = "combine", choices = { "sos", "walsh", "none" })
	public String combine = "sos";

	@Parameter(persist = false, label = "precision", choices = { "float", "double" })
	public String precision = "float";

	/** The session's GPUs (null in a context without the service: plans open their own device). */
	@Parameter(required = false)
	private NufftGpuService gpus;

	@Parameter(type = ItemIO.OUTPUT, label = "CPU image")
	public ImagePlus cpuimage;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "GPU image")
	public ImagePlus gpuimage;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "difference")
	public ImagePlus difference;

	@Parameter(type = ItemIO.OUTPUT, label = "comparison")
	public ResultsTable table;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "log")
	public String log;

	@Override
	protected void execute() {
		final NufftOptions nufft = Options.nufft(kernel, oversampling, width, tolerance, precision, "cpu");
		final String comb = Options.choice("combine", combine, Options.COMBINES);
		Options.choice("dcf", dcf, Options.DCFS);
		final KSpaceSource.Scan scan = KSpaceSource.load(kspace, traj, trajectory, Options.matrix(matrix));
		final ReconOptions ro = Options.recon(nufft, Options.dcf(dcf, scan.cartesian), Options.combine(comb));
		final Comparison c = Comparison.run(scan, ro, null, NufftGpuService.devicesOf(gpus));
		cpuimage = c.cpu;
		gpuimage = c.gpu;
		difference = c.difference;
		table = c.table;
		log = "NUFFT-J Compare CPU and GPU, " + scan.title + ": " + c.summary;
		cpuimage.setProperty("Info", log + "\noptions: " + ro + "\n");
	}
}
