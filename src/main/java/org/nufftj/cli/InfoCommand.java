package org.nufftj.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import org.nufftj.app.Session;

import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nufft-j info}: version, Java, cores, memory, GPU. */
@Command(name = "info", mixinStandardHelpOptions = true,
	description = "Print the NUFFT-J version, the Java runtime, CPU cores, memory and the GPUs the GPU engine can use.")
final class InfoCommand implements Callable<Integer> {

	@Spec
	CommandSpec spec;

	@picocli.CommandLine.Mixin
	FftOption fft = new FftOption();

	@Override
	public Integer call() {
		fft.apply();
		final PrintWriter out = spec.commandLine().getOut();
		final Runtime rt = Runtime.getRuntime();
		out.println("nufft-j " + Main.VERSION);
		out.println("Java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", " +
			System.getProperty("java.vendor") + ")");
		out.println("OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
			System.getProperty("os.arch"));
		out.println("CPU cores: " + rt.availableProcessors());
		out.printf("Memory: max heap %.0f MiB%n", rt.maxMemory() / 1048576.0);
		out.println(gpu());
		out.flush();
		return Main.OK;
	}

	/** One or more lines about GPUs ({@link Session#describeDevices()}: never throws; says why a GPU is not usable). */
	static String gpu() {
		final String s = Session.describeDevices();
		return s.startsWith("GPU") ? s : "GPU: " + s;
	}
}
