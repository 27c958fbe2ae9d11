package org.nufftj.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.nufftj.data.FrameGroup;
import org.nufftj.InvalidInputException;
import org.nufftj.data.KSpace;
import org.nufftj.io.Cfl;
import org.nufftj.io.IsmrmrdData;
import org.nufftj.io.IsmrmrdReader;
import org.nufftj.io.TrajectoryFiles;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryDesign;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * Reads a {@link Scan} from an ISMRMRD {@code .h5} file or a BART {@code .cfl/.hdr} pair: the one loader of the
 * command line and the Fiji commands.
 * <p>
 * BART k-space has dims {@code [1, readout, shots, coils, …]} (dims 4…15 are frames) and no coordinates: they come
 * from {@code traj} (a BART trajectory {@code [3, readout, shots]} in cycles/FOV, or CSV, see
 * {@link TrajectoryFiles}), else a sibling {@code <name>_traj.cfl}, else a trajectory design for the data's readout ×
 * shots. Without a matrix, a BART trajectory gives it by {@link KSpaceRules#estimateMatrix}, an ISMRMRD file by its
 * header's recon space. Every problem is an {@link InvalidInputException} naming the file and what was expected.
 * </p>
 */
public final class ScanLoader {

	private ScanLoader() {}

	// -- public API --

	/**
	 * @param kspace the data file (.h5, or .cfl/.hdr, with or without the extension)
	 * @param traj   trajectory file, or null
	 * @param design {@link TrajectoryKind#FILE} (coordinates from a file) or a design for data without coordinates
	 * @param matrix image matrix (2 or 3 sizes), or null for the file's own (ISMRMRD recon space; BART: the rule)
	 */
	public static Scan load(final Path kspace, final Path traj, final TrajectoryKind design, final int[] matrix) {
		if (kspace == null || kspace.toString().isEmpty()) throw new InvalidInputException(
			"kspace: no file given, expected an ISMRMRD .h5 or a BART .cfl");
		final String lower = kspace.getFileName().toString().toLowerCase(Locale.ROOT);
		try {
			if (lower.endsWith(".h5") || lower.endsWith(".hdf5") || lower.endsWith(".mrd") ||
				(Files.isRegularFile(kspace) && IsmrmrdReader.looksLikeHdf5(kspace))) {
				// Stored coordinates win: a design key would once be ignored here without a word.
				if (design != null && design != TrajectoryKind.FILE) throw new InvalidInputException("trajectory=" +
					design.label() + " contradicts the coordinates stored in " + kspace.getFileName() + "; ISMRMRD data " +
					"is reconstructed on its own trajectory: leave trajectory at 'from file'");
				return ismrmrd(kspace, matrix);
			}
			if (lower.endsWith(".cfl") || lower.endsWith(".hdr") || Files.exists(Cfl.withExtension(kspace, ".hdr")))
				return bart(kspace, traj, design == null ? TrajectoryKind.FILE : design, matrix);
			if (!Files.exists(kspace)) throw new InvalidInputException(kspace + ": file not found");
			throw new InvalidInputException(kspace + ": unknown k-space format, expected an ISMRMRD .h5 or a BART " +
				".cfl/.hdr");
		}
		catch (final java.nio.file.NoSuchFileException e) {
			throw new InvalidInputException(e.getFile() + ": file not found", e);
		}
		catch (final IOException e) {
			throw new InvalidInputException(kspace + ": cannot read (" + e.getMessage() + ")", e);
		}
	}

	/**
	 * A BART trajectory {@code [3, readout, shots]} (cycles/FOV, real parts; BART ignores the imaginary parts too) for
	 * an image of {@code matrix} (null: {@link KSpaceRules#estimateMatrix}); 2D when the matrix has 2 sizes.
	 */
	public static Trajectory bartTrajectory(final Path path, final int[] matrix) throws IOException {
		return readBartTrajectory(path, matrix).trajectory;
	}

	/**
	 * A trajectory file for an image of {@code matrix}: CSV ({@code .csv}/{@code .txt}, {@link TrajectoryFiles#readCsv})
	 * or a BART trajectory ({@link #bartTrajectory}, with the one kz rule and range check).
	 */
	public static Trajectory trajectory(final Path path, final int[] matrix) throws IOException {
		final String lower = path.getFileName().toString().toLowerCase(Locale.ROOT);
		return lower.endsWith(".csv") || lower.endsWith(".txt") ? TrajectoryFiles.readCsv(path, matrix) :
			bartTrajectory(path, matrix);
	}

	/**
	 * An image {@code .cfl} {@code [X, Y, Z, coils, …]} (X, Y ≥ 2), checked finite; its matrix is
	 * {@link #matrixOf}.
	 */
	public static Cfl.Array readImage(final Path path) throws IOException {
		final Cfl.Array img = Cfl.read(path);
		InvalidInputException.require(img.dim(0) >= 2 && img.dim(1) >= 2, path + ": image dims " +
			Arrays.toString(trim(img.dims())) + ": expected X, Y >= 2");
		final float[] data = img.data();
		for (int i = 0; i < data.length; i++)
			if (!Float.isFinite(data[i])) throw new InvalidInputException(path + ": value " + i / 2 + " (" +
				(i % 2 == 0 ? "real" : "imaginary") + " part) is " + data[i] + ", expected a finite number");
		return img;
	}

	/** The matrix of an image array: X, Y (2D when Z = 1) or X, Y, Z. */
	public static int[] matrixOf(final Cfl.Array img) {
		return img.dim(2) == 1 ? new int[] { img.dim(0), img.dim(1) } : new int[] { img.dim(0), img.dim(1), img.dim(2) };
	}

	/** Title of an output image for an input file name: the name without its extension. */
	public static String baseTitle(final String fileName) {
		final int dot = fileName.lastIndexOf('.');
		return dot > 0 ? fileName.substring(0, dot) : fileName;
	}

	// -- helpers --

	/** A trajectory and the matrix it was read for. */
	private record Sized(Trajectory trajectory, int[] matrix) {}

	private static Sized readBartTrajectory(final Path path, final int[] matrix) throws IOException {
		final Cfl.Array a = Cfl.read(path);
		final long[] dims = a.dims();
		if (dims[0] != 3) throw new InvalidInputException(path + ": trajectory dims " + Arrays.toString(trim(dims)) +
			": expected [3, readout, spokes] (first dimension 3), found " + dims[0]);
		for (int i = 3; i < Cfl.DIMS; i++)
			if (dims[i] != 1) throw new InvalidInputException(path + ": trajectory dimension " + i + " has size " +
				dims[i] + "; only [3, readout, spokes] trajectories shared by all coils/frames are supported");
		final float[] f = a.data();
		final int readout = (int) dims[1], shots = (int) dims[2], m = readout * shots;
		final double[] maxAbs = new double[3];
		for (int i = 0; i < 3 * m; i++) {
			final double v = f[2 * i];
			if (!Double.isFinite(v)) throw new InvalidInputException(path + ": trajectory point " + i / 3 + " axis " +
				i % 3 + " is " + v + ", expected a finite number");
			maxAbs[i % 3] = Math.max(maxAbs[i % 3], Math.abs(v));
		}
		final int[] size = matrix != null ? matrix : KSpaceRules.estimateMatrix(maxAbs, path.toString());
		if (matrix == null) KSpaceRules.requireNoOutlier(f, m, maxAbs, size, path.toString());
		final int d = size.length;
		final double[] c = new double[d * m];
		for (int p = 0; p < m; p++) {
			for (int ax = 0; ax < 3; ax++) {
				final double v = f[2 * (3 * p + ax)];
				if (ax < d) {
					KSpaceRules.checkRange(v, size[ax], p, ax, path);
					c[d * p + ax] = v;
				}
				else if (!KSpaceRules.kzIsZero(Math.abs(v))) throw new InvalidInputException(path + ": trajectory point " +
					p + " has kz = " + v + " cycles/FOV but the image is 2D (" + Options.describeMatrix(size) + "); give " +
					"a 3D matrix (X:Y:Z with Z > 1)");
			}
		}
		return new Sized(Trajectory.fromCyclesPerFov(d, c, size, readout, shots, path.getFileName().toString()), size);
	}

	private static Scan ismrmrd(final Path p, final int[] matrix) {
		final IsmrmrdData d = IsmrmrdReader.read(p);
		final int[] m = matrix != null ? matrix : d.matrix();
		final int dims = d.blocks().get(0).trajectory().dimensions();
		if (m.length != dims) throw new InvalidInputException("matrix: " + Options.describeMatrix(m) + " has " +
			m.length + " axes, the data in " + p.getFileName() + " is " + dims + "D");
		if (matrix != null && !Arrays.equals(matrix, d.matrix())) throw new InvalidInputException("matrix: " +
			Options.describeMatrix(m) + " differs from the recon matrix " + Options.describeMatrix(d.matrix()) + " of " +
			p.getFileName() + "; for ISMRMRD input use matrix=auto (the file's recon space)");
		// One orientation (docs/conventions.md): ISMRMRD's x (readout) is the image's horizontal axis, which in NUFFT-J's
		// arrays (BART's order) is axis 1; its y is axis 0. So the file's k components, matrix and pixel sizes of x and y
		// are exchanged here, and the image shows as the ISMRMRD reference recon shows it (x across, y down).
		final List<FrameGroup> parts = new ArrayList<>();
		for (final FrameGroup b : d.blocks())
			parts.add(new FrameGroup(b.trajectory().withFirstAxesSwapped(), b.kspace(), b.firstFrame()));
		final List<String> labels = new ArrayList<>();
		for (final IsmrmrdData.FrameLabel l : d.frames()) labels.add(l.toString());
		final int frames = d.frames().size();
		return new Scan(baseTitle(p.getFileName().toString()), parts, frames, d.slices(), d.coils(), swapFirst(m),
			d.pixelMm() == null ? null : swapFirst(d.pixelMm()),
			d.header().trajectory().equals("cartesian"), new long[] { frames }, labels, "ISMRMRD " + d.header() + "; " +
				d.notes());
	}

	private static int[] swapFirst(final int[] a) {
		final int[] b = a.clone();
		b[0] = a[1];
		b[1] = a[0];
		return b;
	}

	private static double[] swapFirst(final double[] a) {
		final double[] b = a.clone();
		b[0] = a[1];
		b[1] = a[0];
		return b;
	}

	private static Scan bart(final Path p, final Path trajFile, final TrajectoryKind kind, final int[] matrix)
		throws IOException
	{
		final Path cfl = Cfl.withExtension(p, ".cfl"), hdr = Cfl.withExtension(p, ".hdr");
		if (!Files.exists(hdr)) throw new InvalidInputException(hdr + ": file not found (a BART .cfl needs its .hdr " +
			"beside it)");
		Path tp = trajFile == null || trajFile.toString().isEmpty() ? null : trajFile;
		final Path sibling = Cfl.withExtension(p.resolveSibling(baseTitle(p.getFileName().toString()) + "_traj"),
			".cfl");
		// Stored trajectories win: a design that contradicts one once replaced it silently (a garbage image).
		if (kind != TrajectoryKind.FILE && (tp != null || Files.exists(sibling))) throw new InvalidInputException(
			"trajectory=" + kind.label() + " contradicts the stored trajectory " + (tp != null ? tp : sibling) + " of " +
			cfl.getFileName() + "; use trajectory=[from file] (the stored coordinates), or a design only for k-space " +
			"stored without coordinates");
		if (tp == null && kind == TrajectoryKind.FILE) {
			if (Files.exists(sibling)) tp = sibling;
			else throw new InvalidInputException(cfl + ": BART k-space has no coordinates; give the trajectory file " +
				"(traj) or a trajectory design (trajectory=radial, ...)");
		}
		// The trajectory first (as bart nufft reads its arguments): its errors are reported before the data's.
		final String lower = tp == null ? "" : tp.getFileName().toString().toLowerCase(Locale.ROOT);
		final boolean csv = lower.endsWith(".csv") || lower.endsWith(".txt");
		final Sized sized = tp != null && !csv ? readBartTrajectory(tp, matrix) : null;
		final Cfl.Array a = Cfl.read(p);
		final long[] dims = a.dims();
		if (dims[0] != 1) throw new InvalidInputException(cfl + ": BART k-space dims " + Arrays.toString(trim(dims)) +
			" should start with 1 (dims [1, readout, shots, coils, ...])");
		final int readout = (int) dims[1], shots = (int) dims[2], coils = (int) dims[3];
		long frames = 1;
		for (int i = 4; i < Cfl.DIMS; i++) frames *= dims[i];
		final Trajectory t;
		int[] m = matrix;
		final String note;
		if (tp != null) {
			if (csv) {
				if (matrix == null) throw new InvalidInputException("matrix: 'auto' needs a BART trajectory in " +
					"cycles/FOV; with a CSV trajectory give the matrix");
				t = TrajectoryFiles.readCsv(tp, matrix);
			}
			else {
				t = sized.trajectory;
				m = sized.matrix;
				if (t.readout() != readout || t.shots() != shots) throw new InvalidInputException(cfl + ": k-space dims " +
					Arrays.toString(trim(dims)) + " do not match the trajectory " + tp.getFileName() + ": expected [1, " +
					t.readout() + ", " + t.shots() + ", coils, ...]");
			}
			note = "trajectory " + tp.getFileName();
		}
		else {
			if (m == null) m = defaultMatrix(kind, readout, p);
			final TrajectoryDesign design = kind.designFor(m, readout, shots);
			t = design.build();
			note = "trajectory " + design.describe();
		}
		if ((long) t.count() != (long) readout * shots) throw new InvalidInputException("traj: " + t.count() +
			" points, the k-space " + cfl.getFileName() + " has readout " + readout + " x shots " + shots + " = " +
			(long) readout * shots);
		if (m.length != t.dimensions()) throw new InvalidInputException("matrix: " + Options.describeMatrix(m) +
			" has " + m.length + " axes, the trajectory is " + t.dimensions() + "D");
		// BART's column-major [1, readout, shots, coils, frames…] is KSpace's layout: no copy.
		final KSpace ks = new KSpace(a.data(), readout * shots, coils, (int) frames).requireFinite(cfl.toString());
		return new Scan(baseTitle(p.getFileName().toString()), List.of(new FrameGroup(t, ks, 0)), (int) frames, 1, coils,
			m, null, kind == TrajectoryKind.CARTESIAN, Arrays.copyOfRange(dims, 4, Cfl.DIMS), List.of(), "BART " +
				Arrays.toString(trim(dims)) + "; " + note);
	}

	private static int[] defaultMatrix(final TrajectoryKind kind, final int readout, final Path p) {
		switch (kind) {
			case RADIAL: case GOLDEN_ANGLE: case TINY_GOLDEN:
				return new int[] { readout / 2, readout / 2 };
			default:
				throw new InvalidInputException("matrix: 'auto' cannot be derived for a " + kind.label() +
					" design of " + p.getFileName() + "; give the matrix");
		}
	}

	static long[] trim(final long[] dims) {
		int n = dims.length;
		while (n > 1 && dims[n - 1] == 1) n--;
		return Arrays.copyOf(dims, n);
	}
}
