package org.nufftj.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.nufftj.InvalidInputException;
import org.nufftj.trajectory.Trajectory;

/**
 * Reads and writes trajectories as BART {@code .cfl/.hdr} pairs and as CSV text.
 * <h2>BART .cfl</h2>
 * Dims {@code [3, readout, shots, …]} (all dimensions after the second are flattened into shots), real parts in
 * cycles per field of view (k·N per axis, so k ∈ [−N/2, N/2]); imaginary parts are ignored. Rows are kx, ky, kz; for
 * a 2D image (image size of length 2, or a third size of 1) the kz row must be zero and a 2D trajectory results.
 * The image size is needed to convert to the internal normalised units ({@link Trajectory#fromCyclesPerFov}).
 * <h2>CSV</h2>
 * One point per line, columns {@code kx,ky} or {@code kx,ky,kz} separated by commas (or blanks/semicolons), points
 * in acquisition order. Lines starting with {@code #} are comments; two are understood:
 * <ul>
 * <li>{@code # units: cycles/pixel} (the default when absent: normalised k ∈ [−½, ½]) or {@code # units: cycles/fov}
 * (BART units, k·N; then an image size must be given to read the file);</li>
 * <li>{@code # shape: R x S}: readout samples × shots (default: all points in one readout).</li>
 * </ul>
 * An optional header line names the columns ({@code kx,ky[,kz]}). Every error names the file, the line (CSV) or point
 * index (cfl), and what was expected versus found. Writes go to a temporary file moved into place when complete.
 */
public final class TrajectoryFiles {

	/** Allowed |kz| (cycles/FOV) for a 2D trajectory stored in a cfl's third row: far below one k-space cell. */
	private static final double KZ_ZERO = 1e-4;

	private static final Pattern UNITS = Pattern.compile("#\\s*units\\s*[:=]\\s*(\\S+)\\s*", Pattern.CASE_INSENSITIVE);
	private static final Pattern SHAPE = Pattern.compile("#\\s*shape\\s*[:=]\\s*(\\d+)\\s*[x×*,]\\s*(\\d+)\\s*",
		Pattern.CASE_INSENSITIVE);
	private static final String[] AXES = { "kx", "ky", "kz" };

	private TrajectoryFiles() {}

	// -- public API --

	/** Reads by extension: {@code .csv}/{@code .txt} as CSV, anything else as a BART {@code .cfl/.hdr} pair. */
	public static Trajectory read(final Path file, final int[] imageSize) throws IOException {
		final String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
		return name.endsWith(".csv") || name.endsWith(".txt") ? readCsv(file, imageSize) : readCfl(file, imageSize);
	}

	/** Reads a BART trajectory (dims [3, readout, shots, …], cycles/FOV) for an image of the given size. */
	public static Trajectory readCfl(final Path base, final int[] imageSize) throws IOException {
		final Path cfl = Cfl.withExtension(base, ".cfl");
		checkImageSize(cfl, imageSize);
		final Cfl.Array a = Cfl.read(base);
		final long[] dims = a.dims();
		if (dims[0] != 3) throw new InvalidInputException(cfl + ": expected a trajectory with first dimension 3 " +
			"(kx, ky, kz), found dims " + Arrays.toString(trim(dims)));
		final int readout = (int) dims[1];
		final long shotsL = a.elements() / 3 / readout;
		final int shots = (int) shotsL;
		final int d = is3d(imageSize) ? 3 : 2;
		final float[] data = a.data();
		final int count = readout * shots;
		final double[] c = new double[count * d];
		for (int m = 0; m < count; m++) {
			for (int ax = 0; ax < 3; ax++) {
				final float re = data[2 * (3 * m + ax)], im = data[2 * (3 * m + ax) + 1];
				if (!Float.isFinite(re) || !Float.isFinite(im)) throw new InvalidInputException(cfl + ": point " + m +
					" (sample " + m % readout + " of shot " + m / readout + ") " + AXES[ax] + " is " +
					(Float.isFinite(re) ? im + "i" : re) + ", expected a finite number");
				if (ax < d) {
					final double limit = imageSize[ax] / 2.0;
					if (Math.abs(re) > limit * (1 + 2 * Trajectory.RANGE_SLACK)) throw new InvalidInputException(cfl +
						": point " + m + " (sample " + m % readout + " of shot " + m / readout + ") " + AXES[ax] + " is " + re +
						" cycles/FOV, outside [" + -limit + ", " + limit + "] for image size " + imageSize[ax] +
						" (wrong image size, or coordinates not in cycles/FOV?)");
					c[d * m + ax] = re / imageSize[ax];
				}
				else if (Math.abs(re) > KZ_ZERO) throw new InvalidInputException(cfl + ": point " + m + " has kz = " + re +
					" cycles/FOV but the image is 2D " + Arrays.toString(imageSize) + "; give a 3D image size");
			}
		}
		return new Trajectory(d, c, readout, shots, cfl.getFileName().toString());
	}

	/** Writes dims [3, readout, shots] in cycles/FOV for an image of the given size (kz = 0 for 2D). */
	public static void writeCfl(final Path base, final Trajectory t, final int[] imageSize) throws IOException {
		try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
			writeCfl(batch, base, t, imageSize);
			batch.commit();
		}
	}

	/** As {@link #writeCfl(Path, Trajectory, int[])}, the files added to {@code batch} (they appear on its commit). */
	public static void writeCfl(final AtomicFiles.Batch batch, final Path base, final Trajectory t,
		final int[] imageSize) throws IOException
	{
		checkImageSize(Cfl.withExtension(base, ".cfl"), imageSize);
		InvalidInputException.require(imageSize.length >= t.dimensions(), base + ": a " + t.dimensions() +
			"D trajectory needs a " + t.dimensions() + "D image size, found " + Arrays.toString(imageSize));
		final int d = t.dimensions(), n = t.count();
		final double[] k = t.coords();
		final float[] data = new float[6 * n];
		for (int m = 0; m < n; m++)
			for (int ax = 0; ax < d; ax++) data[2 * (3 * m + ax)] = (float) (k[d * m + ax] * imageSize[ax]);
		Cfl.write(batch, base, new long[] { 3, t.readout(), t.shots() }, data);
	}

	/**
	 * Reads a CSV trajectory (see the class comment). {@code imageSize} may be null for files in cycles/pixel; it is
	 * required for {@code # units: cycles/fov}.
	 */
	public static Trajectory readCsv(final Path file, final int[] imageSize) throws IOException {
		if (!Files.exists(file)) throw new InvalidInputException(file + ": trajectory file not found");
		boolean perFov = false;
		int shapeR = 0, shapeS = 0;
		int columns = 0;
		double[] c = new double[3 * 1024];
		int values = 0;
		int lineNo = 0;
		boolean sawData = false;
		try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			String line;
			while ((line = in.readLine()) != null) {
				lineNo++;
				final String s = line.trim();
				if (s.isEmpty()) continue;
				if (s.startsWith("#")) {
					if (sawData) continue;
					final Matcher u = UNITS.matcher(s);
					if (u.matches()) {
						final String unit = u.group(1).toLowerCase(Locale.ROOT);
						if (unit.equals("cycles/fov")) perFov = true;
						else if (unit.equals("cycles/pixel")) perFov = false;
						else throw new InvalidInputException(file + ":" + lineNo + ": units '" + u.group(1) +
							"', expected cycles/pixel or cycles/fov");
					}
					final Matcher sh = SHAPE.matcher(s);
					if (sh.matches()) {
						shapeR = parseCount(file, lineNo, sh.group(1));
						shapeS = parseCount(file, lineNo, sh.group(2));
					}
					continue;
				}
				final String[] f = s.split("\\s*[,;\\s]\\s*");
				if (!sawData && columns == 0 && !isNumber(f[0])) {
					// a header line
					InvalidInputException.require(f.length == 2 || f.length == 3, file + ":" + lineNo +
						": header has " + f.length + " columns, expected kx,ky or kx,ky,kz");
					for (int j = 0; j < f.length; j++)
						InvalidInputException.require(f[j].equalsIgnoreCase(AXES[j]), file + ":" + lineNo + ": header column " +
							(j + 1) + " is '" + f[j] + "', expected " + AXES[j] + " (header kx,ky or kx,ky,kz)");
					columns = f.length;
					continue;
				}
				if (columns == 0) {
					InvalidInputException.require(f.length == 2 || f.length == 3, file + ":" + lineNo + ": found " +
						f.length + " columns, expected 2 (kx,ky) or 3 (kx,ky,kz)");
					columns = f.length;
				}
				if (f.length != columns) throw new InvalidInputException(file + ":" + lineNo + ": found " + f.length +
					" columns, expected " + columns + " (" + String.join(",", Arrays.copyOf(AXES, columns)) + ")");
				if (!sawData && perFov) {
					InvalidInputException.require(imageSize != null, file + ": coordinates are in cycles/fov; an image " +
						"size is needed to read them");
					checkImageSize(file, imageSize);
					InvalidInputException.require(imageSize.length >= columns, file + ": " + columns +
						" columns in cycles/fov need a " + columns + "D image size, found " + Arrays.toString(imageSize));
				}
				sawData = true;
				if (values + columns > c.length) {
					InvalidInputException.require(c.length < Integer.MAX_VALUE / 2 - 16, file + ": too many points");
					c = Arrays.copyOf(c, c.length * 2);
				}
				for (int j = 0; j < columns; j++) {
					final double v;
					try {
						v = Double.parseDouble(f[j]);
					}
					catch (final NumberFormatException e) {
						throw new InvalidInputException(file + ":" + lineNo + ": " + AXES[j] + " is '" + f[j] +
							"', expected a number");
					}
					if (!Double.isFinite(v)) throw new InvalidInputException(file + ":" + lineNo + ": " + AXES[j] + " is " +
						f[j] + ", expected a finite number");
					final double k = perFov ? v / imageSize[j] : v;
					if (Math.abs(k) > 0.5 + Trajectory.RANGE_SLACK) throw new InvalidInputException(file + ":" + lineNo +
						": " + AXES[j] + " is " + f[j] + (perFov ? " cycles/FOV, outside [" + -imageSize[j] / 2.0 + ", " +
							imageSize[j] / 2.0 + "] for image size " + imageSize[j] : " cycles/pixel, outside [-0.5, 0.5]") +
						(perFov ? "" : " (if the file is in cycles/FOV, add a line '# units: cycles/fov')"));
					c[values++] = k;
				}
			}
		}
		catch (final NoSuchFileException e) {
			throw new InvalidInputException(file + ": trajectory file not found");
		}
		if (!sawData) throw new InvalidInputException(file + ": no trajectory points found (expected lines kx,ky[,kz])");
		final int count = values / columns;
		int readout = count, shots = 1;
		if (shapeR > 0) {
			InvalidInputException.require((long) shapeR * shapeS == count, file + ": '# shape: " + shapeR + " x " +
				shapeS + "' needs " + (long) shapeR * shapeS + " points, found " + count);
			readout = shapeR;
			shots = shapeS;
		}
		return new Trajectory(columns, Arrays.copyOf(c, values), readout, shots, file.getFileName().toString());
	}

	/** Writes CSV in cycles/pixel (exact: shortest decimal that reads back to the same double). */
	public static void writeCsv(final Path file, final Trajectory t) throws IOException {
		writeCsv(file, t, null);
	}

	/** Writes CSV in cycles/FOV for the given image size, or in cycles/pixel when {@code imageSize} is null. */
	public static void writeCsv(final Path file, final Trajectory t, final int[] imageSize) throws IOException {
		final int d = t.dimensions();
		if (imageSize != null) {
			checkImageSize(file, imageSize);
			InvalidInputException.require(imageSize.length >= d, file + ": a " + d + "D trajectory needs a " + d +
				"D image size, found " + Arrays.toString(imageSize));
		}
		final double[] k = t.coords();
		AtomicFiles.write(file, out -> {
			final StringBuilder sb = new StringBuilder(1 << 16);
			sb.append("# NUFFT-J trajectory: ").append(t.name()).append('\n');
			sb.append("# units: ").append(imageSize == null ? "cycles/pixel" : "cycles/fov").append('\n');
			if (imageSize != null) sb.append("# image size: ").append(Arrays.toString(imageSize)).append('\n');
			sb.append("# shape: ").append(t.readout()).append(" x ").append(t.shots()).append('\n');
			sb.append(d == 3 ? "kx,ky,kz\n" : "kx,ky\n");
			for (int m = 0; m < t.count(); m++) {
				for (int a = 0; a < d; a++) {
					if (a > 0) sb.append(',');
					sb.append(imageSize == null ? k[d * m + a] : k[d * m + a] * imageSize[a]);
				}
				sb.append('\n');
				if (sb.length() > 60000) {
					out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
					sb.setLength(0);
				}
			}
			out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
		});
	}

	// -- helpers --

	private static boolean is3d(final int[] imageSize) {
		return imageSize.length == 3 && imageSize[2] > 1;
	}

	private static void checkImageSize(final Path file, final int[] imageSize) {
		InvalidInputException.require(imageSize != null && (imageSize.length == 2 || imageSize.length == 3),
			file + ": expected a 2D or 3D image size, found " + Arrays.toString(imageSize));
		for (final int n : imageSize)
			InvalidInputException.require(n >= 1, file + ": image sizes must be >= 1, found " + Arrays.toString(imageSize));
	}

	private static int parseCount(final Path file, final int line, final String s) {
		try {
			final int v = Integer.parseInt(s);
			if (v >= 1) return v;
		}
		catch (final NumberFormatException e) {
			// fall through
		}
		throw new InvalidInputException(file + ":" + line + ": shape size '" + s + "', expected a positive integer");
	}

	private static boolean isNumber(final String s) {
		try {
			Double.parseDouble(s);
			return true;
		}
		catch (final NumberFormatException e) {
			return false;
		}
	}

	private static long[] trim(final long[] dims) {
		int n = dims.length;
		while (n > 1 && dims[n - 1] == 1) n--;
		return Arrays.copyOf(dims, n);
	}
}
