package org.nufftj.command;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.data.ComplexImage;
import org.nufftj.io.IsmrmrdData;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.gpu.GpuDevices;
import org.nufftj.recon.GriddingRecon;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;

/** A gridding reconstruction of every block of a {@link KSpaceSource.Scan}, with its timing and backend. */
public final class Reconstruction {

	public final List<ComplexImage> images = new ArrayList<>();
	public final List<ComplexImage> coils = new ArrayList<>();
	public final List<ReconResult> results = new ArrayList<>();
	public double millis;

	private Reconstruction() {}

	public static Reconstruction run(final KSpaceSource.Scan scan, final ReconOptions options, final Progress progress) {
		return run(scan, options, progress, null);
	}

	/** As {@link #run(KSpaceSource.Scan, ReconOptions, Progress)}, GPU plans on {@code devices} (null: their own). */
	public static Reconstruction run(final KSpaceSource.Scan scan, final ReconOptions options, final Progress progress,
		final GpuDevices devices)
	{
		final Reconstruction r = new Reconstruction();
		final long t0 = System.nanoTime();
		final int n = scan.blocks.size();
		// One backend for every block (devices: unused until the app layer keeps one backend per session).
		try (Backend backend = Backends.open(options.nufft().device(), options.nufft().threads(),
			System.err::println))
		{
			for (int b = 0; b < n; b++) {
				final IsmrmrdData.Block block = scan.blocks.get(b);
				final int index = b;
				final Progress sub = progress == null ? null : new Progress() {

					@Override
					public void update(final double fraction, final String what) {
						progress.update((index + fraction) / n, what + (n > 1 ? " (block " + (index + 1) + "/" + n + ")" : ""));
					}

					@Override
					public boolean cancelled() {
						return progress.cancelled();
					}
				};
				final ReconResult res = GriddingRecon.reconstruct(backend, block.trajectory(), block.kspace(), scan.matrix,
					options, sub);
				r.results.add(res);
				r.images.add(res.image());
				if (res.coils() != null) r.coils.add(res.coils());
			}
		}
		r.millis = (System.nanoTime() - t0) / 1e6;
		return r;
	}

	/** The backend of the first block, e.g. "cpu (2 threads)". */
	public String backend() {
		return results.get(0).backend();
	}

	/** One line per reconstruction parameter, for the image info and the Log. */
	public String describe() {
		return results.get(0).describe();
	}

	/** The coil-combined images of every block, one after the other, as magnitudes (frame order). */
	public float[] magnitudes() {
		int total = 0;
		for (final ComplexImage img : images) total += img.data().length / 2;
		final float[] m = new float[total];
		int o = 0;
		for (final ComplexImage img : images) {
			final float[] a = img.magnitude();
			System.arraycopy(a, 0, m, o, a.length);
			o += a.length;
		}
		return m;
	}
}
