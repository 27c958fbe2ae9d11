package org.nufftj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.nufftj.io.AtomicFiles;

/**
 * A minimal baseline TIFF writer: uncompressed, little-endian, 32-bit IEEE float (SampleFormat 3), one page per slice,
 * with an ImageJ description so ImageJ/Fiji opens the pages as a hyperstack (slices × channels × frames). Written
 * atomically (temporary file, then moved into place).
 */
final class TiffWriter {

	private TiffWriter() {}

	/**
	 * @param pages  each page {@code width·height} floats, row-major (x fastest), in ImageJ order (channel fastest,
	 *               then slice, then frame)
	 */
	static void write(final Path path, final int width, final int height, final float[][] pages, final int channels,
		final int slices, final int frames, final double[] spacing) throws IOException
	{
		try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
			write(batch, path, width, height, pages, channels, slices, frames, spacing);
			batch.commit();
		}
	}

	/** As {@link #write(Path, int, int, float[][], int, int, int, double[])}, the file added to {@code batch}. */
	static void write(final AtomicFiles.Batch batch, final Path path, final int width, final int height,
		final float[][] pages, final int channels, final int slices, final int frames, final double[] spacing)
		throws IOException
	{
		write(batch, path, width, height, pages, channels, slices, frames, spacing, null);
	}

	/** As above, with ImageJ's calibration origin {x, y} (in pixels: the pixel at position 0) when not null. */
	static void write(final AtomicFiles.Batch batch, final Path path, final int width, final int height,
		final float[][] pages, final int channels, final int slices, final int frames, final double[] spacing,
		final double[] origin) throws IOException
	{
		final StringBuilder d = new StringBuilder("ImageJ=1.54g\nimages=" + pages.length + "\n");
		if (channels > 1) d.append("channels=").append(channels).append('\n');
		if (slices > 1) d.append("slices=").append(slices).append('\n');
		if (frames > 1) d.append("frames=").append(frames).append('\n');
		if ((channels > 1 ? 1 : 0) + (slices > 1 ? 1 : 0) + (frames > 1 ? 1 : 0) > 1) d.append("hyperstack=true\n");
		if (spacing != null) {
			d.append("unit=mm\n");
			if (spacing.length > 2) d.append("spacing=").append(spacing[2]).append('\n');
		}
		if (origin != null) d.append("xorigin=").append(origin[0]).append("\nyorigin=").append(origin[1]).append('\n');
		d.append('\0');
		final byte[] desc = d.toString().getBytes(StandardCharsets.US_ASCII);
		final int tags = 12 + (spacing != null ? 3 : 0);
		final int ifdBytes = 2 + 12 * tags + 4;
		final long imageBytes = 4L * width * height;
		batch.add(path, out -> {
			final ByteBuffer head = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
			head.put((byte) 'I').put((byte) 'I').putShort((short) 42).putInt(8);
			out.write(head.array());
			// Every IFD first, then the pages' data back to back: ImageJ reads a stack of "images=n" as contiguous data
			// after the first page's strip and ignores the later IFDs.
			long dataStart = 8;
			for (int p = 0; p < pages.length; p++) dataStart += ifdBytes + (p == 0 ? desc.length : 0) + (spacing != null ?
				16 : 0);
			if (dataStart + imageBytes * pages.length > 0xFFFFFFFFL) throw new IOException(path +
				": image too large for a baseline TIFF (4 GB)");
			long pos = 8;
			for (int p = 0; p < pages.length; p++) {
				final boolean first = p == 0;
				final long extra = (first ? desc.length : 0) + (spacing != null ? 16 : 0);
				final long extraAt = pos + ifdBytes;
				final long dataAt = dataStart + p * imageBytes;
				final long next = p + 1 < pages.length ? extraAt + extra : 0;
				final ByteBuffer b = ByteBuffer.allocate((int) (ifdBytes + extra)).order(ByteOrder.LITTLE_ENDIAN);
				b.putShort((short) tags);
				tag(b, 254, 4, 1, 0); // NewSubfileType
				tag(b, 256, 4, 1, width);
				tag(b, 257, 4, 1, height);
				tag(b, 258, 3, 1, 32); // BitsPerSample
				tag(b, 259, 3, 1, 1); // no compression
				tag(b, 262, 3, 1, 1); // BlackIsZero
				if (first) tag(b, 270, 2, desc.length, extraAt);
				else tag(b, 270, 2, 1, 0); // empty description on later pages
				tag(b, 273, 4, 1, dataAt); // StripOffsets
				tag(b, 277, 3, 1, 1); // SamplesPerPixel
				tag(b, 278, 4, 1, height); // RowsPerStrip
				tag(b, 279, 4, 1, imageBytes); // StripByteCounts
				if (spacing != null) {
					final long res = extraAt + (first ? desc.length : 0);
					tag(b, 282, 5, 1, res); // XResolution (pixels per unit)
					tag(b, 283, 5, 1, res + 8); // YResolution
					tag(b, 296, 3, 1, 1); // ResolutionUnit: none (ImageJ reads unit from the description)
				}
				tag(b, 339, 3, 1, 3); // SampleFormat: IEEE float
				b.putInt((int) next);
				if (first) b.put(desc);
				if (spacing != null) {
					rational(b, 1 / spacing[0]);
					rational(b, 1 / spacing[1]);
				}
				out.write(b.array());
				pos = extraAt + extra;
			}
			for (int p = 0; p < pages.length; p++) {
				final ByteBuffer img = ByteBuffer.allocate((int) imageBytes).order(ByteOrder.LITTLE_ENDIAN);
				img.asFloatBuffer().put(pages[p]);
				out.write(img.array());
			}
		});
	}

	private static void tag(final ByteBuffer b, final int tag, final int type, final long count, final long value) {
		b.putShort((short) tag).putShort((short) type).putInt((int) count);
		if (type == 3 && count == 1) b.putShort((short) value).putShort((short) 0);
		else b.putInt((int) value);
	}

	private static void rational(final ByteBuffer b, final double v) {
		final long den = 1_000_000;
		b.putInt((int) Math.min(0xFFFFFFFFL, Math.round(v * den))).putInt((int) den);
	}
}
