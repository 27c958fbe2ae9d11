package org.nufftj.cli;

import java.nio.file.Path;

/**
 * The launcher's training run for a Java 25+ ahead-of-time cache ({@code -XX:AOTCacheOutput}, JEP 483/514/515): an
 * {@code adjoint} and a {@code forward} of the bundled BART sample in one JVM, so that the one cache a training run
 * makes holds the classes, linkage and profiles that both commands use. Not a user command; {@code nufft-j} runs it
 * once per JVM (docs/benchmarks.md, whole process).
 */
public final class Training {

	private Training() {}

	/** {@code SAMPLE FOLDER}: the sample's base name (SAMPLE.cfl, SAMPLE_traj.cfl) and a writable folder. */
	public static void main(final String[] args) {
		if (args.length != 2) {
			System.err.println("usage: Training SAMPLE FOLDER");
			System.exit(Main.BAD_INPUT);
		}
		System.exit(run(args[0], Path.of(args[1])));
	}

	/** The two commands: {@code folder}/image.cfl from the sample, then {@code folder}/kspace.cfl from it; exit code. */
	static int run(final String sample, final Path folder) {
		final String traj = sample + "_traj", image = folder.resolve("image").toString();
		final int rc = Main.execute("adjoint", traj, sample, image);
		return rc != Main.OK ? rc : Main.execute("forward", traj, image, folder.resolve("kspace").toString());
	}
}
