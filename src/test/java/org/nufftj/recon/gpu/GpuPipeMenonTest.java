package org.nufftj.recon.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nufftj.data.KSpace;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.nufft.gpu.Cuda;
import org.nufftj.nufft.gpu.GpuDevice;
import org.nufftj.nufft.gpu.GpuDevices;
import org.nufftj.nufft.gpu.GpuNufftPlan;
import org.nufftj.nufft.gpu.GpuTests;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.DensityCompensation;
import org.nufftj.recon.GriddingRecon;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Radial;
import org.nufftj.trajectory.Trajectory;

/**
 * Pipe–Menon weights on the GPU ({@link GpuPipeMenon}: float, the plan's spreader and interpolator) against the host's
 * {@link DensityCompensation#pipeMenon} (double), on fresh random trajectories each run (golden-angle and uniform
 * radial spokes, spiral, uniform random and 3D radial / stack of stars subsampled at random), every spreading method;
 * the whole GPU recon with Pipe–Menon against the CPU recon; and the device memory of repeated recons on one shared
 * {@link GpuDevices}, and after closing it.
 * <p>
 * Bound: relative l2 of the weights ≤ {@value #BOUND}, and every weight within {@value #SAMPLE_BOUND} of the host's
 * (relative). Float rounding alone gives 1.5–3.6e-6 (l2) and ≤ 2.8e-5 (one weight) after the default 20 iterations,
 * from a host emulation of the device arithmetic (float stencil offsets as GpuNufftPlan.floatOffsets rounds them,
 * float kernel values with expf's 2-ulp error, float sums in random order as atomics make them, float division) on
 * these trajectories, PROPELLER, Cartesian and the 32-coil benchmark's 402 × 512 golden-angle radial onto 256²; the
 * l2 difference grows about as √iterations (3e-7 after one iteration, 4e-6 after 50), as float errors of independent
 * iterations add. (With offsets rounded plainly to float, the uniform radial design and stack of stars reach 4–6e-5 and
 * 1e-3 for one weight: their axis-aligned samples lose the kernel's edge weight e^{−β} ≈ 1e-4, see floatOffsets.) One
 * iteration more or fewer changes the weights by 3e-3 to 1e-2 (host, these trajectories), so the bound tells a wrong
 * loop, kernel or grid apart from rounding; the test checks that it does.
 * </p>
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuPipeMenonTest {

	/** Relative l2 difference of the weights, GPU (float) vs host (double); see the class comment. */
	public static final double BOUND = 1e-5;
	/** Largest relative difference of one weight. */
	static final double SAMPLE_BOUND = 1e-4;
	private static final int ITERATIONS = ReconOptions.DEFAULT_DCF_ITERATIONS;
	private static GpuDevice device;
	private final Random random = new Random();

	@BeforeAll
	static void open() {
		GpuTests.assumeGpu();
		device = new GpuDevice(0);
	}

	@AfterAll
	static void close() {
		if (device != null) device.close();
	}

	static Stream<Arguments> cases() {
		final List<Arguments> cases = new ArrayList<>();
		for (final SpreadMethod m : new SpreadMethod[] { SpreadMethod.AUTO, SpreadMethod.ATOMIC, SpreadMethod.SHARED,
			SpreadMethod.OUTPUT_DRIVEN }) {
			cases.add(Arguments.of("golden angle spokes", m));
			cases.add(Arguments.of("radial spokes", m));
		}
		for (final SpreadMethod m : new SpreadMethod[] { SpreadMethod.AUTO, SpreadMethod.ATOMIC }) {
			cases.add(Arguments.of("spiral", m));
			cases.add(Arguments.of("random", m));
			cases.add(Arguments.of("3d radial", m));
		}
		cases.add(Arguments.of("stack of stars", SpreadMethod.SHARED));
		return cases.stream();
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("cases")
	void weightsMatchHost(final String trajectory, final SpreadMethod method) {
		final int[] size = size(trajectory);
		final Trajectory t = trajectory(trajectory, size);
		final float[] host = DensityCompensation.pipeMenon(t, size, ITERATIONS);
		final float[] gpu = GpuPipeMenon.rawWeights(device, method, t, size, ITERATIONS);
		final String what = t + " " + Arrays.toString(size) + " " + method;
		final double e = relativeL2(gpu, host);
		assertTrue(e <= BOUND, what + ": GPU vs host Pipe-Menon weights relative l2 " + e);
		double worst = 0;
		for (int i = 0; i < host.length; i++) {
			assertTrue(host[i] > 0 && gpu[i] > 0, what + ": weight " + i + " host " + host[i] + " GPU " + gpu[i]);
			worst = Math.max(worst, Math.abs(gpu[i] - host[i]) / host[i]);
		}
		assertTrue(worst <= SAMPLE_BOUND, what + ": largest relative difference of one weight " + worst);
	}

	/** The bound tells one iteration apart: GPU after 20 iterations vs host after 19 and 21 must exceed it. */
	@Test
	void oneIterationMoreOrFewerBreaksTheBound() {
		final int[] size = size("golden angle spokes");
		final Trajectory t = trajectory("golden angle spokes", size);
		final float[] gpu = GpuPipeMenon.rawWeights(device, SpreadMethod.AUTO, t, size, ITERATIONS);
		for (final int it : new int[] { ITERATIONS - 1, ITERATIONS + 1 }) {
			final double e = relativeL2(gpu, DensityCompensation.pipeMenon(t, size, it));
			assertTrue(e > 10 * BOUND, it + " host iterations vs " + ITERATIONS + " on the GPU: relative l2 only " + e);
		}
	}

	/**
	 * The default recon (Pipe–Menon, 20 iterations, SoS) on the GPU against the CPU with identical NUFFT parameters:
	 * the weights computed on the device (stage "dcf weights pipe-menon (gpu)") and applied there without an upload,
	 * weights within {@link #BOUND}, image within 1e-4 (GpuGriddingTest's bound: weights off by ~1e-6 move the image by
	 * about as much); 2D radial, 3D radial, and with Walsh.
	 */
	@Test
	void reconWithPipeMenonMatchesCpu() {
		for (final String name : new String[] { "golden angle spokes", "3d radial" }) {
			for (final CoilCombination combine : new CoilCombination[] { CoilCombination.SOS, CoilCombination.WALSH }) {
				final int[] size = size(name);
				final Trajectory t = trajectory(name, size);
				final int coils = 3;
				final KSpace k = new KSpace(kspace(t, size, coils), t.count(), coils, 1);
				final ReconOptions o = ReconOptions.defaults().withCombine(combine);
				final NufftOptions n = NufftOptions.defaults().withKernel(KernelType.EXP_SEMICIRCLE).withOversampling(2.0)
					.withWidth(6).withTolerance(1e-4);
				final ReconResult gpu = GriddingRecon.reconstruct(t, k, size, o.withNufft(n.withDevice(DeviceChoice.gpu(0))),
					null);
				final ReconResult cpu = GriddingRecon.reconstruct(t, k, size, o.withNufft(n.withDevice(DeviceChoice.CPU)),
					null);
				final String what = t + " " + Arrays.toString(size) + " " + combine;
				assertTrue(gpu.stages().snapshot().containsKey("dcf weights pipe-menon (gpu)"), what + ": " + gpu.stages());
				assertTrue(gpu.stages().snapshot().containsKey("dcf (gpu)"), what + ": " + gpu.stages());
				assertTrue(cpu.stages().snapshot().containsKey("dcf weights pipe-menon (host)"), what + ": " + cpu.stages());
				final double ew = relativeL2(gpu.dcf(), cpu.dcf());
				assertTrue(ew <= BOUND, what + ": normalised weights relative l2 " + ew);
				final double ei = relativeL2(gpu.image().data(), cpu.image().data());
				assertTrue(ei <= 1e-4, what + ": GPU vs CPU recon relative l2 " + ei);
			}
		}
	}

	/** The weights on the device and on the host are the same numbers (one float product each). */
	@Test
	void residentWeightsEqualTheHostCopy() {
		final int[] size = size("spiral");
		final Trajectory t = trajectory("spiral", size);
		final NufftOptions n = NufftOptions.defaults().withDevice(DeviceChoice.gpu(0));
		try (NufftPlan plan = Nufft.plan(size, n); NufftPlan dbl = Nufft.plan(size, n.withPrecision(Precision.DOUBLE));
			NufftPlan cpu = Nufft.plan(size, n.withDevice(DeviceChoice.CPU)))
		{
			plan.setPoints(t);
			try (GpuWeights w = GpuPipeMenon.weights(plan, t, size, ITERATIONS)) {
				assertNotNull(w);
				final float[] onDevice = new float[w.count()];
				w.device().makeCurrent();
				Cuda.check(JCudaDriver.cuMemcpyDtoH(Pointer.to(onDevice), w.pointer(), 4L * onDevice.length),
					"cuMemcpyDtoH(weights)");
				assertArrayEquals(w.host(), onDevice, "device weights = host copy, bit for bit");
				final float[] expected = DensityCompensation.normalise(GpuPipeMenon.rawWeights(w.device(),
					((GpuNufftPlan) plan).spreadMethod(), t, size, ITERATIONS), t, size);
				assertTrue(relativeL2(w.host(), expected) <= BOUND, "normalised as the host normalises");
			}
			dbl.setPoints(t);
			cpu.setPoints(t);
			assertNull(GpuPipeMenon.weights(dbl, t, size, ITERATIONS), "double plans: weights on the host");
			assertNull(GpuPipeMenon.weights(cpu, t, size, ITERATIONS), "CPU plans: weights on the host");
		}
	}

	/**
	 * Repeated GPU recons (Pipe–Menon and ramp, every combination, kept coils) on one shared {@link GpuDevices} leave
	 * the device's free memory unchanged (± 1 MiB), open GPU 0 once, and closing the GpuDevices gives back everything
	 * it held (kernel modules included): free memory as before it was made (± 1 MiB), and it refuses further use.
	 * This class's own open device keeps the primary context (and cuFFT's lasting state) alive throughout, so the
	 * readings compare.
	 */
	@Test
	void sharedDevicesKeepMemoryFlatAndCloseFreesEverything() {
		final int[] size = { 32, 24 };
		final Trajectory t = new GoldenAngleRadial(64, 40, 1, random.nextInt(1000)).build();
		final int coils = 4;
		final KSpace k = new KSpace(kspace(t, size, coils), t.count(), coils, 1);
		final ReconOptions o = ReconOptions.defaults().withNufft(NufftOptions.defaults().withDevice(DeviceChoice.gpu(0)));
		GriddingRecon.reconstruct(t, k, size, o, null); // warm-up: cuFFT's first plan allocates lasting state
		final long start = device.memoryInfo()[0];
		final GpuDevices devices = new GpuDevices();
		try {
			GriddingRecon.reconstruct(t, k, size, o, null, devices); // loads the modules into the shared device
			final long before = device.memoryInfo()[0];
			for (int i = 0; i < 40; i++) {
				final ReconOptions oi = o.withDcf(i % 4 == 3 ? DcfMethod.RAMP : DcfMethod.PIPE_MENON)
					.withCombine(CoilCombination.values()[i % 3]).withKeepCoils(i % 2 == 0);
				final ReconResult r = GriddingRecon.reconstruct(t, k, size, oi, null, devices);
				assertTrue(r.backend().startsWith("gpu 0"), r.backend());
			}
			final long after = device.memoryInfo()[0];
			assertTrue(Math.abs(after - before) <= 1 << 20, "free device memory before " + before + " B, after 40 " +
				"recons on shared devices " + after + " B");
			assertEquals(List.of(0), devices.opened(), "GPU 0 opened once and kept");
		}
		finally {
			devices.close();
		}
		final long end = device.memoryInfo()[0];
		assertTrue(Math.abs(end - start) <= 1 << 20, "free device memory before the shared devices " + start +
			" B, after closing them " + end + " B");
		assertTrue(devices.isClosed());
		assertTrue(devices.opened().isEmpty());
		assertThrows(IllegalStateException.class, () -> devices.get(0));
	}

	// -- helpers --

	private static int[] size(final String trajectory) {
		return trajectory.contains("3d") || trajectory.contains("stack") ? new int[] { 24, 20, 16 } : new int[] { 64, 48 };
	}

	/**
	 * A fresh trajectory: whole golden-angle spokes from a random first spoke, whole uniform radial spokes over 180°
	 * (an even number: one along y, whose x coordinates r·cos(π/2) ≈ 1e-17 sit on cell boundaries to within double
	 * rounding), or a design subsampled at random.
	 */
	private Trajectory trajectory(final String name, final int[] size) {
		if (name.equals("golden angle spokes")) {
			return new GoldenAngleRadial(2 * size[0], 60 + random.nextInt(60), 1, random.nextInt(1000)).build();
		}
		if (name.equals("radial spokes")) return new Radial(2 * size[0], 2 * (30 + random.nextInt(30)), false).build();
		return TestTrajectories.make(name, size, name.contains("3d") || name.contains("stack") ? 40000 : 15000,
			random);
	}

	/** Coil c sees the Shepp–Logan phantom times a random complex constant: analytic k-space, no inverse crime. */
	private float[] kspace(final Trajectory t, final int[] size, final int coils) {
		final AnalyticPhantom phantom = size.length == 2 ? AnalyticPhantom.sheppLogan2d() : AnalyticPhantom.sheppLogan3d();
		final double[] f = phantom.kspace(t, size);
		final int m = t.count();
		final float[] y = new float[2 * m * coils];
		for (int c = 0; c < coils; c++) {
			final double mag = 0.5 + random.nextDouble(), ph = 2 * Math.PI * random.nextDouble();
			final double ar = mag * Math.cos(ph), ai = mag * Math.sin(ph);
			for (int p = 0; p < m; p++) {
				y[2 * (c * m + p)] = (float) (ar * f[2 * p] - ai * f[2 * p + 1]);
				y[2 * (c * m + p) + 1] = (float) (ar * f[2 * p + 1] + ai * f[2 * p]);
			}
		}
		return y;
	}

	private static double relativeL2(final float[] test, final float[] reference) {
		double num = 0, den = 0;
		for (int i = 0; i < test.length; i++) {
			final double d = test[i] - reference[i];
			num += d * d;
			den += (double) reference[i] * reference[i];
		}
		return Math.sqrt(num / den);
	}
}
