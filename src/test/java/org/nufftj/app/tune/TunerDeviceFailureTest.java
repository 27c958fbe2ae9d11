package org.nufftj.app.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DeviceException;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.nufft.TuneMode;
import org.nufftj.nufft.cpu.CpuBackend;
import org.nufftj.trajectory.Trajectory;

/**
 * The tuner when the device fails (CPU backend behind a proxy that fails chosen calls as a GPU out of memory would): the
 * batch's buffers not fitting makes it time from host arrays, a candidate whose plan does not fit is skipped with the
 * reason, and only a failing heuristic plan ends the run, as a device failure (not as bad input).
 */
class TunerDeviceFailureTest {

	private static final String OOM = "out of device memory (test)";

	/** {@code cpu} with plan() failing for σ = {@code failSigma} and wrap() failing when {@code failWrap}. */
	private static Backend failing(final Backend cpu, final double failSigma, final boolean failWrap,
		final AtomicInteger wraps)
	{
		return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] { Backend.class },
			(proxy, method, args) -> {
				if (method.getName().equals("wrap")) {
					wraps.incrementAndGet();
					if (failWrap) throw new DeviceException(OOM);
				}
				if (method.getName().equals("plan") && ((NufftOptions) args[1]).oversampling() == failSigma) {
					throw new DeviceException(OOM);
				}
				try {
					return method.invoke(cpu, args);
				}
				catch (final InvocationTargetException e) {
					throw e.getCause();
				}
			});
	}

	@Test
	void buffersThatDoNotFitAndPlansThatDoNotFitAreSkipped() {
		final int[] size = { 20, 16 };
		final Trajectory t = TestTrajectories.make("random", size, 500, new Random(3));
		try (CpuBackend cpu = new CpuBackend(2)) {
			final AtomicInteger wraps = new AtomicInteger();
			final Tuner.Report r = new Tuner(null, null).tune(failing(cpu, 2.25, true, wraps), t, size, 2,
				NufftOptions.defaults().withTolerance(1e-3), TuneDirection.BOTH, TuneMode.QUICK, 5, false);
			assertTrue(wraps.get() >= 1, "the tuner asked for the buffers");
			assertNotNull(r.winner(), r.table());
			assertTrue(r.timed() >= 2, "timed from host arrays: " + r.table());
			long skipped = 0;
			for (final Tuner.Candidate c : r.candidates()) {
				if (c.options.oversampling() == 2.25) {
					assertTrue(!c.ok() && c.failure().startsWith("device: ") && c.failure().contains(OOM), c.failure());
					skipped++;
				}
			}
			assertEquals(2, skipped, "sigma = 2.25 for both kernels, skipped: " + r.table());
		}
	}

	/**
	 * The batch's buffers fit but leave no room for the heuristic's plan (the proxy fails plan() while a buffer it
	 * handed out is open): the tuner frees them and times from host arrays.
	 */
	@Test
	void buffersThatCrowdOutThePlanAreFreed() {
		final int[] size = { 20, 16 };
		final Trajectory t = TestTrajectories.make("random", size, 500, new Random(5));
		try (CpuBackend cpu = new CpuBackend(2)) {
			final AtomicInteger open = new AtomicInteger(), refused = new AtomicInteger();
			final Backend crowded = (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(),
				new Class<?>[] { Backend.class }, (proxy, method, args) -> {
					if (method.getName().equals("plan") && open.get() > 0) {
						refused.incrementAndGet();
						throw new DeviceException(OOM);
					}
					final Object out;
					try {
						out = method.invoke(cpu, args);
					}
					catch (final InvocationTargetException e) {
						throw e.getCause();
					}
					if (!method.getName().equals("wrap")) return out;
					open.incrementAndGet();
					final Buffer b = (Buffer) out;
					return Proxy.newProxyInstance(Buffer.class.getClassLoader(), new Class<?>[] { Buffer.class },
						(bp, bm, ba) -> {
							if (bm.getName().equals("close")) open.decrementAndGet();
							try {
								return bm.invoke(b, ba);
							}
							catch (final InvocationTargetException e) {
								throw e.getCause();
							}
						});
				});
			final Tuner.Report r = new Tuner(null, null).tune(crowded, t, size, 2, NufftOptions.defaults()
				.withTolerance(1e-3), TuneDirection.BOTH, TuneMode.QUICK, 5, false);
			assertEquals(1, refused.get(), "the heuristic's plan refused once, while the buffers were held");
			assertEquals(0, open.get(), "the buffers were freed");
			assertTrue(r.candidates().get(0).ok() && r.timed() >= 2, r.table());
		}
	}

	@Test
	void aHeuristicPlanThatDoesNotFitIsADeviceFailure() {
		final int[] size = { 20, 16 };
		final Trajectory t = TestTrajectories.make("random", size, 500, new Random(4));
		try (CpuBackend cpu = new CpuBackend(2)) {
			final NufftOptions o = NufftOptions.defaults().withTolerance(1e-3).withOversampling(1.5);
			final DeviceException e = assertThrows(DeviceException.class, () -> new Tuner(null, null).tune(
				failing(cpu, 1.5, false, new AtomicInteger()), t, size, 1, o, TuneDirection.ADJOINT, TuneMode.QUICK, 5,
				false));
			assertTrue(e.getMessage().contains(OOM), e.getMessage());
		}
	}
}
