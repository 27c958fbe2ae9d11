package org.nufftj.command;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.nufftj.app.KSpaceFiles;
import org.nufftj.app.Options;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.data.ComplexImage;
import org.nufftj.imglib.ComplexPlanes.Part;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.phantom.CoilSensitivities;
import org.nufftj.phantom.Noise;
import org.nufftj.phantom.PhantomKind;
import org.nufftj.phantom.Simulation;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryDesign;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;

/**
 * Plugins › NUFFT-J › Simulate k-space: the exact k-space of an analytic phantom seen through smooth coil
 * sensitivities (values layer {@link Simulation}: y_c(k) = Σ_j a_cj·F(k − q_cj), no pixel image and no NUFFT, so no
 * inverse crime), sampled along a trajectory design, plus complex Gaussian noise; written as a BART pair and, with
 * {@code reconstruct}, reconstructed with the default settings. {@code noise} is σ per real/imaginary component
 * relative to the RMS per component of the noiseless samples, i.e. 1/SNR in {@link Noise}'s definition.
 */
@Plugin(type = Command.class, label = "Simulate k-space", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>Simulate k-space", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "simulate"))
public class SimulateCommand extends NufftCommand {

	static final String[] PHANTOMS = { "shepp-logan", "disc" };

	@Parameter(persist = false, label = "phantom", choices = { "shepp-logan", "disc" })
	public String phantom = "shepp-logan";

	@Parameter(persist = false, label = "trajectory", choices = { "radial", "golden angle", "tiny golden", "spiral", "stack of stars",
		"3D radial", "PROPELLER", "Cartesian" })
	public String trajectory = "golden angle";

	@Parameter(persist = false, label = "matrix", description = "N, NxM or NxMxL")
	public String matrix = "128";

	@Parameter(persist = false, label = "readout", description = "samples per readout, 0 = fully sampled default")
	public int readout = 0;

	@Parameter(persist = false, label = "shots", description = "spokes / interleaves / lines, 0 = fully sampled default")
	public int shots = 0;

	@Parameter(persist = false, label = "coils")
	public int coils = 4;

	@Parameter(persist = false, label = "noise", description = "noise standard deviation relative to the RMS signal (1/SNR; " +
		"per real/imaginary part)")
	public double noise = 0;

	@Parameter(persist = false, label = "seed", description = "noise seed")
	public int seed = 1;

	@Parameter(persist = false, label = "output", description = "k-space .cfl to write (empty: temporary folder)", required = false,
		style = "save")
	public File output;

	@Parameter(persist = false, label = "reconstruct", description = "reconstruct the written file")
	public boolean reconstruct = true;

	@Parameter(persist = false, label = "device", choices = { "auto", "cpu", "gpu" })
	public String device = "auto";

	@Parameter(type = ItemIO.OUTPUT, label = "phantom image")
	public ImagePlus phantomimage;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "image")
	public ImagePlus image;

	@Parameter(type = ItemIO.OUTPUT, label = "k-space file")
	public File kspace;

	@Parameter(type = ItemIO.OUTPUT, required = false, label = "log")
	public String log;

	@Override
	protected void execute() throws IOException {
		final int[] m = Options.matrix(matrix);
		org.nufftj.InvalidInputException.require(m != null, "matrix: give a size (N, NxM or NxMxL), not auto");
		Options.coils("coils", coils);
		Options.readout("readout", readout);
		Options.shots("shots", shots);
		org.nufftj.InvalidInputException.require(noise >= 0 && Double.isFinite(noise), "noise: expected >= 0, found " +
			noise);
		Options.device(device);
		final TrajectoryDesign design = Designs.design(trajectory, m, readout, shots);
		final Trajectory t = design.build();
		final AnalyticPhantom p = PhantomKind.parse(Options.choice("phantom", phantom, PHANTOMS)).phantom(m.length);
		final Simulation sim = new Simulation(p, CoilSensitivities.synthetic(coils, m));
		final IJProgress progress = new IJProgress("Simulate k-space");
		final Simulation.Result result;
		try {
			Progress.step(progress, 0.1, "analytic k-space of " + coils + " coil(s) at " + t.count() + " points");
			result = sim.run(t, noise > 0 ? Noise.snr(1 / noise, seed) : Noise.NONE, 0);
		}
		finally {
			progress.done();
		}
		final float[] y = result.kspace().data();
		final String name = String.format(Locale.ROOT, "nufftj_sim_%s_%s", trajectory.replace(' ', '_'),
			Options.describeMatrix(m));
		final Path base = KSpaceFiles.base(output, name);
		final Path cfl = KSpaceFiles.write(base, t, m, y, coils, 1);
		kspace = cfl.toFile();
		final float[] f = p.image(m, 2).data();
		final float[] real = new float[f.length];
		for (int i = 0; i < f.length; i += 2) real[i] = f[i];
		phantomimage = Stacks.stack(base.getFileName() + " phantom", List.of(new ComplexImage(real, m, 1, 1, null)),
			new Part[] { Part.REAL }, 1, null);
		log = "NUFFT-J Simulate k-space: " + phantom + ", " + design.describe() + ", " + coils + " coils, noise " + noise +
			String.format(Locale.ROOT, " (sigma %.4g per component, RMS signal %.4g)", result.sigma(), result.signalRms()) +
			" -> " + cfl + " (trajectory " + base.getFileName() + "_traj.cfl)";
		if (reconstruct) {
			final Scan scan = ScanLoader.load(cfl, null, org.nufftj.trajectory.TrajectoryKind.FILE, m);
			final ReconOptions ro = Options.recon(Options.nufft("auto", 0, 0, NufftOptions.DEFAULT_TOLERANCE, "float",
				device), Options.dcf("auto", scan.cartesian()), Options.combine("sos"));
			final IJProgress recon = new IJProgress("Reconstruct k-space");
			final Reconstruction rec;
			try {
				rec = Reconstruction.run(scan, ro, recon, session());
			}
			finally {
				recon.done();
			}
			image = Stacks.stack(scan.title(), rec.images(), new Part[] { Part.MAGNITUDE }, 1, null);
			image.setProperty("Info", log + "\nreconstruction: " + rec.describe() + "\n");
			log += String.format(Locale.ROOT, "%nreconstructed in %.1f ms on %s", rec.millis(), rec.backend());
		}
	}
}
