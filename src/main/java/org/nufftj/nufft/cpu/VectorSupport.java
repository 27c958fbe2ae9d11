package org.nufftj.nufft.cpu;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Whether the CPU engine's batch tap loops ({@link VectorKernels}) and, on request, the line FFT's Stockham passes
 * ({@link VectorLinePasses}, {@link #linePasses}) run on the Vector API: only where the JVM was
 * started with {@code --add-modules jdk.incubator.vector} (the {@code nufft-j} launcher with {@code NUFFTJ_VECTOR=1},
 * the test suite, the JMH benchmarks; Fiji starts Java without it) and has its optimising compiler (without C2 the
 * vectors stay objects: the one-shot {@code adjoint}/{@code forward} commands run C1 only), and unless
 * {@code -Dnufftj.vector=false}, read when a plan is made. Otherwise the scalar loops, which give the same sums to
 * rounding ({@code VectorScalarParityTest}).
 * <p>
 * Every loop of {@link VectorKernels} and {@link VectorLinePasses} uses both a {@code sub} and an {@code add} or
 * {@code mul} from its first run (the kernels add {@code v·k} as {@code − v·(−k)}, bit for bit the same). The
 * JDK's shared {@code VectorOperators.opKind} dispatches on the operator's class ({@code ADD}, {@code MUL}: one class;
 * {@code SUB}: another); if its profile saw one class only (the adjoint's spreading kernels, add and mul, run before
 * the first FFT), C2's code for it traps when the other comes, and those class-check traps, counted once per inlined
 * copy of {@code opKind} (over a hundred in a radix-8 pass), put the whole FFT method over C2's per-method trap
 * limit: its vector stores were then not intrinsified and the grid FFT ran 3–4× slower than the scalar passes
 * (docs/benchmarks.md, "the vector FFT's slowdown explained").
 */
final class VectorSupport {

	private VectorSupport() {}

	/** The vector kernels for a plan made now, or null for the scalar loops. */
	static TapKernels kernels() {
		return unavailableReason() == null ? Holder.KERNELS : null;
	}

	/**
	 * The Vector API passes for a line FFT made now ({@link LineFft}), or null for the scalar passes: wherever the
	 * vector kernels are used, unless {@code -Dnufftj.vectorFft=false}.
	 */
	static LinePasses linePasses() {
		return Boolean.parseBoolean(System.getProperty("nufftj.vectorFft", "true")) ? availablePasses() : null;
	}

	/** The vector line passes wherever the Vector API is usable, whatever the opt-in (tests of the passes). */
	static LinePasses availablePasses() {
		return unavailableReason() == null ? Holder.PASSES : null;
	}

	/** Why the vector kernels are not used, or null when they are (for `nufft-j info`-like reports and tests). */
	static String unavailableReason() {
		if (!Boolean.parseBoolean(System.getProperty("nufftj.vector", "true"))) return "-Dnufftj.vector=false";
		return Holder.REASON;
	}

	private static final class Holder {

		static final String REASON = reason();
		static final TapKernels KERNELS = REASON == null ? new VectorKernels() : null;
		static final LinePasses PASSES = REASON == null ? new VectorLinePasses() : null;
	}

	private static String reason() {
		if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) return "the JVM was started without " +
			"--add-modules jdk.incubator.vector";
		try {
			final List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
			String level = null;
			for (final String a : args) {
				if (a.equals("-Xint")) return "the JVM interprets only (-Xint)";
				if (a.startsWith("-XX:TieredStopAtLevel=")) level = a.substring("-XX:TieredStopAtLevel=".length());
			}
			if (level != null && !level.equals("4")) return "the JVM has no optimising compiler (-XX:TieredStopAtLevel=" +
				level + ")";
		}
		catch (final LinkageError e) {
			// No java.management in this runtime: assume the default compilers.
		}
		return null;
	}
}
