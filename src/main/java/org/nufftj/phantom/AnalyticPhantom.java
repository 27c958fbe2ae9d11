package org.nufftj.phantom;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.trajectory.Trajectory;

/**
 * A phantom made of uniform ellipses (2D) or ellipsoids (3D) with an exact Fourier transform, so that k-space can be
 * sampled at any point without the "inverse crime" of computing it from a pixel image.
 * <h2>Coordinates and units</h2>
 * The phantom lives in field-of-view coordinates u ∈ [−1, 1]^d. On an image of N_a pixels along axis a, pixel index
 * i has centred index x = i − ⌊N_a/2⌋ (the NUFFT plan's x) and u_a = x/(N_a/2), as BART's {@code phantom}. With
 * pixel spacing 1 the image is f(x) = g(2x/N), and its continuous Fourier transform at normalised k (cycles/pixel)
 * is {@code F(k) = Π_a (N_a/2) · G(k∘N/2)}, G the transform of g over u. F(k) is what
 * {@code Σ_x f(x)·e^{−2πi k·x}} (the plan's unscaled forward transform) approximates, so a gridding reconstruction
 * with the plan's unscaled adjoint and a properly normalised density compensation returns the phantom at its true
 * intensity.
 * </p>
 * <h2>Shepp–Logan</h2>
 * {@link #sheppLogan2d()} is the modified (Toft) Shepp–Logan phantom, {@link #sheppLogan3d()} the 3D ellipsoid
 * version, both with the tables, orientation and intensities of BART's {@code bart phantom} (src/simu/shepplogan.c:
 * BART maps a pixel p to (−p_y, p_x) and applies a reflection by the ellipse angle; those maps are folded into each
 * component's centre and principal axes here), so images and k-space can be compared with BART's directly.
 * <p>
 * Immutable and thread-safe: {@link Simulation} evaluates one phantom from several threads.
 * </p>
 */
public final class AnalyticPhantom {

	private final int d;
	private final List<Ellipsoid> parts;
	private final String name;

	public AnalyticPhantom(final String name, final List<Ellipsoid> parts) {
		InvalidInputException.require(!parts.isEmpty(), "phantom " + name + ": no components");
		d = parts.get(0).dimensions();
		for (final Ellipsoid e : parts)
			InvalidInputException.require(e.dimensions() == d, "phantom " + name + ": mixed 2D and 3D components");
		this.parts = Collections.unmodifiableList(new ArrayList<>(parts));
		this.name = name;
	}

	// BART's tables (src/simu/shepplogan.c): intensity, axes, centre, angle. Modified (Toft) Shepp–Logan.
	private static final double[][] SHEPP_LOGAN_MOD = {
		{ 1.0, .69, .92, 0, 0, 0 },
		{ -.8, .6624, .874, 0, -.0184, 0 },
		{ -.2, .11, .31, .22, 0, -18 },
		{ -.2, .16, .41, -.22, 0, 18 },
		{ .1, .21, .25, 0, .35, 0 },
		{ .1, .046, .046, 0, .1, 0 },
		{ .1, .046, .046, 0, -.1, 0 },
		{ .1, .046, .023, -.08, -.605, 0 },
		{ .1, .023, .023, 0, -.606, 0 },
		{ .1, .023, .046, .06, -.605, 0 } };

	// BART's 3D table (after Koay, Sarlls, Özarslan, MRM 58:430, 2007): intensity, axes(3), centre(3), angle (rad).
	private static final double[][] SHEPP_LOGAN_3D = {
		{ 2., .69, .92, .9, 0, 0, 0, 0 },
		{ -.8, .6624, .874, .88, 0, 0, 0, 0 },
		{ -.2, .41, .16, .21, -.22, 0, -.25, 3 * Math.PI / 5 },
		{ -.2, .31, .11, .22, .22, 0, -.25, 2 * Math.PI / 5 },
		{ .2, .21, .25, .5, 0, .35, -.25, 0 },
		{ .2, .046, .046, .046, 0, .1, -.25, 0 },
		{ .1, .046, .023, .02, -.08, -.65, -.25, 0 },
		{ .1, .046, .023, .02, .06, -.65, -.25, Math.PI / 2 },
		{ .2, .056, .04, .1, .06, -.105, .625, Math.PI / 2 },
		{ -.2, .056, .056, .1, 0, .1, .625, 0 } };

	// -- public API --

	/** The modified (Toft) Shepp–Logan phantom, as {@code bart phantom}. */
	public static AnalyticPhantom sheppLogan2d() {
		final List<Ellipsoid> list = new ArrayList<>();
		for (final double[] r : SHEPP_LOGAN_MOD)
			list.add(fromBart2d(r[0], new double[] { r[1], r[2] }, new double[] { r[3], r[4] }, Math.toRadians(r[5])));
		return new AnalyticPhantom("Shepp-Logan 2D", list);
	}

	/** The 3D Shepp–Logan ellipsoids, as {@code bart phantom -3}. */
	public static AnalyticPhantom sheppLogan3d() {
		final List<Ellipsoid> list = new ArrayList<>();
		for (final double[] r : SHEPP_LOGAN_3D)
			list.add(fromBart3d(r[0], new double[] { r[1], r[2], r[3] }, new double[] { r[4], r[5], r[6] }, r[7]));
		return new AnalyticPhantom("Shepp-Logan 3D", list);
	}

	/** A uniform disc (2D) or ball (3D) of the given radius in u units, centred. */
	public static AnalyticPhantom disc(final int dims, final double radius, final double intensity) {
		final double[] zero = new double[dims], axes = new double[dims], rot = new double[dims * dims];
		Arrays.fill(axes, radius);
		for (int i = 0; i < dims; i++) rot[i * dims + i] = 1;
		return new AnalyticPhantom(dims == 3 ? "ball" : "disc", List.of(new Ellipsoid(intensity, 0, zero, axes, rot)));
	}

	/**
	 * A component given in BART's convention: a point p is inside when M·(J·p + c_B) is inside the axis-aligned
	 * ellipse, with J·p = (−p₂, p₁) and M = [[cos φ, sin φ], [sin φ, −cos φ]]. That is the ellipse with principal
	 * axes the rows of M·J and centre −Jᵀ·c_B = (−c_B2, c_B1).
	 */
	public static Ellipsoid fromBart2d(final double intensity, final double[] axes, final double[] centre,
		final double angle)
	{
		final double s = Math.sin(angle), c = Math.cos(angle);
		return new Ellipsoid(intensity, 0, new double[] { -centre[1], centre[0] }, axes,
			new double[] { s, -c, -c, -s });
	}

	/** As {@link #fromBart2d}, in 3D: J and M act on the first two axes, the third passes unchanged. */
	public static Ellipsoid fromBart3d(final double intensity, final double[] axes, final double[] centre,
		final double angle)
	{
		final double s = Math.sin(angle), c = Math.cos(angle);
		return new Ellipsoid(intensity, 0, new double[] { -centre[1], centre[0], -centre[2] }, axes,
			new double[] { s, -c, 0, -c, -s, 0, 0, 0, 1 });
	}

	public int dimensions() { return d; }

	public String name() { return name; }

	public List<Ellipsoid> parts() { return parts; }

	/** The value g(u) at a point u ∈ [−1, 1]^d: {re, im}. */
	public double[] value(final double[] u) {
		final double[] v = new double[2];
		for (final Ellipsoid e : parts) {
			if (e.contains(u)) {
				v[0] += e.intensityRe();
				v[1] += e.intensityIm();
			}
		}
		return v;
	}

	/** G(p) = ∫ g(u)·e^{−2πi p·u} du, p in cycles per unit of u, added to out[off], out[off + 1]. */
	public void addFourier(final double[] p, final double[] out, final int off) {
		for (final Ellipsoid e : parts) e.addFourier(p, out, off);
	}

	/** The continuous Fourier transform at one normalised k (cycles/pixel) for an image of the given size: {re, im}. */
	public double[] kspace(final double[] k, final int[] matrix) {
		checkMatrix(matrix);
		final double[] out = new double[2];
		addKSpace(k, matrix, new double[d], out, 0);
		return out;
	}

	/**
	 * F(k) at every point of the trajectory, interleaved (re, im), double; single-threaded ({@link Simulation} adds
	 * coils, noise and threads).
	 */
	public double[] kspace(final Trajectory t, final int[] matrix) {
		InvalidInputException.require(t.dimensions() == d, "phantom " + name + " is " + d + "D, trajectory " + t.name() +
			" is " + t.dimensions() + "D");
		final double[] out = new double[2 * t.count()];
		final double[] k = new double[d];
		for (int m = 0; m < t.count(); m++) {
			for (int a = 0; a < d; a++) k[a] = t.k(m, a);
			final double[] v = kspace(k, matrix);
			out[2 * m] = v[0];
			out[2 * m + 1] = v[1];
		}
		return out;
	}

	/**
	 * The phantom on a pixel grid: each pixel is the mean of g over {@code supersample}^d points spread uniformly
	 * inside it (1 = the value at the pixel centre, as {@code bart phantom}).
	 */
	public ComplexImage image(final int[] matrix, final int supersample) {
		checkMatrix(matrix);
		InvalidInputException.require(supersample >= 1 && supersample <= 64,
			"phantom image: supersampling must be 1 to 64, found " + supersample);
		final int nx = matrix[0], ny = matrix[1], nz = d == 3 ? matrix[2] : 1;
		final float[] data = new float[2 * nx * ny * nz];
		final double[] u = new double[d];
		final int sz = d == 3 ? supersample : 1;
		final double weight = 1.0 / Math.pow(supersample, d);
		for (int z = 0; z < nz; z++)
			for (int y = 0; y < ny; y++)
				for (int x = 0; x < nx; x++) {
					double sr = 0, si = 0;
					for (int c = 0; c < sz; c++)
						for (int b = 0; b < supersample; b++)
							for (int a = 0; a < supersample; a++) {
								u[0] = position(x, nx, a, supersample);
								u[1] = position(y, ny, b, supersample);
								if (d == 3) u[2] = position(z, nz, c, supersample);
								for (final Ellipsoid e : parts) {
									if (e.contains(u)) {
										sr += e.intensityRe();
										si += e.intensityIm();
									}
								}
							}
					final int i = 2 * (x + nx * (y + ny * z));
					data[i] = (float) (sr * weight);
					data[i + 1] = (float) (si * weight);
				}
		return new ComplexImage(data, matrix, 1, 1, null);
	}

	/**
	 * Adds F(k) to out[off], out[off + 1] without allocating: {@code p} is scratch of length d; the matrix is not
	 * checked (callers check it once).
	 */
	void addKSpace(final double[] k, final int[] matrix, final double[] p, final double[] out, final int off) {
		double scale = 1;
		for (int a = 0; a < d; a++) {
			p[a] = k[a] * matrix[a] / 2.0;
			scale *= matrix[a] / 2.0;
		}
		final double r = out[off], i = out[off + 1];
		out[off] = 0;
		out[off + 1] = 0;
		addFourier(p, out, off);
		out[off] = r + scale * out[off];
		out[off + 1] = i + scale * out[off + 1];
	}

	/** u of sub-sample {@code j} of {@code s} inside pixel {@code i} of {@code n}. */
	static double position(final int i, final int n, final int j, final int s) {
		final double x = i - n / 2 + (j + 0.5) / s - 0.5;
		return x / (n / 2.0);
	}

	void checkMatrix(final int[] matrix) {
		InvalidInputException.require(matrix != null && matrix.length == d, "phantom " + name + ": expected a " + d +
			"D matrix, found " + Arrays.toString(matrix));
		for (final int n : matrix)
			InvalidInputException.require(n >= 1, "phantom " + name + ": matrix sizes must be >= 1, found " +
				Arrays.toString(matrix));
	}

	@Override
	public String toString() {
		return name + " (" + parts.size() + " components)";
	}
}
