package org.nufftj.recon.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.recon.CoilCombination;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Trajectory;

/** GpuGridding's host logic (no GPU): which plans take the device path, and what it holds on the device. */
class GpuGriddingHostTest {

	@Test
	void cpuPlansKeepTheHostPath() {
		final int[] size = { 16, 12 };
		final Trajectory t = new GoldenAngleRadial(32, 20).build();
		try (NufftPlan plan = Nufft.plan(size, NufftOptions.defaults())) {
			plan.setPoints(t);
			for (final CoilCombination c : CoilCombination.values())
				assertNull(GpuGridding.open(plan, new float[t.count()], 4, size, c), c.key());
		}
	}

	@Test
	void residentBytesCountSamplesCoilImagesAndCombination() {
		final long m = 1000, p = 256;
		final int coils = 8;
		final long base = 8 * coils * (m + p) + 4 * m; // complex float samples and coil images, float weights
		assertEquals(base, GpuGridding.residentBytes(m, p, coils, CoilCombination.NONE));
		assertEquals(base + 8 * p, GpuGridding.residentBytes(m, p, coils, CoilCombination.SOS));
		assertEquals(base + 8 * p + 8 * coils, GpuGridding.residentBytes(m, p, coils, CoilCombination.WALSH));
	}
}
