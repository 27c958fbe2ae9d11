package org.nufftj.nufft.cpu;

/**
 * The innermost loops of spreading and interpolation over a point's taps for a batch of transforms stored
 * transform-innermost ({@link CpuNufftPlan}): the point's 2T values c (or sums acc) against W^d taps of weight tw[t] at
 * grid offset ti[t] (in values, 2T per cell). An implementation handles a prefix [0, j) of the 2T values, j a multiple
 * of its vector length, and returns j; the plan's scalar loops do the rest. {@link #vector()} is the Vector API's
 * ({@code jdk.incubator.vector}) when the running JVM has that module and {@code -Dnufftj.vector} is not {@code false};
 * otherwise null and everything is scalar. Same arithmetic either way, up to the order of the sums' rounding.
 */
interface TapLoops {

	/** g[ti[t] + q] += tw[t]·c[q] for t &lt; n, q &lt; j; returns j. */
	int spread(double[] c, int len, double[] tw, int[] ti, int n, double[] g);

	/** acc[q] = Σ_t tw[t]·g[ti[t] + q] for q &lt; j; returns j. */
	int interpolate(double[] acc, int len, double[] tw, int[] ti, int n, double[] g);

	/** The Vector API loops, or null (module absent, not loadable, or {@code -Dnufftj.vector=false}). */
	static TapLoops vector() {
		if (!Boolean.parseBoolean(System.getProperty("nufftj.vector", "true"))) return null;
		return VectorHolder.LOOPS;
	}

	/** Loads the Vector API class once, only when the module is in the boot layer (Fiji may start Java without it). */
	final class VectorHolder {

		static final TapLoops LOOPS = load();

		private VectorHolder() {}

		private static TapLoops load() {
			if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty() || !optimisingJit()) return null;
			try {
				return (TapLoops) Class.forName("org.nufftj.nufft.cpu.VectorTapLoops").getDeclaredConstructor()
					.newInstance();
			}
			catch (final ReflectiveOperationException | LinkageError e) {
				return null;
			}
		}

		/**
		 * False when the JIT stops below C2 ({@code -XX:TieredStopAtLevel} &lt; 4, as `nufft-j adjoint` runs): the
		 * Vector API is only compiled to vector instructions by C2; without it every vector is an object and spreading
		 * ran 50× slower (6.6 s against 0.13 s, 8 coils, 256², measured).
		 */
		private static boolean optimisingJit() {
			try {
				final com.sun.management.HotSpotDiagnosticMXBean vm = java.lang.management.ManagementFactory
					.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
				return Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue()) >= 4;
			}
			catch (final RuntimeException | LinkageError e) {
				return true; // not HotSpot, or no such option: assume the usual full JIT
			}
		}
	}
}
