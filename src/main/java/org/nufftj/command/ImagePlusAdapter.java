package org.nufftj.command;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.imglib.ComplexPlanes;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.img.planar.PlanarImg;
import net.imglib2.type.numeric.real.FloatType;

/**
 * ImgLib2 planar float images ↔ ImageJ 1 stacks, sharing the plane arrays (imglib2-ij is not available to us).
 * A {@code PlanarImg<FloatType, FloatArray>} stores each XY plane as one {@code float[]}, exactly what a 32-bit
 * ImageJ stack slice is, so {@link #wrap} and {@link #toImg} pass the same arrays both ways; only non-float ImagePlus
 * input is converted (copied), plane by plane.
 */
public final class ImagePlusAdapter {

	private ImagePlusAdapter() {}

	// -- public API --

	/**
	 * A 32-bit ImagePlus over the planes of {@code img} (dims [x, y, c, z, t]; missing trailing dims are 1), as a
	 * hyperstack with c channels, z slices and t frames. No pixel is copied.
	 */
	public static ImagePlus wrap(final PlanarImg<FloatType, FloatArray> img, final String title) {
		final int nx = (int) img.dimension(0), ny = (int) img.dimension(1);
		final int c = img.numDimensions() > 2 ? (int) img.dimension(2) : 1;
		final int z = img.numDimensions() > 3 ? (int) img.dimension(3) : 1;
		final int t = img.numDimensions() > 4 ? (int) img.dimension(4) : 1;
		final ImageStack stack = new ImageStack(nx, ny);
		for (int i = 0; i < img.numSlices(); i++)
			stack.addSlice(null, new FloatProcessor(nx, ny, ComplexPlanes.plane(img, i)));
		final ImagePlus imp = new ImagePlus(title, stack);
		imp.setDimensions(c, z, t);
		if (c * z * t > 1 && (c > 1 ? 1 : 0) + (z > 1 ? 1 : 0) + (t > 1 ? 1 : 0) > 1) imp.setOpenAsHyperStack(true);
		return imp;
	}

	/**
	 * The stack of {@code imp} as a planar float image [x, y, slices]; 32-bit slices are shared (not copied), other
	 * types are converted to float.
	 */
	public static PlanarImg<FloatType, FloatArray> toImg(final ImagePlus imp) {
		InvalidInputException.require(imp != null, "image: none open");
		final ImageStack stack = imp.getStack();
		final List<float[]> planes = new ArrayList<>(stack.getSize());
		for (int i = 1; i <= stack.getSize(); i++) {
			final ImageProcessor ip = stack.getProcessor(i);
			planes.add(ip instanceof FloatProcessor ? (float[]) ip.getPixels() : (float[]) ip.convertToFloat()
				.getPixels());
		}
		return ComplexPlanes.wrap(planes, stack.getWidth(), stack.getHeight(), stack.getSize());
	}
}
