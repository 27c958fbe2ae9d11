package org.nufftj.command;

import org.nufftj.app.Session;
import org.scijava.log.LogService;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.service.AbstractService;
import org.scijava.service.SciJavaService;
import org.scijava.service.Service;

/**
 * The backends of one SciJava {@link org.scijava.Context}: an application {@link Session} that the NUFFT-J commands
 * make their plans in, so that a backend is opened once per device (a GPU's primary context, kernel modules, streams,
 * cuFFT plans; the CPU's worker threads) on the first command that asks for it, device notices go to the
 * LogService, and the GPU is opened (primary context, kernel modules) on the first GPU command of the
 * session and kept for the next ones instead of being opened and closed by every plan. Nothing touches a GPU until a
 * command asks for one (CPU-only sessions and machines without CUDA never load it); {@link #dispose()}, when the
 * context is disposed (Fiji quits, the plain ImageJ 1 context at JVM exit, a test's context), closes everything opened.
 * <p>
 * Commands take it as an optional {@code @Parameter}: in a context without this service (a minimal test context)
 * they open a session of their own for each run.
 * </p>
 */
@Plugin(type = Service.class)
public class NufftBackendService extends AbstractService implements SciJavaService {

	private final Session session = new Session(this::notice);

	@Parameter(required = false)
	private LogService logService;

	// -- public API --

	/** The context's session (closed once the context is disposed). */
	public Session session() {
		return session;
	}

	@Override
	public void dispose() {
		try {
			session.close();
		}
		catch (final RuntimeException | LinkageError e) {
			// Disposal goes on for the context's other services; the device is released at process exit anyway.
			if (logService != null) logService.warn(NufftCommand.PREFIX + "closing the backends failed", e);
		}
	}

	// -- helpers --

	private void notice(final String message) {
		if (logService != null) logService.warn(message);
		else System.err.println(message);
	}
}
