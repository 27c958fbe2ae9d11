package org.nufftj.trajectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.InvalidInputException;
import org.nufftj.io.BartCli;
import org.nufftj.io.Cfl;

/** Geometry of every trajectory design: point counts, shapes, ranges, angles; radial designs against BART. */
class TrajectoryDesignsTest {

	private final Random random = new Random();

	// -- helpers --

	private static double maxAbs(final Trajectory t) {
		double m = 0;
		for (final double v : t.coords()) m = Math.max(m, Math.abs(v));
		return m;
	}

	private static double radius(final Trajectory t, final int p) {
		double r = 0;
		for (int a = 0; a < t.dimensions(); a++) r += t.k(p, a) * t.k(p, a);
		return Math.sqrt(r);
	}

	private static void assertShape(final Trajectory t, final int dims, final int readout, final int shots) {
		assertEquals(dims, t.dimensions(), "dimensions");
		assertEquals(readout, t.readout(), "readout");
		assertEquals(shots, t.shots(), "shots");
		assertEquals((long) readout * shots, t.count(), "count");
	}

	// -- Cartesian --

	@Test
	void cartesianIsTheDftGrid() {
		final int nx = 3 + random.nextInt(12), ny = 3 + random.nextInt(12), nz = 2 + random.nextInt(5);
		final Trajectory t = new Cartesian(new int[] { nx, ny, nz }).build();
		assertShape(t, 3, nx, ny * nz);
		int m = 0;
		for (int z = 0; z < nz; z++)
			for (int y = 0; y < ny; y++)
				for (int x = 0; x < nx; x++, m++) {
					// the DFT frequency of index x is (x − ⌊N/2⌋)/N
					assertEquals((x - Math.floor(nx / 2.0)) / nx, t.k(m, 0), 1e-15);
					assertEquals((y - Math.floor(ny / 2.0)) / ny, t.k(m, 1), 1e-15);
					assertEquals((z - Math.floor(nz / 2.0)) / nz, t.k(m, 2), 1e-15);
				}
		assertTrue(maxAbs(t) <= 0.5);
	}

	@Test
	void cartesianReadoutOversampling() {
		final Trajectory t = new Cartesian(new int[] { 8, 6 }, 2).build();
		assertShape(t, 2, 16, 6);
		assertEquals(-0.5, t.k(0, 0), 0);
		assertEquals(1 / 16.0, t.k(9, 0) - t.k(8, 0), 1e-15);
		assertEquals(0.0, t.k(8, 0), 0);
	}

	// -- radial --

	@Test
	void radialSamplesAndAngles() {
		final int r = 2 * (2 + random.nextInt(40)), s = 1 + random.nextInt(60);
		for (final boolean full : new boolean[] { false, true }) {
			final Trajectory t = new Radial(r, s, full).build();
			assertShape(t, 2, r, s);
			assertTrue(maxAbs(t) <= 0.5 + 1e-15);
			for (int sp = 0; sp < s; sp++) {
				final double theta = (full ? 2 : 1) * Math.PI * sp / s;
				for (int i = 0; i < r; i++) {
					final int p = sp * r + i;
					final double along = (i - r / 2.0) / r;
					assertEquals(along * Math.sin(theta), t.k(p, 0), 1e-15);
					assertEquals(along * Math.cos(theta), t.k(p, 1), 1e-15);
				}
				assertEquals(0.5, radius(t, sp * r), 1e-15); // first sample at |k| = ½
				assertEquals(0.0, radius(t, sp * r + r / 2), 1e-15); // centre sampled
			}
		}
	}

	@Test
	void radialMatchesBartTraj(@TempDir final Path dir) throws Exception {
		Assumptions.assumeTrue(BartCli.available(), "bart is not installed (CI installs it)");
		final int r = 2 * (4 + random.nextInt(30)), s = 3 + random.nextInt(30);
		// -c: DC sampled, i.e. (i − R/2) along the spoke; without: (i − R/2 + ½); -D: 360°
		BartCli.run(dir, "traj", "-r", "-c", "-x", "" + r, "-y", "" + s, "t_c");
		BartCli.run(dir, "traj", "-r", "-x", "" + r, "-y", "" + s, "t_shift");
		BartCli.run(dir, "traj", "-r", "-c", "-D", "-x", "" + r, "-y", "" + s, "t_full");
		assertMatchesBart(dir.resolve("t_c"), new Radial(r, s, false).build(), r);
		assertMatchesBart(dir.resolve("t_shift"), new Radial(r, s, false).withHalfSampleShift().build(), r);
		assertMatchesBart(dir.resolve("t_full"), new Radial(r, s, true).build(), r);
	}

	@Test
	void goldenAngleMatchesBartTraj(@TempDir final Path dir) throws Exception {
		Assumptions.assumeTrue(BartCli.available(), "bart is not installed (CI installs it)");
		final int r = 2 * (4 + random.nextInt(20)), s = 5 + random.nextInt(40);
		BartCli.run(dir, "traj", "-r", "-c", "-G", "-x", "" + r, "-y", "" + s, "t_g");
		assertMatchesBart(dir.resolve("t_g"), new GoldenAngleRadial(r, s, 1).build(), r);
		final int n = 2 + random.nextInt(8);
		BartCli.run(dir, "traj", "-r", "-c", "-G", "-s", "" + n, "-x", "" + r, "-y", "" + s, "t_tiny");
		assertMatchesBart(dir.resolve("t_tiny"), new GoldenAngleRadial(r, s, n).build(), r);
	}

	/** BART's coordinates are cycles per FOV of an R-pixel field: divided by R they must equal ours. */
	private static void assertMatchesBart(final Path base, final Trajectory ours, final int r) throws Exception {
		final Cfl.Array b = Cfl.read(base);
		assertEquals(3, b.dim(0));
		assertEquals(ours.readout(), b.dim(1));
		assertEquals(ours.shots(), b.dim(2));
		for (int m = 0; m < ours.count(); m++) {
			for (int a = 0; a < 2; a++)
				assertEquals(ours.k(m, a), b.data()[2 * (3 * m + a)] / r, 2e-6, "point " + m + " axis " + a);
			assertEquals(0, b.data()[2 * (3 * m + 2)], 0, "kz of point " + m);
		}
	}

	@Test
	void goldenAngleIncrements() {
		final double phi = (1 + Math.sqrt(5)) / 2;
		assertEquals(111.246, Math.toDegrees(GoldenAngleRadial.increment(1)), 5e-4);
		assertEquals(Math.PI / phi, GoldenAngleRadial.increment(1), 1e-15);
		// Wundrak 2016: tiny golden angles ψ_N = π/(φ + N − 1): 68.75°, 49.75°, 38.98°, 32.04°, 27.20°, 23.63°
		final double[] degrees = { 68.75, 49.75, 38.98, 32.04, 27.20, 23.63 };
		for (int n = 2; n <= 7; n++) assertEquals(degrees[n - 2], Math.toDegrees(GoldenAngleRadial.increment(n)), 6e-3);
		final int r = 16, s = 30, n = 1 + random.nextInt(7);
		final Trajectory t = new GoldenAngleRadial(r, s, n).build();
		assertShape(t, 2, r, s);
		for (int sp = 1; sp < s; sp++) {
			// the direction of the first sample (at −½) turns by ψ_n from spoke to spoke
			final double a0 = Math.atan2(-t.k((sp - 1) * r, 0), -t.k((sp - 1) * r, 1));
			final double a1 = Math.atan2(-t.k(sp * r, 0), -t.k(sp * r, 1));
			final double d = Math.IEEEremainder(a1 - a0 - GoldenAngleRadial.increment(n), 2 * Math.PI);
			assertEquals(0, d, 1e-12, "spoke " + sp);
		}
	}

	@Test
	void stackOfStarsPartitions() {
		final int r = 2 * (2 + random.nextInt(10)), s = 1 + random.nextInt(10), p = 1 + random.nextInt(9);
		final Trajectory t = new StackOfStars(r, s, p, random.nextInt(3)).build();
		assertShape(t, 3, r, s * p);
		assertTrue(maxAbs(t) <= 0.5 + 1e-15);
		for (int part = 0; part < p; part++)
			for (int i = 0; i < r * s; i++)
				assertEquals((part - p / 2) / (double) p, t.k(part * r * s + i, 2), 1e-15);
		// in-plane pattern is the 2D radial one in every partition
		final Trajectory flat = new Radial(r, s, false).build();
		final Trajectory sos = new StackOfStars(r, s, p, 0).build();
		for (int part = 0; part < p; part++)
			for (int i = 0; i < r * s; i++)
				for (int a = 0; a < 2; a++) assertEquals(flat.k(i, a), sos.k(part * r * s + i, a), 0);
	}

	// -- 3D radial --

	@Test
	void goldenMeansAreThePublishedValues() {
		// Chan et al. 2009: φ1 = 0.4656, φ2 = 0.6823, from λ³ = λ² + 1
		assertEquals(0.4656, Radial3D.GOLDEN_MEAN_1, 5e-5);
		assertEquals(0.6823, Radial3D.GOLDEN_MEAN_2, 5e-5);
		final double l = 1 / Radial3D.GOLDEN_MEAN_2;
		assertEquals(l * l + 1, l * l * l, 1e-14);
		assertEquals(137.508, Math.toDegrees(Radial3D.GOLDEN_ANGLE_PHYLLOTAXIS), 1e-3);
	}

	@Test
	void radial3dDirectionsAreUnitAndCoverTheSphere() {
		final int spokes = 2000 + random.nextInt(500);
		for (final Radial3D.Ordering o : Radial3D.Ordering.values()) {
			for (final boolean centreOut : new boolean[] { false, true }) {
				final Radial3D design = new Radial3D(8, spokes, o, centreOut);
				double zMean = 0, xMean = 0, z2 = 0;
				for (int s = 0; s < spokes; s++) {
					final double[] d = design.direction(s);
					assertEquals(1, Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 1e-12);
					if (!centreOut) assertTrue(d[2] >= -1e-12, "full-diameter spokes on the upper hemisphere");
					zMean += d[2];
					xMean += d[0];
					z2 += d[2] * d[2];
				}
				zMean /= spokes;
				xMean /= spokes;
				z2 /= spokes;
				// uniform on the hemisphere: E z = ½; on the sphere: E z = 0; E z² = ⅓; E x = 0. Piccini's
				// hemisphere spiral (polar angle (π/2)√u, u uniform) is nearly uniform: E z = ∫cos((π/2)√u)du =
				// 4/π − 8/π², E z² = ½ − 2/π².
				final boolean piccini = o == Radial3D.Ordering.SPIRAL_PHYLLOTAXIS && !centreOut;
				final double ez = piccini ? 4 / Math.PI - 8 / (Math.PI * Math.PI) : centreOut ? 0 : 0.5;
				final double ez2 = piccini ? 0.5 - 2 / (Math.PI * Math.PI) : 1 / 3.0;
				assertEquals(ez, zMean, 0.01, o + " centreOut=" + centreOut);
				assertEquals(0, xMean, 0.02, o + " centreOut=" + centreOut);
				assertEquals(ez2, z2, 0.01, o + " centreOut=" + centreOut);
				final Trajectory t = design.build();
				assertShape(t, 3, 8, spokes);
				for (int p = 0; p < t.count(); p++) assertTrue(radius(t, p) <= 0.5 + 1e-15);
			}
		}
	}

	@Test
	void radial3dSamplesAlongSpokes() {
		final int r = 2 * (2 + random.nextInt(10));
		final Radial3D full = new Radial3D(r, 7, Radial3D.Ordering.GOLDEN_MEANS, false);
		final Radial3D out = new Radial3D(r, 7, Radial3D.Ordering.SPIRAL_PHYLLOTAXIS, true);
		final Trajectory tf = full.build(), to = out.build();
		for (int s = 0; s < 7; s++) {
			final double[] df = full.direction(s), dout = out.direction(s);
			for (int i = 0; i < r; i++)
				for (int a = 0; a < 3; a++) {
					assertEquals((i - r / 2.0) / r * df[a], tf.k(s * r + i, a), 1e-15);
					assertEquals(i / (2.0 * r) * dout[a], to.k(s * r + i, a), 1e-15);
				}
		}
	}

	// -- PROPELLER --

	@Test
	void propellerBladesAreRotatedParallelLines() {
		final int r = 32 + random.nextInt(32), l = 4 + random.nextInt(12), b = 3 + random.nextInt(10);
		final Propeller design = new Propeller(r, l, b);
		final Trajectory t = design.build();
		assertShape(t, 2, r, l * b);
		for (int p = 0; p < t.count(); p++) assertTrue(radius(t, p) <= 0.5 + 1e-12, "point " + p);
		for (int blade = 0; blade < b; blade++) {
			final double theta = Math.PI * blade / b;
			for (int line = 0; line < l; line++) {
				final int first = (blade * l + line) * r;
				// every line of a blade runs along the blade's readout direction (sin θ, cos θ) ...
				final double dx = t.k(first + r - 1, 0) - t.k(first, 0), dy = t.k(first + r - 1, 1) - t.k(first, 1);
				assertEquals(0, dx * Math.cos(theta) - dy * Math.sin(theta), 1e-12);
				// ... at offset (l − L/2)/R across it
				final double offset = t.k(first, 0) * Math.cos(theta) - t.k(first, 1) * Math.sin(theta);
				assertEquals((line - l / 2.0) / r, offset, 1e-12);
			}
		}
	}

	// -- random --

	@Test
	void uniformRandomIsReproducibleAndInRange() {
		final long seed = random.nextLong();
		final Trajectory a = new UniformRandom(5000, 3, seed).build(), b = new UniformRandom(5000, 3, seed).build();
		assertArrayEquals(a.coords(), b.coords());
		double mean = 0;
		for (final double v : a.coords()) {
			assertTrue(v >= -0.5 && v < 0.5);
			mean += v;
		}
		assertEquals(0, mean / a.coords().length, 0.02);
		assertShape(new UniformRandom(60, 2, 1).shaped(12).build(), 2, 12, 5);
	}

	// -- spiral --

	@Test
	void spiralRespectsGradientAndSlewLimits() {
		// a few designs: uniform and variable density, single and interleaved, amplitude- and slew-limited
		final double[][] cases = { // fov mm, matrix, interleaves, Gmax mT/m, Smax T/m/s, dwell us, alpha
			{ 240, 64, 4, 40, 150, 2, 1 }, { 220, 96, 8, 40, 150, 2, 1.5 }, { 60, 128, 16, 40, 150, 4, 1 },
			{ 200, 64, 1, 25, 80, 2, 2 }, { 40 + random.nextInt(200), 32 + random.nextInt(64), 1 + random.nextInt(12),
				20 + random.nextInt(60), 50 + random.nextInt(200), 1 + random.nextInt(4), 1 + random.nextDouble() } };
		for (final double[] c : cases) {
			final Spiral design = new Spiral(c[0], (int) c[1], (int) c[2], c[3], c[4], c[5], c[6],
				Spiral.GAMMA_PROTON_MHZ_PER_T);
			final Trajectory t = design.build();
			final int n = t.readout();
			assertShape(t, 2, n, (int) c[2]);
			final double rate = Spiral.GAMMA_PROTON_MHZ_PER_T * 1e6 * c[0] * 1e-3 / c[1]; // normalised k / s / (T/m)
			final double dt = c[5] * 1e-6;
			final double gMax = c[3] * 1e-3, sMax = c[4];
			for (int shot = 0; shot < t.shots(); shot++) {
				final int o = shot * n;
				assertEquals(0, radius(t, o), 1e-15, "starts at the centre");
				for (int i = 0; i + 1 < n; i++) {
					final double g = Math.hypot(t.k(o + i + 1, 0) - t.k(o + i, 0), t.k(o + i + 1, 1) - t.k(o + i, 1)) /
						(rate * dt);
					if (!(g <= gMax)) fail("gradient " + g + " T/m > " + gMax + " at sample " + i + " of " + design.describe());
				}
				for (int i = 0; i + 2 < n; i++) {
					final double sx = t.k(o + i + 2, 0) - 2 * t.k(o + i + 1, 0) + t.k(o + i, 0);
					final double sy = t.k(o + i + 2, 1) - 2 * t.k(o + i + 1, 1) + t.k(o + i, 1);
					final double s = Math.hypot(sx, sy) / (rate * dt * dt);
					if (!(s <= sMax)) fail("slew " + s + " T/m/s > " + sMax + " at sample " + i + " of " + design.describe());
					// time-optimal: one of the two limits is (nearly) reached at every moment away from the very centre
					// (where, for α > 1, the curvature of k = τ^α e^{iωτ} diverges and limits the speed)
					final double g = Math.hypot(t.k(o + i + 2, 0) - t.k(o + i + 1, 0), t.k(o + i + 2, 1) -
						t.k(o + i + 1, 1)) / (rate * dt);
					if (radius(t, o + i) >= 0.05 && Math.max(g / gMax, s / sMax) <= 0.9) fail("neither limit reached at " +
						"sample " + i + ": " + g + " T/m, " + s + " T/m/s, " + design.describe());
				}
				// reaches the edge of k-space, never beyond: within one dwell step of ½
				final double last = radius(t, o + n - 1);
				assertTrue(last <= 0.5 && last >= 0.5 - rate * gMax * dt, "last |k| = " + last);
				for (int i = 0; i < n; i++) if (radius(t, o + i) > 0.5) fail("|k| > 0.5 at sample " + i);
			}
			// no faster than travelling the curve's length at the gradient limit
			double length = 0;
			for (int i = 0; i + 1 < n; i++) length += Math.hypot(t.k(i + 1, 0) - t.k(i, 0), t.k(i + 1, 1) - t.k(i, 1));
			assertTrue(design.duration() >= length / (rate * gMax), "duration below the gradient-limited bound");
		}
	}

	@Test
	void spiralInterleavesAreRotated() {
		final int shots = 2 + random.nextInt(6);
		final Trajectory t = new Spiral(220, 48, shots).build();
		final int n = t.readout();
		for (int s = 1; s < shots; s++) {
			final double rot = 2 * Math.PI * s / shots, c = Math.cos(rot), sn = Math.sin(rot);
			for (int i = 0; i < n; i += 7) {
				assertEquals(c * t.k(i, 0) - sn * t.k(i, 1), t.k(s * n + i, 0), 1e-12);
				assertEquals(sn * t.k(i, 0) + c * t.k(i, 1), t.k(s * n + i, 1), 1e-12);
			}
		}
	}

	@Test
	void spiralUniformDensityMeetsNyquistAtTheEdge() {
		// Archimedean: radius grows by interleaves/N cycles/pixel per turn
		final int n = 64, shots = 4;
		final Spiral design = new Spiral(240, n, shots);
		assertEquals(n / (2.0 * shots), design.turns(), 1e-12);
		final Trajectory t = design.build();
		// count turns by unwrapping the angle
		double turns = 0, prev = Math.atan2(t.k(1, 1), t.k(1, 0));
		for (int i = 2; i < t.readout(); i++) {
			final double a = Math.atan2(t.k(i, 1), t.k(i, 0));
			turns += Math.IEEEremainder(a - prev, 2 * Math.PI);
			prev = a;
		}
		assertEquals(design.turns(), turns / (2 * Math.PI), 0.05);
	}

	@Test
	void spiralResampledToGivenCount() {
		final Trajectory t = new Spiral(64, 64, 3).withReadoutSamples(500).build();
		assertShape(t, 2, 500, 3);
		assertEquals(0.5, radius(t, 499), 1e-9);
	}

	@Test
	void badParametersAreClearErrors() {
		assertThrows(InvalidInputException.class, () -> new Radial(1, 10, false));
		assertThrows(InvalidInputException.class, () -> new Radial(10, 0, false));
		assertThrows(InvalidInputException.class, () -> new GoldenAngleRadial(10, 10, 0));
		assertThrows(InvalidInputException.class, () -> new Cartesian(new int[] { 4 }));
		assertThrows(InvalidInputException.class, () -> new Propeller(16, 16, 3));
		final InvalidInputException e = assertThrows(InvalidInputException.class,
			() -> new Spiral(240, 64, 4, -1, 150, 2, 1, 42.577));
		assertTrue(e.getMessage().contains("max gradient") && e.getMessage().contains("-1"), e.getMessage());
		assertThrows(InvalidInputException.class, () -> new Spiral(240, 64, 4, 40, 150, 2, 0.5, 42.577));
		assertThrows(InvalidInputException.class, () -> new UniformRandom(10, 4, 1));
	}
}
