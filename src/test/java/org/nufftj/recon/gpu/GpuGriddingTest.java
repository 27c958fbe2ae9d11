package org.nufftj.recon.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import jcuda.Pointer;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nufftj.data.KSpace;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.StageTimes;
import org.nufftj.nufft.gpu.Cuda;
import org.nufftj.nufft.gpu.DeviceArray;
import org.nufftj.nufft.gpu.GpuDevice;
import org.nufftj.nufft.gpu.GpuNufftPlan;
import org.nufftj.nufft.gpu.GpuTests;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.CoilCombine;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.DensityCompensation;
import org.nufftj.recon.GriddingRecon;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Radial3D;
import org.nufftj.trajectory.Trajectory;

/**
 * The device-resident gridding recon ({@link GpuGridding}: DCF multiply, adjoint, SoS / Walsh on the GPU) against the
 * CPU {@link GriddingRecon} with identical NUFFT parameters, on fresh data each run: analytic Shepp–Logan k-space
 * (no inverse crime) times random smooth coil sensitivities, golden-angle radial (2D) and 3D radial trajectories,
 * non-square matrices (an x/y mix-up cannot cancel), 1 to 40 coils (40 > one warp: the shared-memory Walsh kernel).
 * The 2D cases use Pipe–Menon weights, which the GPU iterates itself in float (within {@link GpuPipeMenonTest#BOUND}
 * of the host's double weights), the 3D ones ramp weights from the host (the same array on both engines).
 * <p>
 * Bounds: SoS, NONE and the kept coil images ≤ 1e-4 relative l2 (both engines float with the same σ, W, kernel; the
 * NUFFTs alone agree to ≤ 1e-5, GpuParityTest). Walsh ≤ 1e-4 too: with smooth sensitivities the window covariance is
 * nearly rank one, so its dominant eigenvector is well conditioned and float (GPU) vs double (host) covariance and
 * power iteration differ by float rounding only (measured on the host for these cases: coil images perturbed by 1e-5
 * relative l2 move the Walsh image by ≤ 5e-6). Because smooth data hardly depend on the window, the Walsh kernels
 * are also tested on random coil images against {@link CoilCombine#walsh}, where the window, the iteration count and
 * the reference coil all change the answer — and the same comparison is shown to fail for each deliberately wrong one.
 * </p>
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
public class GpuGriddingTest {

	private static final double BOUND = 1e-4;
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
		for (final int coils : new int[] { 1, 4, 12, 40 }) {
			for (final CoilCombination c : CoilCombination.values()) {
				cases.add(Arguments.of(new int[] { 64, 48 }, coils, c, coils == 4 || coils == 40));
			}
		}
		cases.add(Arguments.of(new int[] { 24, 20, 16 }, 4, CoilCombination.SOS, true));
		cases.add(Arguments.of(new int[] { 24, 20, 16 }, 12, CoilCombination.WALSH, false));
		cases.add(Arguments.of(new int[] { 24, 20, 16 }, 4, CoilCombination.NONE, false));
		return cases.stream();
	}

	/** Pipe–Menon in 2D (its weights computed on the device), ramp in 3D (on the host, uploaded). */
	private static DcfMethod dcf(final int[] size) {
		return size.length == 2 ? DcfMethod.PIPE_MENON : DcfMethod.RAMP;
	}

	@ParameterizedTest(name = "{0} {1} coils {2} keepCoils={3}")
	@MethodSource("cases")
	void gpuReconMatchesCpuRecon(final int[] size, final int coils, final CoilCombination combine,
		final boolean keep)
	{
		final Trajectory t = trajectory(size);
		final KSpace k = new KSpace(kspace(t, size, coils, 2), t.count(), coils, 2);
		final ReconOptions o = ReconOptions.defaults().withDcf(dcf(size)).withDcfIterations(8).withCombine(combine)
			.withKeepCoils(keep);
		final NufftOptions n = nufft();
		final ReconResult gpu = GriddingRecon.reconstruct(t, k, size, o.withNufft(n.withDevice(DeviceChoice.gpu(0))), null);
		final ReconResult cpu = GriddingRecon.reconstruct(t, k, size, o.withNufft(n.withDevice(DeviceChoice.CPU)), null);
		assertTrue(gpu.backend().startsWith("gpu"), gpu.backend());
		assertTrue(gpu.stages().snapshot().containsKey("dcf (gpu)"), "device path ran: " + gpu.stages());
		if (combine != CoilCombination.NONE) {
			assertTrue(gpu.stages().snapshot().containsKey("combine " + combine.key() + " (gpu)"), gpu.stages().toString());
		}
		assertEquals(cpu.parameters().toString(), gpu.parameters().toString(), "same NUFFT parameters");
		if (dcf(size) == DcfMethod.PIPE_MENON) {
			// Iterated on the device in float (GpuPipeMenonTest bounds it against the host's double).
			assertTrue(gpu.stages().snapshot().containsKey("dcf weights pipe-menon (gpu)"), gpu.stages().toString());
			final double ew = relativeL2(gpu.dcf(), cpu.dcf());
			assertTrue(ew <= GpuPipeMenonTest.BOUND, "Pipe-Menon weights GPU vs CPU relative l2 " + ew);
		}
		else {
			assertArrayEquals(cpu.dcf(), gpu.dcf(), "same DCF");
		}
		assertEquals(cpu.image().channels(), gpu.image().channels());
		assertEquals(cpu.image().frames(), gpu.image().frames());
		final String what = Arrays.toString(size) + " " + coils + " coils " + combine;
		final double e = relativeL2(gpu.image().data(), cpu.image().data());
		assertTrue(e <= BOUND, what + ": GPU vs CPU recon relative l2 " + e);
		if (combine == CoilCombination.SOS) {
			for (int i = 1; i < gpu.image().data().length; i += 2) assertEquals(0f, gpu.image().data()[i], "SoS imaginary");
		}
		if (keep) {
			assertNotNull(gpu.coils());
			final double ec = relativeL2(gpu.coils().data(), cpu.coils().data());
			assertTrue(ec <= BOUND, what + ": kept coil images relative l2 " + ec);
		}
		else {
			assertNull(gpu.coils());
		}
		if (combine == CoilCombination.WALSH) {
			// Noise-free smooth sensitivities: |vᴴx| ≈ ‖s‖·|ρ| = SoS wherever there is signal.
			final ReconResult sos = GriddingRecon.reconstruct(t, k, size, o.withCombine(CoilCombination.SOS)
				.withNufft(n.withDevice(DeviceChoice.gpu(0))), null);
			final float[] w = gpu.image().magnitude(), s = sos.image().magnitude();
			final double em = relativeL2(w, s);
			assertTrue(em < 2e-2, what + ": |Walsh| vs SoS relative l2 " + em);
		}
	}

	/** Coils in chunks (plan batch limited to 5 of 12): same result as one chunk and as the CPU. */
	@Test
	void chunkedAdjointMatchesCpu() {
		final int[] size = { 48, 40 };
		final int coils = 12;
		final Trajectory t = trajectory(size);
		final float[] y = kspace(t, size, coils, 1);
		final float[] w = DensityCompensation.compute(DcfMethod.RAMP, t, size, 1);
		final NufftOptions n = nufft().withDevice(DeviceChoice.gpu(0));
		final ReconOptions o = ReconOptions.defaults().withDcf(DcfMethod.RAMP).withCombine(CoilCombination.WALSH)
			.withKeepCoils(true);
		final ReconResult cpu = GriddingRecon.reconstruct(t, new KSpace(y, t.count(), coils, 1), size,
			o.withNufft(n.withDevice(DeviceChoice.CPU)), null);
		try (GpuNufftPlan plan = new GpuNufftPlan(device, false, ParameterChoice.choose(size, n), n)) {
			plan.setPoints(t);
			plan.limitBatch(5);
			final float[] out = new float[2 * 48 * 40], kept = new float[2 * 48 * 40 * coils];
			final StageTimes times = new StageTimes();
			try (GpuGridding g = GpuGridding.open(plan, w, coils, size, CoilCombination.WALSH)) {
				assertNotNull(g, "device path available");
				assertEquals(5, g.batch());
				g.frame(y, 0, out, 0, kept, 0, times);
			}
			assertTrue(relativeL2(out, cpu.image().data()) <= BOUND, "chunked Walsh vs CPU " +
				relativeL2(out, cpu.image().data()));
			assertTrue(relativeL2(kept, cpu.coils().data()) <= BOUND, "chunked coil images vs CPU");
		}
	}

	/**
	 * Walsh kernels alone on random (not smooth) coil images, where every detail of the maths matters: per pixel the
	 * difference to {@link CoilCombine#walsh} relative to ‖x_p‖ (|vᴴx| ≤ ‖x‖) must be ≤ 1e-4 at all but 0.5% of
	 * pixels. Float rounding alone gives ~1e-6 (measured on a CPU emulation of the kernels, 1 to 128 coils); the
	 * allowance is for a near-tie of two diagonals of R, which can pick another start column in float than in double,
	 * and 12 iterations do not converge on random data, so such a pixel may differ. A 5×5 window, 11 iterations or
	 * another reference coil must each break the bound at more than 20% of pixels — the check can fail (emulated: the
	 * window 100% of pixels, 11 iterations 43–87% even at 1e-3; the reference turns every pixel's phase).
	 */
	@ParameterizedTest(name = "{0} coils")
	@MethodSource("walshCoils")
	void walshKernelMatchesHostOnRandomCoilImages(final int coils) {
		final int[] size = { 40, 28, 3 };
		final int pixels = 40 * 28 * 3;
		final float[] x = new float[2 * pixels * coils];
		for (int c = 0; c < coils; c++) {
			final double amp = 1 + 0.1 * c; // distinct energies: an unambiguous reference coil (the last)
			for (int i = 0; i < 2 * pixels; i++) x[2 * pixels * c + i] = (float) (amp * random.nextGaussian());
		}
		final float[] host = CoilCombine.walsh(x, 0, size, coils);
		final int h = CoilCombine.WINDOW / 2, it = CoilCombine.POWER_ITERATIONS;
		final double right = fractionAbove(walshOnDevice(x, size, coils, h, it, -1), host, x, pixels, coils);
		assertTrue(right <= 0.005, coils + " coils: fraction of pixels off by more than 1e-4: " + right);
		if (coils == 1) return; // one coil: v = 1 whatever the window and iterations, output = x
		assertTrue(fractionAbove(walshOnDevice(x, size, coils, h - 1, it, -1), host, x, pixels, coils) > 0.2,
			"a 5x5 window must be detected");
		assertTrue(fractionAbove(walshOnDevice(x, size, coils, h, it - 1, -1), host, x, pixels, coils) > 0.2,
			"11 power iterations must be detected");
		assertTrue(fractionAbove(walshOnDevice(x, size, coils, h, it, 0), host, x, pixels, coils) > 0.2,
			"reference coil 0 instead of " + (coils - 1) + " must be detected");
	}

	static Stream<Integer> walshCoils() {
		return Stream.of(1, 3, 8, 12, 32, 40, 128);
	}

	/** Repeated GPU recons (every combination, kept coils) leave the device's free memory unchanged (± 1 MiB). */
	@Test
	void gpuReconsLeaveDeviceMemoryFlat() {
		final int[] size = { 32, 24 };
		final Trajectory t = trajectory(size);
		final int coils = 6;
		final KSpace k = new KSpace(kspace(t, size, coils, 1), t.count(), coils, 1);
		final ReconOptions o = ReconOptions.defaults().withDcf(DcfMethod.RAMP).withNufft(nufft()
			.withDevice(DeviceChoice.gpu(0)));
		// The class's open device keeps the primary context alive between recons (each recon's plan opens its own).
		GriddingRecon.reconstruct(t, k, size, o, null); // warm-up: cuFFT's first plan allocates lasting state
		final long before = device.memoryInfo()[0];
		for (int i = 0; i < 60; i++) {
			final CoilCombination c = CoilCombination.values()[i % 3];
			GriddingRecon.reconstruct(t, k, size, o.withCombine(c).withKeepCoils(i % 2 == 0), null);
		}
		final long after = device.memoryInfo()[0];
		assertTrue(Math.abs(after - before) <= 1 << 20, "free device memory before " + before + " B, after 60 " +
			"recons " + after + " B");
	}

	/** A double-precision GPU plan keeps the host path (DCF and combination on the host) with the same meaning. */
	@Test
	void doublePrecisionKeepsTheHostPath() {
		final int[] size = { 32, 24 };
		final Trajectory t = trajectory(size);
		final KSpace k = new KSpace(kspace(t, size, 3, 1), t.count(), 3, 1);
		final ReconOptions o = ReconOptions.defaults().withDcf(DcfMethod.RAMP).withCombine(CoilCombination.WALSH);
		final NufftOptions n = nufft().withPrecision(Precision.DOUBLE);
		final ReconResult gpu = GriddingRecon.reconstruct(t, k, size, o.withNufft(n.withDevice(DeviceChoice.gpu(0))), null);
		final ReconResult cpu = GriddingRecon.reconstruct(t, k, size, o.withNufft(n.withDevice(DeviceChoice.CPU)), null);
		assertTrue(gpu.backend().startsWith("gpu"), gpu.backend());
		assertTrue(gpu.stages().snapshot().containsKey("dcf (host)"), gpu.stages().toString());
		assertTrue(gpu.stages().snapshot().containsKey("combine walsh (host)"), gpu.stages().toString());
		assertTrue(relativeL2(gpu.image().data(), cpu.image().data()) <= BOUND);
	}

	// -- helpers --

	/** σ = 2, W = 6, exponential of semicircle, float: the same parameters on both engines. */
	private static NufftOptions nufft() {
		return NufftOptions.defaults().withKernel(KernelType.EXP_SEMICIRCLE).withOversampling(2.0).withWidth(6)
			.withTolerance(1e-4);
	}

	private Trajectory trajectory(final int[] size) {
		if (size.length == 2) return new GoldenAngleRadial(2 * size[0], 3 * size[0] / 2, 1, random.nextInt(1000)).build();
		return new Radial3D(2 * size[0], 1200, Radial3D.Ordering.GOLDEN_MEANS, false).build();
	}

	/**
	 * Frames × coils of analytic k-space: coil c sees s_c·ρ with s_c(x) = Σ_j a_cj·e^{2πi f_j·x} (x centred pixels,
	 * |f_j| ≤ 1.5 cycles per field of view: smooth), so y_c(k) = Σ_j a_cj·F(k − f_j) with F the phantom's exact
	 * transform. Frame f scales the object by 1 + f/2.
	 */
	private float[] kspace(final Trajectory t, final int[] size, final int coils, final int frames) {
		final int d = size.length, m = t.count();
		final AnalyticPhantom phantom = d == 2 ? AnalyticPhantom.sheppLogan2d() : AnalyticPhantom.sheppLogan3d();
		final int terms = 4;
		final double[][] f = new double[terms][d];
		for (int j = 1; j < terms; j++)
			for (int a = 0; a < d; a++) f[j][a] = (random.nextDouble() * 3 - 1.5) / size[a];
		final double[][] shifted = new double[terms][2 * m];
		final double[] k = new double[d];
		for (int j = 0; j < terms; j++) {
			for (int p = 0; p < m; p++) {
				for (int a = 0; a < d; a++) k[a] = t.k(p, a) - f[j][a];
				final double[] v = phantom.kspace(k, size);
				shifted[j][2 * p] = v[0];
				shifted[j][2 * p + 1] = v[1];
			}
		}
		final float[] y = new float[2 * m * coils * frames];
		for (int c = 0; c < coils; c++) {
			final double[] ar = new double[terms], ai = new double[terms];
			for (int j = 0; j < terms; j++) {
				final double mag = j == 0 ? 1 + random.nextDouble() : 0.4 * random.nextDouble();
				final double ph = 2 * Math.PI * random.nextDouble();
				ar[j] = mag * Math.cos(ph);
				ai[j] = mag * Math.sin(ph);
			}
			for (int fr = 0; fr < frames; fr++) {
				final double scale = 1 + fr / 2.0;
				final int off = 2 * m * (c + coils * fr);
				for (int p = 0; p < m; p++) {
					double re = 0, im = 0;
					for (int j = 0; j < terms; j++) {
						re += ar[j] * shifted[j][2 * p] - ai[j] * shifted[j][2 * p + 1];
						im += ar[j] * shifted[j][2 * p + 1] + ai[j] * shifted[j][2 * p];
					}
					y[off + 2 * p] = (float) (scale * re);
					y[off + 2 * p + 1] = (float) (scale * im);
				}
			}
		}
		return y;
	}

	/**
	 * The Walsh kernels on host coil images; {@code forcedRef} ≥ 0 replaces the coil energies by ones that make that
	 * coil the reference (a deliberately wrong reference), −1 keeps the device's energies.
	 */
	private static double[] walshOnDevice(final float[] x, final int[] size, final int coils, final int half,
		final int iterations, final int forcedRef)
	{
		final int pixels = x.length / 2 / coils;
		device.makeCurrent();
		final CUstream stream = new CUstream();
		Cuda.check(JCudaDriver.cuStreamCreate(stream, 0), "cuStreamCreate");
		try (DeviceArray img = DeviceArray.of(x, "coil images"); DeviceArray out = new DeviceArray(8L * pixels, "out");
			DeviceArray energy = new DeviceArray(8L * coils, "energies"))
		{
			final ReconKernels k = new ReconKernels(device, stream);
			k.coilEnergy(img.pointer(), energy.pointer(), pixels, coils);
			Cuda.check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize");
			if (forcedRef >= 0) {
				final double[] e = new double[coils];
				e[forcedRef] = 1;
				energy.upload(Pointer.to(e), 8L * coils, "forced energies");
			}
			k.walsh(img.pointer(), energy.pointer(), out.pointer(), size, coils, half, iterations);
			Cuda.check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize");
			final float[] r = new float[2 * pixels];
			out.download(Pointer.to(r), 8L * pixels, "Walsh image");
			final double[] d = new double[r.length];
			for (int i = 0; i < r.length; i++) d[i] = r[i];
			return d;
		}
		finally {
			JCudaDriver.cuStreamDestroy(stream);
		}
	}

	/** Fraction of pixels where |gpu − host| / ‖x_p‖ > 1e-4. */
	private static double fractionAbove(final double[] gpu, final float[] host, final float[] x, final int pixels,
		final int coils)
	{
		int n = 0;
		for (int p = 0; p < pixels; p++) {
			double norm = 0;
			for (int c = 0; c < coils; c++) {
				final double re = x[2 * (p + pixels * c)], im = x[2 * (p + pixels * c) + 1];
				norm += re * re + im * im;
			}
			final double e = Math.hypot(gpu[2 * p] - host[2 * p], gpu[2 * p + 1] - host[2 * p + 1]) / Math.sqrt(norm);
			if (!(e <= 1e-4)) n++;
		}
		return (double) n / pixels;
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
