package org.nufftj.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.nufftj.InvalidInputException;

/**
 * The files an output path names, and the refusal to write any of them over an input: a BART base name stands for
 * its {@code .cfl} and {@code .hdr}, a k-space pair also for the trajectory read beside it ({@code <name>_traj}), a
 * TIFF or ISMRMRD file for itself. Checked before anything is computed or written, so {@code recon t k k} fails at
 * once and the raw data stays as it was.
 */
public final class OutputPaths {

	private OutputPaths() {}

	// -- public API --

	/** True for a name ending in .tif or .tiff (any case). */
	public static boolean isTiff(final Path p) {
		final String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
		return n.endsWith(".tif") || n.endsWith(".tiff");
	}

	/** The files writing {@code output} creates: itself for a TIFF, else {@code base.cfl} and {@code base.hdr}. */
	public static List<Path> written(final Path output) {
		final Path p = output.toAbsolutePath().normalize();
		if (isTiff(p)) return List.of(p);
		return List.of(Cfl.withExtension(p, ".cfl"), Cfl.withExtension(p, ".hdr"));
	}

	/**
	 * The files reading {@code input} may open: itself, its {@code .cfl}/{@code .hdr} pair and the trajectory pair
	 * {@code <base>_traj.cfl/.hdr} that k-space is read with when no trajectory is given.
	 */
	public static List<Path> read(final Path input) {
		final Path p = input.toAbsolutePath().normalize();
		final List<Path> out = new ArrayList<>(List.of(p));
		final String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
		if (n.endsWith(".h5") || isTiff(p)) return out;
		final Path base = Cfl.withExtension(p, "");
		final Path traj = base.resolveSibling(base.getFileName() + "_traj");
		for (final Path b : new Path[] { base, traj }) {
			out.add(Cfl.withExtension(b, ".cfl"));
			out.add(Cfl.withExtension(b, ".hdr"));
		}
		return out;
	}

	/**
	 * Fails with one line naming both paths if an output would replace an input (the same path, a companion of it,
	 * or the same file through a link), or two outputs name the same file. {@code inputs} may contain nulls (absent
	 * optional inputs).
	 */
	public static void refuseOverwrite(final List<Path> outputs, final List<Path> inputs) {
		final List<Path> writtenSoFar = new ArrayList<>();
		for (final Path output : outputs) {
			for (final Path w : written(output)) {
				for (final Path input : inputs) {
					if (input == null) continue;
					for (final Path r : read(input))
						if (same(w, r)) throw new InvalidInputException("output " + output + " would overwrite " +
							w.getFileName() + " of the input " + input + "; choose another output name");
				}
				for (final Path o : writtenSoFar)
					if (same(w, o)) throw new InvalidInputException("two outputs name the same file " + w);
			}
			writtenSoFar.addAll(written(output));
		}
	}

	// -- helpers --

	private static boolean same(final Path a, final Path b) {
		if (a.equals(b)) return true;
		if (!Files.exists(a) || !Files.exists(b)) return false;
		try {
			return Files.isSameFile(a, b);
		}
		catch (final IOException e) {
			return false;
		}
	}
}
