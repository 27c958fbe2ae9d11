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

	/** TIFF of real values laid out like the image's pixels (x, y, z, channel, frame). */
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
					System.arraycopy(values, nx * ny * (z + nz * (ch + c * t)), page, 0, nx * ny);
					pages[ch + c * (z + nz * t)] = page;
				}
		TiffWriter.write(batch, path, nx, ny, pages, c, nz, f, img.spacing());
	}
}
