package org.nufftj.command;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Benchmark;
import org.nufftj.app.Options;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.Session;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.Trajectory;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.gui.Plot;
import ij.measure.ResultsTable;

/**
 * Plugins › NUFFT-J › Benchmark: gridding reconstruction time against matrix size, CPU and (when present) GPU, for a
 * fully sampled trajectory design and random k-space (timing does not depend on the values). Each size runs once to
 * warm up, then {@code repeats} times; the table holds the median.
 */
@Plugin(type = Command.class, label = "NUFFT Benchmark", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>NUFFT Benchmark", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "benchmark"))
public class BenchmarkCommand extends AbstractNufftCommand {

	@Parameter(persist = false, label = "sizes", description = "matrix sizes N (N x N), comma separated")
	public String sizes = "32,64,128";

	@Parameter(persist = false, label = "trajectory", choices = { "radial", "golden angle", "tiny golden", "spiral", "PROPELLER" })
	public String trajectory = "radial";

	@Parameter(persist = false, label = "coils")
	public int coils = 4;

	@Parameter(persist = false, label = "repeats")
	public int repeats = 3;

	@Parameter(type = ItemIO.OUTPUT, label = "timings")
	public ResultsTable table;

	@Parameter(type = ItemIO.OUTPUT, label = "time plot")
	public Plot plot;

	@Override
	protected void execute() {
		InvalidInputException.require(coils >= 1 && coils <= 128, "coils: expected 1 to 128, found " + coils);
		InvalidInputException.require(repeats >= 1 && repeats <= 100, "repeats: expected 1 to 100, found " + repeats);
		final List<Integer> ns = new ArrayList<>();
		for (final String s : sizes.split("[,\\s]+")) {
			if (s.isEmpty()) continue;
			final int[] m = Options.matrix(s);
			InvalidInputException.require(m != null && m.length == 2, "sizes: '" + s + "' is not a size N");
			ns.add(m[0]);
		}
		InvalidInputException.require(!ns.isEmpty(), "sizes: none given");
		final ReconOptions base = Options.recon(nufftOptions("cpu"), DcfMethod.RAMP, Options.combine("sos"));
		final Session session = session();
		table = new ResultsTable();
		final double[] x = new double[ns.size()], cpu = new double[ns.size()], gpu = new double[ns.size()];
		boolean anyGpu = false;
		final IJProgress progress = new IJProgress("NUFFT Benchmark");
		try {
			for (int i = 0; i < ns.size(); i++) {
				final int n = ns.get(i);
				progress.update(i / (double) ns.size(), n + "x" + n);
				final int[] m = { n, n };
				final Trajectory t = Designs.design(trajectory, m, 0, 0).build();
				final Scan scan = Benchmark.randomScan(t, coils, m, n);
				x[i] = n;
				cpu[i] = Benchmark.reconMillis(scan, base, repeats, session);
				gpu[i] = Double.NaN;
				String gpuBackend = "none";
				try {
					final ReconOptions g = base.withNufft(base.nufft().withDevice(DeviceChoice.gpu(0)));
					final Reconstruction probe = Reconstruction.run(scan, g, null, session);
					if (probe.ranOnGpu()) {
						gpu[i] = Benchmark.reconMillis(scan, g, repeats, session);
						gpuBackend = probe.backend();
						anyGpu = true;
					}
				}
				catch (final RuntimeException | LinkageError e) {
					gpuBackend = "unavailable: " + e.getMessage();
				}
				table.incrementCounter();
				table.addValue("N", n);
				table.addValue("points", t.count());
				table.addValue("coils", coils);
				table.addValue("CPU ms", cpu[i]);
				table.addValue("GPU ms", gpu[i]);
				table.addValue("GPU", gpuBackend);
			}
		}
		finally {
			progress.done();
		}
		plot = new Plot("NUFFT-J benchmark (" + trajectory + ", " + coils + " coils)", "matrix N", "time (ms)");
		plot.setColor(Color.BLUE);
		plot.addPoints(x, cpu, Plot.CONNECTED_CIRCLES);
		plot.setLegend(anyGpu ? "CPU\tGPU" : "CPU (no GPU)", Plot.AUTO_POSITION);
		if (anyGpu) {
			plot.setColor(Color.RED);
			plot.addPoints(x, gpu, Plot.CONNECTED_CIRCLES);
		}
		plot.setLimitsToFit(false);
	}
}
