package org.nufftj.trajectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.io.TrajectoryFiles;

/**
 * Detection of 2D radial lines (the structure the GPU's output-driven spreader needs): every radial design and radial
 * files qualify, with the fitted direction, centre and spacing of each shot; every other design is rejected with a
 * reason.
 */
class RadialLinesTest {

	private final Random random = new Random();

	/** Every sample of {@code t} equals the fitted (i − c)·Δ·u to {@code tol}. */
	private static void assertFits(final RadialLines l, final Trajectory t, final double tol) {
		assertEquals(t.readout(), l.readout(), "readout");
		assertEquals(t.shots(), l.shots(), "shots");
		for (int s = 0; s < l.shots(); s++) {
			assertEquals(1, Math.hypot(l.directionX(s), l.directionY(s)), 1e-12, "unit direction");
			for (int i = 0; i < l.readout(); i++)
				for (int a = 0; a < 2; a++)
					assertEquals(t.k(s * t.readout() + i, a), l.k(s, i, a), tol, "shot " + s + " sample " + i + " axis " + a);
		}
	}

	private static RadialLines detected(final Trajectory t) {
		final RadialLines l = RadialLines.detect(t).orElse(null);
		assertNotNull(l, t + " not detected: " + RadialLines.mismatch(t));
		assertNull(RadialLines.mismatch(t));
		return l;
	}

	private static void assertRejected(final Trajectory t) {
		assertFalse(RadialLines.detect(t).isPresent(), t + " detected as radial lines");
		final String why = RadialLines.mismatch(t);
		assertNotNull(why);
		assertFalse(why.isBlank());
	}

	// -- radial designs --

	@Test
	void uniformRadialHasItsAnglesCentreAndSpacing() {
		final int r = 2 * (8 + random.nextInt(60)), s = 3 + random.nextInt(40);
		final Radial design = new Radial(r, s, false);
		final RadialLines l = detected(design.build());
		assertFits(l, design.build(), 1e-13);
		for (int q = 0; q < s; q++) {
			assertEquals(r / 2.0, l.centre(q), 1e-9, "full spoke passes k = 0 at sample R/2");
			assertEquals(1.0 / r, l.spacing(q), 1e-15, "spacing 1/R");
			// Spokes run along (sin θ, cos θ): the line's angle from k_x is π/2 − θ (mod π).
			final double expected = Math.floorMod(Math.round(1e9 * (Math.PI / 2 - design.angle(q))),
				Math.round(1e9 * Math.PI)) / 1e9;
			final double d = Math.abs(l.lineAngle(q) - expected);
			assertTrue(d < 1e-8 || Math.abs(d - Math.PI) < 1e-8, "spoke " + q + " line angle " + l.lineAngle(q) +
				" expected " + expected);
		}
	}

	@Test
	void halfSampleShiftMovesTheCentreByHalfASample() {
		final int r = 2 * (8 + random.nextInt(60)), s = 3 + random.nextInt(40);
		final Trajectory t = new Radial(r, s, random.nextBoolean()).withHalfSampleShift().build();
		final RadialLines l = detected(t);
		assertFits(l, t, 1e-13);
		for (int q = 0; q < s; q++) assertEquals(r / 2.0 - 0.5, l.centre(q), 1e-9);
	}

	@Test
	void goldenAndTinyGoldenAnglesQualify() {
		for (final int tiny : new int[] { 1, 2, 5, 7, 23 }) {
			final Trajectory t = new GoldenAngleRadial(2 * (4 + random.nextInt(80)), 1 + random.nextInt(300), tiny,
				random.nextInt(1000)).build();
			assertFits(detected(t), t, 1e-13);
		}
	}

	@Test
	void kindsThatAreRadialQualify() {
		for (final TrajectoryKind k : new TrajectoryKind[] { TrajectoryKind.RADIAL, TrajectoryKind.GOLDEN_ANGLE,
			TrajectoryKind.TINY_GOLDEN })
		{
			final Trajectory t = k.fullySampled(new int[] { 64, 48 }).build();
			assertFits(detected(t), t, 1e-13);
		}
	}

	@Test
	void centreOutAndOffCentreSpokesQualify() {
		// Centre-out half spokes (c = 0) and spokes whose samples do not reach k = 0 (c outside the readout).
		final int r = 32, s = 9;
		for (final double c : new double[] { 0, -3.25, r + 7.5 }) {
			final double[] k = new double[2 * r * s];
			final double delta = 0.45 / (Math.abs(c) + r);
			for (int q = 0; q < s; q++) {
				final double th = random.nextDouble() * 2 * Math.PI;
				for (int i = 0; i < r; i++) {
					k[2 * (q * r + i)] = (i - c) * delta * Math.cos(th);
					k[2 * (q * r + i) + 1] = (i - c) * delta * Math.sin(th);
				}
			}
			final Trajectory t = new Trajectory(2, k, r, s, "spokes c=" + c);
			final RadialLines l = detected(t);
			assertFits(l, t, 1e-13);
			for (int q = 0; q < s; q++) {
				assertEquals(c, l.centre(q), 1e-9);
				assertEquals(delta, l.spacing(q), 1e-15);
			}
		}
	}

	@Test
	void floatRoundedCoordinatesInCyclesPerFovQualify() {
		// What a BART .cfl holds: coordinates k·N as floats. For R = 1024 the rounding is ~1e-5 of the spacing.
		final int n = 512, r = 2 * n, s = 64;
		final Trajectory exact = new GoldenAngleRadial(r, s).build();
		final double[] rounded = new double[exact.coords().length];
		for (int i = 0; i < rounded.length; i++) rounded[i] = (float) (exact.coords()[i] * n) / (double) n;
		final Trajectory t = new Trajectory(2, rounded, r, s, "float-rounded golden angle");
		assertFits(detected(t), t, 1e-6 / r + 1e-7);
	}

	@Test
	void bartSampleFileQualifies() throws IOException {
		final Path file = Paths.get("sample-data", "bart", "radial_traj");
		Assumptions.assumeTrue(Files.exists(Paths.get(file + ".cfl")), "sample-data/bart/radial_traj.cfl not found");
		final Trajectory t = TrajectoryFiles.readCfl(file, new int[] { 64, 64 });
		final RadialLines l = detected(t);
		assertEquals(128, l.readout());
		assertEquals(101, l.shots());
		assertFits(l, t, 1e-6);
	}

	@Test
	void radialWrittenAndReadBackAsCflQualifies(@TempDir final Path dir) throws IOException {
		final int[] size = { 96, 80 };
		final Trajectory t = new Radial(192, 151, false).withHalfSampleShift().build();
		TrajectoryFiles.writeCfl(dir.resolve("traj"), t, size);
		final Trajectory back = TrajectoryFiles.readCfl(dir.resolve("traj"), size);
		assertFits(detected(back), back, 1e-6);
	}

	// -- everything else --

	@Test
	void otherDesignsAreRejected() {
		final int[] size = { 64, 48 };
		for (final TrajectoryKind k : new TrajectoryKind[] { TrajectoryKind.SPIRAL, TrajectoryKind.PROPELLER,
			TrajectoryKind.CARTESIAN, TrajectoryKind.RANDOM })
		{
			assertRejected(k.fullySampled(size).build());
		}
		assertRejected(new UniformRandom(4000, 2, random.nextLong()).shaped(2).build());
		assertRejected(TrajectoryKind.STACK_OF_STARS.fullySampled(new int[] { 24, 20, 8 }).build());
		assertRejected(TrajectoryKind.RADIAL_3D.fullySampled(new int[] { 24, 20, 16 }).build());
	}

	@Test
	void radialPointsInAnotherShapeOrSubsampledAreRejected() {
		final Trajectory t = new Radial(64, 30, false).build();
		assertRejected(t.reshape(32, 60).reshape(48, 40)); // shots no longer one spoke each
		assertRejected(t.reshape(64 * 30, 1)); // one "shot" of many spokes
		final int[] pick = new int[500];
		for (int i = 0; i < pick.length; i++) pick[i] = random.nextInt(t.count());
		assertRejected(t.select(pick, "subsampled radial").reshape(50, 10));
	}

	@Test
	void cartesianIsRejectedUnlessItIsOneLineThroughTheCentre() {
		assertRejected(new Cartesian(new int[] { 16, 16 }).build());
		// A single line through k = 0 is a spoke.
		final double[] k = new double[2 * 16];
		for (int i = 0; i < 16; i++) k[2 * i] = (i - 8) / 16.0;
		assertEquals(8, detected(new Trajectory(2, k, 16, 1, "centre line")).centre(0), 1e-12);
	}

	@Test
	void perturbedSpokeIsRejectedAndNamed() {
		final Trajectory t = new Radial(64, 20, false).build();
		final double[] k = t.coords().clone();
		k[2 * (7 * 64 + 13) + 1] += 1e-4; // shot 7, sample 13 off the line
		final String why = RadialLines.mismatch(new Trajectory(2, k, 64, 20, "perturbed"));
		assertNotNull(why);
		assertTrue(why.contains("shot 7 sample 13"), why);
		final double[] uneven = t.coords().clone();
		for (int i = 0; i < 64; i++) { // shot 3 spaced quadratically along its line
			uneven[2 * (3 * 64 + i)] *= Math.abs(i - 32) / 32.0;
			uneven[2 * (3 * 64 + i) + 1] *= Math.abs(i - 32) / 32.0;
		}
		assertTrue(RadialLines.mismatch(new Trajectory(2, uneven, 64, 20, "uneven")).startsWith("shot 3"));
		assertRejected(new Trajectory(2, new double[2 * 64], 64, 1, "all at k = 0"));
	}
}
