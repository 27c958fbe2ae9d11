package org.nufftj.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Comparison;
import org.nufftj.app.Devices;
import org.nufftj.app.Options;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.app.Session;
import org.nufftj.data.ComplexImage;
import org.nufftj.io.AtomicFiles;
import org.nufftj.io.OutputPaths;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.TrajectoryKind;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nufft-j recon}: gridding reconstruction (DCF, adjoint NUFFT, coil combination). */
@Command(name = "recon", mixinStandardHelpOptions = true,
	description = { "Gridding reconstruction of BART or ISMRMRD k-space (density compensation, adjoint NUFFT, coil combination).",
		"Density compensation is applied once, normalised so a constant object keeps its value; the adjoint is unscaled.",
		"Input: <traj> <kspace> as for 'adjoint' (BART .cfl), or <kspace> alone: an ISMRMRD .h5 (coordinates and",
		"matrix from the file) or a BART .cfl with its trajectory beside it as <name>_traj.cfl.",
		"Output: .cfl [X, Y, Z, channels, ...], or a 32-bit float TIFF stack of the magnitude when the name ends in .tif." })
final class ReconCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Mixin
	TuneArgs tuning;

	@Option(names = "--dcf", paramLabel = "auto|none|ramp|voronoi|pipe-menon", defaultValue = "auto",
		description = "Density compensation (default: ${DEFAULT-VALUE} = none for Cartesian designs, else pipe-menon).")
	String dcf;

	@Option(names = "--dcf-iterations", paramLabel = "n", defaultValue = "" + ReconOptions.DEFAULT_DCF_ITERATIONS,
		description = "Pipe-Menon iterations (default: ${DEFAULT-VALUE}).")
	int dcfIterations;

	@Option(names = "--combine", paramLabel = "sos|walsh|none", defaultValue = "sos",
		description = "Coil combination (default: ${DEFAULT-VALUE}; none keeps complex per-coil images).")
	String combine;

	@Option(names = "--partial-fourier", paramLabel = "zero|homodyne", defaultValue = "zero",
		description = "Cartesian partial Fourier / asymmetric echo (detected from the sampled lines): zero-filled " +
			"(default), or homodyne (Noll 1991); homodyne is refused for data that is not partial Fourier.")
	String partialFourier;

	@Option(names = "--compare", description = { "Reconstruct on the GPU (--device gpu or gpu:N; default gpu) and on the CPU;",
		"write <output> (GPU), <output>-cpu and <output>-diff (GPU - CPU; magnitudes for TIFF), print NRMSE, max |diff|, PSNR.",
		"Fails (exit 4) when no GPU is usable." })
	boolean compare;

	@Option(names = "--verbose", description = "Print what ran and the time split (start-up, read, reconstruct, " +
		"write) to stderr.")
	boolean verbose;

	@Parameters(arity = "2..3", paramLabel = "[<traj>] <kspace> <output>", description = { "Trajectory .cfl [3, readout, " +
		"spokes] (cycles/FOV; optional), k-space (.cfl [1, readout, spokes, coils, ...] or ISMRMRD .h5),",
		"output image (.cfl base name, or .tif)." })
	List<Path> files;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		final StepTimes times = new StepTimes();
		final ReconOptions options = options();
		final Path traj = files.size() == 3 ? files.get(0) : null;
		final Path kspace = files.get(files.size() - 2), output = files.get(files.size() - 1);
		OutputPaths.refuseOverwrite(compare ? List.of(output, sibling(output, "-cpu"), sibling(output, "-diff"))
			: List.of(output), java.util.Arrays.asList(traj, kspace));
		AtomicFiles.requireFolder(output);
		final Scan scan = ScanLoader.load(kspace, traj, TrajectoryKind.FILE, nufft.dims());
		final ReconOptions o = options.withDcf(Options.dcf(dcf, scan.cartesian()));
		times.mark("read");
		// One session for this run: --compare's reconstructions share the device instead of opening it twice.
		try (Session session = new Session()) {
			if (!compare) {
				final java.util.List<org.nufftj.nufft.DeviceChoice> devices = Devices.parse(nufft.device);
				if (verbose && devices.size() == 1) {
					// Opened here (the session keeps it) so that the split shows the device's start on its own: the CUDA
					// context, the kernel modules and the FFT library on a GPU, the worker threads on the CPU.
					session.backend(devices.get(0), o.nufft().threads());
					times.mark("open device");
				}
				final Reconstruction r = Reconstruction.run(scan, o, Progress.NONE, session, devices);
				times.mark("reconstruct (plan, DCF, transform, combine: split above)");
				if (verbose) spec.commandLine().getErr().println(r.describe());
				ImageFiles.write(output, r.image(), scan.frameDims());
				times.mark("write");
				if (verbose) spec.commandLine().getErr().println(times.line());
				return Main.OK;
			}
			return compare(scan, o, output, session);
		}
	}

	/** The options of the command line, checked before any file is read. */
	private ReconOptions options() {
		Options.dcf(dcf, false);
		InvalidInputException.require(dcfIterations >= 1, "--dcf-iterations: expected >= 1, found " + dcfIterations);
		return ReconOptions.defaults().withNufft(tuning.apply(nufft.options())).withCombine(Options.combine(combine))
			.withDcfIterations(dcfIterations).withPartialFourier(Options.partialFourier(partialFourier));
	}

	/** --compare: the GPU reconstruction, the CPU one, both written with their difference, and the figures. */
	private int compare(final Scan scan, final ReconOptions o, final Path output, final Session session)
		throws java.io.IOException
	{
		final PrintWriter out = spec.commandLine().getOut();
		final Comparison c = Comparison.run(scan, o, null, Progress.NONE, session);
		if (c.gpu() == null) throw new Main.GpuUnavailable("--compare needs a GPU: " + c.gpuProblem());
		final ComplexImage gi = c.gpu().image(), ci = c.cpu().image();
		final long[] frameDims = scan.frameDims();
		// The three files appear together or not at all.
		try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
			ImageFiles.write(batch, output, gi, frameDims);
			ImageFiles.write(batch, sibling(output, "-cpu"), ci, frameDims);
			if (ImageFiles.isTiff(output)) {
				final float[] gm = gi.magnitude(), cm = ci.magnitude();
				for (int i = 0; i < gm.length; i++) gm[i] -= cm[i];
				ImageFiles.writeTiff(batch, sibling(output, "-diff"), gi, gm);
			}
			else {
				ImageFiles.writeCfl(batch, sibling(output, "-diff"), new ComplexImage(c.figures().difference(),
					gi.size(), gi.channels(), gi.frames(), null), frameDims);
			}
			batch.commit();
		}
		out.println(c.summary());
		out.flush();
		return Main.OK;
	}

	/** {@code out.tif} → {@code out-cpu.tif}; {@code out} / {@code out.cfl} → {@code out-cpu}. */
	static Path sibling(final Path p, final String suffix) {
		final String n = p.getFileName().toString();
		final String lower = n.toLowerCase();
		for (final String ext : new String[] { ".tiff", ".tif", ".cfl", ".hdr" })
			if (lower.endsWith(ext)) return p.resolveSibling(n.substring(0, n.length() - ext.length()) + suffix +
				(ext.startsWith(".t") ? n.substring(n.length() - ext.length()) : ""));
		return p.resolveSibling(n + suffix);
	}
}
