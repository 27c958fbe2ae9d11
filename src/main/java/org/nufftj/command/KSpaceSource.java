package org.nufftj.command;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.nufftj.InvalidInputException;
import org.nufftj.data.KSpace;
import org.nufftj.io.Cfl;
import org.nufftj.io.IsmrmrdData;
import org.nufftj.io.IsmrmrdReader;
import org.nufftj.io.TrajectoryFiles;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * Reads the k-space a command works on, from an ISMRMRD {@code .h5} file or a BART {@code .cfl/.hdr} pair, into
 * {@link Scan}: blocks of (trajectory, k-space) plus what the output image needs (matrix, pixel size, title, slices).
 * <p>
 * BART k-space has dims {@code [1, readout, shots, coils, …]} (all dims from 4 on are frames) and no coordinates:
 * they come from {@code traj} (a BART trajectory in cycles/FOV, or CSV, see {@link TrajectoryFiles}), else a sibling
 * {@code <name>_traj.cfl}, else the {@code trajectory} design for the data's readout × shots.
 * </p>
 */
public final class KSpaceSource {

	private KSpaceSource() {}

	/** k-space ready for reconstruction. */
	public static final class Scan {

		public final String title;
		public final List<IsmrmrdData.Block> blocks;
		public final int frames;
		public final int slices;
		public final int coils;
		public final int[] matrix;
		public final double[] pixelMm;
		public final boolean cartesian;
		public final String notes;

		Scan(final String title, final List<IsmrmrdData.Block> blocks, final int frames, final int slices,
			final int coils, final int[] matrix, final double[] pixelMm, final boolean cartesian, final String notes)
		{
			this.title = title;
			this.blocks = blocks;
			this.frames = frames;
			this.slices = slices;
			this.coils = coils;
			this.matrix = matrix;
			this.pixelMm = pixelMm;
			this.cartesian = cartesian;
			this.notes = notes;
		}
	}

	// -- public API --

	/**
	 * @param kspace     the data file (.h5, or .cfl/.hdr)
	 * @param traj       trajectory file or null
	 * @param trajectory "from file" or a design kind (menu word)
	 * @param matrix     image matrix, or null for the file's own (ISMRMRD recon space; BART: from the trajectory)
	 */
	public static Scan load(final File kspace, final File traj, final String trajectory, final int[] matrix) {
		if (kspace == null || kspace.getPath().isEmpty()) throw new InvalidInputException(
			"kspace: no file given, expected an ISMRMRD .h5 or a BART .cfl");
		final TrajectoryKind kind = Options.trajectory(trajectory);
		final Path p = kspace.toPath();
		final String name = p.getFileName().toString();
		final String lower = name.toLowerCase(Locale.ROOT);
		try {
			if (lower.endsWith(".cfl") || lower.endsWith(".hdr")) return bart(p, traj, kind, matrix);
			if (lower.endsWith(".h5") || lower.endsWith(".hdf5") || lower.endsWith(".mrd") ||
				(Files.exists(p) && IsmrmrdReader.looksLikeHdf5(p))) return ismrmrd(p, matrix);
			if (!Files.exists(p)) throw new InvalidInputException(p + ": file not found");
			throw new InvalidInputException(p + ": unknown k-space format, expected an ISMRMRD .h5 or a BART .cfl/.hdr");
		}
		catch (final IOException e) {
			throw new InvalidInputException(p + ": cannot read (" + e.getMessage() + ")", e);
		}
	}

	/** Title of an output image for an input file name: the name without its extension. */
	public static String baseTitle(final String fileName) {
		final int dot = fileName.lastIndexOf('.');
		return dot > 0 ? fileName.substring(0, dot) : fileName;
	}

	// -- helpers --

	private static Scan ismrmrd(final Path p, final int[] matrix) {
		final IsmrmrdData d = IsmrmrdReader.read(p);
		final int[] m = matrix != null ? matrix : d.matrix();
		final int dims = d.blocks().get(0).trajectory().dimensions();
		if (m.length != dims) throw new InvalidInputException("matrix: " + Options.describeMatrix(m) + " has " +
			m.length + " axes, the data in " + p.getFileName() + " is " + dims + "D");
		if (matrix != null && !Arrays.equals(matrix, d.matrix())) throw new InvalidInputException("matrix: " +
			Options.describeMatrix(m) + " differs from the recon matrix " + Options.describeMatrix(d.matrix()) + " of " +
			p.getFileName() + "; for ISMRMRD input use matrix=auto (the file's recon space)");
		final double[] pixel = d.pixelMm();
		final String cart = d.header().trajectory();
		return new Scan(baseTitle(p.getFileName().toString()), d.blocks(), d.frames().size(), d.slices(), d.coils(),
			m, pixel, cart.equals("cartesian"), "ISMRMRD " + d.header() + "; " + d.notes());
	}

	private static Scan bart(final Path p, final File trajFile, final TrajectoryKind kind, final int[] matrix)
		throws IOException
	{
		final Cfl.Array a = Cfl.read(p);
		final long[] dims = a.dims();
		if (dims[0] != 1) throw new InvalidInputException(Cfl.withExtension(p, ".cfl") + ": BART k-space dims " +
			Arrays.toString(Arrays.copyOf(dims, 5)) + " should start with 1 (dims [1, readout, shots, coils, ...])");
		final int readout = (int) dims[1], shots = (int) dims[2], coils = (int) dims[3];
		long frames = 1;
		for (int i = 4; i < Cfl.DIMS; i++) frames *= dims[i];
		final Trajectory t;
		final int[] m;
		String note;
		Path tp = trajFile == null || trajFile.getPath().isEmpty() ? null : trajFile.toPath();
		if (tp == null && kind == TrajectoryKind.FILE) {
			final Path sibling = Cfl.withExtension(p.resolveSibling(baseTitle(p.getFileName().toString()) + "_traj"),
				".cfl");
			if (Files.exists(sibling)) tp = sibling;
			else throw new InvalidInputException(Cfl.withExtension(p, ".cfl") + ": BART k-space has no coordinates; " +
				"give traj=[trajectory file] or a trajectory design (trajectory=radial, ...)");
		}
		if (tp != null) {
			m = matrix != null ? matrix : matrixFromTrajectory(tp);
			t = TrajectoryFiles.read(tp, m);
			note = "trajectory " + tp.getFileName();
		}
		else {
			m = matrix != null ? matrix : defaultMatrix(kind, readout, p);
			t = kind.designFor(m, readout, shots).build();
			note = "trajectory " + kind.designFor(m, readout, shots).describe();
		}
		if ((long) t.count() != (long) readout * shots) throw new InvalidInputException("traj: " + t.count() +
			" points, the k-space " + Cfl.withExtension(p, ".cfl").getFileName() + " has readout " + readout +
			" x shots " + shots + " = " + (long) readout * shots);
		if (m.length != t.dimensions()) throw new InvalidInputException("matrix: " + Options.describeMatrix(m) +
			" has " + m.length + " axes, the trajectory is " + t.dimensions() + "D");
		// BART's column-major [1, readout, shots, coils, frames…] is KSpace's layout: no copy.
		final KSpace ks = new KSpace(a.data(), readout * shots, coils, (int) frames);
		final List<IsmrmrdData.Block> blocks = List.of(new IsmrmrdData.Block(t, ks, 0));
		return new Scan(baseTitle(p.getFileName().toString()), blocks, (int) frames, 1, coils, m, null,
			kind == TrajectoryKind.CARTESIAN, "BART " + Arrays.toString(Arrays.copyOf(dims, 5)) + "; " + note);
	}

	/** 2·ceil(max |k|) per axis from a BART trajectory in cycles/FOV (even sizes, at least 2). */
	private static int[] matrixFromTrajectory(final Path tp) throws IOException {
		final String lower = tp.getFileName().toString().toLowerCase(Locale.ROOT);
		if (lower.endsWith(".csv") || lower.endsWith(".txt")) throw new InvalidInputException("matrix: 'auto' needs a " +
			"BART trajectory in cycles/FOV; with a CSV trajectory give matrix=N");
		final Cfl.Array t = Cfl.read(tp);
		final double[] max = new double[3];
		final float[] d = t.data();
		for (int i = 0; i < d.length / 2; i++) max[i % 3] = Math.max(max[i % 3], Math.abs(d[2 * i]));
		final int dims = max[2] > 1e-3 ? 3 : 2;
		final int[] m = new int[dims];
		for (int a = 0; a < dims; a++) m[a] = Math.max(2, 2 * (int) Math.ceil(max[a] - 1e-3));
		if (dims == 2) {
			final int n = Math.max(m[0], m[1]);
			return new int[] { n, n };
		}
		return m;
	}

	private static int[] defaultMatrix(final TrajectoryKind kind, final int readout, final Path p) {
		switch (kind) {
			case RADIAL: case GOLDEN_ANGLE: case TINY_GOLDEN:
				return new int[] { readout / 2, readout / 2 };
			default:
				throw new InvalidInputException("matrix: 'auto' cannot be derived for a " + kind.label() +
					" design of " + p.getFileName() + "; give matrix=N");
		}
	}
}
