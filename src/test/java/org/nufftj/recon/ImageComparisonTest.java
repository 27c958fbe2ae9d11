package org.nufftj.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;

class ImageComparisonTest {

	@Test
	void figuresFollowTheirDefinitions() {
		final Random r = new Random();
		final float[] ref = new float[500], test = new float[500];
		double rr = 0, peak = 0;
		final double a = 0.5 + r.nextDouble();
		for (int i = 0; i < ref.length; i++) {
			ref[i] = (float) r.nextGaussian();
			test[i] = (float) (a * ref[i]);
			rr += ref[i] * ref[i];
			peak = Math.max(peak, Math.abs(ref[i]));
		}
		final ImageComparison c = ImageComparison.of(ref, test);
		assertEquals(Math.abs(a - 1), c.nrmse(), 1e-6);
		assertEquals(0, c.scaledNrmse(), 1e-3);
		assertEquals(1 / a, c.scale(), 1e-6);
		assertEquals(Math.abs(a - 1) * peak, c.maxAbsDifference(), 1e-5);
		assertEquals(20 * Math.log10(peak / (Math.abs(a - 1) * Math.sqrt(rr / 500))), c.psnr(), 1e-3);
		assertEquals(test[7] - ref[7], c.difference()[7], 0);
		assertEquals(Double.POSITIVE_INFINITY, ImageComparison.of(ref, ref).psnr());
		assertThrows(InvalidInputException.class, () -> ImageComparison.of(ref, new float[3]));
	}
}
