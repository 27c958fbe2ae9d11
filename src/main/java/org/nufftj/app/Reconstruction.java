package org.nufftj.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.nufftj.data.FrameGroup;
import org.nufftj.data.ComplexImage;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.StageTimes;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.PartialFourier;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;

/** A gridding reconstruction of every part of a {@link Scan}, with its timing and backend. */
public final class Reconstruction {

	private final List<ReconResult> results;
	private final double millis;
	private final List<Share> shares;

	private Reconstruction(final List<ReconResult> results, final double millis, final List<Share> shares) {
		this.results = List.copyOf(results);
		this.millis = millis;
		this.shares = List.copyOf(shares);
	}

	/**
	 * What one device of a split reconstruction did: frames [from, to) of the scan (or, for a single frame split by
	 * coil, coils [from, to)), in {@code millis} of wall time.
	 */
	public static final class Share {

		private final DeviceChoice device;
		private final String backend;
		private final int from, to;
		private final double millis;
		private final boolean coils;

		Share(final DeviceChoice device, final String backend, final int from, final int to, final double millis,
			final boolean coils)
		{
			this.device = device;
			this.backend = backend;
			this.from = from;
			this.to = to;
			this.millis = millis;
			this.coils = coils;
		}

		/** The device asked for. */
		public DeviceChoice device() { return device; }

		/** The backend that ran it, e.g. "gpu:1 (NVIDIA H200)". */
		public String backend() { return backend; }

		public int from() { return from; }

		public int to() { return to; }

		public double millis() { return millis; }

		/** True when [from, to) counts coils (a single frame split by coil), false for frames. */
		public boolean coils() { return coils; }

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%s: %s %d-%d (%d), %.1f ms on %s", device, coils ? "coils" : "frames", from,
				to - 1, to - from, millis, backend);
		}
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
		return new Reconstruction(results, (System.nanoTime() - t0) / 1e6, List.of());
	}

	/**
	 * Reconstructs {@code scan} split over {@code devices}: the frames are cut into one contiguous range per device
	 * (sizes differing by at most one; no more ranges than frames), each range reconstructed on its device in its own
	 * thread (its own plans and density compensation, as a single-device run of that range makes them), and the
	 * results put back in frame order, so the images equal a single-device run's. A scan of one frame with several
	 * coils is split by coil instead: each device reconstructs a contiguous range of coils to coil images (its own plan
	 * and density compensation), and the coil images, put back in coil order, are combined on the first device as a
	 * single-device run combines them ({@link Session#combine}). One device, or one frame of one coil, is the
	 * plain {@link #run(Scan, ReconOptions, Progress, Session)}. The first failure (in range order) is thrown after
	 * every device has stopped; cancelling stops the ranges at their next progress check.
	 */
	public static Reconstruction run(final Scan scan, final ReconOptions options, final Progress progress,
		final Session session, final List<DeviceChoice> devices)
	{
		final int k = Math.min(devices.size(), scan.frames());
		if (scan.frames() == 1 && devices.size() > 1 && scan.coils() > 1 && options.partialFourier() !=
			PartialFourier.HOMODYNE)
		{
			return runByCoil(scan, options, progress, session, devices);
		}
		if (k <= 1) return run(scan, devices.isEmpty() ? options : onDevice(options, devices.get(0)), progress,
			session);
		final long t0 = System.nanoTime();
		final int[] bounds = bounds(scan.frames(), k);
		final Split split = new Split(k, devices, progress, (i, d, p) -> run(scan.frameRange(bounds[i], bounds[i + 1]),
			onDevice(options, d), p, session), bounds, false);
		final List<ReconResult> all = new ArrayList<>();
		for (final Reconstruction r : split.parts) all.addAll(r.results());
		return new Reconstruction(all, (System.nanoTime() - t0) / 1e6, java.util.Arrays.asList(split.shares));
	}

	/** A single frame split by coil over the devices (see {@link #run(Scan, ReconOptions, Progress, Session, List)}). */
	private static Reconstruction runByCoil(final Scan scan, final ReconOptions options, final Progress progress,
		final Session session, final List<DeviceChoice> devices)
	{
		final long t0 = System.nanoTime();
		final int k = Math.min(devices.size(), scan.coils());
		final int[] bounds = bounds(scan.coils(), k);
		final ReconOptions coilImages = options.withCombine(CoilCombination.NONE).withKeepCoils(false);
		final Split split = new Split(k, devices, progress, (i, d, p) -> run(scan.coilRange(bounds[i], bounds[i + 1]),
			onDevice(coilImages, d), p, session), bounds, true);
		final ReconResult first = split.parts[0].results().get(0);
		final ComplexImage f = first.image();
		final long pixels = ComplexImage.pixels(f.size());
		final float[] all = new float[(int) (2 * pixels * scan.coils())];
		for (int i = 0; i < k; i++) {
			final float[] d = split.parts[i].results().get(0).image().data();
			System.arraycopy(d, 0, all, (int) (2 * pixels * bounds[i]), d.length);
		}
		final ComplexImage coils = new ComplexImage(all, f.size(), scan.coils(), 1, f.spacing());
		final ReconOptions onFirst = onDevice(options, devices.get(0));
		final long tc = System.nanoTime();
		final ComplexImage image = session.combine(coils, options.combine(), onFirst.nufft());
		final StageTimes stages = new StageTimes();
		first.stages().snapshot().forEach(stages::add);
		stages.add("combine " + options.combine().key() + " (coil images of " + k + " devices)", (System.nanoTime() -
			tc) / 1e6);
		final ReconResult r = new ReconResult(image, options.keepCoils() ? coils : null, first.dcf(), first.backend(),
			first.device(), first.parameters(), (System.nanoTime() - t0) / 1e6, onFirst.toString(), stages);
		return new Reconstruction(List.of(r), r.millis(), java.util.Arrays.asList(split.shares));
	}

	/** k + 1 bounds cutting [0, n) into k contiguous ranges whose sizes differ by at most one. */
	private static int[] bounds(final int n, final int k) {
		final int[] b = new int[k + 1];
		for (int i = 0; i <= k; i++) b[i] = (int) ((long) n * i / k);
		return b;
	}

	/** One range's reconstruction on its device. */
	private interface RangeTask {
		Reconstruction run(int index, DeviceChoice device, Progress progress);
	}

	/** Ranges run on their devices, one thread each; the parts in range order and what each device did. */
	private static final class Split {

		final Reconstruction[] parts;
		final Share[] shares;

		Split(final int k, final List<DeviceChoice> devices, final Progress progress, final RangeTask task,
			final int[] bounds, final boolean byCoil)
		{
			parts = new Reconstruction[k];
			shares = new Share[k];
			final Throwable[] failures = new Throwable[k];
			final double[] done = new double[k];
			final Thread[] threads = new Thread[k];
			for (int i = 0; i < k; i++) {
				final int index = i;
				final DeviceChoice d = devices.get(i);
				final Progress sub = progress == null ? null : new Progress() {

					@Override
					public void update(final double fraction, final String what) {
						double sum;
						synchronized (done) {
							done[index] = fraction;
							sum = 0;
							for (final double f : done) sum += f;
						}
						progress.update(sum / k, what + " (" + d + ")");
					}

					@Override
					public boolean cancelled() {
						return progress.cancelled();
					}
				};
				threads[i] = new Thread(() -> {
					final long s0 = System.nanoTime();
					try {
						final Reconstruction r = task.run(index, d, sub);
						parts[index] = r;
						shares[index] = new Share(d, r.backend(), bounds[index], bounds[index + 1], (System.nanoTime() -
							s0) / 1e6, byCoil);
					}
					catch (final Throwable e) {
						failures[index] = e;
					}
				}, "nufft-j recon " + d);
				threads[i].start();
			}
			for (final Thread t : threads) {
				try {
					t.join();
				}
				catch (final InterruptedException e) {
					for (final Thread u : threads) u.interrupt();
					Thread.currentThread().interrupt();
					throw new IllegalStateException("reconstruction interrupted", e);
				}
			}
			for (final Throwable f : failures) {
				if (f instanceof RuntimeException) throw (RuntimeException) f;
				if (f instanceof Error) throw (Error) f;
				if (f != null) throw new IllegalStateException(f);
			}
		}
	}

	/** What each device did when the reconstruction was split over devices; empty for a single-device run. */
	public List<Share> shares() { return shares; }

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

	/** One line per reconstruction parameter, for the image info and the log (plus one per device of a split run). */
	public String describe() {
		final StringBuilder b = new StringBuilder(results.get(0).describe());
		for (final Share s : shares) b.append(b.length() > 0 && b.charAt(b.length() - 1) != '\n' ? "\n" : "")
			.append("device share ").append(s);
		return b.toString();
	}

	// -- helpers --

	private static ReconOptions onDevice(final ReconOptions o, final DeviceChoice d) {
		return o.withNufft(o.nufft().withDevice(d));
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
