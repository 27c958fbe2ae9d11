package org.nufftj.imglib;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.nufftj.app.Reconstruction;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.app.Session;
import org.nufftj.data.KSpace;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryKind;

import net.imglib2.RandomAccessibleInterval;
import net.imglib2.img.array.ArrayImg;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.type.numeric.complex.ComplexFloatType;

/**
 * The Java API of NUFFT-J in ImgLib2 images, for scripts and other plugins: load a scan's k-space as
 * {@code [sample, coil, frame]} images and reconstruct k-space images into {@code [x, y, (z,) channel, frame]} images
 * of {@link ComplexFloatType}. Arrays are shared, not copied, both ways ({@link ComplexImgs}): an
 * {@link ArrayImg} given as k-space is read in place, and the image returned is an {@link ArrayImg} over the
 * reconstruction's own array, so results chain with other ImgLib2 code at no cost.
 * <pre>
 * Scan scan = ImgRecon.load(Path.of("radial.cfl"));
 * Img&lt;ComplexFloatType&gt; k = ImgRecon.kspace(scan, 0);             // [sample, coil, frame], no copy
 * Img&lt;ComplexFloatType&gt; x = ImgRecon.reconstruct(scan.parts().get(0).trajectory(), k, scan.matrix(),
 *     ReconOptions.defaults());                                     // [x, y, 1, 1]
 * </pre>
 */
public final class ImgRecon {

	/** A reconstruction's image as ImgLib2 and the reconstruction it came from (backend, times, DCF, coils). */
	public static final class Result {

		private final ArrayImg<ComplexFloatType, FloatArray> image;
		private final ReconResult result;

		Result(final ReconResult result) {
			this.result = result;
			this.image = ComplexImgs.image(result.image());
		}

		/** The image {@code [x, y, (z,) channel, frame]} over {@code result().image().data()}. */
		public ArrayImg<ComplexFloatType, FloatArray> image() { return image; }

		/** The per-coil images {@code [x, y, (z,) coil, frame]}, or null unless the options keep them. */
		public ArrayImg<ComplexFloatType, FloatArray> coils() {
			return result.coils() == null ? null : ComplexImgs.image(result.coils());
		}

		public ReconResult result() { return result; }
	}

	private ImgRecon() {}

	// -- public API --

	/** A scan from a BART {@code .cfl} (trajectory beside it as {@code <name>_traj}) or ISMRMRD {@code .h5} file. */
	public static Scan load(final Path kspace) {
		return ScanLoader.load(kspace, null, TrajectoryKind.FILE, null);
	}

	/** Part {@code part}'s k-space as {@code [sample, coil, frame]} over the scan's own array. */
	public static ArrayImg<ComplexFloatType, FloatArray> kspace(final Scan scan, final int part) {
		return ComplexImgs.kspace(scan.parts().get(part).kspace());
	}

	/**
	 * Gridding reconstruction (density compensation, adjoint NUFFT, coil combination) of k-space
	 * {@code [sample, coil, frame]} along {@code t} into an image {@code [x, y, (z,) channel, frame]} of
	 * {@code matrix}; devices opened for it are closed before it returns.
	 */
	public static ArrayImg<ComplexFloatType, FloatArray> reconstruct(final Trajectory t,
		final RandomAccessibleInterval<ComplexFloatType> kspace, final int[] matrix, final ReconOptions options)
	{
		try (Session session = new Session()) {
			return reconstruct(session, t, kspace, matrix, options, Progress.NONE).image();
		}
	}

	/** As {@link #reconstruct(Trajectory, RandomAccessibleInterval, int[], ReconOptions)}, in {@code session}. */
	public static Result reconstruct(final Session session, final Trajectory t,
		final RandomAccessibleInterval<ComplexFloatType> kspace, final int[] matrix, final ReconOptions options,
		final Progress progress)
	{
		final KSpace k = ComplexImgs.toKSpace(kspace);
		return new Result(session.reconstruct(t, k, matrix, options, progress));
	}

	/** Every part of {@code scan} reconstructed at its matrix, one result per part. */
	public static List<Result> reconstruct(final Session session, final Scan scan, final ReconOptions options,
		final Progress progress)
	{
		final List<Result> out = new ArrayList<>();
		for (final ReconResult r : Reconstruction.run(scan, options, progress, session).results()) out.add(new Result(r));
		return out;
	}
}
