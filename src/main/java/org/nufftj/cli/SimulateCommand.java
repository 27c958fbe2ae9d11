package org.nufftj.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Memory;
import org.nufftj.app.Options;
import org.nufftj.io.AtomicFiles;
import org.nufftj.io.Cfl;
import org.nufftj.io.TrajectoryFiles;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.phantom.CoilSensitivities;
import org.nufftj.phantom.Noise;
import org.nufftj.phantom.PhantomKind;
import org.nufftj.phantom.Simulation;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryDesign;
import org.nufftj.trajectory.TrajectoryKind;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nufft-j simulate}: phantom + trajectory design + coils + noise → BART trajectory and k-space files (and the
 * ground truth), through the values layer's {@link Simulation}: analytic k-space, no inverse crime.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
	description = { "Simulate multi-coil k-space of an analytic phantom on a trajectory design, as BART files.",
		"<traj> [3, readout, shots] in cycles/FOV (as 'adjoint', 'recon' and 'bart nufft' read it) and <kspace> " +
		"[1, readout, shots, coils].",
		"%nk-space is exact: the Fourier transform of ellipses (ellipsoids) seen through coil maps that are sums of " +
			"complex exponentials; no pixel image, no NUFFT, so no inverse crime. Scale: NUFFT-J's unscaled " +
			"convention y_c(k) = sum_x f(x) s_c(x) exp(-2 pi i k.x), so 'recon' returns the phantom at its own " +
			"intensity ('bart nufft -a' scales by 1/sqrt(X*Y*Z)).",
		"%nCoil c of C >= 2: s_c(x) = exp(0.7ic) (0.6 + 0.4 cos(2 pi q_c.x + 0.9c)), |q_c| = half a cycle per FOV " +
			"at azimuth 2 pi c/8 (3D: elevation +-30 deg); one coil has unit sensitivity.",
		"%nNoise: complex Gaussian, sigma per real and imaginary part = rms|y| / (sqrt(2) SNR), rms over all " +
			"samples of all coils of the noiseless data y (so SNR = rms|y| / rms|noise|). The same --seed gives " +
			"the same noise.%n" })
final class SimulateCommand implements Callable<Integer> {

	@Option(names = "--phantom", paramLabel = "shepp-logan|disc", defaultValue = "shepp-logan",
		description = "Toft's modified Shepp-Logan (2D ellipses, 3D ellipsoids; BART's tables and orientation) or a " +
			"disc/ball of radius 0.6 of the half FOV (default: ${DEFAULT-VALUE}).")
	String phantom;

	@Option(names = { "-t", "--trajectory" }, paramLabel = "KIND", defaultValue = "golden-angle",
		description = "Trajectory design (default: ${DEFAULT-VALUE}): radial, golden-angle, tiny-golden, spiral, " +
			"propeller, cartesian, random (2D); stack-of-stars, 3d-radial, random (3D).")
	String trajectory;

	@Option(names = { "-m", "--matrix" }, paramLabel = "N|NxM|NxMxL", defaultValue = "128",
		description = "Image size (default: ${DEFAULT-VALUE}); a third size > 1 makes it 3D. 'x' or ':' separate sizes.")
	String matrix;

	@Option(names = { "-r", "--readout" }, paramLabel = "R", defaultValue = "0",
		description = "Samples per readout (default: 0 = the design's fully sampled default, 2N for radial kinds).")
	int readout;

	@Option(names = { "-s", "--shots", "--spokes" }, paramLabel = "S", defaultValue = "0",
		description = "Spokes / interleaves / lines (default: 0 = the design's fully sampled default, " +
			"ceil(pi*N/2) spokes for radial kinds).")
	int shots;

	@Option(names = { "-c", "--coils" }, paramLabel = "C", defaultValue = "8",
		description = "Number of coils (default: ${DEFAULT-VALUE}).")
	int coils;

	@Option(names = "--snr", paramLabel = "SNR",
		description = "Noise at this SNR: a ratio (20), in dB (26dB = 20*log10 of the ratio), or inf (default: none).")
	String snr;

	@Option(names = "--sigma", paramLabel = "sigma",
		description = "Noise of this standard deviation per real/imaginary part, in k-space units (instead of --snr).")
	Double sigma;

	@Option(names = "--seed", paramLabel = "n", defaultValue = "1", description = "Noise seed (default: ${DEFAULT-VALUE}).")
	long seed;

	@Option(names = "--truth", paramLabel = "FILE",
		description = "Also write the ground truth: the root sum of squares of the coil images f*s_c (what a " +
			"sum-of-squares recon estimates; |f| for one coil), f averaged over 4x4 (3D: 2x2x2) points per pixel; " +
			".cfl [X, Y, Z] or, ending in .tif, a 32-bit float TIFF.")
	Path truth;

	@Option(names = "--threads", paramLabel = "n", defaultValue = "0",
		description = "Worker threads (default: 0 = all cores).")
	int threads;

	@Option(names = "--verbose", description = "Print what was simulated to stderr.")
	boolean verbose;

	@Option(names = "--debug", description = "Print stack traces on errors.")
	boolean debug;

	@Parameters(index = "0", paramLabel = "<traj>", description = "Output trajectory .cfl (base name).")
	Path traj;

	@Parameters(index = "1", paramLabel = "<kspace>", description = "Output k-space .cfl (base name).")
	Path kspace;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		final long t0 = System.nanoTime();
		final int[] size = parseMatrix(matrix);
		final TrajectoryKind kind = TrajectoryKind.parse(trajectory);
		InvalidInputException.require(kind != TrajectoryKind.FILE, "--trajectory: '" + trajectory + "' is not a " +
			"design; simulate makes its own trajectory (kinds: " + TrajectoryKind.choices() + " except from file)");
		Options.readout("--readout", readout);
		Options.shots("--shots", shots);
		Options.coils("--coils", coils);
		final int workers = Options.threads("--threads", threads);
		final String capped = Options.threadsNotice("--threads", threads);
		if (capped != null) spec.commandLine().getErr().println("nufft-j: " + capped);
		final Noise noise = noise();
		checkOutputs();
		final TrajectoryDesign design = kind.design(size, readout, shots);
		final Trajectory t = design.build();
		// Analytic k-space in double (16 bytes a value) and its float copy (8): refused now, not after minutes.
		Memory.length("simulate: " + coils + " coils x " + t.count() + " samples", 2, t.count(), coils);
		Memory.require("simulate: " + coils + " coils x " + t.count() + " samples",
			Memory.product("simulate", 24, t.count(), coils));
		final AnalyticPhantom p = PhantomKind.parse(phantom).phantom(size.length);
		final Simulation sim = new Simulation(p, CoilSensitivities.synthetic(coils, size));
		final Simulation.Result r = sim.run(t, noise, workers);
		final long t1 = System.nanoTime();

		// All outputs appear together or none: a k-space file never exists without its trajectory.
		try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
			TrajectoryFiles.writeCfl(batch, traj, t, size);
			Cfl.write(batch, kspace, new long[] { 1, t.readout(), t.shots(), coils }, r.kspace().data());
			if (truth != null) ImageFiles.write(batch, truth, sim.truth(), null);
			batch.commit();
		}
		if (verbose) spec.commandLine().getErr().printf(Locale.ROOT, "simulate: %s %s, %s, %s, %s: rms|y| %.4g, sigma %.4g per " +
			"component; simulated in %.0f ms, written in %.0f ms%n", p.name(), describe(size), design.describe(),
			sim.coils(), noise.describe(), r.signalRms(), r.sigma(), (t1 - t0) / 1e6, (System.nanoTime() - t1) / 1e6);
		return Main.OK;
	}

	// -- helpers --

	private Noise noise() {
		InvalidInputException.require(snr == null || sigma == null, "--snr and --sigma: give one of them, not both");
		if (sigma != null) {
			InvalidInputException.require(sigma >= 0 && Double.isFinite(sigma), "--sigma: expected a finite value >= 0, " +
				"found " + sigma);
			return Noise.sigma(sigma, seed);
		}
		if (snr == null) return Noise.NONE;
		try {
			return Noise.snr(Noise.parseSnr(snr), seed);
		}
		catch (final InvalidInputException e) {
			throw new InvalidInputException("--snr: " + e.getMessage());
		}
	}

	/** Distinct outputs in folders that exist, checked before anything is computed or written. */
	private void checkOutputs() {
		final Path tb = Cfl.withExtension(traj.toAbsolutePath().normalize(), "");
		final Path kb = Cfl.withExtension(kspace.toAbsolutePath().normalize(), "");
		InvalidInputException.require(!tb.equals(kb), "<traj> and <kspace> name the same file " + kb);
		if (truth != null) {
			final Path a = truth.toAbsolutePath().normalize();
			final Path b = ImageFiles.isTiff(a) ? a : Cfl.withExtension(a, "");
			InvalidInputException.require(!b.equals(tb) && !b.equals(kb), "--truth " + truth +
				" names the same file as <traj> or <kspace>");
		}
		for (final Path p : truth == null ? new Path[] { traj, kspace } : new Path[] { traj, kspace, truth })
			AtomicFiles.requireFolder(p);
		for (final Path p : new Path[] { traj, kspace })
			InvalidInputException.require(!ImageFiles.isTiff(p), p + ": simulate writes BART .cfl/.hdr here, not " +
				"TIFF (only --truth may be a .tif)");
	}

	/** "N" (N x N), "NxM", "NxMxL" (L = 1: 2D), also with ':' as BART's -d; sizes 2 to 65536. */
	static int[] parseMatrix(final String text) {
		final String m = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		final String[] parts = m.split("\\s*[x×:,]\\s*");
		InvalidInputException.require(!m.isEmpty() && parts.length >= 1 && parts.length <= 3, "--matrix: expected N, " +
			"NxM or NxMxL, found '" + text + "'");
		final int[] out = new int[parts.length == 1 ? 2 : parts.length];
		for (int i = 0; i < parts.length; i++) {
			try {
				out[i] = Integer.parseInt(parts[i]);
			}
			catch (final NumberFormatException e) {
				throw new InvalidInputException("--matrix: '" + parts[i] + "' in '" + text + "' is not an integer " +
					"(expected N, NxM or NxMxL)");
			}
		}
		if (parts.length == 1) out[1] = out[0];
		final int[] size = out.length == 3 && out[2] == 1 ? new int[] { out[0], out[1] } : out;
		for (final int s : size) InvalidInputException.require(s >= 2 && s <= 65536, "--matrix: sizes must be 2 to " +
			"65536 (a third size may be 1), found '" + text + "'");
		return size;
	}

	private static String describe(final int[] size) {
		final StringBuilder b = new StringBuilder();
		for (int i = 0; i < size.length; i++) b.append(i == 0 ? "" : "x").append(size[i]);
		return b.toString();
	}
}
