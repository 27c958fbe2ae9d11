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
 */
final class VectorSupport {

	private VectorSupport() {}

	/** The vector kernels for a plan made now, or null for the scalar loops. */
	static TapKernels kernels() {
		return unavailableReason() == null ? Holder.KERNELS : null;
	}

	/**
	 * The Vector API passes for a line FFT made now ({@link LineFft}), or null for the scalar passes. Opt-in with
	 * {@code -Dnufftj.vectorFft=true} (and the module): alone they are about twice as fast as the scalar passes (JMH,
	 * docs/benchmarks.md), but in a process whose adjoint spreading also runs the vector tap kernels, JDK 17's C2
	 * fails to intrinsify their vector stores ("VectorSupport::store failed to inline (intrinsic)" in radix8) and the
	 * grid FFT becomes 1.7× slower than the scalar passes (measured in `scripts/bench-vs-finufft.sh` processes).
	 */
	static LinePasses linePasses() {
		return Boolean.getBoolean("nufftj.vectorFft") ? availablePasses() : null;
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
