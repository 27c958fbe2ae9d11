package org.nufftj.trajectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;

class TrajectoryKindTest {

	@Test
	void parsesMenuWords() {
		assertEquals(TrajectoryKind.GOLDEN_ANGLE, TrajectoryKind.parse("golden angle"));
		assertEquals(TrajectoryKind.GOLDEN_ANGLE, TrajectoryKind.parse("Golden-Angle"));
		assertEquals(TrajectoryKind.TINY_GOLDEN, TrajectoryKind.parse("tiny golden"));
		assertEquals(TrajectoryKind.STACK_OF_STARS, TrajectoryKind.parse("stack of stars"));
		assertEquals(TrajectoryKind.RADIAL_3D, TrajectoryKind.parse("3D radial"));
		assertEquals(TrajectoryKind.PROPELLER, TrajectoryKind.parse("PROPELLER"));
		assertEquals(TrajectoryKind.CARTESIAN, TrajectoryKind.parse("Cartesian"));
		assertEquals(TrajectoryKind.SPIRAL, TrajectoryKind.parse(" spiral "));
		assertEquals(TrajectoryKind.FILE, TrajectoryKind.parse("from file"));
		for (final TrajectoryKind k : TrajectoryKind.values()) {
			assertEquals(k, TrajectoryKind.parse(k.label()));
			assertEquals(k, TrajectoryKind.parse(k.name()));
		}
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> TrajectoryKind.parse("rosette"));
		assertTrue(e.getMessage().contains("rosette") && e.getMessage().contains("golden angle"), e.getMessage());
	}

	@Test
	void designForGivesTheRequestedShape() {
		check(TrajectoryKind.CARTESIAN.designFor(new int[] { 16, 12 }, 32, 12), 2, 32, 12);
		check(TrajectoryKind.RADIAL.designFor(new int[] { 16, 16 }, 32, 25), 2, 32, 25);
		check(TrajectoryKind.GOLDEN_ANGLE.designFor(new int[] { 16, 16 }, 32, 25), 2, 32, 25);
		check(TrajectoryKind.TINY_GOLDEN.designFor(new int[] { 16, 16 }, 32, 25), 2, 32, 25);
		check(TrajectoryKind.SPIRAL.designFor(new int[] { 32, 32 }, 400, 4), 2, 400, 4);
		check(TrajectoryKind.STACK_OF_STARS.designFor(new int[] { 16, 16, 6 }, 32, 60), 3, 32, 60);
		check(TrajectoryKind.RADIAL_3D.designFor(new int[] { 16, 16, 16 }, 32, 100), 3, 32, 100);
		check(TrajectoryKind.PROPELLER.designFor(new int[] { 32, 32 }, 32, 48), 2, 32, 48);
		check(TrajectoryKind.RANDOM.designFor(new int[] { 8, 8, 8 }, 10, 7), 3, 10, 7);
	}

	@Test
	void designTakesWhatIsNotGivenFromTheFullySampledDefault() {
		final int n = 32, spokes = (int) Math.ceil(Math.PI / 2 * n);
		final int[] m = { n, n };
		check(TrajectoryKind.GOLDEN_ANGLE.design(m, 0, 0), 2, 2 * n, spokes);
		check(TrajectoryKind.GOLDEN_ANGLE.design(m, 40, 0), 2, 40, spokes);
		check(TrajectoryKind.GOLDEN_ANGLE.design(m, 0, 13), 2, 2 * n, 13);
		check(TrajectoryKind.GOLDEN_ANGLE.design(m, 40, 13), 2, 40, 13);
		check(TrajectoryKind.CARTESIAN.design(m, 0, 0), 2, n, n);
	}

	@Test
	void designForRejectsShapesThatDoNotFit() {
		assertThrows(InvalidInputException.class, () -> TrajectoryKind.CARTESIAN.designFor(new int[] { 16, 12 }, 20, 12));
		assertThrows(InvalidInputException.class, () -> TrajectoryKind.CARTESIAN.designFor(new int[] { 16, 12 }, 16, 11));
		assertThrows(InvalidInputException.class, () -> TrajectoryKind.RADIAL.designFor(new int[] { 16, 16, 16 }, 32, 9));
		assertThrows(InvalidInputException.class,
			() -> TrajectoryKind.STACK_OF_STARS.designFor(new int[] { 16, 16, 6 }, 32, 61));
		assertThrows(InvalidInputException.class, () -> TrajectoryKind.RADIAL_3D.designFor(new int[] { 16, 16 }, 32, 9));
		assertThrows(InvalidInputException.class, () -> TrajectoryKind.PROPELLER.designFor(new int[] { 32, 32 }, 32, 47));
		assertThrows(InvalidInputException.class, () -> TrajectoryKind.FILE.designFor(new int[] { 32, 32 }, 32, 4));
	}

	@Test
	void fullySampledDefaults() {
		final int n = 32;
		final int spokes = (int) Math.ceil(Math.PI / 2 * n);
		check(TrajectoryKind.RADIAL.fullySampled(new int[] { n, n }), 2, 2 * n, spokes);
		check(TrajectoryKind.GOLDEN_ANGLE.fullySampled(new int[] { n, n }), 2, 2 * n, spokes);
		check(TrajectoryKind.CARTESIAN.fullySampled(new int[] { n, n }), 2, n, n);
		check(TrajectoryKind.STACK_OF_STARS.fullySampled(new int[] { n, n, 8 }), 3, 2 * n, spokes * 8);
		check(TrajectoryKind.RADIAL_3D.fullySampled(new int[] { 8, 8, 8 }), 3, 16, (int) Math.ceil(Math.PI / 2 * 64));
		final Trajectory spiral = TrajectoryKind.SPIRAL.fullySampled(new int[] { n, n }).build();
		assertEquals(2, spiral.dimensions());
		final Trajectory prop = TrajectoryKind.PROPELLER.fullySampled(new int[] { n, n }).build();
		assertEquals(n, prop.readout());
		check(TrajectoryKind.RANDOM.fullySampled(new int[] { 8, 6 }), 2, 8, 6);
		assertThrows(InvalidInputException.class, () -> TrajectoryKind.FILE.fullySampled(new int[] { n, n }));
	}

	private static void check(final TrajectoryDesign d, final int dims, final int readout, final int shots) {
		final Trajectory t = d.build();
		assertEquals(dims, t.dimensions(), d.describe());
		assertEquals(readout, t.readout(), d.describe());
		assertEquals(shots, t.shots(), d.describe());
		assertTrue(!d.describe().isEmpty());
	}
}
