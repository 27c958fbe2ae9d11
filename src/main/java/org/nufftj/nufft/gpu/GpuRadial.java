package org.nufftj.nufft.gpu;

import java.util.Arrays;
import java.util.Comparator;

import org.nufftj.kernel.Kernels;
import org.nufftj.trajectory.RadialLines;
import org.nufftj.trajectory.Trajectory;

/**
 * Host-side preparation for the output-driven spreader (kernels/spread_radial.cu) from a trajectory recognised as
 * {@link RadialLines}, in fine-grid units t = k·n per axis:
 * <ul>
 * <li>per sample, in the caller's order: the first stencil cell l0 = ⌈t − W/2⌉ per axis, unwrapped
 * ({@link #first}, x and y interleaved), and the kernel argument of that cell off = l0 − t ({@link #offset}), in
 * double, with exactly the arithmetic of {@link GpuPoints} and the CPU engine (so every method weighs a sample
 * alike);</li>
 * <li>per spoke, sorted by the angle of its line in grid units ({@link #angles}, [0, π)): 1/d_x, 1/d_y (d the step
 * per sample, grid units), the centre index c and the spoke's first sample index, as four 32-bit words
 * ({@link #spokes}: three float bit patterns and an int);</li>
 * <li>{@link #reach}: least and greatest unwrapped cell any stencil touches, per axis (x min, x max, y min, y max);</li>
 * <li>{@link #margin}: grid cells by which the kernel widens every candidate test, covering the samples' largest
 * distance from their spoke's model (i − c)·d (coordinates read from files deviate by float rounding).</li>
 * </ul>
 */
final class GpuRadial {

	/** Cells added to the measured deviation: float rounding of the kernel's geometry stays far below. */
	static final double MARGIN_FLOOR = 1e-3;

	final int count, readout, spokeCount;
	final int[] first;
	final double[] offset;
	final int[] spokes;
	final float[] angles;
	final int[] reach;
	final float margin;

	GpuRadial(final RadialLines lines, final Trajectory t, final int[] grid, final int width) {
		count = t.count();
		readout = lines.readout();
		spokeCount = lines.shots();
		final double[] k = t.coords();
		final int nx = grid[0], ny = grid[1];
		first = new int[2 * count];
		offset = new double[2 * count];
		int xmin = Integer.MAX_VALUE, xmax = Integer.MIN_VALUE, ymin = Integer.MAX_VALUE, ymax = Integer.MIN_VALUE;
		for (int m = 0; m < count; m++) {
			for (int a = 0; a < 2; a++) {
				final double tt = k[2 * m + a] * grid[a];
				final int l0 = Kernels.stencilStart(tt, width);
				first[2 * m + a] = l0;
				offset[2 * m + a] = l0 - tt;
			}
			xmin = Math.min(xmin, first[2 * m]);
			xmax = Math.max(xmax, first[2 * m] + width - 1);
			ymin = Math.min(ymin, first[2 * m + 1]);
			ymax = Math.max(ymax, first[2 * m + 1] + width - 1);
		}
		reach = new int[] { xmin, xmax, ymin, ymax };
		final double[] angle = new double[spokeCount];
		final double[] dx = new double[spokeCount], dy = new double[spokeCount];
		double deviation = 0;
		for (int s = 0; s < spokeCount; s++) {
			dx[s] = lines.spacing(s) * lines.directionX(s) * nx;
			dy[s] = lines.spacing(s) * lines.directionY(s) * ny;
			double a = Math.atan2(dy[s], dx[s]);
			if (a < 0) a += Math.PI;
			angle[s] = a >= Math.PI ? a - Math.PI : a;
			final double c = lines.centre(s);
			for (int i = 0; i < readout; i++) {
				final int m = s * readout + i;
				deviation = Math.max(deviation, Math.abs(k[2 * m] * nx - (i - c) * dx[s]));
				deviation = Math.max(deviation, Math.abs(k[2 * m + 1] * ny - (i - c) * dy[s]));
			}
		}
		margin = (float) (deviation * 1.01 + MARGIN_FLOOR);
		final Integer[] order = new Integer[spokeCount];
		for (int s = 0; s < spokeCount; s++) order[s] = s;
		Arrays.sort(order, Comparator.comparingDouble(s -> angle[s]));
		spokes = new int[4 * spokeCount];
		angles = new float[spokeCount];
		for (int q = 0; q < spokeCount; q++) {
			final int s = order[q];
			angles[q] = (float) angle[s]; // rounding is monotone: still sorted
			spokes[4 * q] = Float.floatToRawIntBits((float) (1 / dx[s]));
			spokes[4 * q + 1] = Float.floatToRawIntBits((float) (1 / dy[s]));
			spokes[4 * q + 2] = Float.floatToRawIntBits((float) lines.centre(s));
			spokes[4 * q + 3] = s * readout;
		}
	}

	/** Device bytes of the arrays uploaded for a plan of the given complex size (8 float, 16 double). */
	long deviceBytes(final int cbytes) {
		return (long) count * (8 + cbytes) + 20L * spokeCount;
	}
}
