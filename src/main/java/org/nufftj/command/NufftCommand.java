package org.nufftj.command;

import java.util.concurrent.CancellationException;

import org.nufftj.InvalidInputException;
import org.scijava.command.ContextCommand;

/**
 * Base of the NUFFT-J commands: runs {@link #execute()} and turns every failure into one clear message through
 * SciJava's cancel mechanism ({@link #getCancelReason()}), never an exception escaping to a stack-trace dialog. Bad
 * input ({@link InvalidInputException}) is shown as is; a cancelled run says so; anything else is reported as an
 * internal error with its class and message (and its stack trace on standard error, for bug reports).
 */
public abstract class NufftCommand extends ContextCommand {

	/** Prefix of every message, so users can tell where a message comes from in the Log. */
	public static final String PREFIX = "NUFFT-J: ";

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
		catch (final org.nufftj.nufft.gpu.GpuException e) {
			cancel(PREFIX + "GPU not usable: " + e.getMessage() + " (device=cpu or device=auto run on the CPU)");
		}
		catch (final OutOfMemoryError e) {
			cancel(PREFIX + "out of memory; increase ImageJ's memory (Edit > Options > Memory) or use a smaller matrix");
		}
		catch (final RuntimeException | java.io.IOException e) {
			e.printStackTrace();
			cancel(PREFIX + "internal error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
		}
	}

	/** The command's work; throw {@link InvalidInputException} for bad input. */
	protected abstract void execute() throws java.io.IOException;
}
