package org.nufftj.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.FrameGroup;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Precision;
import org.nufftj.operator.FftOperator;
import org.nufftj.operator.Operators;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.iterative.IterationListener;
import org.nufftj.recon.sense.Espirit;
import org.nufftj.recon.sense.EspiritMaps;
import org.nufftj.recon.sense.EspiritOptions;

/**
 * Iterative reconstruction of a loaded {@link Scan} (one frame) for Fiji's "Iterative reconstruction" and "Estimate
 * coil sensitivities": coil maps from a file, by Walsh's adaptive estimate on the gridded coil images, or by ESPIRiT
 * on the k-space centre gridded from the scan itself (the gridding reconstruction's per-coil images, DCF and all,
 * centred FFT to a Cartesian k-space, then {@link Espirit#fromKSpace} with its defaults and one set of maps), then
 * {@link Pics#reconstruct} with the given settings — the code path of {@code nufft-j pics}.
 */
public final class IterativeReconstruction {

	/** Where the coil maps come from. */
	public enum MapsSource {
		/** ESPIRiT from the gridded k-space centre. */
		ESPIRIT,
		/** Walsh's adaptive estimate from the gridded coil images (low resolution through its 7-pixel window). */
		WALSH,
		/** A BART .cfl [X, Y, Z, coils(, sets)] file (the first set). */
		FILE;

		/** espirit, walsh or file. */
		public static MapsSource parse(final String s) {
			for (final MapsSource m : values()) if (m.name().equalsIgnoreCase(s)) return m;
			throw new InvalidInputException("maps: unknown value '" + s + "', expected espirit, walsh or file");
		}
	}

	/** The image, the maps used and what ran. */
	public static final class Result {

		private final ComplexImage image, maps;
		private final Pics.Result pics;
		private final String mapsNote;

		Result(final ComplexImage image, final ComplexImage maps, final Pics.Result pics, final String mapsNote) {
			this.image = image;
			this.maps = maps;
			this.pics = pics;
			this.mapsNote = mapsNote;
		}

		public ComplexImage image() { return image; }

		/** [coil][pixel], one channel per coil. */
		public ComplexImage maps() { return maps; }

		public Pics.Result pics() { return pics; }

		public String mapsNote() { return mapsNote; }
	}

	private IterativeReconstruction() {}

	// -- public API --

	/**
	 * Coil maps of {@code scan} (one frame): ESPIRiT on the gridded centre, with the gridding options {@code gridding}.
	 */
	public static EspiritMaps espirit(final Scan scan, final ReconOptions gridding, final EspiritOptions options,
		final Session session)
	{
		final FrameGroup part = single(scan);
		final int[] matrix = scan.matrix();
		final List<ComplexImage> coils = Reconstruction.run(scan, gridding.withKeepCoils(true), null, session).coils();
		InvalidInputException.require(!coils.isEmpty(), "ESPIRiT: the gridding gave no coil images");
		final float[] images = coils.get(0).data();
		final Backend cpu = session.backend(org.nufftj.nufft.DeviceChoice.CPU, 0);
		final float[] k = new float[images.length];
		try (FftOperator f = new FftOperator(cpu, Precision.FLOAT, matrix, scan.coils())) {
			Operators.apply(f, images, k); // centred k-space of each coil (Cartesian grid of the matrix)
		}
		return Espirit.fromKSpace(k, matrix, part.kspace().coils(), options);
	}

	/** Walsh's maps [coil][pixel] from the gridding reconstruction's coil images of {@code scan} (one frame). */
	public static float[] walsh(final Scan scan, final ReconOptions gridding, final Session session) {
		single(scan);
		final List<ComplexImage> coils = Reconstruction.run(scan, gridding.withKeepCoils(true), null, session).coils();
		InvalidInputException.require(!coils.isEmpty(), "Walsh maps: the gridding gave no coil images");
		return org.nufftj.recon.CoilCombine.walshMaps(coils.get(0).data(), 0, scan.matrix(), scan.coils());
	}

	/** Maps [coil][pixel] of the first set of a BART file, which must match the scan's matrix and coils. */
	public static float[] mapsFromFile(final Scan scan, final Path file) throws IOException {
		InvalidInputException.require(file != null, "mapsfile: a coil map file is needed with maps=file");
		final Cfl.Array m = Cfl.read(file);
		final long[] d = m.dims();
		final int[] n = scan.matrix();
		final long z = n.length > 2 ? n[2] : 1;
		InvalidInputException.require(d[0] == n[0] && d[1] == n[1] && d[2] == z && d[3] == scan.coils(), file +
			": dims " + Arrays.toString(d) + ", expected maps [" + n[0] + ", " + n[1] + ", " + z + ", " + scan.coils() +
			"] for the scan's matrix and coils");
		return Arrays.copyOf(m.data(), (int) (2 * d[0] * d[1] * d[2] * d[3]));
	}

	/**
	 * Reconstructs {@code scan} (one frame) with maps from {@code source}; {@code progress} (may be null) sees every
	 * iteration and can cancel ({@link CancellationException}).
	 */
	public static Result run(final Scan scan, final MapsSource source, final Path mapsFile, final Pics.Settings s,
		final ReconOptions gridding, final Progress progress, final Session session) throws IOException
	{
		final FrameGroup part = single(scan);
		final float[] maps;
		final String note;
		if (source == MapsSource.FILE) {
			maps = mapsFromFile(scan, mapsFile);
			note = "maps from " + mapsFile;
		}
		else if (source == MapsSource.WALSH) {
			if (progress != null) progress.update(0, "Walsh maps");
			maps = walsh(scan, gridding, session);
			note = "Walsh maps (window " + org.nufftj.recon.CoilCombine.WINDOW + ")";
		}
		else {
			if (progress != null) progress.update(0, "ESPIRiT maps");
			final EspiritMaps e = espirit(scan, gridding, EspiritOptions.defaults().withMaps(1), session);
			maps = e.maps();
			note = "ESPIRiT maps (" + e + ")";
		}
		final int iterations = s.iterations();
		final IterationListener listener = progress == null ? null : IterationListener.residualsOnly((k, res, obj) -> {
			progress.update((double) k / iterations, String.format(Locale.ROOT, "iteration %d/%d, residual %.3e", k,
				iterations, res));
			if (progress.cancelled()) throw new CancellationException("cancelled at iteration " + k);
		});
		final int[] matrix = scan.matrix();
		final Pics.Result r = Pics.reconstruct(session, part.trajectory(), matrix, Arrays.copyOf(part.kspace().data(),
			2 * part.kspace().points() * scan.coils()), maps, scan.coils(), s, null, listener);
		final ComplexImage image = new ComplexImage(r.image(), matrix, 1, 1, scan.pixelMm());
		return new Result(image, new ComplexImage(maps, matrix, scan.coils(), 1, scan.pixelMm()), r, note);
	}

	// -- helpers --

	private static FrameGroup single(final Scan scan) {
		InvalidInputException.require(scan.parts().size() == 1 && scan.frames() == 1 && scan.slices() == 1,
			"iterative reconstruction: one frame and one slice are supported, the scan has " + scan.frames() +
				" frames, " + scan.slices() + " slices in " + scan.parts().size() + " parts");
		return scan.parts().get(0);
	}
}
