package org.nufftj.command;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.app.BartNufft;
import org.nufftj.app.KSpaceFiles;
import org.nufftj.app.Options;
import org.nufftj.app.ScanLoader;
import org.nufftj.imglib.ComplexPlanes;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.trajectory.Trajectory;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;

/**
 * Plugins › NUFFT-J › Forward NUFFT: the current image (every slice a frame) sampled along a trajectory with BART's
 * scaling, y = (1/√pixels)·Σ_x f(x)·e^{−2πi k·x}, written as a BART k-space pair with its trajectory: the same
 * numbers {@code nufft-j forward} writes for that trajectory file and the image (both run {@link BartNufft}).
 */
@Plugin(type = Command.class, label = "Forward NUFFT", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Forward NUFFT", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "forward"))
public class ForwardCommand extends NufftCommand {

	@Parameter(persist = false, label = "image", required = false)
	public ImagePlus input;

	@Parameter(persist = false, label = "traj", description = "trajectory file (BART .cfl or CSV); empty: use the design", required = false,
		style = "open")
	public File traj;

	@Parameter(persist = false, label = "trajectory", choices = { "radial", "golden angle", "tiny golden", "spiral", "PROPELLER",
		"Cartesian" })
	public String trajectory = "golden angle";

	@Parameter(persist = false, label = "readout", description = "0 = fully sampled default")
	public int readout = 0;

	@Parameter(persist = false, label = "shots", description = "0 = fully sampled default")
	public int shots = 0;

	@Parameter(persist = false, label = "tolerance")
	public double tolerance = 1e-6;

	@Parameter(persist = false, label = "device", choices = { "auto", "cpu", "gpu" })
	public String device = "auto";

	@Parameter(persist = false, label = "spread", description = "GPU spreading method (the CPU ignores it)",
		choices = { "auto", "atomic", "shared", "output" })
	public String spread = "auto";

	@Parameter(persist = false, label = "threads", description = "CPU threads, 0 = all cores")
	public int threads = 0;

	@Parameter(persist = false, label = "tune", description = "auto-tuning (as Reconstruct k-space's tune key)",
		choices = { "off", "quick", "exhaustive" })
	public String tune = "off";

	@Parameter(persist = false, label = "output", description = "k-space .cfl to write (empty: temporary folder)", required = false,
		style = "save")
	public File output;

	@Parameter(type = ItemIO.OUTPUT, label = "k-space file")
	public File kspace;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "log")
	public String log;

	@Override
	protected void execute() throws IOException {
		InvalidInputException.require(input != null, "Forward NUFFT: no image open");
		// An RGB pixel is three packed channels, not an intensity: its transform would be meaningless.
		InvalidInputException.require(input.getType() != ImagePlus.COLOR_RGB, "Forward NUFFT: '" + input.getTitle() +
			"' is an RGB image; expected one intensity per pixel (convert it with Image > Type > 32-bit)");
		final ComplexImage img = ComplexPlanes.toComplex(ImagePlusAdapter.toImg(input));
		final int[] m = img.size();
		requireFinite(img.data(), m[0], m[1]);
		final NufftOptions o = Options.nufft("auto", 0, 0, tolerance, "float", device, spread, threads)
			.withTuning(Options.tune(tune), 0);
		// The k-space is computed along the trajectory as its file stores it (float cycles/FOV), so that the pair
		// written is exactly what nufft-j forward makes of the trajectory file.
		final Trajectory t = KSpaceFiles.asWritten(traj != null && !traj.getPath().isEmpty() ? ScanLoader.trajectory(
			traj.toPath(), m) : Designs.design(trajectory, m, readout, shots).build(), m);
		InvalidInputException.require(t.dimensions() == 2, "traj: Forward NUFFT works on 2D images (each slice a " +
			"frame), the trajectory is " + t.dimensions() + "D");
		final int frames = img.frames();
		final IJProgress progress = new IJProgress("Forward NUFFT");
		progress.update(0.1, "forward NUFFT of " + frames + " slice(s)");
		final BartNufft.Result y;
		try {
			y = BartNufft.forward(session(), t, m, img.data(), o);
			log = "NUFFT-J Forward NUFFT of " + input.getTitle() + " (" + frames + " slice(s)), BART scaling " +
				"1/sqrt(pixels), " + t + "; " + y.description();
		}
		finally {
			progress.done();
		}
		final Path base = KSpaceFiles.base(output, "nufftj_forward_" + ScanLoader.baseTitle(input.getTitle())
			.replaceAll("[^A-Za-z0-9_.-]", "_"));
		if (traj != null && !traj.getPath().isEmpty()) org.nufftj.io.OutputPaths.refuseOverwrite(java.util.List.of(base,
			base.resolveSibling(base.getFileName() + "_traj")), java.util.List.of(traj.toPath()));
		kspace = KSpaceFiles.write(base, t, m, y.data(), 1, frames).toFile();
		log += " -> " + kspace;
	}

	// -- helpers --

	/**
	 * Fails naming the first non-finite pixel (x, y from 0, slice from 1 as ImageJ counts): one NaN once made every
	 * k-space sample NaN without a word.
	 */
	private void requireFinite(final float[] data, final int nx, final int ny) {
		for (int i = 0; i < data.length; i++)
			if (!Float.isFinite(data[i])) {
				final int j = i / 2;
				// Array axis 0 is the image's y (rows), axis 1 its x: docs/conventions.md.
				throw new InvalidInputException("Forward NUFFT: pixel (" + j / nx % ny + ", " + j % nx + ") of slice " +
					(j / (nx * ny) + 1) + " of '" + input.getTitle() + "' is " + data[i] + "; expected finite values " +
					"(e.g. Process > Noise > Remove NaNs)");
			}
	}
}
