package org.nufftj.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.nufftj.data.ComplexImage;
import org.nufftj.imglib.ComplexPlanes.Part;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.gpu.GpuDevices;
import org.nufftj.recon.ImageComparison;
import org.nufftj.recon.ReconOptions;

import ij.ImagePlus;
import ij.measure.ResultsTable;

/**
 * The same reconstruction on the CPU and the GPU: both images, their difference (GPU − CPU magnitude, diverging LUT)
 * and a ResultsTable with NRMSE, max |difference|, PSNR (recon.ImageComparison, CPU as reference) and both times.
 * When no GPU engine runs, the table and {@link #summary} say why and only the CPU image is made.
 */
public final class Comparison {

	public ImagePlus cpu, gpu, difference;
	public ResultsTable table;
	public String summary;
	public boolean gpuRan;

	private Comparison() {}

	/**
	 * @param done    a reconstruction already made with {@code options} (reused for its device), or null
	 * @param devices where GPU plans are made (null: each plan opens its own device)
	 */
	public static Comparison run(final KSpaceSource.Scan scan, final ReconOptions options, final Reconstruction done,
		final GpuDevices devices)
	{
		final Comparison c = new Comparison();
		Reconstruction cpu = done != null && isCpu(done.backend()) ? done : null;
		Reconstruction gpu = done != null && !isCpu(done.backend()) ? done : null;
		final IJProgress progress = new IJProgress("Compare CPU and GPU");
		String gpuProblem = null;
		try {
			if (cpu == null) cpu = Reconstruction.run(scan, withDevice(options, DeviceChoice.CPU), progress, devices);
			if (gpu == null) {
				final DeviceChoice d = options.nufft().device().kind() == DeviceChoice.Kind.GPU ? options.nufft().device()
					: DeviceChoice.gpu(0);
				try {
					gpu = Reconstruction.run(scan, withDevice(options, d), progress, devices);
					if (isCpu(gpu.backend())) {
						gpuProblem = "GPU engine not available in this installation (the plan ran on " + gpu.backend() +
							")";
						gpu = null;
					}
				}
				catch (final RuntimeException | LinkageError e) {
					if (e instanceof java.util.concurrent.CancellationException) throw e;
					gpuProblem = "GPU not usable: " + e.getMessage();
				}
			}
		}
		finally {
			progress.done();
		}
		final Part[] mag = { Part.MAGNITUDE };
		c.cpu = Stacks.stack(scan.title + " CPU", cpu.images, mag, scan.slices, scan.pixelMm);
		c.table = new ResultsTable();
		c.table.incrementCounter();
		c.table.addValue("input", scan.title);
		c.table.addValue("CPU ms", cpu.millis);
		c.table.addValue("CPU backend", cpu.backend());
		if (gpu != null) {
			c.gpuRan = true;
			c.gpu = Stacks.stack(scan.title + " GPU", gpu.images, mag, scan.slices, scan.pixelMm);
			final float[] a = cpu.magnitudes(), b = gpu.magnitudes();
			final ImageComparison cmp = ImageComparison.of(a, b);
			final float[] diff = cmp.difference();
			final List<ComplexImage> d = new ArrayList<>();
			int o = 0;
			for (final ComplexImage img : cpu.images) {
				final int n = img.data().length / 2;
				final float[] complex = new float[2 * n];
				for (int i = 0; i < n; i++) complex[2 * i] = diff[o + i];
				o += n;
				d.add(new ComplexImage(complex, img.size(), img.channels(), img.frames(), null));
			}
			c.difference = Stacks.stack(scan.title + " GPU-CPU", d, new Part[] { Part.REAL }, scan.slices, scan.pixelMm);
			Stacks.diverging(c.difference);
			c.table.addValue("GPU ms", gpu.millis);
			c.table.addValue("GPU backend", gpu.backend());
			c.table.addValue("NRMSE", cmp.nrmse());
			c.table.addValue("max |diff|", cmp.maxAbsDifference());
			c.table.addValue("PSNR dB", cmp.psnr());
			c.summary = String.format(Locale.ROOT, "CPU %.1f ms (%s), GPU %.1f ms (%s): NRMSE %.3g, max |diff| %.3g, " +
				"PSNR %.1f dB", cpu.millis, cpu.backend(), gpu.millis, gpu.backend(), cmp.nrmse(), cmp.maxAbsDifference(),
				cmp.psnr());
		}
		else {
			c.table.addValue("GPU ms", Double.NaN);
			c.table.addValue("GPU backend", "none");
			c.table.addValue("note", gpuProblem);
			c.summary = String.format(Locale.ROOT, "CPU %.1f ms (%s); %s", cpu.millis, cpu.backend(), gpuProblem);
		}
		return c;
	}

	static boolean isCpu(final String backend) {
		return !backend.toLowerCase(Locale.ROOT).startsWith("gpu");
	}

	private static ReconOptions withDevice(final ReconOptions o, final DeviceChoice d) {
		return o.withNufft(o.nufft().withDevice(d));
	}
}
