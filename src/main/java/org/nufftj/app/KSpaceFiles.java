package org.nufftj.app;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.nufftj.InvalidInputException;
import org.nufftj.io.Cfl;
import org.nufftj.io.TrajectoryFiles;
import org.nufftj.trajectory.Trajectory;

/**
 * Writes simulated or forward-transformed k-space as a BART pair {@code base.cfl/.hdr} (dims [1, readout, shots,
 * coils, 1 …, frames in dim 10]) plus its trajectory {@code base_traj.cfl/.hdr} (cycles/FOV). Each file is written to
 * a temporary file and moved into place; the trajectory goes first, so a k-space file never exists without it.
 */
public final class KSpaceFiles {

	private KSpaceFiles() {}

	// -- public API --

	/** The base path ({@code .cfl} removed) for an output key; empty means a file in the temporary folder. */
	public static Path base(final File output, final String fallbackName) {
		if (output == null || output.getPath().isEmpty()) {
			return Path.of(System.getProperty("java.io.tmpdir"), fallbackName);
		}
		final Path p = output.toPath().toAbsolutePath();
		final Path dir = p.getParent();
		if (dir != null && !Files.isDirectory(dir)) throw new InvalidInputException("output: folder " + dir +
			" does not exist");
		return Cfl.withExtension(p, "");
	}

	/** Writes both files and returns the k-space .cfl path. */
	public static Path write(final Path base, final Trajectory t, final int[] matrix, final float[] data, final int coils,
		final int frames) throws IOException
	{
		final Path traj = base.resolveSibling(base.getFileName() + "_traj");
		TrajectoryFiles.writeCfl(traj, t, matrix);
		final long[] dims = new long[Cfl.DIMS];
		java.util.Arrays.fill(dims, 1);
		dims[1] = t.readout();
		dims[2] = t.shots();
		dims[3] = coils;
		dims[10] = frames;
		Cfl.write(base, dims, data);
		return Cfl.withExtension(base, ".cfl");
	}

	/**
	 * {@code t} as {@link #write} stores it: coordinates rounded to float in cycles/FOV and read back, so that k-space
	 * computed along it is exactly the transform of the trajectory file written beside it.
	 */
	public static Trajectory asWritten(final Trajectory t, final int[] matrix) {
		final int d = t.dimensions();
		final double[] k = t.coords(), c = new double[k.length];
		for (int i = 0; i < k.length; i++) c[i] = (float) (k[i] * matrix[i % d]);
		return Trajectory.fromCyclesPerFov(d, c, java.util.Arrays.copyOf(matrix, d), t.readout(), t.shots(), t.name());
	}
}
