package org.nufftj.command;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.data.ComplexImage;
import org.nufftj.imglib.ComplexPlanes;
import org.nufftj.imglib.ComplexPlanes.Part;
import org.nufftj.app.Options;

import ij.ImagePlus;
import ij.measure.Calibration;
import ij.process.LUT;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.img.planar.PlanarImg;
import net.imglib2.type.numeric.real.FloatType;

/** Reconstructed images as calibrated 32-bit ImageJ stacks (through the ImgLib2 planar adapter, no extra copies). */
public final class Stacks {

	private Stacks() {}

	/** The parts an output choice asks for. */
	public static Part[] parts(final String output) {
		switch (Options.choice("output", output, Options.OUTPUTS)) {
			case Options.MAG_PHASE: return new Part[] { Part.MAGNITUDE, Part.PHASE };
			case Options.RE_IM: return new Part[] { Part.REAL, Part.IMAGINARY };
			default: return new Part[] { Part.MAGNITUDE };
		}
	}

	/**
	 * One stack of several images that each hold some frames of the same size and channels (the blocks of a scan),
	 * channels = parts × image channels, z = the image's z (3D) or {@code slices} (2D multi-slice), t = the rest.
	 */
	public static ImagePlus stack(final String title, final List<ComplexImage> images, final Part[] parts,
		final int slices, final double[] pixelMm)
	{
		final List<float[]> planes = new ArrayList<>();
		int frames = 0;
		final ComplexImage first = images.get(0);
		final int[] size = first.size();
		for (final ComplexImage img : images) {
			final PlanarImg<FloatType, FloatArray> p = ComplexPlanes.planes(img, parts);
			for (int i = 0; i < p.numSlices(); i++) planes.add(ComplexPlanes.plane(p, i));
			frames += img.frames();
		}
		final long c = (long) parts.length * first.channels();
		long z = size.length > 2 ? size[2] : 1, t = frames;
		if (size.length == 2 && slices > 1 && frames % slices == 0) {
			z = slices;
			t = frames / slices;
		}
		// Display orientation (ComplexPlanes.planes): width = array axis 1, height = axis 0.
		final ImagePlus imp = ImagePlusAdapter.wrap(ComplexPlanes.wrap(planes, size[1], size[0], c, z, t), title);
		calibrate(imp, pixelMm);
		if (c > 1) {
			for (int i = 1; i <= imp.getStackSize(); i++) {
				final int[] pos = imp.convertIndexToPosition(i);
				final int part = (pos[0] - 1) % parts.length, ch = (pos[0] - 1) / parts.length;
				imp.getStack().setSliceLabel((first.channels() > 1 ? "coil " + (ch + 1) + " " : "") +
					parts[part].name().toLowerCase(), i);
			}
		}
		imp.resetDisplayRange();
		return imp;
	}

	/**
	 * mm per pixel from the file's field of view ({@code pixelMm} per array axis; axis 0 is the height, axis 1 the width:
	 * docs/conventions.md); unknown sizes leave ImageJ's default (pixels).
	 */
	public static void calibrate(final ImagePlus imp, final double[] pixelMm) {
		if (pixelMm == null) return;
		final Calibration cal = imp.getCalibration();
		cal.pixelWidth = pixelMm[1];
		cal.pixelHeight = pixelMm[0];
		if (pixelMm.length > 2) cal.pixelDepth = pixelMm[2];
		cal.setUnit("mm");
	}

	/** A blue–white–red LUT for signed differences (zero white), with a display range symmetric about 0. */
	public static void diverging(final ImagePlus imp) {
		final byte[] r = new byte[256], g = new byte[256], b = new byte[256];
		for (int i = 0; i < 256; i++) {
			final double t = (i - 127.5) / 127.5; // -1 .. 1
			final double a = Math.abs(t);
			final int full = 255, fade = (int) Math.round(255 * (1 - a));
			r[i] = (byte) (t < 0 ? fade : full);
			g[i] = (byte) fade;
			b[i] = (byte) (t < 0 ? full : fade);
		}
		imp.getProcessor().setLut(new LUT(r, g, b));
		double max = 0;
		for (int s = 1; s <= imp.getStackSize(); s++) {
			for (final float v : (float[]) imp.getStack().getPixels(s)) max = Math.max(max, Math.abs(v));
		}
		if (max == 0) max = 1;
		imp.setDisplayRange(-max, max);
	}
}
