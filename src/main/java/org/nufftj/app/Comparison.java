package org.nufftj.app;

import java.util.Locale;
import java.util.concurrent.CancellationException;

import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.ImageComparison;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;

/**
 * The same reconstruction on the CPU and on the GPU, with the figures of the GPU image against the CPU one
 * ({@link ImageComparison} over the complex images: NRMSE, max |difference|, PSNR). When no GPU runs the plan,
 * {@link #gpu()} is null and {@link #gpuProblem()} says why. The command line's {@code recon --compare} and Fiji's
 * Compare CPU and GPU both run this.
 */
public final class Comparison {

	private final Reconstruction cpu, gpu;
	private final ImageComparison figures;
	private final String gpuProblem;

	private Comparison(final Reconstruction cpu, final Reconstruction gpu, final String gpuProblem) {
		this.cpu = cpu;
		this.gpu = gpu;
		this.gpuProblem = gpuProblem;
		this.figures = gpu == null ? null : ImageComparison.of(cpu.image().data(), gpu.image().data());
	}

	// -- public API --

	/**
	 * @param done a reconstruction already made with {@code options} (reused for the device it ran on), or null
	 */
	public static Comparison run(final Scan scan, final ReconOptions options, final Reconstruction done,
		final Progress progress, final Session session)
	{
		Reconstruction cpu = done != null && !done.ranOnGpu() ? done : null;
		Reconstruction gpu = done != null && done.ranOnGpu() ? done : null;
		String problem = null;
		if (cpu == null) cpu = Reconstruction.run(scan, withDevice(options, DeviceChoice.CPU), progress, session);
		if (gpu == null) {
			final DeviceChoice d = options.nufft().device().kind() == DeviceChoice.Kind.GPU ? options.nufft().device() :
				DeviceChoice.gpu(0);
			try {
				gpu = Reconstruction.run(scan, withDevice(options, d), progress, session);
				if (!gpu.ranOnGpu()) {
					problem = "no usable GPU for device " + d + ": the plan ran on '" + gpu.backend() + "' (no NVIDIA " +
						"GPU / CUDA driver, or the GPU engine is not built in)";
					gpu = null;
				}
			}
			catch (final RuntimeException | LinkageError e) {
				if (e instanceof CancellationException) throw e;
				problem = "GPU not usable: " + e.getMessage();
				gpu = null;
			}
		}
		return new Comparison(cpu, gpu, problem);
	}

	public Reconstruction cpu() { return cpu; }

	/** The GPU reconstruction, or null when no GPU ran it. */
	public Reconstruction gpu() { return gpu; }

	/** GPU against CPU (CPU the reference), or null without a GPU image. */
	public ImageComparison figures() { return figures; }

	/** Why there is no GPU image, or null. */
	public String gpuProblem() { return gpuProblem; }

	/** One line: both times and backends, and the figures (or why there is no GPU image). */
	public String summary() {
		if (gpu == null) return String.format(Locale.ROOT, "CPU %.1f ms (%s); %s", cpu.millis(), cpu.backend(),
			gpuProblem);
		return String.format(Locale.ROOT, "GPU (%s) %.1f ms, CPU (%s) %.1f ms; GPU vs CPU: NRMSE %.3g, " +
			"max |difference| %.3g, PSNR %.1f dB", gpu.backend(), gpu.millis(), cpu.backend(), cpu.millis(),
			figures.nrmse(), figures.maxAbsDifference(), figures.psnr());
	}

	// -- helpers --

	private static ReconOptions withDevice(final ReconOptions o, final DeviceChoice d) {
		return o.withNufft(o.nufft().withDevice(d));
	}
}
