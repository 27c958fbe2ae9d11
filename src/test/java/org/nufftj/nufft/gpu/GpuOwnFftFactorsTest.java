package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.ParameterChoice;

/**
 * The own GPU FFT's plan of passes (host logic, no GPU; the kernels run in GpuOwnFftTest on the device): radices 8
 * first, then 4, 2, 3, 5, 7, whose product is the length; every grid length the parameter choice makes can be
 * planned; other primes are refused naming the length and the factor.
 */
class GpuOwnFftFactorsTest {

	@Test
	void radicesMultiplyToTheLength() {
		assertArrayEquals(new int[] { 8, 8, 2, 3 }, GpuOwnFft.factors(384));
		assertArrayEquals(new int[] { 2, 3, 5, 7 }, GpuOwnFft.factors(210));
		assertArrayEquals(new int[] {}, GpuOwnFft.factors(1));
		for (int n = 1; n <= 4096; n++) {
			int m = n;
			for (final int p : new int[] { 2, 3, 5, 7 }) while (m % p == 0) m /= p;
			if (m != 1) continue;
			int prod = 1;
			for (final int r : GpuOwnFft.factors(n)) {
				assertTrue(r == 2 || r == 3 || r == 4 || r == 5 || r == 7 || r == 8, n + ": radix " + r);
				prod *= r;
			}
			assertEquals(n, prod, "product of the radices of " + n);
		}
	}

	@Test
	void everyGridLengthOfTheParameterChoiceIsPlanned() {
		for (int n = 1; n <= 3000; n++) GpuOwnFft.factors(ParameterChoice.nextSmooth(n));
	}

	@Test
	void otherPrimesAreRefused() {
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> GpuOwnFft.factors(2 * 3 * 11));
		assertTrue(e.getMessage().contains("66") && e.getMessage().contains("11"), e.getMessage());
	}
}
