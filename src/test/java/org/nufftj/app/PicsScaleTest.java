package org.nufftj.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.TestSeeds;

/** BART's data scale rule ({@link Pics#bartScale}) on magnitudes whose sorted order is known. */
class PicsScaleTest {

	/** |a| a shuffled 1, 2, …, n with random phases. */
	private static float[] image(final int n, final float last, final Random random) {
		final float[] a = new float[2 * n];
		final int[] order = new int[n];
		for (int i = 0; i < n; i++) order[i] = i;
		for (int i = n - 1; i > 0; i--) {
			final int j = random.nextInt(i + 1), t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		for (int i = 0; i < n; i++) {
			final float mag = order[i] == n - 1 ? last : order[i] + 1;
			final double ph = 2 * Math.PI * random.nextDouble();
			a[2 * i] = (float) (mag * Math.cos(ph));
			a[2 * i + 1] = (float) (mag * Math.sin(ph));
		}
		return a;
	}

	@Test
	void p90UnlessTheMaximumIsAnOutlier() {
		final long seed = TestSeeds.fresh();
		final Random random = new Random(seed);
		// Sorted magnitudes 1…100: median = [50] = 51, p90 = [90] = 91, max = 100; 100 − 91 < 2·(91 − 51): p90.
		assertEquals(91, Pics.bartScale(image(100, 100, random)), 1e-4, "seed " + seed);
		// The largest raised to 200: 200 − 91 = 109 ≥ 80: max.
		assertEquals(200, Pics.bartScale(image(100, 200, random)), 1e-3, "seed " + seed);
		// All zero: 1.
		assertEquals(1, Pics.bartScale(new float[20]), 0.0);
	}
}
