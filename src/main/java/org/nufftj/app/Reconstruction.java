package org.nufftj.app;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.data.FrameGroup;
import org.nufftj.data.ComplexImage;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;

/** A gridding reconstruction of every part of a {@link Scan}, with its timing and backend. */
public final class Reconstruction {

	private final List<ReconResult> results;
	private final double millis;

	private Reconstruction(final List<ReconResult> results, final double millis) {
		this.results = List.copyOf(results);
		this.millis = millis;
	}

	// -- public API --

	/** Reconstructs every part of {@code scan} at its matrix, in {@code session}. */
	public static Reconstruction run(final Scan scan, final ReconOptions options, final Progress progress,
		final Session session)
	{
		final long t0 = System.nanoTime();
		final int n = scan.parts().size();
		final List<ReconResult> results = new ArrayList<>();
		for (int b = 0; b < n; b++) {
			final FrameGroup part = scan.parts().get(b);
			final int index = b;
			final Progress sub = progress == null ? null : new Progress() {

				@Override
				public void update(final double fraction, final String what) {
					progress.update((index + fraction) / n, what + (n > 1 ? " (part " + (index + 1) + "/" + n + ")" : ""));
				}

				@Override
				public boolean cancelled() {
					return progress.cancelled();
				}
			};
			results.add(session.reconstruct(part.trajectory(), part.kspace(), scan.matrix(), options, sub));
		}
		return new Reconstruction(results, (System.nanoTime() - t0) / 1e6);
	}

	/** One result per part of the scan. */
	public List<ReconResult> results() { return results; }

	/** The combined images, one per part. */
	public List<ComplexImage> images() {
		final List<ComplexImage> l = new ArrayList<>();
		for (final ReconResult r : results) l.add(r.image());
		return l;
	}

	/** The per-coil images, one per part (empty unless the options keep them). */
	public List<ComplexImage> coils() {
		final List<ComplexImage> l = new ArrayList<>();
		for (final ReconResult r : results) if (r.coils() != null) l.add(r.coils());
		return l;
	}

	/** Wall time of the whole reconstruction. */
	public double millis() { return millis; }

	/** True when it ran on a GPU (the device that ran it, whatever device the options named). */
	public boolean ranOnGpu() {
		return results.get(0).ranOnGpu();
	}

	/** The backend of the first part, e.g. "cpu (2 threads)". */
	public String backend() {
		return results.get(0).backend();
	}

	/** One line per reconstruction parameter, for the image info and the log. */
	public String describe() {
		return results.get(0).describe();
	}

	/**
	 * Every part's image as one (frames of every part, in part order): the image itself when there is one part, else
	 * a concatenation (parts must have the same size and channels).
	 */
	public ComplexImage image() {
		if (results.size() == 1) return results.get(0).image();
		final ComplexImage first = results.get(0).image();
		int frames = 0, length = 0;
		for (final ReconResult r : results) {
			org.nufftj.InvalidInputException.require(java.util.Arrays.equals(r.image().size(), first.size()) &&
				r.image().channels() == first.channels(), "scan parts reconstruct to different image sizes");
			frames += r.image().frames();
			length += r.image().data().length;
		}
		final float[] d = new float[length];
		int o = 0;
		for (final ReconResult r : results) {
			System.arraycopy(r.image().data(), 0, d, o, r.image().data().length);
			o += r.image().data().length;
		}
		return new ComplexImage(d, first.size(), first.channels(), frames, first.spacing());
	}

	/** The combined images of every part, one after the other, as magnitudes (frame order). */
	public float[] magnitudes() {
		int total = 0;
		for (final ReconResult r : results) total += r.image().data().length / 2;
		final float[] m = new float[total];
		int o = 0;
		for (final ReconResult r : results) {
			final float[] a = r.image().magnitude();
			System.arraycopy(a, 0, m, o, a.length);
			o += a.length;
		}
		return m;
	}
}
