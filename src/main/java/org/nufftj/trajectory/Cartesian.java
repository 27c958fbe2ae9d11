package org.nufftj.trajectory;

import java.util.Arrays;

import org.nufftj.InvalidInputException;

/**
 * The full Cartesian grid of a 2D or 3D matrix: {@code k_a = (i − N_a/2)/N_a} per axis ({@code i = 0 … N_a−1}), the
 * sample positions of the unshifted DFT of an image whose centre pixel is at index {@code N/2}. The readout (x) may be
 * oversampled by an integer-valued factor {@code os}: then it has {@code R = os·N_x} samples
 * {@code k_x = (i − R/2)/R}, the same k range at {@code os} times the density (a field of view {@code os} times wider
 * in x). Order: x fastest, then y, then z; readout = R, shots = N_y·N_z.
 */
public final class Cartesian implements TrajectoryDesign {

	private final int[] matrix;
	private final int readoutOversampling;

	public Cartesian(final int[] matrix, final int readoutOversampling) {
		InvalidInputException.require(matrix != null && (matrix.length == 2 || matrix.length == 3),
			"Cartesian trajectory: expected a 2D or 3D matrix, found " + Arrays.toString(matrix));
		for (final int n : matrix)
			InvalidInputException.require(n >= 1, "Cartesian trajectory: matrix sizes must be >= 1, found " +
				Arrays.toString(matrix));
		InvalidInputException.require(readoutOversampling >= 1 && readoutOversampling <= 16,
			"Cartesian trajectory: readout oversampling must be 1 to 16, found " + readoutOversampling);
		this.matrix = matrix.clone();
		this.readoutOversampling = readoutOversampling;
	}

	public Cartesian(final int[] matrix) {
		this(matrix, 1);
	}

	// -- public API --

	public int[] matrix() { return matrix.clone(); }

	public int readoutOversampling() { return readoutOversampling; }

	@Override
	public Trajectory build() {
		final int d = matrix.length;
		final int r = readoutOversampling * matrix[0];
		final int ny = matrix[1], nz = d == 3 ? matrix[2] : 1;
		final long count = (long) r * ny * nz;
		InvalidInputException.require(count * d <= Integer.MAX_VALUE, "Cartesian trajectory: " + count +
			" points is too many");
		final double[] c = new double[(int) count * d];
		int m = 0;
		for (int z = 0; z < nz; z++) {
			for (int y = 0; y < ny; y++) {
				for (int x = 0; x < r; x++) {
					c[d * m] = (x - r / 2) / (double) r;
					c[d * m + 1] = (y - ny / 2) / (double) ny;
					if (d == 3) c[d * m + 2] = (z - nz / 2) / (double) nz;
					m++;
				}
			}
		}
		return new Trajectory(d, c, r, ny * nz, "cartesian");
	}

	@Override
	public String describe() {
		final StringBuilder s = new StringBuilder("Cartesian ");
		for (int a = 0; a < matrix.length; a++) s.append(a == 0 ? "" : "x").append(matrix[a]);
		if (readoutOversampling > 1) s.append(", readout oversampled ").append(readoutOversampling).append("x");
		return s.toString();
	}
}
