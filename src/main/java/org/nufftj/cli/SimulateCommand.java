package org.nufftj.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/** {@code nufft-j simulate}: phantom + trajectory + coils + noise → BART trajectory and k-space files. */
@Command(name = "simulate", mixinStandardHelpOptions = true,
	description = "Simulate k-space of an analytic phantom on a trajectory (written as BART .cfl files).")
final class SimulateCommand implements Callable<Integer> {

	@Override
	public Integer call() {
		throw new Main.CliFailure("simulate: not available yet (needs the trajectory designs and phantoms)");
	}
}
