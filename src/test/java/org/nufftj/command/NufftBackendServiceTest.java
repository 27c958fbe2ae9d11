package org.nufftj.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.app.Session;
import org.nufftj.ij1.ContextHolder;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.gpu.GpuDevice;
import org.nufftj.nufft.gpu.GpuTests;
import org.scijava.Context;
import org.scijava.command.Command;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;
import org.scijava.service.SciJavaService;

/**
 * {@link NufftBackendService}: found by the plugin index and in the plain ImageJ 1 context, handed to the commands, closes
 * its backends when the context is disposed, and opens no GPU for CPU runs. On a GPU machine: the commands of one
 * context share one GPU backend, their repeated runs leave the device memory flat, and disposing the context gives back
 * everything they held. (Commands in a context without the service: CommandsTest.)
 */
public class NufftBackendServiceTest {

	@Test
	void theServiceIsInEveryNufftjContext() {
		final Context all = new Context(SciJavaService.class); // every SciJava service the plugin index lists, as in Fiji
		try {
			assertNotNull(all.getService(NufftBackendService.class), "found by the plugin index");
		}
		finally {
			all.dispose();
		}
		assertNotNull(ContextHolder.context().getService(NufftBackendService.class), "the plain ImageJ 1 context");
	}

	@Test
	void disposingTheContextClosesTheDevices() {
		final Context context = new Context(NufftBackendService.class);
		final Session session = context.service(NufftBackendService.class).session();
		assertFalse(session.isClosed());
		assertTrue(session.opened().isEmpty(), "nothing opened before a command asks");
		session.backend(DeviceChoice.CPU, 1);
		assertEquals(List.of(DeviceChoice.CPU), session.opened());
		context.dispose();
		assertTrue(session.isClosed());
		assertTrue(session.opened().isEmpty(), "every backend closed");
		assertThrows(IllegalStateException.class, () -> session.backend(DeviceChoice.CPU, 1));
	}

	@Test
	void commandsGetTheServiceAndCpuRunsOpenNoGpu(@TempDir final Path dir) throws Exception {
		final Context context = new Context(CommandService.class, NufftBackendService.class);
		try {
			final NufftBackendService service = context.service(NufftBackendService.class);
			final CommandModule sim = run(context, SimulateCommand.class, Map.of("matrix", "32", "coils", 2, "output",
				dir.resolve("small.cfl").toFile(), "reconstruct", true, "device", "cpu"));
			assertFalse(sim.isCanceled(), sim.getCancelReason());
			assertSame(service, sim.getInput("backends"), "the service injected");
			final CommandModule rec = run(context, ReconstructCommand.class, Map.of("kspace", sim.getOutput("kspace"),
				"device", "cpu"));
			assertFalse(rec.isCanceled(), rec.getCancelReason());
			assertSame(service, rec.getInput("backends"));
			assertTrue(service.session().opened().stream().allMatch(d -> d.kind() == DeviceChoice.Kind.CPU),
				"CPU runs open no GPU: " + service.session().opened());
			// The ImageJ 1 bridge (CommandLauncher.execute) runs the module itself after Context.inject: same service.
			for (final Class<?> type : new Class<?>[] { ReconstructCommand.class, CompareCommand.class,
				ForwardCommand.class, SimulateCommand.class, BenchmarkCommand.class })
			{
				final Object command = type.getConstructor().newInstance();
				context.inject(command);
				final java.lang.reflect.Field f = NufftCommand.class.getDeclaredField("backends");
				f.setAccessible(true);
				assertSame(service, f.get(command), type.getSimpleName());
			}
		}
		finally {
			context.dispose();
		}
	}

	/**
	 * Reconstruct (Pipe–Menon by default: its weights on the GPU), Compare and Simulate's reconstruct step, all with
	 * device=gpu in one context: GPU 0 opened once; after one Walsh run (its first launch may grow what the driver
	 * reserves), 20 more reconstructions leave the free device memory unchanged
	 * (± 1 MiB); disposing the context closes the devices and gives back all they held (free memory as before the
	 * context, ± 1 MiB). The test's own open device keeps the primary context and cuFFT's lasting state alive so that
	 * the readings compare.
	 */
	@Test
	@Tag("gpu")
	void gpuCommandsShareOneDeviceAndDisposeFreesIt(@TempDir final Path dir) throws Exception {
		GpuTests.assumeGpu();
		try (GpuDevice probe = new GpuDevice(0)) {
			final File kspace;
			final Context warm = new Context(CommandService.class);
			try { // warm-up without the service: cuFFT's first plan allocates lasting state
				final CommandModule sim = run(warm, SimulateCommand.class, Map.of("matrix", "48", "coils", 4, "output",
					dir.resolve("sim.cfl").toFile(), "reconstruct", true, "device", "gpu"));
				assertFalse(sim.isCanceled(), sim.getCancelReason());
				kspace = (File) sim.getOutput("kspace");
			}
			finally {
				warm.dispose();
			}
			final long start = probe.memoryInfo()[0];
			final Context context = new Context(CommandService.class, NufftBackendService.class);
			final Session session = context.service(NufftBackendService.class).session();
			try {
				final Map<String, Object> in = Map.of("kspace", kspace, "device", "gpu");
				final CommandModule first = run(context, ReconstructCommand.class, in);
				assertFalse(first.isCanceled(), first.getCancelReason());
				final String log = (String) first.getOutput("log");
				final String info = (String) ((ij.ImagePlus) first.getOutput("image")).getProperty("Info");
				assertTrue(log.contains("on gpu 0") && info.contains("dcf weights pipe-menon"), log + "\n" + info);
				final CommandModule cmp = run(context, CompareCommand.class, Map.of("kspace", kspace));
				assertFalse(cmp.isCanceled(), cmp.getCancelReason());
				assertNotNull(cmp.getOutput("gpuimage"), (String) cmp.getOutput("log"));
				final CommandModule sim = run(context, SimulateCommand.class, Map.of("matrix", "32", "coils", 2, "output",
					dir.resolve("sim2.cfl").toFile(), "reconstruct", true, "device", "gpu"));
				assertFalse(sim.isCanceled(), sim.getCancelReason());
				assertEquals(List.of(DeviceChoice.gpu(0)), session.opened().stream().filter(d -> d.kind() ==
					DeviceChoice.Kind.GPU).collect(java.util.stream.Collectors.toList()), "one GPU backend for every command");
				final Map<String, Object> walsh = Map.of("kspace", kspace, "device", "gpu", "combine", "walsh", "coils",
					true);
				// The first Walsh launch may grow what the driver and the backend keep (local memory, accumulators)
				// for the next ones: one Walsh run before the reading.
				assertFalse(run(context, ReconstructCommand.class, walsh).isCanceled());
				final long before = probe.memoryInfo()[0];
				for (int i = 0; i < 20; i++) {
					final CommandModule m = run(context, ReconstructCommand.class, i % 2 == 0 ? in : walsh);
					assertFalse(m.isCanceled(), m.getCancelReason());
				}
				final long after = probe.memoryInfo()[0];
				assertTrue(Math.abs(after - before) <= 1 << 20, "free device memory before " + before + " B, after 20 " +
					"reconstructions " + after + " B");
			}
			finally {
				context.dispose();
			}
			assertTrue(session.isClosed(), "closed with the context");
			final long end = probe.memoryInfo()[0];
			assertTrue(Math.abs(end - start) <= 1 << 20, "free device memory before the context " + start + " B, after " +
				"disposing it " + end + " B");
		}
	}

	// -- helpers --

	private static CommandModule run(final Context context, final Class<? extends Command> type,
		final Map<String, Object> inputs) throws Exception
	{
		return (CommandModule) context.service(CommandService.class).run(type, true, inputs).get();
	}
}
