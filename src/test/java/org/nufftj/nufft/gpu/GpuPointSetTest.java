package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.kernel.Kernel;
import org.nufftj.kernel.KernelType;
import org.nufftj.kernel.Kernels;

/** GpuPointSet's host logic (no GPU): the float kernel arguments it uploads. */
class GpuPointSetTest {

	/**
	 * Samples within float rounding of a cell boundary (t = ±1e-16 … ±1e-8 off an integer, as an axis-aligned spoke's
	 * r·cos(π/2) gives) keep every float tap strictly inside the support where the double taps are, so the exponential of
	 * semicircle's e^{−β} edge weight is not dropped: each float tap's ψ within 1e-6 of the double tap's (the first and
	 * last taps; plain rounding would give 0 against 1e-4 at W = 4). Offsets away from the ends are plain casts.
	 */
	@Test
	void floatOffsetsKeepTapsInsideTheSupport() {
		final Random r = new Random();
		for (final int w : new int[] { 4, 5, 6 }) {
			final Kernel k = Kernels.create(KernelType.EXP_SEMICIRCLE, w, 2);
			final double[] off = new double[4000];
			for (int i = 0; i < off.length; i++) {
				final double tiny = Math.pow(10, -8 - 8 * r.nextDouble()) * (r.nextBoolean() ? 1 : -1);
				final double t = i < 2000 ? r.nextInt(200) - 100 + tiny : 200 * r.nextDouble() - 100;
				off[i] = Math.ceil(t - w / 2.0) - t; // GpuPoints' first cell l0 = ⌈t − W/2⌉, off = l0 − t
			}
			final float[] f = GpuPointSet.floatOffsets(off, w);
			for (int i = 0; i < off.length; i++) {
				if (off[i] > -w / 2.0) assertTrue(f[i] > -w / 2f, "W " + w + ": " + off[i] + " -> " + f[i]);
				if (off[i] < -w / 2.0 + 1) {
					assertTrue(f[i] + (w - 1) < w / 2f, "W " + w + ": last tap of " + off[i] + " at " + (f[i] + w - 1));
				}
				assertTrue(Math.abs(f[i] - off[i]) <= 2.5e-7 * w, off[i] + " -> " + f[i]);
				for (final int j : new int[] { 0, w - 1 }) {
					final double exact = k.value(off[i] + j), single = k.value((double) f[i] + j);
					assertTrue(Math.abs(single - exact) <= 1e-6, "W " + w + " tap " + j + " of " + off[i] + ": " + single +
						" vs " + exact);
				}
				final float plain = (float) off[i];
				if (plain > -w / 2f && plain < -w / 2f + 1) assertEquals(plain, f[i], "plain cast away from the ends");
			}
		}
	}
}
