package org.nufftj.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Options;
import org.nufftj.app.Pics;
import org.nufftj.app.Session;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nufft-j pics}: drop-in for the l2 (Tikhonov CG-SENSE) subset of {@code bart pics -t}. */
@Command(name = "pics", mixinStandardHelpOptions = true,
	description = { "Iterative SENSE reconstruction with Tikhonov regularisation, a drop-in for 'bart pics -l2'.",
		"Same argument order, files, dims and scaling as bart for the subset in docs/cli.md:",
		"  x = argmin ||A x - y/s||^2 + lambda ||x||^2 by conjugate gradients from 0, A = 1/sqrt(N) NUFFT(maps . x),",
		"  s = bart's data scale (p90 or max of |A^H y|); -S multiplies x by s.",
		"kspace [1, readout, shots, coils], maps [X, Y, Z, coils], traj [3, readout, shots] -> output [X, Y, Z]." })
final class PicsCommand implements Callable<Integer> {

	@Option(names = "-l", paramLabel = "2", description = "Regularisation: -l2 (Tikhonov, the default). -l1 is not " +
		"implemented.")
	int norm = 2;

	@Option(names = "-r", paramLabel = "lambda", description = "Regularisation weight lambda >= 0 (default: 0).")
	double lambda;

	@Option(names = "-i", paramLabel = "iter", description = "Conjugate-gradient iterations (default: 30, as bart).")
	int iterations = 30;

	@Option(names = "-t", paramLabel = "<traj>", required = true, description = "Trajectory .cfl (required: " +
		"Cartesian pics is not implemented).")
	Path traj;

	@Option(names = "-S", description = "Re-scale the image after reconstruction (multiply by bart's data scale).")
	boolean rescale;

	@Option(names = "--normal", paramLabel = "nufft|toeplitz", defaultValue = "nufft",
		description = "Normal operator A^H A (default: ${DEFAULT-VALUE}).")
	String normal;

	@Option(names = "--device", paramLabel = "auto|cpu|gpu|gpu:N", defaultValue = "cpu",
		description = "Where to run (default: ${DEFAULT-VALUE}).")
	String device;

	@Option(names = "--precision", paramLabel = "float|double", defaultValue = "float",
		description = "Arithmetic precision (default: ${DEFAULT-VALUE}).")
	String precision;

	@Option(names = "--tolerance", paramLabel = "eps", defaultValue = "1e-4",
		description = "NUFFT accuracy (default: ${DEFAULT-VALUE}).")
	double tolerance;

	@Option(names = "--threads", paramLabel = "n", defaultValue = "0",
		description = "CPU worker threads (default: 0 = all cores).")
	int threads;

	@Option(names = "--verbose", description = "Print each iteration's relative residual and the times to stderr.")
	boolean verbose;

	@Option(names = "--debug", description = "Print stack traces on errors.")
	boolean debug;

	@Parameters(index = "0", paramLabel = "<kspace>", description = "k-space .cfl.")
	Path kspace;

	@Parameters(index = "1", paramLabel = "<maps>", description = "Coil maps .cfl (one set).")
	Path maps;

	@Parameters(index = "2", paramLabel = "<output>", description = "Output image .cfl.")
	Path output;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		InvalidInputException.require(norm == 2, "-l" + norm + ": only -l2 (Tikhonov) is implemented");
		final Pics.Settings s = new Pics.Settings(lambda, iterations, rescale, Pics.Normal.parse(normal), Options
			.nufft(Options.AUTO, 0, 0, tolerance, precision, device, Options.AUTO, threads));
		final PrintWriter err = spec.commandLine().getErr();
		final String capped = Options.threadsNotice("--threads", threads);
		if (capped != null) err.println("nufft-j: " + capped);
		final Pics.Result r;
		try (Session session = new Session(err::println)) {
			r = Pics.run(session, kspace, maps, traj, output, s, verbose ? (k, rel) -> err.printf(Locale.ROOT,
				"iteration %d: relative residual %.6e%n", k, rel) : null);
		}
		if (verbose) err.println(r.description());
		return Main.OK;
	}
}
