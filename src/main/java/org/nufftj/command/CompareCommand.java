package org.nufftj.command;

import org.nufftj.app.Scan;
import org.nufftj.recon.ReconOptions;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.measure.ResultsTable;

/** Plugins › NUFFT-J › Compare CPU and GPU: one reconstruction on both engines, difference image and error table. */
@Plugin(type = Command.class, label = "Compare CPU and GPU", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Compare CPU and GPU", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "compare"))
public class CompareCommand extends AbstractScanCommand {

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
		nufftOptions("cpu");
		final Scan scan = loadScan();
		final ReconOptions ro = reconOptions(scan, "cpu");
		final ComparisonView c = ComparisonView.of(scan, ro, null, session());
		cpuimage = c.cpu;
		gpuimage = c.gpu;
		difference = c.difference;
		table = c.table;
		log = "NUFFT-J Compare CPU and GPU, " + scan.title() + ": " + c.summary;
		cpuimage.setProperty("Info", log + "\noptions: " + ro + "\n");
	}
}
