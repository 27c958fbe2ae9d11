package org.nufftj.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.nufftj.app.Ecalib;
import org.nufftj.recon.sense.EspiritMaps;
import org.nufftj.recon.sense.EspiritOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nufft-j ecalib}: drop-in for {@code bart ecalib} (ESPIRiT maps from a Cartesian k-space). */
@Command(name = "ecalib", mixinStandardHelpOptions = true,
	description = { "ESPIRiT coil sensitivities, a drop-in for 'bart ecalib' (same argument order, files, dims).",
		"kspace [X, Y, Z, coils] (Cartesian; its centre is the calibration region) -> sens [X, Y, Z, coils, maps]",
		"and optionally ev-maps [X, Y, Z, 1, maps]. Non-Cartesian data: grid them first (e.g. 'nufft-j adjoint' per",
		"coil and a centred FFT); bart ecalib takes Cartesian k-space too." })
final class EcalibCommand implements Callable<Integer> {

	@Option(names = "-r", paramLabel = "n[:n:n]", description = "Calibration region size (default: 24).")
	String calibration = "24";

	@Option(names = "-k", paramLabel = "n[:n:n]", description = "Kernel size (default: 6).")
	String kernel = "6";

	@Option(names = "-m", paramLabel = "maps", description = "Number of sets of maps (default: 2, as bart).")
	int maps = EspiritOptions.DEFAULT_MAPS;

	@Option(names = "-t", paramLabel = "threshold", description = "Kernels kept where sigma_i^2/sigma_0^2 > t " +
		"(default: 0.001).")
	double threshold = EspiritOptions.DEFAULT_THRESHOLD;

	@Option(names = "-c", paramLabel = "crop", description = "Crop maps where the eigenvalue is below c (default: 0.8).")
	double crop = EspiritOptions.DEFAULT_CROP;

	@Option(names = "-P", description = "Phase reference: the first coil (default: the principal component).")
	boolean firstCoil;

	@Option(names = "--verbose", description = "Print the kernels kept and the sizes to stderr.")
	boolean verbose;

	@Option(names = "--debug", description = "Print stack traces on errors.")
	boolean debug;

	@Parameters(index = "0", paramLabel = "<kspace>", description = "Cartesian k-space .cfl.")
	Path kspace;

	@Parameters(index = "1", paramLabel = "<sens>", description = "Output coil maps .cfl.")
	Path sens;

	@Parameters(index = "2", paramLabel = "<ev-maps>", arity = "0..1", description = "Output eigenvalue maps .cfl.")
	Path eigenvalues;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		EspiritOptions o = EspiritOptions.defaults().withCalibration(Ecalib.sizes("-r", calibration)).withKernel(Ecalib
			.sizes("-k", kernel)).withMaps(maps).withThreshold(threshold).withCrop(crop);
		if (firstCoil) o = o.withPhase(EspiritOptions.PhaseReference.FIRST_COIL);
		final long t0 = System.nanoTime();
		final EspiritMaps m = Ecalib.run(kspace, sens, eigenvalues, o);
		if (verbose) {
			final PrintWriter err = spec.commandLine().getErr();
			err.printf("%s; %s; %.0f ms%n", o, m, (System.nanoTime() - t0) / 1e6);
		}
		return Main.OK;
	}
}
