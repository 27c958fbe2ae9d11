package org.nufftj.cli;

import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nufft-j info}: version, Java, cores, memory, GPU. */
@Command(name = "info", mixinStandardHelpOptions = true,
	description = "Print the NUFFT-J version, the Java runtime, CPU cores, memory and the GPUs the GPU engine can use.")
final class InfoCommand implements Callable<Integer> {

	/** The GPU engine's report class, looked up at run time so the CLI works with or without it. */
	static final String GPU_INFO_CLASS = "org.nufftj.nufft.gpu.GpuInfo";

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() {
		final PrintWriter out = spec.commandLine().getOut();
		final Runtime rt = Runtime.getRuntime();
		out.println("nufft-j " + Main.VERSION);
		out.println("Java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", " +
			System.getProperty("java.vendor") + ")");
		out.println("OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
			System.getProperty("os.arch"));
		out.println("CPU cores: " + rt.availableProcessors());
		out.printf("Memory: max heap %.0f MiB%n", rt.maxMemory() / 1048576.0);
		out.println(gpu());
		out.flush();
		return Main.OK;
	}

	/** One or more lines about GPUs, from {@value #GPU_INFO_CLASS} when present. */
	static String gpu() {
		final Class<?> c;
		try {
			c = Class.forName(GPU_INFO_CLASS);
		}
		catch (final ClassNotFoundException | LinkageError e) {
			return "GPU: engine not built in";
		}
		// TODO(lead): call GpuInfo's API directly once it is on main; until then any static no-argument method
		// named describe / summary / report returning a printable value is used.
		for (final String name : new String[] { "describe", "summary", "report" }) {
			try {
				final Method m = c.getMethod(name);
				if (!java.lang.reflect.Modifier.isStatic(m.getModifiers())) continue;
				final Object r = m.invoke(null);
				final String s = r instanceof Iterable ? String.join("\n", toStrings((Iterable<?>) r)) : String.valueOf(r);
				return s.startsWith("GPU") ? s : "GPU: " + s;
			}
			catch (final NoSuchMethodException e) {
				// try the next name
			}
			catch (final ReflectiveOperationException | LinkageError | RuntimeException e) {
				final Throwable t = e.getCause() != null ? e.getCause() : e;
				return "GPU: not usable (" + Main.oneLine(String.valueOf(t.getMessage())) + ")";
			}
		}
		return "GPU: engine present (" + GPU_INFO_CLASS + ") but it offers no describe() report";
	}

	private static java.util.List<String> toStrings(final Iterable<?> it) {
		final java.util.List<String> l = new java.util.ArrayList<>();
		for (final Object o : it) l.add(String.valueOf(o));
		return l;
	}
}
