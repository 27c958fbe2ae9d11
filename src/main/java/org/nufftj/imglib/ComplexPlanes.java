package org.nufftj.imglib;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;

import net.imglib2.RandomAccessibleInterval;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.img.planar.PlanarImg;
import net.imglib2.type.numeric.complex.ComplexFloatType;
import net.imglib2.type.numeric.real.FloatType;
import net.imglib2.util.Fraction;

/**
 * ImgLib2 views of NUFFT-J images as planar float images: one {@code float[]} per XY plane, the layout ImageJ 1 stacks
 * use, so {@code org.nufftj.command.ImagePlusAdapter} can hand the same arrays to an ImagePlus without copying.
 * <p>
 * The planes are in the display orientation of docs/conventions.md: a plane's rows (its y, downwards) are the array's
 * axis 0 and its columns (x) axis 1, as {@code bart toimg} shows a {@code .cfl}; so a plane is {@code size[1]} wide and
 * {@code size[0]} high, and {@link #toComplex} undoes it.
 * </p>
 * <p>
 * A {@link ComplexImage} is interleaved complex, so its real views (magnitude, phase, real, imaginary) are computed
 * once into new planes; that is the only copy between reconstruction and display. Axis order of the result:
 * {@code [x, y, c, z, t]} with {@code c = parts × channels} (part fastest), z the image's third axis (1 for 2D) and t
 * the frames, which is ImageJ's hyperstack order (c fastest, then z, then t).
 * </p>
 */
public final class ComplexPlanes {

	/** Real views of a complex value. */
	public enum Part {
		MAGNITUDE, PHASE, REAL, IMAGINARY;

		float of(final float re, final float im) {
			switch (this) {
				case MAGNITUDE: return (float) Math.hypot(re, im);
				case PHASE: return (float) Math.atan2(im, re);
				case REAL: return re;
				default: return im;
			}
		}
	}

	private ComplexPlanes() {}

	// -- public API --

	/** The parts of every channel, z and frame of {@code image} as planes [x, y, parts·channels, z, frames]. */
	public static PlanarImg<FloatType, FloatArray> planes(final ComplexImage image, final Part... parts) {
		return planes(ComplexImgs.image(image), image.dimensions(), parts);
	}

	/**
	 * The parts of a complex image {@code [x, y, (z,) channel, frame]} ({@link ComplexImgs}' axes; {@code spatial} 2
	 * or 3) as planes [x, y, parts·channels, z, frames]. An {@code ArrayImg} is read in place.
	 */
	public static PlanarImg<FloatType, FloatArray> planes(final RandomAccessibleInterval<ComplexFloatType> img,
		final int spatial, final Part... parts)
	{
		final ComplexImage image = ComplexImgs.toComplexImage(img, spatial);
		final int[] size = image.size();
		final int nx = size[0], ny = size[1], nz = size.length > 2 ? size[2] : 1;
		final int plane = nx * ny, channels = image.channels(), frames = image.frames();
		final float[] d = image.data();
		final List<float[]> out = new ArrayList<>();
		for (int f = 0; f < frames; f++) {
			for (int z = 0; z < nz; z++) {
				for (int c = 0; c < channels; c++) {
					final int base = image.offset(c, f) + 2 * plane * z;
					for (final Part p : parts) {
						final float[] a = new float[plane];
						// Display orientation: array axis 0 (index i0) runs down the rows, axis 1 along them.
						for (int i1 = 0, i = 0; i1 < ny; i1++)
							for (int i0 = 0; i0 < nx; i0++, i++)
								a[i0 * ny + i1] = p.of(d[base + 2 * i], d[base + 2 * i + 1]);
						out.add(a);
					}
				}
			}
		}
		return wrap(out, ny, nx, (long) parts.length * channels, nz, frames);
	}

	/** A planar float image over the given planes (not copied); dims[0]·dims[1] must be each plane's length. */
	public static PlanarImg<FloatType, FloatArray> wrap(final List<float[]> planes, final long... dims) {
		InvalidInputException.require(dims.length >= 2, "planar image: needs at least 2 dimensions");
		long count = 1;
		for (int i = 2; i < dims.length; i++) count *= dims[i];
		InvalidInputException.require(count == planes.size(), "planar image: dims need " + count + " planes, found " +
			planes.size());
		final List<FloatArray> arrays = new ArrayList<>(planes.size());
		for (final float[] p : planes) {
			InvalidInputException.require(p.length == dims[0] * dims[1], "planar image: plane of " + p.length +
				" floats, expected " + dims[0] * dims[1]);
			arrays.add(new FloatArray(p));
		}
		final PlanarImg<FloatType, FloatArray> img = new PlanarImg<>(arrays, dims.clone(), new Fraction());
		img.setLinkedType(new FloatType(img));
		return img;
	}

	/** The backing array of plane {@code i} (not a copy). */
	public static float[] plane(final PlanarImg<FloatType, FloatArray> img, final int i) {
		return img.getPlane(i).getCurrentStorageArray();
	}

	/**
	 * A real planar image [x, y, planes…] as a complex image (imaginary parts zero) with {@code frames} = number of
	 * planes, for the forward NUFFT. This interleaves, so it copies.
	 */
	public static ComplexImage toComplex(final PlanarImg<FloatType, FloatArray> img) {
		final int width = (int) img.dimension(0), height = (int) img.dimension(1), n = img.numSlices();
		final int plane = width * height;
		final float[] d = new float[2 * plane * n];
		for (int s = 0; s < n; s++) {
			final float[] a = plane(img, s);
			// Display orientation, undone: row r is array axis 0, column c axis 1.
			for (int c = 0, i = 0; c < width; c++)
				for (int r = 0; r < height; r++, i++)
					d[2 * (s * plane + i)] = a[r * width + c];
		}
		return new ComplexImage(d, new int[] { height, width }, 1, n, null);
	}
}
