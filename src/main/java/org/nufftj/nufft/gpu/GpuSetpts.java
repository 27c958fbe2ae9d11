package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

import org.nufftj.trajectory.Trajectory;

/**
 * A plan's points set on the device (kernels/setpts.cu): the trajectory's coordinates are uploaded once (as doubles,
 * through the plan's pinned staging), and kernels compute each point's stencil and bin, the bin histogram (atomics),
 * the prefix sums over bins, the counting-sort scatter and the subproblem lists; the host reads back two ints (points
 * and subproblems in all) and never loops over points. The result is laid out as {@link GpuPoints} lays it out (the
 * host oracle the tests compare with): same stencils, offsets, bin starts and subproblems; within a bin the points
 * may come in another order.
 * <p>
 * The per-bin arrays are made with the plan (the bins are fixed by its grid and bin size); the per-point arrays are
 * kept between {@link #run} calls and only grow, when a trajectory brings more points than they hold, so a plan whose
 * points change every frame allocates nothing after its largest frame. Everything runs on the plan's stream, after
 * the work already queued there, so the arrays can be rewritten while earlier launches that read them are pending;
 * growing waits for the stream before freeing. Make it, run it and close it with the device's context current.
 * </p>
 */
final class GpuSetpts implements AutoCloseable {

	/** Bins per block of setpts_scan_tiles (SETPTS_SCAN_TILE in kernels/setpts.cu). */
	static final int SCAN_TILE = 256 * 8;
	/** Threads per block of the setpts kernels (SETPTS_THREADS). */
	static final int THREADS = 256;

	private final GpuDevice device;
	private final CUstream stream;
	private final int dims, width, maxSub, nbins, cbytes;
	private final int[] grid, bin, bins;
	private final boolean dbl;
	private final String binKernel, sortKernel, fillKernel;
	private final DeviceArray counts, starts, partials;
	private final CUevent[] events = { new CUevent(), new CUevent() };
	private final List<DeviceArray> pointArrays = new ArrayList<>();
	private DeviceArray coords, rank, perm, subBin, subStart, subCount;
	private final DeviceArray[] first = new DeviceArray[3], offset = new DeviceArray[3];
	private int pointCapacity, subCapacity;
	private int count, subproblems;
	private byte[] pointArgs;
	private boolean closed;

	/**
	 * Device setpts for a fine grid {@code grid} (one entry per axis), kernel width {@code width}, bins {@code bin}
	 * and at most {@code maxSub} points per subproblem, offsets stored as double ({@code dbl}) or float; resolves its
	 * kernels and allocates the per-bin arrays now.
	 */
	GpuSetpts(final GpuDevice device, final CUstream stream, final int[] grid, final int width, final int[] bin,
		final int maxSub, final boolean dbl)
	{
		this.device = device;
		this.stream = stream;
		this.dims = grid.length;
		this.grid = grid.clone();
		this.width = width;
		this.bin = bin.clone();
		this.maxSub = maxSub;
		this.dbl = dbl;
		this.cbytes = dbl ? 8 : 4;
		bins = new int[dims];
		long nb = 1;
		for (int a = 0; a < dims; a++) {
			bins[a] = (grid[a] + bin[a] - 1) / bin[a];
			nb *= bins[a];
		}
		if (nb > Integer.MAX_VALUE / 2) throw new GpuException("GPU setpts: " + nb + " bins (grid " +
			Arrays.toString(grid) + ", bin " + Arrays.toString(bin) + ") exceed the int index range");
		nbins = (int) nb;
		binKernel = "setpts_bin_" + dims + "d";
		sortKernel = "setpts_sort_" + dims + "d" + (dbl ? "_d" : "_f");
		fillKernel = "setpts_fill_" + dims + "d" + (dbl ? "_d" : "_f");
		for (final String k : new String[] { binKernel, "setpts_scan_tiles", "setpts_scan_partials", sortKernel,
			fillKernel })
			device.prepare("setpts", k, 0);
		DeviceArray c = null, s = null, p = null;
		boolean ok = false;
		try {
			c = new DeviceArray(4L * nbins, "setpts bin counts (" + nbins + " bins)");
			s = new DeviceArray(8L * (nbins + 1), "setpts bin starts (" + nbins + " bins)");
			p = new DeviceArray(8L * tiles(), "setpts scan tile offsets (" + tiles() + " tiles)");
			for (final CUevent e : events) check(JCudaDriver.cuEventCreate(e, 0), "cuEventCreate (setpts)");
			ok = true;
		}
		finally {
			if (!ok) {
				for (final DeviceArray a : new DeviceArray[] { c, s, p })
					if (a != null) a.close();
				for (final CUevent e : events) JCudaDriver.cuEventDestroy(e);
			}
		}
		counts = c;
		starts = s;
		partials = p;
	}

	// -- package API --

	/**
	 * Sets the points of {@code t} (its dimensions those of the grid): uploads its coordinates through {@code staging}
	 * and sorts them on the device; returns when done (one read-back of the totals). Throws {@link GpuException} when
	 * the device's totals disagree with the input (points counted ≠ points given), naming the sizes.
	 */
	void run(final Trajectory t, final PinnedStaging staging) {
		ensureOpen();
		final int m = t.count();
		begin(m);
		staging.upload(PinnedStaging.Host.of(t.coords()), 0, (long) dims * m, true, coords.pointer(), stream);
		sort(m);
	}

	/**
	 * Sorts, for this object's bins, the points of {@code source}'s latest {@link #run} (the same grid and width): its
	 * coordinates are copied on the device, not uploaded from the host again; returns when done.
	 */
	void run(final GpuSetpts source) {
		ensureOpen();
		if (!Arrays.equals(source.grid, grid) || source.width != width || source.pointArgs == null) {
			throw new IllegalStateException("GPU setpts: no points to sort again (grid " + Arrays.toString(source.grid) +
				", W " + source.width + ", " + source.count + " points) for grid " + Arrays.toString(grid) + ", W " + width);
		}
		final int m = source.count;
		begin(m);
		check(JCudaDriver.cuMemcpyDtoDAsync(coords.pointer(), source.coords.pointer(), 8L * dims * m, stream),
			"cuMemcpyDtoDAsync (setpts coordinates, " + m + " points)");
		sort(m);
	}

	/** Room for {@code m} points, and no points until {@link #sort} completes. */
	private void begin(final int m) {
		ensureCapacity(m);
		count = 0;
		subproblems = 0;
		pointArgs = null;
	}

	/** Bins, scans and sorts the {@code m} points in {@link #coords} (queued after their upload or copy). */
	private void sort(final int m) {
		check(JCudaDriver.cuEventRecord(events[0], stream), "cuEventRecord (setpts)");
		check(JCudaDriver.cuMemsetD32Async(counts.pointer(), 0, nbins, stream), "cuMemsetD32Async(setpts bin counts, " +
			nbins + " bins)");
		final byte[] args = GpuStructs.setptsArgs(new long[] { coords.address(), counts.address(), starts.address(),
			partials.address(), rank.address(), perm.address(), address(first[0]), address(first[1]), address(first[2]),
			address(offset[0]), address(offset[1]), address(offset[2]), subBin.address(), subStart.address(),
			subCount.address() }, m, nbins, width, maxSub, subCapacity, grid, bin, bins);
		final String sizes = m + " points, " + nbins + " bins " + Arrays.toString(bins) + " of " + Arrays.toString(bin) +
			", grid " + Arrays.toString(grid) + ", W " + width;
		launch(binKernel, blocks(m), args, sizes);
		launch("setpts_scan_tiles", tiles(), args, sizes);
		launch("setpts_scan_partials", 1, args, sizes);
		launch(sortKernel, blocks(Math.max(m, nbins)), args, sizes);
		launch(fillKernel, blocks(m), args, sizes);
		check(JCudaDriver.cuEventRecord(events[1], stream), "cuEventRecord (setpts)");
		check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (setpts: " + sizes + ")");
		final int[] totals = new int[2];
		check(JCudaDriver.cuMemcpyDtoH(Pointer.to(totals), starts.pointer().withByteOffset(8L * nbins), 8),
			"cuMemcpyDtoH (setpts totals)");
		if (totals[0] != m || totals[1] < 0 || totals[1] > subCapacity) {
			throw new GpuException("GPU setpts: the device counted " + totals[0] + " points in " + totals[1] +
				" subproblems (capacity " + subCapacity + ") for " + sizes);
		}
		count = m;
		subproblems = totals[1];
		pointArgs = GpuStructs.pointArgs(perm.address(), new long[] { address(first[0]), address(first[1]),
			address(first[2]) }, new long[] { address(offset[0]), address(offset[1]), address(offset[2]) },
			subBin.address(), subStart.address(), subCount.address(), count, subproblems, bins, bin, grid);
	}

	/** Points of the latest {@link #run}. */
	int count() { return count; }

	/** Subproblems of the latest {@link #run}. */
	int subproblems() { return subproblems; }

	/** PointArgs of the latest {@link #run} (the binned kernels' launch struct). */
	byte[] pointArgs() { return pointArgs; }

	/** Bins per axis. */
	int[] binsPerAxis() { return bins.clone(); }

	/** Milliseconds (CUDA events) of the latest {@link #run}'s device work: bin, scan and sort, not the upload. */
	double deviceMillis() {
		final float[] ms = new float[1];
		check(JCudaDriver.cuEventElapsedTime(ms, events[0], events[1]), "cuEventElapsedTime (setpts)");
		return ms[0];
	}

	/** Device bytes held (per-bin and per-point arrays). */
	long bytes() {
		long b = counts.bytes() + starts.bytes() + partials.bytes();
		for (final DeviceArray a : pointArrays) b += a.bytes();
		return b;
	}

	/** Points the per-point arrays hold without growing. */
	int pointCapacity() { return pointCapacity; }

	/** Device address of the per-point arrays (a test sees whether a second run reallocated them). */
	long permAddress() { return perm == null ? 0 : perm.address(); }

	// -- package API: the sorted arrays, downloaded (tests) --

	int[] perm() { return ints(perm, count); }

	int[] first(final int axis) { return ints(first[axis], count); }

	/** Axis {@code axis}'s kernel offsets as stored (float plans: widened from float). */
	double[] offset(final int axis) {
		final double[] d = new double[count];
		if (count == 0) return d;
		if (dbl) offset[axis].download(Pointer.to(d), 8L * count, "setpts offsets");
		else {
			final float[] f = new float[count];
			offset[axis].download(Pointer.to(f), 4L * count, "setpts offsets");
			for (int i = 0; i < count; i++) d[i] = f[i];
		}
		return d;
	}

	int[] subBin() { return ints(subBin, subproblems); }

	int[] subStart() { return ints(subStart, subproblems); }

	int[] subCount() { return ints(subCount, subproblems); }

	/** Frees everything; idempotent. */
	@Override
	public void close() {
		if (closed) return;
		closed = true;
		freePointArrays();
		for (final DeviceArray a : new DeviceArray[] { counts, starts, partials }) a.close();
		for (final CUevent e : events) JCudaDriver.cuEventDestroy(e);
	}

	// -- helpers --

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("GPU setpts is closed");
	}

	private int tiles() {
		return (nbins + SCAN_TILE - 1) / SCAN_TILE;
	}

	/** Per-point arrays for at least {@code m} points (kept when they suffice; else the stream drained, then remade). */
	private void ensureCapacity(final int m) {
		if (m <= pointCapacity) return;
		check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize (setpts: growing to " + m + " points)");
		freePointArrays();
		final int subs = (int) Math.min(Integer.MAX_VALUE, (m + (long) maxSub - 1) / maxSub + Math.min(nbins, m));
		final String of = " (" + m + " points)";
		coords = keep(new DeviceArray(8L * dims * m, "setpts coordinates" + of));
		rank = keep(new DeviceArray(4L * m, "setpts ranks in bin" + of));
		perm = keep(new DeviceArray(4L * m, "sorted point order" + of));
		for (int a = 0; a < dims; a++) {
			first[a] = keep(new DeviceArray(4L * m, "stencil start, axis " + a + of));
			offset[a] = keep(new DeviceArray((long) cbytes * m, "kernel offset, axis " + a + of));
		}
		subBin = keep(new DeviceArray(4L * subs, "subproblem bins (" + subs + ")"));
		subStart = keep(new DeviceArray(4L * subs, "subproblem starts (" + subs + ")"));
		subCount = keep(new DeviceArray(4L * subs, "subproblem counts (" + subs + ")"));
		pointCapacity = m;
		subCapacity = subs;
	}

	private DeviceArray keep(final DeviceArray a) {
		pointArrays.add(a);
		return a;
	}

	private void freePointArrays() {
		for (final DeviceArray a : pointArrays) a.close();
		pointArrays.clear();
		coords = rank = perm = subBin = subStart = subCount = null;
		Arrays.fill(first, null);
		Arrays.fill(offset, null);
		pointCapacity = subCapacity = 0;
		count = subproblems = 0;
		pointArgs = null;
	}

	private void launch(final String kernel, final long blocks, final byte[] args, final String sizes) {
		device.launch("setpts", kernel, blocks, 1, THREADS, 0, stream, new KernelArgs().struct(args).build(), sizes);
	}

	private static long address(final DeviceArray a) {
		return a == null ? 0 : a.address();
	}

	private static long blocks(final long threads) {
		return (threads + THREADS - 1) / THREADS;
	}

	private static int[] ints(final DeviceArray a, final int n) {
		final int[] v = new int[n];
		if (n > 0) a.download(Pointer.to(v), 4L * n, "setpts arrays");
		return v;
	}
}
