package org.nufftj.command;

import java.awt.Color;
import java.io.File;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Options;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.Trajectory;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.gui.Plot;

/**
 * Plugins › NUFFT-J › Show trajectory: the k-space sample positions (cycles/pixel, axes as the image's) coloured by readout
 * (acquisition time, blue → red), and the density-compensation weights against the sample index. The trajectory
 * comes from a k-space file (as Reconstruct k-space reads it) or, without one, from a design.
 */
@Plugin(type = Command.class, label = "Show trajectory", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Show trajectory", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "trajectory"))
public class ShowTrajectoryCommand extends NufftCommand {

	/** Most points drawn; longer trajectories are thinned evenly (whole readouts kept). */
	static final int MAX_POINTS = 100_000;
	static final int COLOURS = 16;

	@Parameter(persist = false, label = "kspace", description = "k-space file (optional; else the design below)", required = false,
		style = "open")
	public File kspace;

	@Parameter(persist = false, label = "traj", required = false, style = "open")
	public File traj;

	@Parameter(persist = false, label = "trajectory", choices = { "from file", "radial", "golden angle", "tiny golden", "spiral",
		"stack of stars", "3D radial", "PROPELLER", "Cartesian" })
	// "from file": with kspace=[file] the plot shows the file's own points (a design default once replaced them).
	public String trajectory = "from file";

	// auto: a file's own matrix (a fixed 64 once rescaled a 32-pixel file's points to half their cycles/pixel); 64 for
	// a design.
	@Parameter(persist = false, label = "matrix", description = "auto = the file's; 64 for a design")
	public String matrix = "auto";

	@Parameter(persist = false, label = "readout", description = "0 = fully sampled default")
	public int readout = 0;

	@Parameter(persist = false, label = "shots", description = "0 = fully sampled default")
	public int shots = 0;

	@Parameter(persist = false, label = "dcf", choices = { "auto", "none", "ramp", "voronoi", "pipe-menon" })
	public String dcf = "auto";

	@Parameter(type = ItemIO.OUTPUT, label = "trajectory plot")
	public Plot plot;

	@Parameter(type = ItemIO.OUTPUT, label = "weights plot")
	public Plot weights;

	@Override
	protected void execute() {
		final Trajectory t;
		final int[] m;
		boolean cartesian;
		if (kspace != null && !kspace.getPath().isEmpty()) {
			final Scan scan = ScanLoader.load(kspace.toPath(), traj == null || traj.getPath().isEmpty() ? null :
				traj.toPath(), Options.trajectory(trajectory), Options.matrix(matrix));
			t = scan.parts().get(0).trajectory();
			m = scan.matrix();
			cartesian = scan.cartesian();
		}
		else {
			InvalidInputException.require(!Options.choice("trajectory", trajectory, Options.TRAJECTORIES).equals(
				"from file"), "Show trajectory: give kspace=[file] or a trajectory design");
			final int[] given = Options.matrix(matrix);
			m = given != null ? given : new int[] { 64, 64 };
			t = Designs.design(trajectory, m, readout, shots).build();
			cartesian = trajectory.equalsIgnoreCase("cartesian");
		}
		final DcfMethod method = Options.dcf(dcf, cartesian);
		plot = positions(t);
		final float[] w = session().densityWeights(method, t, m, ReconOptions.DEFAULT_DCF_ITERATIONS);
		weights = weightsPlot(t, w, method);
	}

	/** Plot frame size in pixels: square, so that with equal limits one cycle/pixel is as long across as up. */
	static final int FRAME = 480;

	/**
	 * The sample positions: across, k along the image's x (array axis 1), up, k along its y (array axis 0; the image's
	 * y runs down, the plot's up): docs/conventions.md. Equal limits in a square frame draw the k-space disc as a disc;
	 * the description is the window title, so no text covers points or is clipped.
	 */
	static Plot positions(final Trajectory t) {
		final int step = Math.max(1, (int) Math.ceil((double) t.count() / MAX_POINTS / t.readout()));
		// The description is the window title: drawn in the frame it covered points, under it it was clipped.
		final Plot p = new Plot("Trajectory " + t + (step > 1 ? ", every " + step + "th readout" : "") + "; colour: " +
			"readout order, blue first", "k along x (cycles/pixel)", "k along y (cycles/pixel)");
		p.setFrameSize(FRAME, FRAME);
		p.setLimits(-0.55, 0.55, -0.55, 0.55);
		final int shots = t.shots();
		for (int g = 0; g < COLOURS; g++) {
			int n = 0;
			for (int s = 0; s < shots; s += step) if (s * COLOURS / shots == g) n += t.readout();
			if (n == 0) continue;
			final double[] x = new double[n], y = new double[n];
			int i = 0;
			for (int s = 0; s < shots; s += step) {
				if (s * COLOURS / shots != g) continue;
				for (int r = 0; r < t.readout(); r++, i++) {
					x[i] = t.k(s * t.readout() + r, 1);
					y[i] = t.k(s * t.readout() + r, 0);
				}
			}
			p.setColor(Color.getHSBColor(0.66f * (1 - g / (float) (COLOURS - 1)), 0.9f, 0.85f));
			p.addPoints(x, y, Plot.DOT);
		}
		p.setColor(Color.BLACK);
		return p;
	}

	static Plot weightsPlot(final Trajectory t, final float[] w, final DcfMethod method) {
		final int step = Math.max(1, t.count() / MAX_POINTS);
		final int n = (t.count() + step - 1) / step;
		final double[] x = new double[n], y = new double[n];
		for (int i = 0; i < n; i++) {
			x[i] = i * step;
			y[i] = w[i * step];
		}
		final Plot p = new Plot("DCF weights (" + method.key() + ")", "sample index", "weight");
		p.setColor(Color.BLUE);
		p.addPoints(x, y, Plot.LINE);
		return p;
	}
}
