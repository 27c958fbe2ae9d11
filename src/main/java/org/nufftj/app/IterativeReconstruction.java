package org.nufftj.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.FrameGroup;
import org.nufftj.data.KSpace;
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
 * Iterative reconstruction of a loaded {@link Scan} (frame by frame) for Fiji's "Iterative reconstruction" and "Estimate
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
		private final List<Pics.Result> pics;
		private final List<double[]> residuals;
		private final String mapsNote;

		Result(final ComplexImage image, final ComplexImage maps, final List<Pics.Result> pics,
			final List<double[]> residuals, final String mapsNote)
		{
			this.image = image;
			this.maps = maps;
			this.pics = List.copyOf(pics);
			this.residuals = List.copyOf(residuals);
			this.mapsNote = mapsNote;
		}

		/** Every frame of the scan, in the scan's frame order (slices fastest, as the gridding reconstruction). */
		public ComplexImage image() { return image; }

		/** [set][coil][pixel], one channel per coil, one frame per set of maps (one set, or one per slice). */
		public ComplexImage maps() { return maps; }

		/** What ran, one per frame. */
		public List<Pics.Result> pics() { return pics; }

		/**
		 * The residual the solver reported at each iteration (CG: ‖r‖/‖b‖; FISTA, ADMM: as {@link Pics} says), one
		 * array per frame (copies).
		 */
		public List<double[]> residuals() {
			final List<double[]> l = new ArrayList<>();
			for (final double[] r : residuals) l.add(r.clone());
			return l;
		}

		public String mapsNote() { return mapsNote; }
	}

	/** BART's slice dimension (SLICE_DIM in src/misc/mri.h). */
	static final int SLICE_DIM = 13;

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

	/**
	 * Maps of a BART file for {@code scan}, [set][coil][pixel] for the {@link #mapSets} sets {@link #run} uses: the file
	 * is [X, Y, Z, coils] (matching the scan's matrix and coils; of several ESPIRiT sets in dim 4 the first), for a
	 * scan of several slices with one set per slice in BART's slice dimension 13; other dimensions must be 1.
	 */
	public static float[] mapsFromFile(final Scan scan, final Path file) throws IOException {
		return mapsFromFile(scan, file, mapSets(scan));
	}

	private static float[] mapsFromFile(final Scan scan, final Path file, final int sets) throws IOException {
		InvalidInputException.require(file != null, "mapsfile: a coil map file is needed with maps=file");
		InvalidInputException.require(sets == 1 || sets == scan.slices(), "mapsfile: the scan's " + scan.frames() +
			" frames are not a whole number of its " + scan.slices() + " slices; maps from a file need one set per slice");
		final Cfl.Array m = Cfl.read(file);
		final long[] d = m.dims();
		final int[] n = scan.matrix();
		final long z = n.length > 2 ? n[2] : 1;
		boolean others = true;
		for (int i = 5; i < Cfl.DIMS; i++) others &= d[i] == (i == SLICE_DIM ? sets : 1);
		InvalidInputException.require(d[0] == n[0] && d[1] == n[1] && d[2] == z && d[3] == scan.coils() && others,
			file + ": dims " + Arrays.toString(d) + ", expected maps [" + n[0] + ", " + n[1] + ", " + z + ", " + scan
				.coils() + "(, sets)" + (sets > 1 ? ", 1, …, " + sets + " slices in dimension " + SLICE_DIM : "") +
				"] for the scan's matrix, coils" + (sets > 1 ? " and slices" : "") + ", other dimensions 1");
		final int one = (int) (2 * d[0] * d[1] * d[2] * d[3]);
		final float[] out = new float[sets * one];
		for (int set = 0; set < sets; set++) System.arraycopy(m.data(), (int) (set * one * d[4]), out, set * one, one);
		return out;
	}

	/**
	 * Reconstructs every frame of {@code scan} independently (frame by frame, each by {@link Pics#reconstruct} with
	 * its own data scale), with maps from {@code source}: estimated once per slice from the slice's first frame
	 * (ESPIRiT, Walsh) and used for every frame of that slice — slices are the scan's {@link Scan#slices()}, slice
	 * fastest (frame f is slice f mod slices) when the frames are a whole number of slices, else each frame has its
	 * own maps; from a file, one set [X, Y, Z, coils] for a scan of one slice, or one per slice in BART's slice dimension
	 * 13. {@code progress} (may be null) sees every iteration and can cancel ({@link CancellationException}).
	 */
	public static Result run(final Scan scan, final MapsSource source, final Path mapsFile, final Pics.Settings s,
		final ReconOptions gridding, final Progress progress, final Session session) throws IOException
	{
		final int frames = scan.frames(), sets = mapSets(scan);
		final int[] matrix = scan.matrix();
		final int px = ComplexImage.pixels(matrix) > Integer.MAX_VALUE / 4 ? -1 : (int) ComplexImage.pixels(matrix);
		InvalidInputException.require(px > 0, "iterative reconstruction: matrix " + Options.describeMatrix(matrix) +
			" too large");
		final int mapLength = 2 * px * scan.coils();
		final float[] maps = new float[sets * mapLength];
		final String note;
		if (source == MapsSource.FILE) {
			final float[] m = mapsFromFile(scan, mapsFile, sets);
			System.arraycopy(m, 0, maps, 0, maps.length);
			note = "maps from " + mapsFile + (sets > 1 ? " (" + sets + " slices)" : "");
		}
		else {
			String what = null;
			for (int set = 0; set < sets; set++) {
				final Scan one = mapsFrame(scan, set);
				final String where = sets > 1 ? " (slice " + (set + 1) + "/" + sets + ")" : "";
				if (source == MapsSource.WALSH) {
					if (progress != null) Progress.step(progress, 0, "Walsh maps" + where);
					System.arraycopy(walsh(one, gridding, session), 0, maps, set * mapLength, mapLength);
					what = "Walsh maps (window " + org.nufftj.recon.CoilCombine.WINDOW + ")";
				}
				else {
					if (progress != null) Progress.step(progress, 0, "ESPIRiT maps" + where);
					final EspiritMaps e = espirit(one, gridding, EspiritOptions.defaults().withMaps(1), session);
					System.arraycopy(e.maps(), 0, maps, set * mapLength, mapLength);
					what = "ESPIRiT maps (" + e + ")";
				}
			}
			note = what + (sets > 1 ? ", one set per slice (" + sets + ")" : frames > 1 ? ", from frame 1 for every " +
				"frame" : "");
		}
		final int iterations = s.iterations();
		final float[] image = new float[2 * px * frames];
		final List<Pics.Result> results = new ArrayList<>();
		final List<double[]> residuals = new ArrayList<>();
		for (int f = 0; f < frames; f++) {
			final FrameGroup part = partOf(scan, f);
			final KSpace k = part.kspace();
			final int offset = k.offset(0, f - part.firstFrame());
			final float[] y = Arrays.copyOfRange(k.data(), offset, offset + 2 * k.points() * k.coils());
			final int frame = f;
			final double[] history = new double[iterations];
			final int[] done = { 0 };
			final IterationListener listener = IterationListener.residualsOnly((it, res, obj) -> {
				if (it >= 1 && it <= iterations) history[it - 1] = res;
				done[0] = Math.max(done[0], it);
				if (progress != null) {
					progress.update((frame + (double) it / iterations) / frames, String.format(Locale.ROOT,
						"%siteration %d/%d, residual %.3e", frames > 1 ? "frame " + (frame + 1) + "/" + frames + ", " : "",
						it, iterations, res));
					if (progress.cancelled()) throw new CancellationException("cancelled at iteration " + it +
						(frames > 1 ? " of frame " + (frame + 1) : ""));
				}
			});
			final int set = sets == 1 ? 0 : sets == frames ? f : f % sets;
			final Pics.Result r = Pics.reconstruct(session, part.trajectory(), matrix, y, Arrays.copyOfRange(maps, set *
				mapLength, (set + 1) * mapLength), scan.coils(), s, null, listener);
			System.arraycopy(r.image(), 0, image, 2 * px * f, 2 * px);
			results.add(r);
			residuals.add(Arrays.copyOf(history, done[0]));
		}
		return new Result(new ComplexImage(image, matrix, 1, frames, scan.pixelMm()), new ComplexImage(maps, matrix,
			scan.coils(), sets, scan.pixelMm()), results, residuals, note);
	}

	/**
	 * ESPIRiT maps of every set {@link #run} uses ({@link #mapSets}: one per slice, from the slice's first frame; one
	 * for a scan of one slice): "Estimate coil sensitivities" shows what the iterative reconstruction would use.
	 */
	public static EspiritMaps[] espiritPerSet(final Scan scan, final ReconOptions gridding, final EspiritOptions options,
		final Session session)
	{
		final EspiritMaps[] out = new EspiritMaps[mapSets(scan)];
		for (int set = 0; set < out.length; set++) out[set] = espirit(mapsFrame(scan, set), gridding, options, session);
		return out;
	}

	/** The frame maps of set {@code set} (of {@link #mapSets}) are estimated from: that slice's first frame. */
	public static Scan mapsFrame(final Scan scan, final int set) {
		return scan.frames() == 1 ? scan : scan.frameRange(set, set + 1);
	}

	/**
	 * How many sets of maps {@link #run} uses: 1 for a scan of one slice, {@link Scan#slices()} when the frames are a
	 * whole number of slices, else one per frame.
	 */
	public static int mapSets(final Scan scan) {
		final int slices = scan.slices();
		if (slices <= 1 || scan.frames() == 1) return 1;
		return scan.frames() % slices == 0 ? slices : scan.frames();
	}

	// -- helpers --

	private static FrameGroup partOf(final Scan scan, final int frame) {
		for (final FrameGroup g : scan.parts())
			if (frame >= g.firstFrame() && frame < g.firstFrame() + g.kspace().frames()) return g;
		throw new InvalidInputException("iterative reconstruction: frame " + frame + " is in no part of the scan");
	}

	private static FrameGroup single(final Scan scan) {
		InvalidInputException.require(scan.parts().size() == 1 && scan.frames() == 1 && scan.slices() == 1,
			"iterative reconstruction: one frame and one slice are supported, the scan has " + scan.frames() +
				" frames, " + scan.slices() + " slices in " + scan.parts().size() + " parts");
		return scan.parts().get(0);
	}
}
