package org.nufftj.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;

import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.GriddingRecon;
import org.nufftj.recon.ImageComparison;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;
import org.nufftj.trajectory.Trajectory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nufft-j recon}: gridding reconstruction (DCF, adjoint NUFFT, coil combination). */
@Command(name = "recon", mixinStandardHelpOptions = true,
	description = { "Gridding reconstruction: density compensation (applied once, normalised so a constant object",
		"keeps its value), adjoint NUFFT (unscaled), coil combination. Input as for 'adjoint' (BART .cfl).",
		"Output: .cfl [X, Y, Z, channels, ...], or a 32-bit float TIFF stack of the magnitude when the name ends in .tif." })
final class ReconCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Option(names = "--dcf", paramLabel = "none|ramp|voronoi|pipe-menon", defaultValue = "pipe-menon",
		description = "Density compensation (default: ${DEFAULT-VALUE}).")
	String dcf;

	@Option(names = "--dcf-iterations", paramLabel = "n", defaultValue = "" + ReconOptions.DEFAULT_DCF_ITERATIONS,
		description = "Pipe-Menon iterations (default: ${DEFAULT-VALUE}).")
	int dcfIterations;

	@Option(names = "--combine", paramLabel = "sos|walsh|none", defaultValue = "sos",
		description = "Coil combination (default: ${DEFAULT-VALUE}; none keeps complex per-coil images).")
	String combine;

	@Option(names = "--compare", description = { "Reconstruct on the GPU (--device gpu or gpu:N; default gpu) and on the CPU;",
		"write <output> (GPU), <output>-cpu and <output>-diff (GPU - CPU; magnitudes for TIFF), print NRMSE, max |diff|, PSNR.",
		"Fails (exit 1) when no GPU is usable." })
	boolean compare;

	@Option(names = "--verbose", description = "Print what ran to stderr.")
	boolean verbose;

	@Parameters(index = "0", paramLabel = "<traj>", description = "Trajectory .cfl [3, readout, spokes] (cycles/FOV).")
	Path traj;

	@Parameters(index = "1", paramLabel = "<kspace>", description = "k-space .cfl [1, readout, spokes, coils, ...].")
	Path kspace;

	@Parameters(index = "2", paramLabel = "<output>", description = "Output image (.cfl base name, or .tif).")
	Path output;

	@Override
	public Integer call() throws Exception {
		final NufftOptions nufftOptions = nufft.options();
		ReconOptions o = ReconOptions.defaults().withNufft(nufftOptions).withDcf(DcfMethod.parse(dcf))
			.withCombine(CoilCombination.parse(combine)).withDcfIterations(dcfIterations);
		final BartFiles.TrajectoryFile tf = BartFiles.readTrajectory(traj);
		final int[] dims = nufft.dims() != null ? nufft.dims() : tf.estimateDims();
		final Trajectory t = tf.trajectory(dims);
		final Cfl.Array ka = BartFiles.readKSpace(kspace, tf);
		final KSpace k = BartFiles.kspace(ka, kspace);
		final int[] size = Arrays.copyOf(dims, t.dimensions());
		final long[] frameDims = Arrays.copyOfRange(ka.dims(), 4, Cfl.DIMS);

		if (!compare) {
			final ReconResult r = reconstruct(t, k, size, o);
			if (verbose) System.err.println(r.describe());
			ImageFiles.write(output, r.image(), frameDims);
			return Main.OK;
		}
		return compare(t, k, size, o, frameDims);
	}

	/** One reconstruction on a backend opened for the options' device (the app layer will keep one per session). */
	private static ReconResult reconstruct(final Trajectory t, final KSpace k, final int[] size, final ReconOptions o) {
		try (Backend backend = Backends.open(o.nufft().device(), o.nufft().threads(), System.err::println)) {
			return GriddingRecon.reconstruct(backend, t, k, size, o, null);
		}
	}

	/** --compare: the GPU reconstruction, the CPU one, both written with their difference, and the figures. */
	private int compare(final Trajectory t, final KSpace k, final int[] size, final ReconOptions o,
		final long[] frameDims) throws java.io.IOException
	{
		final var out = new java.io.PrintWriter(System.out, true);
		final NufftOptions nufftOptions = o.nufft();
		final DeviceChoice gpu = nufftOptions.device().kind() == DeviceChoice.Kind.GPU ? nufftOptions.device() :
			DeviceChoice.gpu(0);
		final ReconResult g = reconstruct(t, k, size, o.withNufft(nufftOptions.withDevice(gpu)));
		if (!g.backend().toLowerCase().startsWith("gpu")) throw new Main.CliFailure("--compare needs a GPU, but device " +
			gpu + " ran on '" + g.backend() + "' (no usable NVIDIA GPU / CUDA driver, or the GPU engine is not built in)");
		final ReconResult c = reconstruct(t, k, size, o.withNufft(nufftOptions.withDevice(DeviceChoice.CPU)));
		final ImageComparison cmp = ImageComparison.of(c.image().data(), g.image().data());
		final ComplexImage gi = g.image(), ci = c.image();
		ImageFiles.write(output, gi, frameDims);
		ImageFiles.write(sibling(output, "-cpu"), ci, frameDims);
		if (ImageFiles.isTiff(output)) {
			final float[] gm = gi.magnitude(), cm = ci.magnitude();
			for (int i = 0; i < gm.length; i++) gm[i] -= cm[i];
			ImageFiles.writeTiff(sibling(output, "-diff"), gi, gm);
		}
		else {
			ImageFiles.writeCfl(sibling(output, "-diff"), new ComplexImage(cmp.difference(), gi.size(), gi.channels(),
				gi.frames(), null), frameDims);
		}
		out.printf("GPU (%s) %.1f ms, CPU (%s) %.1f ms%n", g.backend(), g.millis(), c.backend(), c.millis());
		out.printf("GPU vs CPU: NRMSE %.3g, max |difference| %.3g, PSNR %.1f dB%n", cmp.nrmse(), cmp.maxAbsDifference(),
			cmp.psnr());
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
