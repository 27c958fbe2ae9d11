package org.nufftj.imglib;

import org.nufftj.InvalidInputException;
import org.nufftj.app.BartNufft;
import org.nufftj.app.Session;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.trajectory.Trajectory;

import net.imglib2.RandomAccessibleInterval;
import net.imglib2.img.array.ArrayImg;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.type.numeric.complex.ComplexFloatType;

/**
 * The NUFFT on ImgLib2 images, with BART's scaling (as {@code nufft-j forward / adjoint} and Fiji's Forward NUFFT;
 * docs/conventions.md): k-space {@code [sample, coil, frame]} ↔ images {@code [x, y, (z,) coil, frame]}, every coil
 * and frame in one plan of the session's backend for the options' device. Inputs that are {@link ArrayImg}s of
 * complex floats are read in place, and the result is an {@link ArrayImg} over the transform's own output array
 * (nothing copied on either side; other inputs, e.g. views, are copied once).
 */
public final class ImgNufft {

	private ImgNufft() {}

	// -- public API --

	/** Adjoint: images {@code [size…, coil, frame]} from k-space {@code [sample, coil, frame]} along {@code t}. */
	public static ArrayImg<ComplexFloatType, FloatArray> adjoint(final Session session, final Trajectory t,
		final int[] size, final RandomAccessibleInterval<ComplexFloatType> kspace, final NufftOptions options)
	{
		final KSpace k = ComplexImgs.toKSpace(kspace);
		InvalidInputException.require(k.points() == t.count(), "adjoint: k-space has " + k.points() + " samples per " +
			"coil and frame, the trajectory " + t.count() + " points");
		final float[] image = BartNufft.adjoint(session, t, size, k.data(), options).data();
		return ComplexImgs.image(new ComplexImage(image, size, k.coils(), k.frames(), null));
	}

	/** Forward: k-space {@code [sample, coil, frame]} along {@code t} from images {@code [x, y, (z,) coil, frame]}. */
	public static ArrayImg<ComplexFloatType, FloatArray> forward(final Session session, final Trajectory t,
		final RandomAccessibleInterval<ComplexFloatType> image, final NufftOptions options)
	{
		final ComplexImage x = ComplexImgs.toComplexImage(image, t.dimensions());
		final float[] samples = BartNufft.forward(session, t, x.size(), x.data(), options).data();
		return ComplexImgs.kspace(new KSpace(samples, t.count(), x.channels(), x.frames()));
	}
}
