package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nufftj.InvalidInputException;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * NUFFT-J's own GPU FFT (kernels/fft.cu): the transforms of {@link GpuFfts} without cuFFT — in place on {@code batch}
 * complex arrays of {@code size} (x fastest), unnormalised, sign −1 forward and +1 inverse — as Stockham autosort
 * passes of radix 8, 4, 6, 2, 3, 5 and 7 along each axis in turn. An axis whose lines fit a block's shared memory
 * ({@link #sharedLayout}) runs all its passes in one launch of {@code fft_axis}, in place; another runs one launch per
 * pass, ping-ponging between the data and one scratch array of the same size (kept, grown as needed; the result is
 * copied back when an odd number of passes ends in the scratch). The system property {@code nufftj.ownFftShared=false}
 * turns the shared-memory path off (for benchmarks and tests of the global passes). A shared-memory axis of one of the
 * lengths in {@link #FIXED} runs a kernel compiled for that length and sign ({@code fft_axis_S_N_fw|bw}: constant
 * divisions, unrolled passes, a global twiddle table filled once by {@code fft_twiddles_init}); the system property
 * {@code nufftj.ownFftFixed=false} keeps every axis on the generic kernel (benchmarks, tests).
 * Lengths must factor into 2, 3, 5 and 7 (the grid sizes of {@link org.nufftj.nufft.ParameterChoice}); others are
 * refused naming the length. Asynchronous on the stream; use with the device's context current.
 */
final class GpuOwnFft implements AutoCloseable {

	static final String MODULE = "fft";
	/** Radices in the order the passes use them. */
	static final int[] RADICES = { 8, 4, 6, 2, 3, 5, 7 };
	private static final int BLOCK = 256, MAX_BLOCKS = 8192;
	/** Elements (float complex; half as many double) one shared-memory block aims at: 32 KiB per buffer. */
	static final int SHARED_ELEMENTS = 4096;
	/**
	 * Blocks per multiprocessor a shared-memory axis aims at (see {@link #sharedLayout}); the system property
	 * {@code nufftj.ownFftBlocksPerSm} sets it for A/B runs. 24 since 2026-11-29 (8 before): on the H200, with the
	 * kernels' device time measured back to back, 192³ went from 1.54 to 1.47× cuFFT and no size got slower
	 * (docs/gpu-tuning.md, own FFT blocks per SM).
	 */
	static final int BLOCKS_PER_SM = Integer.getInteger("nufftj.ownFftBlocksPerSm", 24);
	/**
	 * Least width in bytes of a strided axis's tile row (one 32-byte memory sector); the system property
	 * {@code nufftj.ownFftTileBytes} sets it for A/B runs (16: tiles of 2 float columns).
	 */
	static final int TILE_BYTES = Integer.getInteger("nufftj.ownFftTileBytes", 32);
	/** Lengths with a kernel of their own (kernels/fft.cu FFT_FIXED: the same list). */
	static final int[] FIXED = { 64, 96, 128, 160, 192, 256, 320, 384, 480, 512, 640, 768, 1024 };

	private final GpuDevice device;
	private final CUstream stream;
	private final boolean shared;
	private final boolean fixed;
	/** Whether fft_twiddles_init ran on this stream (before the first fixed-length launch). */
	private boolean twiddles;
	private DeviceArray scratch;
	/**
	 * The launches of the most recent transforms (by data address, shape, sign and pruning), least recent dropped. A
	 * launch holds a copy of its data pointer (the address), so an entry is right for any pointer to the same address;
	 * pointers of unknown address (not from a DeviceArray) are planned on every call.
	 */
	private final java.util.Map<Key, Launches> launches = new java.util.LinkedHashMap<>(16, 0.75f, true) {

		private static final long serialVersionUID = 1L;

		@Override
		protected boolean removeEldestEntry(final java.util.Map.Entry<Key, Launches> e) {
			return size() > 32;
		}
	};

	GpuOwnFft(final GpuDevice device, final CUstream stream) {
		this.device = device;
		this.stream = stream;
		shared = !"false".equalsIgnoreCase(System.getProperty("nufftj.ownFftShared", "true").trim());
		fixed = !"false".equalsIgnoreCase(System.getProperty("nufftj.ownFftFixed", "true").trim());
	}

	/** Transforms {@code batch} arrays of {@code size} at {@code data} in place; queued on the stream. */
	void execute(final CUdeviceptr data, final int[] size, final int batch, final boolean dbl, final int sign) {
		execute(data, size, batch, dbl, sign, null, null, false);
	}

	/**
	 * {@link #execute(CUdeviceptr, int[], int, boolean, int)}, pruned: on each axis a only the range of {@code count[a]}
	 * indices from {@code start[a]} (wrapping past the end) matters — on input ({@code toBlock} false: the arrays are
	 * zero elsewhere; axes transformed x first) or on output ({@code toBlock} true: the rest is left undefined; axes
	 * transformed z first). The pass along an axis then skips the lines whose coordinates on the later axes lie
	 * outside their ranges (shared-memory axes; axes run as global passes transform every line). Null ranges: every
	 * line.
	 */
	void execute(final CUdeviceptr data, final int[] size, final int batch, final boolean dbl, final int sign,
		final int[] start, final int[] count, final boolean toBlock)
	{
		final long address = DeviceArray.address(data);
		final Key key = address < 0 ? null : new Key(address, size, batch, dbl, sign, start, count, toBlock);
		Launches l = key == null ? null : launches.get(key);
		if (l == null) {
			// a copy of the pointer (the address at this moment), whatever later happens to the caller's object
			l = plan(data.withByteOffset(0), size, batch, dbl, sign, start, count, toBlock);
			if (key != null) launches.put(key, l);
		}
		for (final Launch k : l.kernels) {
			check(JCudaDriver.cuLaunchKernel(k.function, k.blocks, 1, 1, k.threads, 1, 1, k.sharedBytes, stream, k.args,
				null), k.what);
		}
		if (l.copyFrom != null) {
			check(JCudaDriver.cuMemcpyDtoDAsync(data, l.copyFrom, l.bytes, stream), "cuMemcpyDtoDAsync(own FFT result, " +
				l.bytes + " B)");
		}
	}

	/**
	 * The launches of one transform (kernels resolved and opted in to their shared memory, parameters built), made on
	 * the first call and replayed after, so that a repeated transform costs the host only the launch calls.
	 */
	private Launches plan(final CUdeviceptr data, final int[] size, final int batch, final boolean dbl, final int sign,
		final int[] start, final int[] count, final boolean toBlock)
	{
		long pixels = 1;
		for (final int n : size) pixels *= n;
		final long bytes = pixels * batch * (dbl ? 16 : 8);
		final String what = Arrays.toString(size) + " x " + batch;
		final List<Launch> kernels = new ArrayList<>();
		CUdeviceptr in = data; // holds the data between axes: the input or the scratch (global passes ping-pong)
		for (int step = 0; step < size.length; step++) {
			final int a = toBlock ? size.length - 1 - step : step;
			final int n = size[a];
			if (n == 1) continue;
			final int[] radices = factors(n);
			long inner = 1, outer = batch;
			for (int b = 0; b < a; b++) inner *= size[b];
			for (int b = a + 1; b < size.length; b++) outer *= size[b];
			// the lines' selection on the next two axes (levels 1 and 2 of selected_line), every index elsewhere
			final int[] sel = { 1, 0, 1, 1, 0, 1 };
			long lines = outer;
			for (int l = 0; l < 2 && a + 1 + l < size.length; l++) {
				final int ax = a + 1 + l, c = start == null ? size[ax] : count[ax];
				sel[3 * l] = size[ax];
				sel[3 * l + 1] = start == null ? 0 : start[ax];
				sel[3 * l + 2] = c;
				lines = lines / size[ax] * c;
			}
			final int[] layout = shared ? sharedLayout(n, radices.length, inner, lines, dbl ? 16 : 8, device
				.sharedMemoryOptin(), device.multiprocessors()) : null;
			if (fixed && fixedKernel(n, inner, layout)) {
				final int colShift = Integer.numberOfTrailingZeros(layout[0]); // (contiguous lines: unused)
				if (!twiddles) {
					check(JCudaDriver.cuLaunchKernel(device.prepare(MODULE, "fft_twiddles_init", 0), 8, 1, 1, 256, 1, 1, 0,
						stream, null, null), "cuLaunchKernel(fft_twiddles_init)");
					twiddles = true;
				}
				// fft_axis_S_N_DIR(C* data, long long lines, long long inner, int cols, int colShift, int n1, int s1,
				// int c1, int n2, int s2, int c2); no twiddle table in shared memory
				final String name = "fft_axis_" + (dbl ? "d" : "f") + "_" + n + (sign < 0 ? "_fw" : "_bw");
				kernels.add(new Launch(name, layout[2], layout[3], layout[1] - n * (dbl ? 16 : 8), new KernelArgs()
					.pointer(in).i64(lines).i64(inner).i32(layout[0]).i32(colShift).i32(sel[0]).i32(sel[1])
					.i32(sel[2]).i32(sel[3]).i32(sel[4]).i32(sel[5]).build(), what + ", axis " + a + " in shared memory (" +
						n + "-point kernel), " + layout[0] + " lines per block, " + lines + " of " + outer + " lines"));
				continue;
			}
			if (layout != null) {
				// the generic kernel has no radix 6 (one more case in its pass switch made it spill registers): 2 then 3
				final int[] passes = Arrays.stream(radices).flatMap(r -> r == 6 ? java.util.stream.IntStream.of(2, 3) :
					java.util.stream.IntStream.of(r)).toArray();
				long packed = 0;
				for (int p = 0; p < passes.length; p++) packed |= (long) passes[p] << 4 * p;
				// fft_axis_S(C* data, long long lines, int n, long long inner, int cols, long long radices, int npasses,
				// int sign, int n1, int s1, int c1, int n2, int s2, int c2)
				kernels.add(new Launch("fft_axis_" + (dbl ? "d" : "f"), layout[2], layout[3], layout[1], new KernelArgs()
					.pointer(in).i64(lines).i32(n).i64(inner).i32(layout[0]).i64(packed).i32(passes.length).i32(sign)
					.i32(sel[0]).i32(sel[1]).i32(sel[2]).i32(sel[3]).i32(sel[4]).i32(sel[5]).build(), what + ", axis " + a +
						" in shared memory, " + layout[0] + " lines per block, " + lines + " of " + outer + " lines"));
				continue;
			}
			if (scratch == null || scratch.bytes() < bytes) {
				if (scratch != null) {
					check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (growing FFT scratch)");
					scratch.close();
					launches.clear(); // their passes point at the old scratch
				}
				scratch = null;
				scratch = new DeviceArray(bytes, "own FFT scratch, " + what);
			}
			int ns = 1;
			for (final int r : radices) {
				final CUdeviceptr out = in == data ? scratch.pointer() : data;
				final long threads = outer * (n / r) * inner;
				final long blocks = Math.max(1, Math.min((threads + BLOCK - 1) / BLOCK, MAX_BLOCKS));
				// fft_pass_S_R(const C* in, C* out, long long outer, int n, long long inner, int ns, int sign)
				kernels.add(new Launch("fft_pass_" + (dbl ? "d" : "f") + "_" + r, (int) blocks, BLOCK, 0, new KernelArgs()
					.pointer(in).pointer(out).i64(outer).i32(n).i64(inner).i32(ns).i32(sign).build(), what + ", axis " + a +
						", radix " + r + ", span " + ns));
				in = out;
				ns *= r;
			}
		}
		return new Launches(kernels.toArray(new Launch[0]), in != data ? in : null, bytes);
	}

	/**
	 * How {@code fft_axis} runs an axis of length n (with {@code passes} radices) over {@code lines} (selected) outer
	 * lines at stride {@code inner}: {cols (lines per block), dynamic shared bytes, blocks, threads per block}, or null
	 * when the block's shared memory (two {@link #buffer}s of n cols and n complex values of {@code complexBytes},
	 * plus cols 8-byte line offsets for contiguous lines) exceeds {@code maxShared} or the grid is too large (then the
	 * axis runs as global passes). A block aims at {@link #SHARED_ELEMENTS} elements, fewer when the transform is
	 * small, so that there are about 8 blocks per multiprocessor ({@code sms}): a block's load, passes and store run
	 * one after the other, and only many blocks per multiprocessor hide that latency. Contiguous lines (inner = 1):
	 * whole lines up to the aim. Strided lines: a tile of a power of two of neighbouring lines, at least 32 bytes wide
	 * (one memory sector) and at most 32 lines, so loads and stores are coalesced. Threads: one per 8 elements, at least
	 * 64, at most 512 (float) or 256 (double), the kernels' launch bounds.
	 */
	static int[] sharedLayout(final int n, final int passes, final long inner, final long lines, final int complexBytes,
		final int maxShared, final int sms)
	{
		if (passes > 15 || lines < 1) return null;
		final long total = lines * inner * n;
		final int target = (int) Math.max(n, Math.min(SHARED_ELEMENTS * 8 / complexBytes, total / ((long) BLOCKS_PER_SM *
			Math.max(1, sms))));
		final int cols;
		final long blocks;
		if (inner == 1) {
			cols = (int) Math.max(1, Math.min(target / n, lines));
			blocks = (lines + cols - 1) / cols;
		}
		else {
			int c = Math.max(Math.max(1, TILE_BYTES / complexBytes), Integer.highestOneBit(Math.max(1, target / n)));
			c = (int) Math.min(Math.min(c, 32), inner);
			cols = c;
			blocks = lines * ((inner + cols - 1) / cols);
		}
		final long sharedBytes = (2L * buffer(n * cols) + n) * complexBytes + (inner == 1 ? 8L * cols : 0);
		if (sharedBytes > maxShared || blocks > Integer.MAX_VALUE) return null;
		final int count = n * cols;
		final int threads = Math.min(complexBytes == 16 ? 256 : 512, Math.max(64, (count / 8 + 31) / 32 * 32));
		return new int[] { cols, (int) sharedBytes, (int) blocks, threads };
	}

	/**
	 * Whether an axis of length n at stride {@code inner} with the shared-memory {@code layout} ({@link #sharedLayout};
	 * null: none) runs the kernel compiled for its length: n in {@link #FIXED}, and contiguous lines or tiles of a
	 * power-of-two width (the kernel indexes them by shifts).
	 */
	static boolean fixedKernel(final int n, final long inner, final int[] layout) {
		return layout != null && Arrays.binarySearch(FIXED, n) >= 0 && (inner == 1 || Integer.bitCount(layout[0]) == 1);
	}

	/** Complex values of one shared buffer for {@code count} elements: one of padding per 16, plus one (fft.cu pad16). */
	static long buffer(final int count) {
		return count + count / 16 + 1;
	}

	/**
	 * The radices of the passes for length n (8s first, then 4, 6 — a 2 and a 3 in one pass —, 2, 3, 5, 7); refuses
	 * other prime factors.
	 */
	static int[] factors(final int n) {
		InvalidInputException.require(n >= 1, "own GPU FFT: length " + n + ", expected >= 1");
		final List<Integer> out = new ArrayList<>();
		int rest = n;
		for (final int r : RADICES) {
			while (rest % r == 0) {
				out.add(r);
				rest /= r;
			}
		}
		InvalidInputException.require(rest == 1, "own GPU FFT: length " + n + " has a prime factor above 7 (" + rest +
			" is left after 2, 3, 5, 7); use cuFFT (NUFFTJ_FFT=cufft or -Dnufftj.fft=cufft) or a 2,3,5,7-smooth size");
		return out.stream().mapToInt(Integer::intValue).toArray();
	}

	/** One kernel launch of a transform, ready to replay. */
	private final class Launch {

		final jcuda.driver.CUfunction function;
		final int blocks, threads, sharedBytes;
		final jcuda.Pointer args;
		final String what;

		Launch(final String kernel, final int blocks, final int threads, final int sharedBytes, final jcuda.Pointer args,
			final String sizes)
		{
			function = device.prepare(MODULE, kernel, sharedBytes);
			this.blocks = blocks;
			this.threads = threads;
			this.sharedBytes = sharedBytes;
			this.args = args;
			what = "cuLaunchKernel(" + kernel + ", grid " + blocks + ", block " + threads + ", " + sizes + ")";
		}
	}

	/** A transform's launches, then the copy back from the scratch (null when the result ends in the data). */
	private record Launches(Launch[] kernels, CUdeviceptr copyFrom, long bytes) {}

	/** A transform: device address of the data (base plus offset), shape, precision, sign and pruning. */
	private static final class Key {

		private final long data;
		private final int[] ints;

		Key(final long data, final int[] size, final int batch, final boolean dbl, final int sign,
			final int[] start, final int[] count, final boolean toBlock)
		{
			this.data = data;
			final int d = size.length;
			ints = new int[4 + d * (start == null ? 1 : 3)]; // d, size, batch, flags, sign[, start, count]
			int i = 0;
			ints[i++] = d;
			for (final int n : size) ints[i++] = n;
			ints[i++] = batch;
			ints[i++] = (dbl ? 1 : 0) | (toBlock ? 2 : 0) | (start == null ? 4 : 0);
			ints[i++] = sign;
			if (start != null) {
				for (int a = 0; a < d; a++) ints[i++] = start[a];
				for (int a = 0; a < d; a++) ints[i++] = count[a];
			}
		}

		@Override
		public boolean equals(final Object o) {
			return o instanceof Key && ((Key) o).data == data && Arrays.equals(((Key) o).ints, ints);
		}

		@Override
		public int hashCode() {
			return 31 * Long.hashCode(data) + Arrays.hashCode(ints);
		}
	}

	/** Frees the scratch array (remade on next use). */
	@Override
	public void close() {
		launches.clear();
		if (scratch != null) {
			JCudaDriver.cuStreamSynchronize(stream);
			scratch.close();
			scratch = null;
		}
	}
}
