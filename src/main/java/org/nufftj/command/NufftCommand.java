package org.nufftj.command;

import java.util.concurrent.CancellationException;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Session;
import org.scijava.command.ContextCommand;
import org.scijava.log.LogService;
import org.scijava.plugin.Parameter;

/**
 * Base of the NUFFT-J commands: runs {@link #execute()} and turns every failure into one clear message through
 * SciJava's cancel mechanism ({@link #getCancelReason()}), never an exception escaping to a stack-trace dialog. Bad
 * input ({@link InvalidInputException}) is shown as is; a cancelled run says so; anything else is reported as an
 * internal error with its class and message (and its stack trace to the {@link LogService}, for bug reports).
 * <p>
 * Plans and reconstructions run in {@link #session()}: the context's {@link NufftBackendService} session, or, in a context
 * without that service, one opened for this run and closed when it ends.
 * </p>
 */
public abstract class NufftCommand extends ContextCommand {

	/** Prefix of every message, so users can tell where a message comes from in the Log. */
	public static final String PREFIX = "NUFFT-J: ";

	/**
	 * SciJava menu root of the commands: not "app", so ImageJ2/Fiji menus do not show a second entry next to the
	 * ImageJ 1 one (plugins.config, {@code org.nufftj.ij1.CommandLauncher}).
	 */
	public static final String MENU_ROOT = "nufftj";

	/** Name of the {@code @Plugin} attribute that holds a command's ImageJ 1 launcher key (plugins.config argument). */
	public static final String KEY = "key";

	/** The session's devices (null in a context without the service: {@link #session()} opens its own). */
	@Parameter(required = false)
	private NufftBackendService backends;

	@Parameter(required = false)
	private LogService logService;

	private Session own;

	@Override
	public final void run() {
		try {
			execute();
		}
		catch (final InvalidInputException e) {
			cancel(PREFIX + e.getMessage());
		}
		catch (final CancellationException e) {
			cancel(PREFIX + "cancelled (" + e.getMessage() + ")");
		}
		catch (final OutOfMemoryError e) {
			cancel(PREFIX + "out of memory; increase ImageJ's memory (Edit > Options > Memory) or use a smaller matrix");
		}
		catch (final java.nio.file.AccessDeniedException e) {
			cancel(PREFIX + "permission denied: " + e.getFile());
		}
		catch (final java.io.IOException e) {
			// File-system failures name their file and reason: one line, not a trace (an unwritable folder once
			// printed 32 lines).
			if (Session.isDeviceFailure(e)) cancel(PREFIX + "GPU not usable: " + e.getMessage());
			else cancel(PREFIX + "I/O error: " + e.getMessage());
		}
		catch (final RuntimeException e) {
			if (Session.isDeviceFailure(e)) {
				cancel(PREFIX + "GPU not usable: " + e.getMessage() + " (device=cpu or device=auto run on the CPU)");
				return;
			}
			if (logService != null) logService.error(PREFIX + "internal error", e);
			cancel(PREFIX + "internal error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
		}
		finally {
			if (own != null) own.close();
			own = null;
		}
	}

	/** The command's work; throw {@link InvalidInputException} for bad input. */
	protected abstract void execute() throws java.io.IOException;

	/** Where this command's plans and reconstructions run (see the class comment). */
	protected Session session() {
		if (backends != null) return backends.session();
		if (own == null) own = new Session(message -> {
			if (logService != null) logService.warn(message);
			else System.err.println(message);
		});
		return own;
	}

	/** The context's log, or null in a context without one. */
	protected LogService logService() {
		return logService;
	}
}
