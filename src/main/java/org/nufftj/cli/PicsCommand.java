package org.nufftj.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Options;
import org.nufftj.app.Pics;
import org.nufftj.app.Regularization;
import org.nufftj.app.Session;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nufft-j pics}: drop-in for the -l2, -l1, -R W and -R T subset of {@code bart pics -t}. */
@Command(name = "pics", mixinStandardHelpOptions = true,
	description = { "Iterative SENSE reconstruction, a drop-in for 'bart pics' with -l2, -l1, -R W, -R T.",
		"Same argument order, files, dims and scaling as bart for the subset in docs/cli.md:",
		"  x = argmin 1/2 ||A x - y/s||^2 + R(x) from 0, A = 1/sqrt(N) NUFFT(maps . x),",
		"  R: -l2 -r lambda: lambda/2 ||x||^2 (conjugate gradients); -l1 -r lambda = -R W:7:0:lambda: l1 of an",
		"  undecimated Daubechies-2 wavelet (FISTA, step -s / max eigenvalue with -e); -R T:flags:0:lambda:",
		"  isotropic total variation (ADMM, rho -u, -C CG iterations per step);",
		"  s = bart's data scale (p90 or max of |A^H y|); -S multiplies x by s.",
		"kspace [1, readout, shots, coils], maps [X, Y, Z, coils], traj [3, readout, shots] -> output [X, Y, Z];",
		"frames in k-space dims 5-15 (e.g. 10, time) are reconstructed jointly as bart does -> [X, Y, Z, 1, 1, frames]." })
final class PicsCommand implements Callable<Integer> {

	@Option(names = "-l", paramLabel = "1|2", description = "Regularisation: -l2 (Tikhonov, the default) or -l1 " +
		"(l1-wavelet, = -R W:7:0:lambda).")
	int norm = 2;

	@Option(names = "-r", paramLabel = "lambda", description = "Regularisation weight lambda >= 0 (default: 0).")
	double lambda;

	@Option(names = "-R", paramLabel = "<T>:A:B:C", description = "Regularisation as bart: W:flags:0:lambda " +
		"(l1-wavelet), T:flags:0:lambda (total variation; flags bit 10 = time), Q:lambda (l2). Repeat for a sum of terms (solved by ADMM, as bart).")
	String[] regularizations = {};

	@Option(names = "-e", description = "Divide the FISTA step by the largest eigenvalue of A^H A (power iteration).")
	boolean eigen;

	@Option(names = "-s", paramLabel = "step", description = "FISTA step (default: 0.95, as bart).")
	double step = 0.95;

	@Option(names = "-m", description = "ADMM for the l1-wavelet too (total variation always uses ADMM).")
	boolean admm;

	@Option(names = "--bart-admm", description = "ADMM as bart 0.8 runs it: -i bounds the CG iterations of all steps " +
		"together, each CG stops at 1e-3 of its right-hand side (faster; by default -i ADMM steps of -C CG iterations).")
	boolean bartAdmm;

	@Option(names = "-u", paramLabel = "rho", description = "ADMM rho (default: 0.5, as bart).")
	double rho = 0.5;

	@Option(names = "-C", paramLabel = "iter", description = "At most this many CG iterations per ADMM step (default: 10, as bart).")
	int cgIterations = 10;

	@Option(names = "-n", description = "Accepted for bart compatibility: no random wavelet shifts (the wavelet here " +
		"is undecimated, hence shift-invariant, either way).")
	boolean noRandomShift;

	@Option(names = "-W", paramLabel = "<img>", description = "Warm start with <img> (an image of the output's size).")
	Path warmStart;

	@Option(names = "-i", paramLabel = "iter", description = "Iterations of CG, FISTA or ADMM (with --bart-admm: the CG " +
		"iterations of all ADMM steps together, as bart) (default: 30, as bart).")
	int iterations = 30;

	@Option(names = "-t", paramLabel = "<traj>", required = true, description = "Trajectory .cfl (required: " +
		"Cartesian pics is not implemented).")
	Path traj;

	@Option(names = "-p", paramLabel = "<weights>", description = "Sample weights p [1, readout, shots(, coils)], " +
		"real >= 0, as bart: the k-space and the forward model are multiplied by p (data term 1/2 ||P(A x - y)||^2).")
	Path weights;

	@Option(names = "-S", description = "Re-scale the image after reconstruction (multiply by bart's data scale).")
	boolean rescale;

	@Option(names = "--normal", paramLabel = "auto|nufft|toeplitz|exact", defaultValue = "auto",
		description = "Normal operator A^H A: NUFFT forward+adjoint, Toeplitz embedding, or exact (PSF and A^H y by " +
			"direct sums, then Toeplitz; no gridding error); auto = toeplitz on the CPU, nufft on a GPU or with -p " +
			"weights per coil or frame (default: ${DEFAULT-VALUE}).")
	String normal;

	@Option(names = "--device", paramLabel = "auto|cpu|gpu|gpu:N", defaultValue = "cpu",
		description = "Where to run (default: ${DEFAULT-VALUE}).")
	String device;

	@picocli.CommandLine.Mixin
	FftOption fft = new FftOption();

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
		fft.apply();
		InvalidInputException.require(norm == 1 || norm == 2, "-l" + norm + ": expected -l1 (l1-wavelet) or -l2 " +
			"(Tikhonov)");
		final java.util.List<Regularization> terms = new java.util.ArrayList<>();
		for (final String r : regularizations) terms.add(Regularization.parseBart(r));
		final Regularization reg = !terms.isEmpty() ? Regularization.sum(terms) : norm == 1 ? Regularization.wavelet(7,
			checkLambda(lambda)) : Regularization.tikhonov(checkLambda(lambda));
		final Pics.Settings s = new Pics.Settings(reg, iterations, rescale, Pics.Normal.parse(normal), Options.nufft(
			Options.AUTO, 0, 0, tolerance, precision, device, Options.AUTO, threads), step, eigen, rho, cgIterations,
			admm, 0, bartAdmm);
		final PrintWriter err = spec.commandLine().getErr();
		final String capped = Options.threadsNotice("--threads", threads);
		if (capped != null) err.println("nufft-j: " + capped);
		final Pics.Result r;
		// Per iteration: its residual (and objective), and from the second on the solver's wall time since the previous
		// line. The lines are formatted and written by a printer thread, so that the solver's loop only queues numbers:
		// a cold JVM's Formatter spent ~1 ms per line, as much as a GPU iteration (docs/benchmarks.md).
		final ExecutorService printer = verbose ? Executors.newSingleThreadExecutor(task -> {
			final Thread t = new Thread(task, "nufft-j pics progress");
			t.setDaemon(true);
			return t;
		}) : null;
		final long[] previous = { System.nanoTime() };
		try (Session session = new Session(err::println)) {
			r = Pics.run(session, kspace, maps, traj, weights, output, s, warmStart, verbose ? (k, res, objective) -> {
				final long now = System.nanoTime(), dt = now - previous[0];
				previous[0] = now;
				printer.execute(() -> err.printf(Locale.ROOT, "iteration %d: relative residual %.6e%s%s%n", k, res,
					Double.isNaN(objective) ? "" : String.format(Locale.ROOT, ", objective %.6e", objective), k > 1 ?
						String.format(Locale.ROOT, " (+%.2f ms)", dt / 1e6) : ""));
			} : null);
		}
		finally {
			if (printer != null) {
				printer.shutdown();
				try {
					printer.awaitTermination(1, TimeUnit.MINUTES);
				}
				catch (final InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			}
		}
		if (verbose) err.println(r.description());
		return Main.OK;
	}

	private static double checkLambda(final double lambda) {
		InvalidInputException.require(lambda >= 0 && Double.isFinite(lambda), "-r (lambda): expected a finite number " +
			">= 0, found " + lambda);
		return lambda;
	}
}
