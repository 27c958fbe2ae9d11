package org.nufftj.recon;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.StageTimes;
import org.nufftj.trajectory.Radial3D;
import org.nufftj.trajectory.Trajectory;

/**
 * NUFFT-J's side of {@code scripts/bench-vs-finufft.sh} (issue 10 item 6): the CPU engine against FINUFFT on the same
 * points and data, in-process, 2 threads. Not a test and not shipped (test scope, run by the script only).
 * <ul>
 * <li>{@code prepare DIR} writes the shared inputs (keeping data sets already there, as seeded they are the same): the
 * points (k in cycles per pixel, double), the input data
 * (complex float, seeded Gaussian), the exact reference on ~200 random output entries per data set (direct sums in
 * double: {@link Nudft#forward} on the chosen points, a direct sum over all points for the chosen pixels of the
 * adjoint) and {@code rows.tsv}, the table's rows.</li>
 * <li>{@code time ROW-ARGUMENTS} times one row as {@code scripts/finufft/bench_finufft} does for FINUFFT: plan and
 * points once, untimed executes (at least {@code warmups} and at least {@code warmup_s} seconds of them), then
 * {@code repeats} timed executes (wall clock of the call), and prints one
 * {@code RESULT} line with the times and the relative l2 error of the last output on the reference entries.</li>
 * </ul>
 * The 2D points are those of {@link RadialNufftBenchmark} (402 spokes × 512 samples over 180°, 205,824 points); the
 * 3D points a full-diameter golden-means kooshball ({@link Radial3D}), 8192 spokes × 256 samples = 2,097,152 points.
 * Maths (docs/conventions.md): adjoint f(x) = Σ y_m e^{+2πi k_m·x}, forward y_m = Σ f(x) e^{−2πi k_m·x},
 * x = index − N/2, axis 0 fastest, unscaled; samples point fastest, then coil.
 */
public final class FinufftSideBySide {

	private static final int REFERENCE_ENTRIES = 200;
	private static final int THREADS = 2;

	private FinufftSideBySide() {}

	/** One row: the transform, its size and tolerance, the timing protocol and the files it reads. */
	private static final class Row {
		final String id, kind, precision;
		final int dim, n, coils, warmups, repeats;
		final double eps;

		Row(final String id, final String kind, final int dim, final int n, final int coils, final double eps,
			final String precision, final int warmups, final int repeats)
		{
			this.id = id;
			this.kind = kind;
			this.dim = dim;
			this.n = n;
			this.coils = coils;
			this.eps = eps;
			this.precision = precision;
			this.warmups = warmups;
			this.repeats = repeats;
		}

		String points() { return "points_" + dim + "d.f64"; }

		String data() { return "data_" + kind + "_" + dim + "d_n" + n + "_c" + coils + ".f32"; }

		String reference() { return "ref_" + kind + "_" + dim + "d_n" + n + "_c" + coils + ".f64"; }
	}

	/**
	 * The rows. The 64³ row at ε = 1e-6 is double on both sides: FINUFFT's float plan refuses 1e-6 (setpts
	 * status 26, "rounding floor dominates"), while NUFFT-J's float plan accepts it (its float floor is 1e-6).
	 */
	private static List<Row> rows() {
		final List<Row> r = new ArrayList<>();
		r.add(new Row("2d-adj-c8-1e-3", "adjoint", 2, 256, 8, 1e-3, "float", 3, 7));
		r.add(new Row("2d-fwd-c8-1e-3", "forward", 2, 256, 8, 1e-3, "float", 3, 7));
		r.add(new Row("2d-adj-c8-1e-4", "adjoint", 2, 256, 8, 1e-4, "float", 3, 7));
		r.add(new Row("2d-adj-c32-1e-3", "adjoint", 2, 256, 32, 1e-3, "float", 3, 7));
		r.add(new Row("2d-fwd-c32-1e-3", "forward", 2, 256, 32, 1e-3, "float", 3, 7));
		r.add(new Row("2d-adj-c32-1e-4", "adjoint", 2, 256, 32, 1e-4, "float", 3, 7));
		r.add(new Row("3d-adj-128-1e-3", "adjoint", 3, 128, 1, 1e-3, "float", 2, 5));
		r.add(new Row("3d-adj-64-1e-6", "adjoint", 3, 64, 1, 1e-6, "double", 1, 3));
		return r;
	}

	// -- public API --

	public static void main(final String[] args) throws IOException {
		if (args.length == 2 && args[0].equals("prepare")) prepare(Path.of(args[1]));
		else if (args.length == 13 && args[0].equals("time")) time(args);
		else {
			System.err.println("usage: FinufftSideBySide prepare DIR\n" +
				"       FinufftSideBySide time <adjoint|forward> <dim> <n> <coils> <eps> <float|double> <points.f64> " +
				"<data.f32> <ref.f64> <warmups> <repeats> <warmup_s>");
			System.exit(1);
		}
	}

	// -- prepare --

	private static void prepare(final Path dir) throws IOException {
		Files.createDirectories(dir);
		final Trajectory[] traj = { null, null, org.nufftj.app.Benchmark.radial(402, 512), kooshball(256, 8192) };
		writeDoubles(dir.resolve("points_2d.f64"), traj[2].coords());
		writeDoubles(dir.resolve("points_3d.f64"), traj[3].coords());
		final Set<String> done = new LinkedHashSet<>();
		try (PrintWriter tsv = new PrintWriter(Files.newBufferedWriter(dir.resolve("rows.tsv")))) {
			for (final Row row : rows()) {
				tsv.printf(Locale.ROOT, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d%n", row.id, row.kind, row.dim,
					row.n, row.coils, Double.toString(row.eps), row.precision, row.points(), row.data(), row.reference(),
					row.warmups, row.repeats);
				if (!done.add(row.data())) continue;
				if (Files.exists(dir.resolve(row.data())) && Files.exists(dir.resolve(row.reference()))) {
					System.out.println("kept " + row.data() + " and " + row.reference() + " (already there)");
					continue;
				}
				final Trajectory t = traj[row.dim];
				final int pixels = pow(row.n, row.dim);
				final boolean adjoint = row.kind.equals("adjoint");
				final int in = (adjoint ? t.count() : pixels) * row.coils;
				final int out = (adjoint ? pixels : t.count()) * row.coils;
				final Random random = new Random(row.data().hashCode());
				final float[] data = new float[2 * in];
				for (int i = 0; i < data.length; i++) data[i] = (float) random.nextGaussian();
				writeFloats(dir.resolve(row.data()), data);
				final long start = System.nanoTime();
				final int[] entries = distinct(random, out, REFERENCE_ENTRIES);
				final double[] exact = adjoint ? adjointAt(row, t, data, entries) : forwardAt(row, t, data, entries);
				final double[] ref = new double[3 * entries.length];
				for (int e = 0; e < entries.length; e++) {
					ref[3 * e] = entries[e];
					ref[3 * e + 1] = exact[2 * e];
					ref[3 * e + 2] = exact[2 * e + 1];
				}
				writeDoubles(dir.resolve(row.reference()), ref);
				System.out.printf(Locale.ROOT, "prepared %s and %s (exact reference %.1f s)%n", row.data(),
					row.reference(), (System.nanoTime() - start) / 1e9);
			}
		}
	}

	/** The 3D rows' points: a full-diameter golden-means kooshball ({@link Radial3D}). */
	static Trajectory kooshball(final int readout, final int spokes) {
		return new Radial3D(readout, spokes, Radial3D.Ordering.GOLDEN_MEANS, false).build();
	}

	/** Exact forward at the chosen (coil, point) entries: {@link Nudft#forward} on those points, every coil. */
	private static double[] forwardAt(final Row row, final Trajectory t, final float[] image, final int[] entries) {
		final int m = t.count();
		final int[] points = new int[entries.length];
		for (int e = 0; e < entries.length; e++) points[e] = entries[e] % m;
		final double[] img = new double[image.length];
		for (int i = 0; i < img.length; i++) img[i] = image[i];
		final double[] y = Nudft.forward(size(row), t.select(points, "reference points"), img, THREADS);
		final double[] out = new double[2 * entries.length];
		for (int e = 0; e < entries.length; e++) {
			final int coil = entries[e] / m, at = coil * entries.length + e;
			out[2 * e] = y[2 * at];
			out[2 * e + 1] = y[2 * at + 1];
		}
		return out;
	}

	/** Exact adjoint at the chosen (coil, pixel) entries: the direct sum over every point, in double. */
	private static double[] adjointAt(final Row row, final Trajectory t, final float[] samples, final int[] entries) {
		final int m = t.count(), pixels = pow(row.n, row.dim), d = row.dim;
		final double[] k = t.coords();
		final double[] out = new double[2 * entries.length];
		IntStream.range(0, entries.length).parallel().forEach(e -> {
			final int coil = entries[e] / pixels;
			int p = entries[e] % pixels;
			final double[] x = new double[d];
			for (int a = 0; a < d; a++) {
				x[a] = p % row.n - row.n / 2;
				p /= row.n;
			}
			double re = 0, im = 0;
			for (int j = 0; j < m; j++) {
				double phase = 0;
				for (int a = 0; a < d; a++) phase += k[d * j + a] * x[a];
				phase *= 2 * Math.PI;
				final double c = Math.cos(phase), s = Math.sin(phase);
				final double yr = samples[2 * (coil * m + j)], yi = samples[2 * (coil * m + j) + 1];
				re += yr * c - yi * s;
				im += yr * s + yi * c;
			}
			out[2 * e] = re;
			out[2 * e + 1] = im;
		});
		return out;
	}

	// -- time --

	private static void time(final String[] a) throws IOException {
		final boolean adjoint = a[1].equals("adjoint");
		final int dim = Integer.parseInt(a[2]), n = Integer.parseInt(a[3]), coils = Integer.parseInt(a[4]);
		final double eps = Double.parseDouble(a[5]);
		final Precision precision = Precision.parse(a[6]);
		final Trajectory t = new Trajectory(dim, readDoubles(Path.of(a[7])), "points");
		final float[] data = readFloats(Path.of(a[8]));
		final double[] ref = readDoubles(Path.of(a[9]));
		final int warmups = Integer.parseInt(a[10]), repeats = Integer.parseInt(a[11]);
		final double warmupSeconds = Double.parseDouble(a[12]);
		final int[] size = new int[dim];
		java.util.Arrays.fill(size, n);
		final int pixels = pow(n, dim), outCount = 2 * (adjoint ? pixels : t.count()) * coils;
		final double[] times = new double[repeats];
		final StageTimes stages = new StageTimes();
		final double[] result = new double[outCount];
		// The point count given, as the application layer plans (the choice weighs the spreading by it).
		final NufftOptions options = NufftOptions.defaults().withTolerance(eps).withThreads(THREADS)
			.withPrecision(precision).withPointCount(t.count());
		try (NufftPlan plan = Nufft.plan(size, options)) {
			plan.setPoints(t);
			if (precision == Precision.FLOAT) {
				final float[] out = new float[outCount];
				timeCalls(plan, stages, warmups, warmupSeconds, times, () -> {
					if (adjoint) plan.adjoint(data, out);
					else plan.forward(data, out);
				});
				for (int i = 0; i < outCount; i++) result[i] = out[i];
			}
			else {
				final double[] in = new double[data.length];
				for (int i = 0; i < in.length; i++) in[i] = data[i];
				timeCalls(plan, stages, warmups, warmupSeconds, times, () -> {
					if (adjoint) plan.adjoint(in, result);
					else plan.forward(in, result);
				});
			}
			System.out.println("PARAMS engine=nufftj " + plan.parameters() + "; stages, mean of the timed calls: " +
				stages);
		}
		double num = 0, den = 0;
		for (int e = 0; e + 2 < ref.length; e += 3) {
			final int i = (int) ref[e];
			final double dr = result[2 * i] - ref[e + 1], di = result[2 * i + 1] - ref[e + 2];
			num += dr * dr + di * di;
			den += ref[e + 1] * ref[e + 1] + ref[e + 2] * ref[e + 2];
		}
		final StringBuilder s = new StringBuilder("RESULT engine=nufftj times_ms=");
		for (int i = 0; i < times.length; i++)
			s.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.3f", times[i]));
		s.append(String.format(Locale.ROOT, " error=%.3e", Math.sqrt(num / den)));
		System.out.println(s);
	}

	/**
	 * Untimed calls, at least {@code warmups} of them and at least {@code warmupSeconds} of them (the JIT compiles the
	 * engine's loops within the first seconds: measured, a 2D 8-coil adjoint took ~200 ms a call for its first ~10
	 * calls and ~85 ms after), then one wall-clock time per element of {@code times}, in ms; the plan's stage times of
	 * the timed calls are added into {@code stages}, divided by their number.
	 */
	private static void timeCalls(final NufftPlan plan, final StageTimes stages, final int warmups,
		final double warmupSeconds, final double[] times, final Runnable call)
	{
		final long w0 = System.nanoTime();
		for (int i = 0; i < warmups || System.nanoTime() - w0 < warmupSeconds * 1e9; i++) call.run();
		for (int i = 0; i < times.length; i++) {
			final long t0 = System.nanoTime();
			call.run();
			times[i] = (System.nanoTime() - t0) / 1e6;
			plan.times().snapshot().forEach((stage, ms) -> stages.add(stage, ms / times.length));
		}
	}

	// -- helpers --

	private static int[] size(final Row row) {
		final int[] s = new int[row.dim];
		java.util.Arrays.fill(s, row.n);
		return s;
	}

	private static int pow(final int n, final int d) {
		int p = 1;
		for (int a = 0; a < d; a++) p *= n;
		return p;
	}

	private static int[] distinct(final Random random, final int bound, final int count) {
		final Set<Integer> s = new LinkedHashSet<>();
		while (s.size() < Math.min(count, bound)) s.add(random.nextInt(bound));
		return s.stream().mapToInt(Integer::intValue).toArray();
	}

	private static void writeDoubles(final Path p, final double[] v) throws IOException {
		final ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
		b.asDoubleBuffer().put(v);
		write(p, b);
	}

	private static void writeFloats(final Path p, final float[] v) throws IOException {
		final ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
		b.asFloatBuffer().put(v);
		write(p, b);
	}

	private static void write(final Path p, final ByteBuffer b) throws IOException {
		try (FileChannel c = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
			StandardOpenOption.TRUNCATE_EXISTING))
		{
			while (b.hasRemaining()) c.write(b);
		}
	}

	private static double[] readDoubles(final Path p) throws IOException {
		final double[] v = new double[(int) (Files.size(p) / 8)];
		read(p).asDoubleBuffer().get(v);
		return v;
	}

	private static float[] readFloats(final Path p) throws IOException {
		final float[] v = new float[(int) (Files.size(p) / 4)];
		read(p).asFloatBuffer().get(v);
		return v;
	}

	private static ByteBuffer read(final Path p) throws IOException {
		return ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
	}
}
