package org.nufftj.command;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.ij1.CommandLauncher;
import org.nufftj.ij1.ImagePlusAdapter;
import org.nufftj.imglib.ComplexPlanes;
import org.nufftj.io.TrajectoryFiles;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.trajectory.Trajectory;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;

/**
 * Plugins › NUFFT-J › Forward NUFFT: the current image (every slice a frame) sampled along a trajectory,
 * y = Σ_x f(x)·e^{−2πi k·x}, written as a BART k-space pair with its trajectory.
 */
@Plugin(type = Command.class, label = "Forward NUFFT", menuRoot = CommandLauncher.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Forward NUFFT", headless = true)
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

	@Parameter(persist = false, label = "output", description = "k-space .cfl to write (empty: temporary folder)", required = false,
		style = "save")
	public File output;

	/** The session's GPUs (null in a context without the service: plans open their own device). */
	@Parameter(required = false)
	private NufftGpuService gpus;

	@Parameter(type = ItemIO.OUTPUT, label = "k-space file")
	public File kspace;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "log")
	public String log;

	@Override
	protected void execute() throws IOException {
		InvalidInputException.require(input != null, "Forward NUFFT: no image open");
		final ComplexImage img = ComplexPlanes.toComplex(ImagePlusAdapter.toImg(input));
		final int[] m = img.size();
		final Trajectory t = traj != null && !traj.getPath().isEmpty() ? TrajectoryFiles.read(traj.toPath(), m)
			: Designs.design(trajectory, m, readout, shots).build();
		InvalidInputException.require(t.dimensions() == 2, "traj: Forward NUFFT works on 2D images (each slice a " +
			"frame), the trajectory is " + t.dimensions() + "D");
		final int frames = img.frames();
		final float[] y = new float[2 * t.count() * frames];
		final NufftOptions o = Options.nufft("auto", 0, 0, tolerance, "float", device);
		final IJProgress progress = new IJProgress("Forward NUFFT");
		progress.update(0.1, "forward NUFFT of " + frames + " slice(s)");
		try (NufftPlan plan = Nufft.plan(m, o)) {
			plan.setPoints(t);
			plan.forward(img.data(), y);
			log = "NUFFT-J Forward NUFFT of " + input.getTitle() + " (" + frames + " slice(s)) on " + plan.backend() +
				", " + t;
		}
		finally {
			progress.done();
		}
		final Path base = KSpaceWriter.base(output, "nufftj_forward_" + KSpaceSource.baseTitle(input.getTitle())
			.replaceAll("[^A-Za-z0-9_.-]", "_"));
		kspace = KSpaceWriter.write(base, t, m, y, 1, frames).toFile();
		log += " -> " + kspace;
	}
}
