package org.nufftj.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.InvalidInputException;
import org.nufftj.trajectory.Radial;
import org.nufftj.trajectory.StackOfStars;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.UniformRandom;

class TrajectoryFilesTest {

	@TempDir
	Path dir;

	private final Random random = new Random();

	// -- round trips --

	@Test
	void csvRoundTripIsExactInCyclesPerPixel() throws IOException {
		for (final int d : new int[] { 2, 3 }) {
			final Trajectory t = new UniformRandom(60, d, random.nextLong()).shaped(12).build();
			final Path f = dir.resolve("t" + d + ".csv");
			TrajectoryFiles.writeCsv(f, t);
			final Trajectory back = TrajectoryFiles.readCsv(f, null);
			assertArrayEquals(t.coords(), back.coords());
			assertEquals(12, back.readout());
			assertEquals(5, back.shots());
			assertEquals(d, back.dimensions());
		}
	}

	@Test
	void csvRoundTripInCyclesPerFov() throws IOException {
		final int[] size = { 64, 48 };
		final Trajectory t = new Radial(32, 9, false).build();
		final Path f = dir.resolve("fov.csv");
		TrajectoryFiles.writeCsv(f, t, size);
		assertTrue(Files.readString(f).contains("# units: cycles/fov"));
		final Trajectory back = TrajectoryFiles.readCsv(f, size);
		for (int i = 0; i < t.coords().length; i++) assertEquals(t.coords()[i], back.coords()[i], 1e-16);
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> TrajectoryFiles.readCsv(f, null));
		assertTrue(e.getMessage().contains("fov.csv") && e.getMessage().contains("image size"), e.getMessage());
	}

	@Test
	void csvWithoutHeaderOrComments() throws IOException {
		final Path f = dir.resolve("plain.csv");
		Files.writeString(f, "0.1, -0.2\n\n-0.5 0.25\n0;0\n");
		final Trajectory t = TrajectoryFiles.readCsv(f, null);
		assertArrayEquals(new double[] { 0.1, -0.2, -0.5, 0.25, 0, 0 }, t.coords());
		assertEquals(3, t.readout());
		assertEquals(1, t.shots());
	}

	@Test
	void cflRoundTrip2dAnd3d() throws IOException {
		final Trajectory t2 = new Radial(16, 5, true).build();
		TrajectoryFiles.writeCfl(dir.resolve("r2"), t2, new int[] { 8, 8 });
		final Trajectory b2 = TrajectoryFiles.readCfl(dir.resolve("r2"), new int[] { 8, 8 });
		assertEquals(2, b2.dimensions());
		assertEquals(16, b2.readout());
		assertEquals(5, b2.shots());
		for (int i = 0; i < t2.coords().length; i++) assertEquals(t2.coords()[i], b2.coords()[i], 1e-7);
		final Trajectory t3 = new StackOfStars(16, 4, 6, 1).build();
		final int[] size3 = { 8, 8, 6 };
		TrajectoryFiles.writeCfl(dir.resolve("r3.cfl"), t3, size3);
		final Trajectory b3 = TrajectoryFiles.read(dir.resolve("r3.cfl"), size3);
		assertEquals(3, b3.dimensions());
		for (int i = 0; i < t3.coords().length; i++) assertEquals(t3.coords()[i], b3.coords()[i], 1e-7);
	}

	@Test
	void readsBartRadialForAnImageOfHalfTheReadout() throws Exception {
		Assumptions.assumeTrue(BartCli.available(), "bart is not installed (CI installs it)");
		// BART users: traj -x 2N (cycles/FOV of a 2N field), then scale by ½ for an N-pixel image
		final int n = 8 + random.nextInt(24), spokes = 3 + random.nextInt(20);
		BartCli.run(dir, "traj", "-r", "-c", "-x", "" + 2 * n, "-y", "" + spokes, "t");
		BartCli.run(dir, "scale", "0.5", "t", "t_half");
		final Trajectory t = TrajectoryFiles.readCfl(dir.resolve("t_half"), new int[] { n, n });
		final Trajectory ours = new Radial(2 * n, spokes, false).build();
		assertEquals(ours.readout(), t.readout());
		assertEquals(ours.shots(), t.shots());
		for (int i = 0; i < t.coords().length; i++) assertEquals(ours.coords()[i], t.coords()[i], 1e-6, "value " + i);
	}

	// -- bad files --

	private InvalidInputException csvError(final String name, final String content, final int[] size) throws IOException {
		final Path f = dir.resolve(name);
		Files.writeString(f, content);
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> TrajectoryFiles.readCsv(f, size));
		assertTrue(e.getMessage().contains(name), "names the file: " + e.getMessage());
		return e;
	}

	@Test
	void badCsvFilesNameLineAndProblem() throws IOException {
		InvalidInputException e = csvError("nan.csv", "kx,ky\n0.1,0.2\n0.1,NaN\n", null);
		assertTrue(e.getMessage().contains(":3") && e.getMessage().contains("ky") && e.getMessage().contains("NaN"),
			e.getMessage());
		e = csvError("cols.csv", "0.1,0.2\n0.1,0.2,0.3\n", null);
		assertTrue(e.getMessage().contains(":2") && e.getMessage().contains("found 3") &&
			e.getMessage().contains("expected 2"), e.getMessage());
		e = csvError("range.csv", "# units: cycles/pixel\n0.1,0.2\n0.7,0.2\n", null);
		assertTrue(e.getMessage().contains(":3") && e.getMessage().contains("0.7") &&
			e.getMessage().contains("[-0.5, 0.5]"), e.getMessage());
		e = csvError("rangefov.csv", "# units: cycles/fov\n10,0.2\n40,0.2\n", new int[] { 64, 64 });
		assertTrue(e.getMessage().contains(":3") && e.getMessage().contains("40"), e.getMessage());
		e = csvError("word.csv", "0.1,0.2\n0.1,abc\n", null);
		assertTrue(e.getMessage().contains(":2") && e.getMessage().contains("abc"), e.getMessage());
		e = csvError("header.csv", "x,y\n0.1,0.2\n", null);
		assertTrue(e.getMessage().contains(":1") && e.getMessage().contains("kx"), e.getMessage());
		e = csvError("units.csv", "# units: radians\n0.1,0.2\n", null);
		assertTrue(e.getMessage().contains("radians"), e.getMessage());
		e = csvError("shape.csv", "# shape: 4 x 2\n0.1,0.2\n", null);
		assertTrue(e.getMessage().contains("8") && e.getMessage().contains("found 1"), e.getMessage());
		e = csvError("empty.csv", "# nothing\n", null);
		assertTrue(e.getMessage().contains("no trajectory points"), e.getMessage());
		e = csvError("onecol.csv", "0.1\n", null);
		assertTrue(e.getMessage().contains("found 1 columns"), e.getMessage());
		final InvalidInputException missing = assertThrows(InvalidInputException.class,
			() -> TrajectoryFiles.readCsv(dir.resolve("missing.csv"), null));
		assertTrue(missing.getMessage().contains("missing.csv") && missing.getMessage().contains("not found"));
	}

	@Test
	void badCflFilesNameIndexAndProblem() throws IOException {
		// wrong first dimension
		Cfl.write(dir.resolve("two"), new long[] { 2, 4 }, new float[16]);
		InvalidInputException e = assertThrows(InvalidInputException.class,
			() -> TrajectoryFiles.readCfl(dir.resolve("two"), new int[] { 8, 8 }));
		assertTrue(e.getMessage().contains("two.cfl") && e.getMessage().contains("first dimension 3") &&
			e.getMessage().contains("[2, 4]"), e.getMessage());
		// NaN at point 3
		final float[] data = new float[2 * 3 * 5];
		data[2 * (3 * 3 + 1)] = Float.NaN;
		Cfl.write(dir.resolve("nan"), new long[] { 3, 5 }, data);
		e = assertThrows(InvalidInputException.class, () -> TrajectoryFiles.readCfl(dir.resolve("nan"), new int[] { 8, 8 }));
		assertTrue(e.getMessage().contains("nan.cfl") && e.getMessage().contains("point 3") &&
			e.getMessage().contains("ky") && e.getMessage().contains("NaN"), e.getMessage());
		// out of range for the image size: 5 cycles/FOV on an 8-pixel image (limit 4)
		final float[] far = new float[2 * 3 * 5];
		far[2 * (3 * 2)] = 5;
		Cfl.write(dir.resolve("far"), new long[] { 3, 5 }, far);
		e = assertThrows(InvalidInputException.class, () -> TrajectoryFiles.readCfl(dir.resolve("far"), new int[] { 8, 8 }));
		assertTrue(e.getMessage().contains("point 2") && e.getMessage().contains("5.0") &&
			e.getMessage().contains("[-4.0, 4.0]"), e.getMessage());
		assertEquals(2, TrajectoryFiles.readCfl(dir.resolve("far"), new int[] { 16, 16 }).dimensions());
		// non-zero kz for a 2D image
		final float[] kz = new float[2 * 3 * 5];
		kz[2 * (3 * 4 + 2)] = 1;
		Cfl.write(dir.resolve("kz"), new long[] { 3, 5 }, kz);
		e = assertThrows(InvalidInputException.class, () -> TrajectoryFiles.readCfl(dir.resolve("kz"), new int[] { 8, 8 }));
		assertTrue(e.getMessage().contains("point 4") && e.getMessage().contains("kz"), e.getMessage());
		assertEquals(3, TrajectoryFiles.readCfl(dir.resolve("kz"), new int[] { 8, 8, 4 }).dimensions());
		// missing
		e = assertThrows(InvalidInputException.class,
			() -> TrajectoryFiles.readCfl(dir.resolve("none"), new int[] { 8, 8 }));
		assertTrue(e.getMessage().contains("none.hdr"), e.getMessage());
	}

	@Test
	void writeLeavesNoTemporaryFiles() throws IOException {
		final Trajectory t = new Radial(8, 3, false).build();
		TrajectoryFiles.writeCsv(dir.resolve("a.csv"), t);
		TrajectoryFiles.writeCfl(dir.resolve("a"), t, new int[] { 4, 4 });
		try (var s = Files.list(dir)) {
			assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".part") ||
				p.getFileName().toString().startsWith(".nufftj-")));
		}
	}
}
