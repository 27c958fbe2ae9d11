package org.nufftj.cli;

import java.io.IOException;
import java.nio.file.Path;

import org.nufftj.data.ComplexImage;
import org.nufftj.io.AtomicFiles;
import org.nufftj.io.Cfl;

/** Writes a {@link ComplexImage} as BART {@code .cfl} or, when the name ends in .tif/.tiff, as a float TIFF stack. */
final class ImageFiles {

	private ImageFiles() {}

	static boolean isTiff(final Path p) {
		return org.nufftj.io.OutputPaths.isTiff(p);
	}

	/**
	 * .cfl: dims {@code [X, Y, Z, channels, frameDims…]} (frameDims: BART dims 4… of the input, whose product is the
	 * frame count). TIFF: the magnitude, one page per (channel, slice, frame), ImageJ hyperstack order.
	 */
	static void write(final Path path, final ComplexImage img, final long[] frameDims) throws IOException {
		try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
			write(batch, path, img, frameDims);
			batch.commit();
		}
	}

	/** As {@link #write(Path, ComplexImage, long[])}, the file(s) added to {@code batch}. */
	static void write(final AtomicFiles.Batch batch, final Path path, final ComplexImage img, final long[] frameDims)
		throws IOException
	{
		if (isTiff(path)) writeTiff(batch, path, img, img.magnitude());
		else writeCfl(batch, path, img, frameDims);
	}

	static void writeCfl(final AtomicFiles.Batch batch, final Path path, final ComplexImage img,
		final long[] frameDims) throws IOException
	{
		Cfl.write(batch, path, Cfl.imageDims(img, frameDims), img.data());
	}

	/**
	 * TIFF of real values laid out like the image's pixels (axis 0, axis 1, z, channel, frame), each page in the display
	 * orientation of docs/conventions.md (rows = array axis 0, columns = axis 1, as {@code bart toimg} and Fiji show it).
	 */
	static void writeTiff(final AtomicFiles.Batch batch, final Path path, final ComplexImage img, final float[] values)
		throws IOException
	{
		final int[] s = img.size();
		final int nx = s[0], ny = s[1], nz = s.length > 2 ? s[2] : 1;
		final int c = img.channels(), f = img.frames();
		final float[][] pages = new float[nz * c * f][];
		for (int t = 0; t < f; t++)
			for (int z = 0; z < nz; z++)
				for (int ch = 0; ch < c; ch++) {
					final float[] page = new float[nx * ny];
					final int base = nx * ny * (z + nz * (ch + c * t));
					for (int i1 = 0, i = base; i1 < ny; i1++)
						for (int i0 = 0; i0 < nx; i0++, i++)
							page[i0 * ny + i1] = values[i];
					pages[ch + c * (z + nz * t)] = page;
				}
		final double[] sp = img.spacing();
		final double[] spacing = sp == null ? null : sp.clone();
		if (spacing != null) {
			spacing[0] = sp[1];
			spacing[1] = sp[0];
		}
		TiffWriter.write(batch, path, ny, nx, pages, c, nz, f, spacing);
	}
}
