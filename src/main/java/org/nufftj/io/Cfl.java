package org.nufftj.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

import org.nufftj.InvalidInputException;

/**
 * BART's {@code .cfl}/{@code .hdr} pair: a text header ("# Dimensions" then the sizes of up to 16 dimensions) and raw
 * little-endian complex float data, column-major (first dimension fastest). BART's conventions for NUFFT data:
 * trajectory dims {@code [3, readout, spokes, …]} in cycles per FOV; k-space {@code [1, readout, spokes, coils, …]};
 * images {@code [X, Y, Z, coils, …]}.
 */
public final class Cfl {

	public static final int DIMS = 16;

	/** The most complex values one array holds: 2 floats each in a Java array of at most 2^31 - 1. */
	public static final long MAX_ELEMENTS = Integer.MAX_VALUE / 2;

	private Cfl() {}

	/** A complex float array with 16 dimensions. */
	public static final class Array {

		private final long[] dims;
		private final float[] data;

		public Array(final long[] dims, final float[] data) {
			this.dims = Arrays.copyOf(dims, DIMS);
			for (int i = dims.length; i < DIMS; i++) this.dims[i] = 1;
			final long n = Cfl.elements("cfl", this.dims);
			InvalidInputException.require(data.length == 2 * n, "cfl: dims " + Arrays.toString(dims) + " need " + 2 * n +
				" floats, found " + data.length);
			this.data = data;
		}

		public long[] dims() { return dims.clone(); }

		public int dim(final int i) { return (int) dims[i]; }

		/** Interleaved (re, im) data, column-major. Not a copy. */
		public float[] data() { return data; }

		public long elements() { return Cfl.elements("cfl", dims); }
	}

	// -- public API --

	/** The dims in {@code base.hdr} (16 values, 1 past the file's last), without reading the data. */
	public static long[] readDims(final Path base) throws IOException {
		final Path hdr = withExtension(base, ".hdr"), cfl = withExtension(base, ".cfl");
		if (!Files.exists(hdr)) throw new InvalidInputException(hdr + ": BART header not found" +
			(Files.exists(cfl) ? " (a .cfl needs its .hdr beside it)" : ""));
		return parseHeader(hdr, Files.readAllLines(hdr));
	}

	/** Reads {@code base.hdr} and {@code base.cfl}; {@code base} may carry either extension or none. */
	public static Array read(final Path base) throws IOException {
		final Path hdr = withExtension(base, ".hdr"), cfl = withExtension(base, ".cfl");
		final long[] dims = readDims(base);
		if (!Files.exists(cfl)) throw new InvalidInputException(cfl + ": BART data file not found");
		final long n = elements(hdr, dims);
		final long bytes = Files.size(cfl);
		if (bytes != 8 * n) throw new InvalidInputException(cfl + ": expected " + 8 * n + " bytes for dims " +
			Arrays.toString(trim(dims)) + ", found " + bytes + (bytes < 8 * n ? " (truncated?)" : ""));
		final float[] data = new float[(int) (2 * n)];
		try (FileChannel ch = FileChannel.open(cfl, StandardOpenOption.READ)) {
			final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
			int pos = 0;
			while (pos < data.length) {
				buf.clear();
				final int want = Math.min(buf.capacity(), (data.length - pos) * 4);
				buf.limit(want);
				while (buf.hasRemaining())
					if (ch.read(buf) < 0) throw new InvalidInputException(cfl + ": ended early at float " + pos);
				buf.flip();
				final int k = want / 4;
				buf.asFloatBuffer().get(data, pos, k);
				pos += k;
			}
		}
		catch (final NoSuchFileException e) {
			throw new InvalidInputException(cfl + ": not found");
		}
		return new Array(dims, data);
	}

	/** Writes {@code base.cfl} and {@code base.hdr}: both appear, complete, or neither (see {@link AtomicFiles}). */
	public static void write(final Path base, final long[] dims, final float[] data) throws IOException {
		try (AtomicFiles.Batch batch = AtomicFiles.batch()) {
			write(batch, base, dims, data);
			batch.commit();
		}
	}

	/** Adds {@code base.cfl} and {@code base.hdr} to {@code batch} (they appear when the batch is committed). */
	public static void write(final AtomicFiles.Batch batch, final Path base, final long[] dims, final float[] data)
		throws IOException
	{
		final Array a = new Array(dims, data);
		batch.addFile(withExtension(base, ".cfl"), tmp -> {
			try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
				final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
				int pos = 0;
				while (pos < data.length) {
					buf.clear();
					final int k = Math.min(buf.capacity() / 4, data.length - pos);
					buf.asFloatBuffer().put(data, pos, k);
					buf.limit(4 * k);
					while (buf.hasRemaining()) ch.write(buf);
					pos += k;
				}
			}
		});
		final StringBuilder h = new StringBuilder("# Dimensions\n");
		for (int i = 0; i < DIMS; i++) h.append(i == 0 ? "" : " ").append(a.dims[i]);
		h.append('\n');
		batch.addFile(withExtension(base, ".hdr"), tmp -> Files.writeString(tmp, h.toString()));
	}

	/**
	 * Writes a reconstructed image as {@code base.cfl/.hdr} with dims {@code [X, Y, Z, channels, frameDims…]}
	 * (frameDims: BART dims 4… of the k-space it came from, whose product is the frame count; null: the frames on
	 * dim 4), atomically.
	 */
	public static void writeImage(final Path base, final org.nufftj.data.ComplexImage img, final long[] frameDims)
		throws IOException
	{
		write(base, imageDims(img, frameDims), img.data());
	}

	/** The dims of an image {@code .cfl}: {@code [X, Y, Z, channels, frameDims…]} (null frameDims: frames on dim 4). */
	public static long[] imageDims(final org.nufftj.data.ComplexImage img, final long[] frameDims) {
		final int[] s = img.size();
		final long[] dims = new long[DIMS];
		java.util.Arrays.fill(dims, 1);
		dims[0] = s[0];
		dims[1] = s[1];
		dims[2] = s.length > 2 ? s[2] : 1;
		dims[3] = img.channels();
		if (frameDims != null) System.arraycopy(frameDims, 0, dims, 4, Math.min(frameDims.length, DIMS - 4));
		else dims[4] = img.frames();
		return dims;
	}

	public static void write(final Path base, final int[] dims, final float[] data) throws IOException {
		final long[] d = new long[dims.length];
		for (int i = 0; i < d.length; i++) d[i] = dims[i];
		write(base, d, data);
	}

	/** {@code base} with its {@code .cfl}/{@code .hdr} extension replaced by {@code ext}. */
	public static Path withExtension(final Path base, final String ext) {
		String name = base.getFileName().toString();
		if (name.endsWith(".cfl") || name.endsWith(".hdr")) name = name.substring(0, name.length() - 4);
		return base.resolveSibling(name + ext);
	}

	// -- helpers --

	private static long[] parseHeader(final Path hdr, final List<String> lines) {
		for (int i = 0; i < lines.size(); i++) {
			if (!lines.get(i).trim().equals("# Dimensions")) continue;
			if (i + 1 >= lines.size()) break;
			final String[] parts = lines.get(i + 1).trim().split("\\s+");
			if (parts.length == 0 || parts.length > DIMS || parts[0].isEmpty())
				throw new InvalidInputException(hdr + ": expected 1 to 16 dimensions after '# Dimensions', found '" +
					lines.get(i + 1).trim() + "'");
			final long[] dims = new long[DIMS];
			Arrays.fill(dims, 1);
			for (int j = 0; j < parts.length; j++) {
				try {
					dims[j] = Long.parseLong(parts[j]);
				}
				catch (final NumberFormatException e) {
					throw new InvalidInputException(hdr + ": dimension " + j + " is '" + parts[j] + "', expected an integer");
				}
				if (dims[j] < 1) throw new InvalidInputException(hdr + ": dimension " + j + " is " + dims[j] +
					", expected >= 1");
			}
			return dims;
		}
		throw new InvalidInputException(hdr + ": no '# Dimensions' line followed by sizes; not a BART header");
	}

	/** The product of the sizes; fails (one line) where it exceeds what a Java array holds (never overflows). */
	private static long elements(final Object where, final long[] dims) {
		long n = 1;
		for (final long d : dims) {
			if (d > MAX_ELEMENTS || n * d > MAX_ELEMENTS) throw new InvalidInputException(where + ": dims " +
				Arrays.toString(trim(dims)) + " hold more than " + MAX_ELEMENTS + " complex values, the most a Java " +
				"array holds (2^30 - 1)");
			n *= d;
		}
		return n;
	}

	private static long[] trim(final long[] dims) {
		int n = dims.length;
		while (n > 1 && dims[n - 1] == 1) n--;
		return Arrays.copyOf(dims, n);
	}
}
