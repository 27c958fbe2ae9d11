package org.nufftj.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Options;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.app.Session;
import org.nufftj.app.tune.TuneDirection;
import org.nufftj.app.tune.Tuner;
import org.nufftj.app.tune.Wisdom;
import org.nufftj.data.FrameGroup;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.TuneMode;
import org.nufftj.trajectory.TrajectoryKind;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nufft-j tune}: times plan candidates for a scan's trajectory and keeps the winner in the wisdom file. */
@Command(name = "tune", mixinStandardHelpOptions = true,
	description = { "Auto-tune the NUFFT plan for a trajectory and keep the winner in the wisdom file.",
		"Times candidates (kernel KB/ES, (sigma, W) pairs that meet eps by the error model, GPU spreading method and",
		"bins, CPU kernel lookup table) on random data of the scan's batch (coils x frames), prints them with their",
		"model error and time, marks the winner (*) and records it in the wisdom file, which recon, adjoint, forward,",
		"bench and the Fiji commands then read for the same key. A key",
		"already in the wisdom (same device, size, points, batch, precision, eps, direction) is not timed again.",
		"Input: [<traj>] <kspace> as for 'recon'." })
final class TuneCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Option(names = "--mode", paramLabel = "quick|exhaustive", defaultValue = "quick",
		description = "quick: kernels x sigma at their least W, then the backend's variants of the fastest; exhaustive: " +
			"every combination, also W + 1 (default: ${DEFAULT-VALUE}).")
	String mode;

	@Option(names = "--budget", paramLabel = "s", defaultValue = "0",
		description = "Time budget in seconds (default: 0 = 20 s quick, 120 s exhaustive).")
	double budget;

	@Option(names = "--direction", paramLabel = "adjoint|forward|both", defaultValue = "adjoint",
		description = "Transform timed (default: ${DEFAULT-VALUE}, what recon runs).")
	String direction;

	@Option(names = "--force", description = "Time the candidates even when the wisdom has the key (replaces it).")
	boolean force;

	@Option(names = "--wisdom", paramLabel = "FILE",
		description = "Wisdom file (default: $NUFFTJ_WISDOM, else $XDG_CONFIG_HOME/nufft-j/wisdom.json, else " +
			"~/.config/nufft-j/wisdom.json).")
	Path wisdom;

	@Parameters(arity = "1..2", paramLabel = "[<traj>] <kspace>", description = { "Trajectory .cfl (optional) and " +
		"k-space (.cfl or ISMRMRD .h5), as for recon; only the points and the batch are used." })
	List<Path> files;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() {
		final TuneMode m = Options.tune(mode);
		InvalidInputException.require(m != TuneMode.OFF, "--mode: expected quick or exhaustive, found '" + mode + "'");
		final TuneDirection d = TuneDirection.parse(direction);
		final NufftOptions options = nufft.options().withTuning(m, budget);
		InvalidInputException.require(options.tunable(), "tune: --kernel, --oversampling, --width and --spread must " +
			"stay auto (the tuner chooses them)");
		final Path traj = files.size() == 2 ? files.get(0) : null;
		final Scan scan = ScanLoader.load(files.get(files.size() - 1), traj, TrajectoryKind.FILE, nufft.dims());
		final PrintWriter out = spec.commandLine().getOut();
		final PrintWriter err = spec.commandLine().getErr();
		final Wisdom w = new Wisdom(wisdom != null ? wisdom : Wisdom.defaultLocation(), err::println);
		try (Session session = new Session(err::println, w)) {
			int part = 0;
			for (final FrameGroup g : scan.parts()) {
				final int batch = g.kspace().coils() * g.kspace().frames();
				out.printf(Locale.ROOT, "tuning%s: %s, %d points, batch %d, eps %s, %s, %s, mode %s%s%n",
					scan.parts().size() > 1 ? " part " + ++part : "", Options.describeMatrix(scan.matrix()),
					g.trajectory().count(), batch, options.tolerance(), options.precision().name().toLowerCase(),
					d.key(), m.key(), force ? " (forced)" : "");
				out.flush();
				final Tuner.Report r = session.tune(g.trajectory(), scan.matrix(), batch, options, d, !force);
				out.println("device: " + r.key().device());
				out.print(r.table());
				out.println(r.fromWisdom() ? "wisdom: " + w.file() + " has this key; nothing timed (--force re-tunes)" :
					"wisdom: recorded in " + w.file());
				out.flush();
			}
		}
		return Main.OK;
	}
}
