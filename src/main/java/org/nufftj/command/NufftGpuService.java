package org.nufftj.command;

import org.nufftj.nufft.gpu.GpuDevices;
import org.scijava.plugin.Plugin;
import org.scijava.service.AbstractService;
import org.scijava.service.SciJavaService;
import org.scijava.service.Service;

/**
 * The GPUs of one SciJava {@link org.scijava.Context}: a {@link GpuDevices} that the NUFFT-J commands make their GPU
 * plans on, so that a device is opened (primary context, kernel modules) on the first GPU command of the session and
 * kept for the next ones instead of being opened and closed by every plan. Nothing touches a GPU until a command asks
 * for one (CPU-only sessions and machines without CUDA never load it); {@link #dispose()}, when the context is
 * disposed (Fiji quits, the plain ImageJ 1 context at JVM exit, a test's context), closes every device opened.
 * <p>
 * Commands take it as an optional {@code @Parameter}: in a context without this service (a minimal test context)
 * they get null and their plans open their own device, as before.
 * </p>
 */
@Plugin(type = Service.class)
public class NufftGpuService extends AbstractService implements SciJavaService {

	private final GpuDevices devices = new GpuDevices();

	// -- public API --

	/** The context's GPUs (closed once the context is disposed). */
	public GpuDevices devices() {
		return devices;
	}

	/** The devices of {@code service}, or null when there is no service (the plans then open their own). */
	public static GpuDevices devicesOf(final NufftGpuService service) {
		return service == null ? null : service.devices();
	}

	@Override
	public void dispose() {
		try {
			devices.close();
		}
		catch (final RuntimeException | LinkageError e) {
			// Disposal goes on for the context's other services; the device is released at process exit anyway.
			System.err.println(NufftCommand.PREFIX + "closing the GPU devices failed: " + e);
		}
	}
}
