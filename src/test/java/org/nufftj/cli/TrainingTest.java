package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.io.Cfl;

/** The launcher's training run (Java 25+ ahead-of-time cache) runs both commands it is meant to record. */
class TrainingTest {

	@Test
	void trainingRunsAnAdjointAndAForwardOfTheSample(@TempDir final Path dir) throws Exception {
		final String sample = Path.of("sample-data", "bart", "radial").toAbsolutePath().toString();
		assertEquals(Main.OK, Training.run(sample, dir));
		final long[] k = Cfl.readDims(Path.of(sample)), t = Cfl.readDims(Path.of(sample + "_traj"));
		final long[] kspace = Cfl.readDims(dir.resolve("kspace"));
		// forward(adjoint(sample)) has the sample's layout: [1, readout, spokes, coils]
		assertArrayEquals(java.util.Arrays.copyOf(k, 4), java.util.Arrays.copyOf(kspace, 4));
		assertEquals(t[1], kspace[1]);
		assertTrue(Files.size(dir.resolve("image.cfl")) > 0);
	}

	@Test
	void aMissingSampleFailsWithAnExitCode(@TempDir final Path dir) {
		assertTrue(Training.run(dir.resolve("absent").toString(), dir) != Main.OK);
	}
}
