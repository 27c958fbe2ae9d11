package org.nufftj.imglib;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.data.ComplexImage;
import org.nufftj.data.KSpace;

import net.imglib2.Cursor;
import net.imglib2.RandomAccessibleInterval;
import net.imglib2.img.array.ArrayImg;
import net.imglib2.img.array.ArrayImgs;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.type.numeric.complex.ComplexFloatType;
import net.imglib2.view.Views;

/**
 * NUFFT-J's k-space and images as ImgLib2 images of {@link ComplexFloatType}, over the same {@code float[]}: NUFFT-J
 * stores complex values interleaved (re, im) with the first axis fastest, which is exactly an {@link ArrayImg} of
 * ComplexFloatType, so {@link #kspace} and {@link #image} wrap without copying and {@link #toKSpace} /
 * {@link #toComplexImage} unwrap such an image without copying (any other image, e.g. a view, is copied once).
 * <p>
 * Axes: k-space {@code [sample, coil, frame]} (samples of one trajectory, point fastest); images
 * {@code [x, y, (z,) channel, frame]} with channel = coil (uncombined) or 1 (combined).
 * </p>
 */
public final class ComplexImgs {

	private ComplexImgs() {}

	// -- public API --

	/** {@code k} as an image {@code [sample, coil, frame]} over its own array. */
	public static ArrayImg<ComplexFloatType, FloatArray> kspace(final KSpace k) {
		return ArrayImgs.complexFloats(k.data(), k.points(), k.coils(), k.frames());
	}

	/** {@code k}-space image {@code [sample, coil, frame]} (trailing axes may be missing) as {@link KSpace}. */
	public static KSpace toKSpace(final RandomAccessibleInterval<ComplexFloatType> img) {
		final int n = img.numDimensions();
		InvalidInputException.require(n >= 1 && n <= 3, "k-space image: expected axes [sample, coil, frame], found " +
			n + " axes");
		final long[] d = { img.dimension(0), n > 1 ? img.dimension(1) : 1, n > 2 ? img.dimension(2) : 1 };
		return new KSpace(data(img), (int) d[0], (int) d[1], (int) d[2]);
	}

	/** {@code image} as an image {@code [x, y, (z,) channel, frame]} over its own array. */
	public static ArrayImg<ComplexFloatType, FloatArray> image(final ComplexImage image) {
		final int[] s = image.size();
		final long[] dims = new long[s.length + 2];
		for (int i = 0; i < s.length; i++) dims[i] = s[i];
		dims[s.length] = image.channels();
		dims[s.length + 1] = image.frames();
		return ArrayImgs.complexFloats(image.data(), dims);
	}

	/**
	 * An image {@code [x, y, (z,) channel, frame]} with {@code spatial} (2 or 3) spatial axes (trailing axes may be
	 * missing) as {@link ComplexImage}.
	 */
	public static ComplexImage toComplexImage(final RandomAccessibleInterval<ComplexFloatType> img, final int spatial) {
		final int n = img.numDimensions();
		InvalidInputException.require((spatial == 2 || spatial == 3) && n >= spatial && n <= spatial + 2,
			"image: expected axes [x, y, (z,) channel, frame] with " + spatial + " spatial axes, found " + n + " axes");
		final int[] size = new int[spatial];
		for (int i = 0; i < spatial; i++) size[i] = (int) img.dimension(i);
		final int channels = n > spatial ? (int) img.dimension(spatial) : 1;
		final int frames = n > spatial + 1 ? (int) img.dimension(spatial + 1) : 1;
		return new ComplexImage(data(img), size, channels, frames, null);
	}

	/**
	 * The interleaved array behind {@code img}: its own storage when it is an {@link ArrayImg} over a
	 * {@link FloatArray} of exactly its size (not copied), else a copy in flat iteration order (first axis fastest).
	 */
	public static float[] data(final RandomAccessibleInterval<ComplexFloatType> img) {
		final float[] own = storage(img);
		if (own != null) return own;
		final long n = count(img);
		InvalidInputException.require(2 * n <= Integer.MAX_VALUE - 8, "image of " + n + " values is too large for " +
			"one array");
		final float[] d = new float[(int) (2 * n)];
		final Cursor<ComplexFloatType> c = Views.flatIterable(img).cursor();
		int i = 0;
		while (c.hasNext()) {
			final ComplexFloatType v = c.next();
			d[i++] = v.getRealFloat();
			d[i++] = v.getImaginaryFloat();
		}
		return d;
	}

	/** The storage array of an {@link ArrayImg} of complex floats (exactly its size), or null for any other image. */
	public static float[] storage(final RandomAccessibleInterval<ComplexFloatType> img) {
		if (!(img instanceof ArrayImg)) return null;
		final Object access = ((ArrayImg<?, ?>) img).update(null);
		if (!(access instanceof FloatArray)) return null;
		final float[] a = ((FloatArray) access).getCurrentStorageArray();
		return a.length == 2 * count(img) && Arrays.stream(img.minAsLongArray()).allMatch(m -> m == 0) ? a : null;
	}

	// -- helpers --

	private static long count(final RandomAccessibleInterval<?> img) {
		long n = 1;
		for (int d = 0; d < img.numDimensions(); d++) n *= img.dimension(d);
		return n;
	}
}
