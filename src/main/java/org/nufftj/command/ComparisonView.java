package org.nufftj.command;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.app.Comparison;
import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.Session;
import org.nufftj.data.ComplexImage;
import org.nufftj.imglib.ComplexPlanes.Part;
import org.nufftj.recon.ReconOptions;

import ij.ImagePlus;
import ij.measure.ResultsTable;

/**
 * An application {@link Comparison} (the same reconstruction on the CPU and the GPU) shown in ImageJ: both images,
 * their difference (GPU − CPU magnitude, diverging LUT) and a ResultsTable with NRMSE, max |difference|, PSNR (CPU as
 * reference) and both times. When no GPU engine runs, the table and {@link #summary} say why and only the CPU image
 * is made.
 */
final class ComparisonView {

	ImagePlus cpu, gpu, difference;
	ResultsTable table;
	String summary;

	private ComparisonView() {}

	/** @param done a reconstruction already made with {@code options} (reused for its device), or null */
	static ComparisonView of(final Scan scan, final ReconOptions options, final Reconstruction done,
		final Session session)
	{
		final IJProgress progress = new IJProgress("Compare CPU and GPU");
		final Comparison c;
		try {
			c = Comparison.run(scan, options, done, progress, session);
		}
		finally {
			progress.done();
		}
		final ComparisonView v = new ComparisonView();
		final Part[] mag = { Part.MAGNITUDE };
		v.cpu = Stacks.stack(scan.title() + " CPU", c.cpu().images(), mag, scan.slices(), scan.pixelMm());
		v.table = new ResultsTable();
		v.table.incrementCounter();
		v.table.addValue("input", scan.title());
		v.table.addValue("CPU ms", c.cpu().millis());
		v.table.addValue("CPU backend", c.cpu().backend());
		if (c.gpu() != null) {
			v.gpu = Stacks.stack(scan.title() + " GPU", c.gpu().images(), mag, scan.slices(), scan.pixelMm());
			final float[] a = c.cpu().magnitudes(), b = c.gpu().magnitudes();
			final List<ComplexImage> d = new ArrayList<>();
			int o = 0;
			for (final ComplexImage img : c.cpu().images()) {
				final int n = img.data().length / 2;
				final float[] complex = new float[2 * n];
				for (int i = 0; i < n; i++) complex[2 * i] = b[o + i] - a[o + i];
				o += n;
				d.add(new ComplexImage(complex, img.size(), img.channels(), img.frames(), null));
			}
			v.difference = Stacks.stack(scan.title() + " GPU-CPU", d, new Part[] { Part.REAL }, scan.slices(),
				scan.pixelMm());
			Stacks.diverging(v.difference);
			v.table.addValue("GPU ms", c.gpu().millis());
			v.table.addValue("GPU backend", c.gpu().backend());
			v.table.addValue("NRMSE", c.figures().nrmse());
			v.table.addValue("max |diff|", c.figures().maxAbsDifference());
			v.table.addValue("PSNR dB", c.figures().psnr());
		}
		else {
			v.table.addValue("GPU ms", Double.NaN);
			v.table.addValue("GPU backend", "none");
			v.table.addValue("note", c.gpuProblem());
		}
		v.summary = c.summary();
		return v;
	}
}
