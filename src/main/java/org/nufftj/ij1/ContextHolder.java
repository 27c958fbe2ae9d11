package org.nufftj.ij1;

import java.util.List;

import org.nufftj.command.NufftBackendService;
import org.scijava.Context;
import org.scijava.command.CommandService;
import org.scijava.log.LogService;
import org.scijava.service.Service;

import ij.IJ;

/**
 * The SciJava context NUFFT-J's ImageJ 1 entries run in: Fiji's own when the ImageJ legacy layer is present (it hands
 * its context out through {@code IJ.runPlugIn("org.scijava.Context", "")}; it finds {@link NufftBackendService} through
 * the plugin index like every service), otherwise one small context made once for this JVM with the command service,
 * the GPU service and what they need, disposed at JVM exit (which closes the GPUs the commands opened).
 */
public final class ContextHolder {

	private static Context own;

	private ContextHolder() {}

	public static synchronized Context context() {
		final Context fiji = legacyContext();
		if (fiji != null) return fiji;
		if (own == null) {
			final Thread t = Thread.currentThread();
			final ClassLoader before = t.getContextClassLoader();
			// Our jar may sit in ImageJ's plugins folder, seen only by ImageJ's plugin class loader.
			t.setContextClassLoader(ContextHolder.class.getClassLoader());
			try {
				final List<Class<? extends Service>> services = List.of(CommandService.class, NufftBackendService.class,
					LogService.class);
				own = new Context(services);
			}
			finally {
				t.setContextClassLoader(before);
			}
			final Context c = own;
			Runtime.getRuntime().addShutdownHook(new Thread(() -> {
				c.dispose();
			}, "NUFFT-J context disposal"));
		}
		return own;
	}

	private static Context legacyContext() {
		try {
			Class.forName("net.imagej.legacy.LegacyService", false, ContextHolder.class.getClassLoader());
		}
		catch (final ClassNotFoundException | LinkageError e) {
			return null;
		}
		final Object c = IJ.runPlugIn(Context.class.getName(), "");
		return c instanceof Context ? (Context) c : null;
	}
}
