package org.nufftj.nufft.gpu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The launch parameter structs of the NUFFT kernels (kernels/nufft_common.cuh: {@code PointArgs<T>},
 * {@code RadialArgs<T>}, {@code DeapodArgs<T>}), marshalled into byte arrays laid out exactly as the C structs
 * (little-endian, pointers as 64-bit device addresses, int and float 4 bytes), once per setPoints or plan. Each struct's
 * layout is a table of field offsets ({@link Layout}); the CUDA header asserts the same offsets
 * ({@code NUFFTJ_LAYOUT}), and GpuStructsTest checks the two tables agree, so neither side drifts alone. Layouts do
 * not depend on the precision (every member before the ints is a pointer).
 */
final class GpuStructs {

	private GpuStructs() {}

	/** Field offsets and size of one C struct. */
	static final class Layout {

		final String name;
		final int size;
		final Map<String, Integer> offsets;

		/** {@code fields}: "name offset" pairs in declaration order. */
		private Layout(final String name, final int size, final String... fields) {
			this.name = name;
			this.size = size;
			final Map<String, Integer> m = new LinkedHashMap<>();
			for (final String f : fields) {
				final String[] nameOffset = f.split(" ");
				m.put(nameOffset[0], Integer.parseInt(nameOffset[1]));
			}
			offsets = Collections.unmodifiableMap(m);
		}

		int at(final String field) {
			final Integer o = offsets.get(field);
			if (o == null) throw new IllegalArgumentException(name + " has no field " + field);
			return o;
		}

		ByteBuffer allocate() {
			return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
		}
	}

	/** {@code PointArgs<T>}: perm, first[3], offset[3], subBin, subStart, subCount, m, subproblems, bins[3], bin[3], grid[3]. */
	static final Layout POINT_ARGS = new Layout("PointArgs", 128, "perm 0", "first 8", "offset 32",
		"subBin 56", "subStart 64", "subCount 72", "m 80", "subproblems 84", "bins 88", "bin 100", "grid 112");

	/** {@code RadialArgs<T>}: first, off, spokes, angles, m, nspokes, readout, reach[4], margin, grid[2]. */
	static final Layout RADIAL_ARGS = new Layout("RadialArgs", 72, "first 0", "off 8", "spokes 16",
		"angles 24", "m 32", "nspokes 36", "readout 40", "reach 44", "margin 60", "grid 64");

	/** {@code DeapodArgs<T>}: d[3], image[3], grid[3]. */
	static final Layout DEAPOD_ARGS = new Layout("DeapodArgs", 48, "d 0", "image 24", "grid 36");

	/**
	 * {@code SetptsArgs<T>}: coords, counts, starts, partials, rank, perm, first[3], offset[3], subBin, subStart,
	 * subCount, m, nbins, width, maxSub, subCapacity, grid[3], bin[3], bins[3] (kernels/setpts.cu).
	 */
	static final Layout SETPTS_ARGS = new Layout("SetptsArgs", 176, "coords 0", "counts 8", "starts 16",
		"partials 24", "rank 32", "perm 40", "first 48", "offset 72", "subBin 96", "subStart 104", "subCount 112",
		"m 120", "nbins 124", "width 128", "maxSub 132", "subCapacity 136", "grid 140", "bin 152", "bins 164");

	/** {@code KernelSpec<T>}: the leading ints (the rest depends on T; {@link GpuKernelSpec} writes it). */
	static final Layout KERNEL_SPEC = new Layout("KernelSpec", -1, "type 0", "unused 4");

	/**
	 * PointArgs of sorted points: device addresses (0 for none) of perm, first[3], offset[3], subBin, subStart,
	 * subCount; m; subproblems; bins per axis, bin size and fine grid (1 on unused axes).
	 */
	static byte[] pointArgs(final long perm, final long[] first, final long[] offset, final long subBin,
		final long subStart, final long subCount, final int m, final int subproblems, final int[] bins, final int[] bin,
		final int[] grid)
	{
		final Layout l = POINT_ARGS;
		final ByteBuffer b = l.allocate();
		b.putLong(l.at("perm"), perm);
		for (int a = 0; a < 3; a++) {
			b.putLong(l.at("first") + 8 * a, first[a]);
			b.putLong(l.at("offset") + 8 * a, offset[a]);
		}
		b.putLong(l.at("subBin"), subBin).putLong(l.at("subStart"), subStart).putLong(l.at("subCount"), subCount);
		b.putInt(l.at("m"), m).putInt(l.at("subproblems"), subproblems);
		putInts(b, l.at("bins"), bins, 3);
		putInts(b, l.at("bin"), bin, 3);
		putInts(b, l.at("grid"), grid, 3);
		return b.array();
	}

	/**
	 * SetptsArgs: device addresses (0 for none) of coords, counts, starts, partials, rank, perm, first[3], offset[3],
	 * subBin, subStart, subCount ({@code pointers} in that order, 15 entries); m, bins in all, kernel width, points per
	 * subproblem, subproblem capacity; grid, bin size and bins per axis (1 on unused axes).
	 */
	static byte[] setptsArgs(final long[] pointers, final int m, final int nbins, final int width, final int maxSub,
		final int subCapacity, final int[] grid, final int[] bin, final int[] bins)
	{
		final Layout l = SETPTS_ARGS;
		if (pointers.length != 15) throw new IllegalArgumentException("SetptsArgs: 15 pointers, found " + pointers.length);
		final ByteBuffer b = l.allocate();
		for (int i = 0; i < 15; i++) b.putLong(8 * i, pointers[i]);
		b.putInt(l.at("m"), m).putInt(l.at("nbins"), nbins).putInt(l.at("width"), width).putInt(l.at("maxSub"), maxSub)
			.putInt(l.at("subCapacity"), subCapacity);
		putInts(b, l.at("grid"), grid, 3);
		putInts(b, l.at("bin"), bin, 3);
		putInts(b, l.at("bins"), bins, 3);
		return b.array();
	}

	/** RadialArgs: device addresses of the stencils, offsets, spokes and angles; sizes; reach; margin; grid. */
	static byte[] radialArgs(final long first, final long off, final long spokes, final long angles, final int m,
		final int nspokes, final int readout, final int[] reach, final float margin, final int[] grid)
	{
		final Layout l = RADIAL_ARGS;
		final ByteBuffer b = l.allocate();
		b.putLong(l.at("first"), first).putLong(l.at("off"), off).putLong(l.at("spokes"), spokes)
			.putLong(l.at("angles"), angles);
		b.putInt(l.at("m"), m).putInt(l.at("nspokes"), nspokes).putInt(l.at("readout"), readout);
		putInts(b, l.at("reach"), reach, 4);
		b.putFloat(l.at("margin"), margin);
		putInts(b, l.at("grid"), grid, 2);
		return b.array();
	}

	/** DeapodArgs: device addresses of the three factor arrays, image and grid sizes (1 on unused axes). */
	static byte[] deapodArgs(final long[] d, final int[] image, final int[] grid) {
		final Layout l = DEAPOD_ARGS;
		final ByteBuffer b = l.allocate();
		for (int a = 0; a < 3; a++) b.putLong(l.at("d") + 8 * a, d[a]);
		putInts(b, l.at("image"), image, 3);
		putInts(b, l.at("grid"), grid, 3);
		return b.array();
	}

	/** Writes {@code count} ints of {@code v} (1 past its end) from {@code at}. */
	private static void putInts(final ByteBuffer b, final int at, final int[] v, final int count) {
		for (int a = 0; a < count; a++) b.putInt(at + 4 * a, a < v.length ? v[a] : 1);
	}
}
