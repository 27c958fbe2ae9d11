package org.nufftj.nufft.gpu;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.trajectory.RadialLines;
import org.nufftj.trajectory.Trajectory;

/**
 * The points of a GPU plan on the device (setpts): the bin-sorted stencils and subproblems {@link GpuSetpts} computed
 * on the device (their arrays belong to it and are reused by the plan's next setPoints), and for output-driven
 * spreading the per-sample stencils and sorted spokes of {@link GpuRadial}, computed on the host and uploaded once per
 * trajectory, with their launch structs marshalled once ({@link GpuStructs#pointArgs}, {@link GpuStructs#radialArgs}).
 * Offsets are uploaded in the plan's precision (float ones by {@link #floatOffsets}, which setpts.cu's store_offset
 * repeats on the device). {@link #close()} frees the output-driven arrays. Make it with the device's context current.
 */
final class GpuPointSet implements AutoCloseable {

	final int count;
	final int subproblems;
	final int dims;
	/** PointArgs of the binned kernels (spread_atomic_*, spread_tiles_*, interp_tiles_*). */
	final byte[] pointArgs;
	/** RadialArgs of spread_radial_2d_* (null unless output-driven). */
	final byte[] radialArgs;
	final GpuRadial radial;
	private final List<DeviceArray> arrays = new ArrayList<>();
	private final long bytes;

	/**
	 * The points {@code sorted} holds (its latest run, on trajectory {@code t}) for a fine grid {@code grid} (one entry
	 * per axis) and kernel width {@code width}; with {@code lines} (not null) the output-driven geometry too.
	 */
	GpuPointSet(final GpuSetpts sorted, final Trajectory t, final int[] grid, final int width, final boolean dbl,
		final RadialLines lines)
	{
		dims = grid.length;
		count = sorted.count();
		subproblems = sorted.subproblems();
		pointArgs = sorted.pointArgs();
		if (count != t.count() || pointArgs == null) {
			throw new IllegalStateException("GPU setpts holds " + count + " points, trajectory " + t.name() + " has " +
				t.count());
		}
		final GpuRadial rad = lines == null ? null : new GpuRadial(lines, t, grid, width);
		boolean ok = false;
		try {
			if (rad != null) {
				final DeviceArray rf = keep(DeviceArray.of(rad.first, "radial stencil starts"));
				final DeviceArray ro = keep(offsets(rad.offset, width, dbl, "radial kernel offsets"));
				final DeviceArray rs = keep(DeviceArray.of(rad.spokes, "radial spokes"));
				final DeviceArray ra = keep(DeviceArray.of(rad.angles, "radial spoke angles"));
				radialArgs = GpuStructs.radialArgs(rf.address(), ro.address(), rs.address(), ra.address(), count,
					rad.spokeCount, rad.readout, rad.reach, rad.margin, grid);
			}
			else {
				radialArgs = null;
			}
			ok = true;
		}
		finally {
			if (!ok) close();
		}
		radial = rad;
		long b = 0;
		for (final DeviceArray a : arrays) b += a.bytes();
		bytes = b;
	}

	/** Device bytes held here (the output-driven arrays; the sorted points are {@link GpuSetpts#bytes()}). */
	long bytes() { return bytes; }

	/** Frees the device arrays; idempotent. */
	@Override
	public void close() {
		for (final DeviceArray a : arrays) a.close();
		arrays.clear();
	}

	/**
	 * Kernel arguments off = l0 − t ∈ [−W/2, −W/2 + 1) of the first stencil cell (computed in double) as float,
	 * rounded so that none lands on an end of that interval it lies strictly inside of: then every tap off + j stays
	 * strictly inside the kernel's support |x| &lt; W/2, as in double. Plain rounding puts off on −W/2 (first tap on
	 * the edge) or on −W/2 + 1 (last tap on +W/2) for a sample within float rounding of a cell boundary, e.g. every
	 * sample of an axis-aligned spoke whose other coordinate is r·cos(π/2) ≈ 1e-17; the exponential of semicircle and
	 * the Gaussian are 0 at |x| = W/2 but about e^{−β} just inside (1e-4 at W = 4, σ = 2: Pipe–Menon's kernel), so the
	 * GPU would drop a weight the CPU engine keeps. The nudge is one float ulp of the argument.
	 */
	static float[] floatOffsets(final double[] off, final int width) {
		final float lo = -width / 2f, hi = lo + 1;
		final float[] f = new float[off.length];
		for (int i = 0; i < off.length; i++) {
			float v = (float) off[i];
			if (off[i] > lo && v <= lo) v = Math.nextUp(lo);
			if (off[i] < hi && v >= hi) v = Math.nextDown(hi);
			f[i] = v;
		}
		return f;
	}

	// -- helpers --

	private DeviceArray keep(final DeviceArray a) {
		arrays.add(a);
		return a;
	}

	private static DeviceArray offsets(final double[] off, final int width, final boolean dbl, final String what) {
		return dbl ? DeviceArray.of(off, what) : DeviceArray.of(floatOffsets(off, width), what);
	}
}
