package org.nufftj.command;

import java.awt.Color;
import java.awt.GraphicsEnvironment;
import java.util.List;
import java.util.Locale;

import org.nufftj.app.IterativeReconstruction;
import org.nufftj.app.Options;
import org.nufftj.app.Pics;
import org.nufftj.app.Regularization;
import org.nufftj.app.Scan;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.gui.Plot;

/**
 * Plugins › NUFFT-J › Iterative reconstruction: {@code nufft-j pics} from Fiji — SENSE with Tikhonov, l1-wavelet or
 * total-variation regularisation ({@link Pics}, through {@link IterativeReconstruction}: the command line's code path)
 * of an ISMRMRD or BART k-space file, coil maps by ESPIRiT from the data or from a file; progress per iteration, Esc
 * cancels. Output: a calibrated 32-bit magnitude stack (every frame and slice, reconstructed frame by frame, stacked as
 * Reconstruct k-space stacks them) with the parameters in its info. Field names are macro keys.
 */
@Plugin(type = Command.class, label = "Iterative reconstruction", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Iterative reconstruction", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "iterative"))
public class IterativeCommand extends AbstractScanCommand {

	@Parameter(persist = false, label = "maps", description = "coil maps: ESPIRiT from the data's centre, Walsh's " +
		"adaptive estimate, or a BART .cfl file", choices = { "espirit", "walsh", "file" })
	public String maps = "espirit";

	@Parameter(persist = false, label = "mapsfile", description = "coil maps [X, Y, Z, coils] (maps=file)", required =
		false, style = "open")
	public java.io.File mapsfile;

	@Parameter(persist = false, label = "regularization", choices = { "none", "tikhonov", "l1-wavelet", "tv" })
	public String regularization = "tikhonov";

	@Parameter(persist = false, label = "lambda", description = "regularisation weight, >= 0 (bart's -r / -R λ)")
	public double lambda = 0.001;

	@Parameter(persist = false, label = "iterations", description = "iterations of CG, FISTA or ADMM, >= 1")
	public int iterations = 30;

	@Parameter(persist = false, label = "normal", choices = { "auto", "nufft", "toeplitz", "exact" })
	public String normal = "auto";

	@Parameter(persist = false, label = "device", description = "auto, cpu, gpu or gpu:N", choices = { "auto", "cpu",
		"gpu" })
	public String device = "auto";

	@Parameter(type = ItemIO.OUTPUT, label = "image")
	public ImagePlus image;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "log")
	public String log;

	/** The residual per iteration (one curve per frame); made only when not headless (the values are in the info). */
	@Parameter(type = ItemIO.OUTPUT, required = false, label = "residual plot")
	public Plot residuals;

	@Override
	protected void execute() throws java.io.IOException {
		final IterativeReconstruction.MapsSource source = IterativeReconstruction.MapsSource.parse(maps);
		final Pics.Normal n = Pics.Normal.parse(normal);
		final Scan scan = loadScan();
		final Regularization reg = Regularization.parseName(regularization, lambda, scan.matrix().length);
		final boolean wavelet = reg.kind() == Regularization.Kind.L1_WAVELET;
		final Pics.Settings s = new Pics.Settings(reg, iterations, true, n, nufftOptions(device), 0.95, wavelet, 0.5,
			10, false, 0);
		final IJProgress progress = new IJProgress("Iterative reconstruction");
		final IterativeReconstruction.Result r;
		try {
			r = IterativeReconstruction.run(scan, source, mapsfile == null ? null : mapsfile.toPath(), s, reconOptions(
				scan, device), progress, session());
		}
		finally {
			progress.done();
		}
		image = Stacks.stack(scan.title() + " (" + regularization + ")", List.of(r.image()), Stacks.parts("magnitude"),
			scan.slices(), scan.pixelMm());
		final StringBuilder info = new StringBuilder();
		info.append("NUFFT-J Iterative reconstruction\n");
		info.append("kspace=").append(kspace).append('\n');
		info.append("input: ").append(scan.notes()).append('\n');
		info.append("matrix=").append(Options.describeMatrix(scan.matrix())).append(" coils=").append(scan.coils())
			.append(" frames=").append(scan.frames()).append(" slices=").append(scan.slices()).append('\n');
		info.append(String.format(Locale.ROOT, "maps=%s regularization=%s lambda=%g iterations=%d normal=%s " +
			"device=%s%n", maps, regularization, lambda, iterations, normal, device));
		info.append(r.mapsNote()).append('\n');
		for (int f = 0; f < r.pics().size(); f++)
			info.append(r.pics().size() > 1 ? "frame " + (f + 1) + ": " : "").append(r.pics().get(f).description())
				.append('\n');
		final String what = residualName(reg.kind());
		info.append("residual per iteration: ").append(what).append('\n');
		final List<double[]> history = r.residuals();
		for (int f = 0; f < history.size(); f++)
			info.append(history.size() > 1 ? "residuals.frame" + (f + 1) : "residuals").append('=').append(join(history
				.get(f))).append('\n');
		if (!GraphicsEnvironment.isHeadless())
			residuals = residualPlot(scan.title() + " (" + regularization + "): residual per iteration", what, history);
		image.setProperty("Info", info.toString());
		log = info.toString().trim();
	}

	// -- helpers --

	/** What the solver of {@code kind} reports per iteration ({@link Pics}: CG, FISTA, ADMM). */
	static String residualName(final Regularization.Kind kind) {
		switch (kind) {
			case L1_WAVELET: return "relative change ||x_k - x_k-1|| / ||x_k|| (FISTA)";
			case TOTAL_VARIATION: return "relative primal residual ||Dx - z|| / max(||Dx||, ||z||) (ADMM)";
			default: return "relative residual ||r|| / ||b|| (conjugate gradients)";
		}
	}

	/** The residual against the iteration, one curve per frame, on a log axis when every value is positive. */
	static Plot residualPlot(final String title, final String what, final List<double[]> history) {
		final Plot p = new Plot(title, "iteration", what);
		boolean positive = true;
		for (final double[] h : history) for (final double v : h) positive &= v > 0;
		final Color[] colours = { Color.BLUE, Color.RED, new Color(0, 140, 0), Color.MAGENTA, Color.ORANGE, Color.BLACK };
		final StringBuilder legend = new StringBuilder();
		for (int f = 0; f < history.size(); f++) {
			final double[] h = history.get(f), x = new double[h.length];
			for (int i = 0; i < h.length; i++) x[i] = i + 1;
			p.setColor(colours[f % colours.length]);
			p.addPoints(x, h, Plot.CONNECTED_CIRCLES);
			legend.append(f > 0 ? "\t" : "").append("frame ").append(f + 1);
		}
		if (history.size() > 1 && history.size() <= 12) p.setLegend(legend.toString(), Plot.AUTO_POSITION);
		p.setAxisYLog(positive);
		p.setLimitsToFit(false);
		return p;
	}

	private static String join(final double[] values) {
		final StringBuilder b = new StringBuilder();
		for (int i = 0; i < values.length; i++) b.append(i > 0 ? "," : "").append(String.format(Locale.ROOT, "%.6g",
			values[i]));
		return b.toString();
	}
}
