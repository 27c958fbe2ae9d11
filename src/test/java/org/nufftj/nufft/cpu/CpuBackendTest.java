package org.nufftj.nufft.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.AbstractBackendTest;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;

/** The backend contract on the CPU, and what only the CPU promises: wrap is the array itself, plans borrow its pool. */
class CpuBackendTest extends AbstractBackendTest {

	@Override
	protected Backend open() {
		return new CpuBackend(3);
	}

	@Test
	void wrapIsTheArrayItself() {
		final float[] a = { 1, 2, 3, 4 };
		try (Buffer b = backend.wrap(a)) {
			backend.scale(b, 2);
			assertEquals(8f, a[3], "a write through the buffer is a write to the array");
			a[0] = 7;
			final float[] r = new float[4];
			backend.read(b, r, 0);
			assertEquals(7f, r[0]);
			backend.scale(b.slice(2, 2), 0);
			assertEquals(0f, a[2]);
		}
	}

	@Test
	void plansBorrowTheBackendsWorkers() {
		final CpuBackend cpu = (CpuBackend) backend;
		try (NufftPlan plan = cpu.plan(new int[] { 16, 16 }, NufftOptions.defaults().withThreads(7))) {
			assertEquals("cpu (3 threads)", plan.backend(), "the options' threads are ignored: the backend's pool");
			assertSame(cpu.workers(), ((CpuNufftPlan) plan).workers());
		}
		// Closing the plan left the pool running: the backend still works.
		try (Buffer b = backend.allocate(1 << 18, org.nufftj.nufft.Precision.FLOAT)) {
			backend.fill(b, 1, 0);
			assertEquals(Math.sqrt(1 << 17), backend.norm(b), 1e-9);
		}
	}

	/** Nufft.plan's plan owns a backend of its own: its stage API takes that backend's buffers; both close together. */
	@Test
	void aConveniencePlanOwnsItsBackend() {
		final NufftPlan plan = org.nufftj.nufft.Nufft.plan(new int[] { 8, 8 }, NufftOptions.defaults().withThreads(2));
		final Backend own = org.nufftj.nufft.Nufft.backendOf(plan);
		assertEquals("cpu (2 threads)", own.name());
		plan.setPoints(new org.nufftj.trajectory.Trajectory(2, new double[] { 0.1, -0.2, 0.3, 0.05 }, "two points"));
		try (Buffer x = own.allocate(128, org.nufftj.nufft.Precision.FLOAT); Buffer y = own.allocate(4,
			org.nufftj.nufft.Precision.FLOAT))
		{
			plan.forward(x, y);
			assertThrows(InvalidInputException.class, () -> plan.forward(backend.allocate(128,
				org.nufftj.nufft.Precision.FLOAT), y), "a buffer of another backend");
		}
		plan.close();
		assertThrows(IllegalStateException.class, () -> own.allocate(2, org.nufftj.nufft.Precision.FLOAT),
			"closed with the plan");
	}

	@Test
	void buffersOfAnotherBackendAreRefused() {
		try (CpuBackend other = new CpuBackend(1); Buffer a = backend.allocate(4, org.nufftj.nufft.Precision.FLOAT);
			Buffer b = other.allocate(4, org.nufftj.nufft.Precision.FLOAT))
		{
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> backend.copy(a, b));
			assertTrue(e.getMessage().contains("backend"), e.getMessage());
		}
	}
}
