package org.nufftj.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.data.KSpace;
import org.nufftj.io.Cfl;
import org.nufftj.trajectory.Trajectory;

/**
 * BART {@code .cfl} conventions for the NUFFT commands: trajectory {@code [3, readout, spokes]} in cycles per FOV
 * (real parts; BART ignores the imaginary parts too), k-space {@code [1, readout, spokes, coils, …]}, images
 * {@code [X, Y, Z, coils, …]}. Dimensions 4…15 of k-space and images are carried through as "frames".
 */
final class BartFiles {

	private BartFiles() {}

	/** A BART trajectory file: coordinates (3 per point, cycles/FOV) and its shape. */
	static final class TrajectoryFile {

		final Path path;
		final double[] cycles;
		final int readout, shots;
		final double[] maxAbs = new double[3];

		TrajectoryFile(final Path path, final double[] cycles, final int readout, final int shots) {
			this.path = path;
			this.cycles = cycles;
			this.readout = readout;
			this.shots = shots;
			for (int i = 0; i < cycles.length; i++) {
				if (!Double.isFinite(cycles[i])) throw new InvalidInputException(path + ": trajectory point " + i / 3 +
					" axis " + i % 3 + " is " + cycles[i] + ", expected a finite number");
				maxAbs[i % 3] = Math.max(maxAbs[i % 3], Math.abs(cycles[i]));
			}
		}

		int points() { return readout * shots; }

		/**
		 * Image size estimated as bart 0.8's {@code nufft} does without {@code -d}: per axis 2·ceil(max |k|) (k in
		 * cycles/FOV), 1 for an axis where every coordinate is 0.
		 */
		int[] estimateDims() {
			final int[] d = new int[3];
			for (int a = 0; a < 3; a++) d[a] = maxAbs[a] == 0 ? 1 : 2 * (int) Math.ceil((float) maxAbs[a]);
			if (d[0] < 2 || d[1] < 2) throw new InvalidInputException(path + ": cannot estimate the image size from " +
				"the trajectory (max |k| per axis " + Arrays.toString(maxAbs) + " cycles/FOV); give -d X:Y:Z");
			return d;
		}

		/** The points as a 2D (Z = 1) or 3D trajectory for an image of {@code dims} (3 sizes). */
		Trajectory trajectory(final int[] dims) {
			final int d = dims[2] == 1 ? 2 : 3;
			final int m = points();
			final double[] c = new double[d * m];
			for (int p = 0; p < m; p++) {
				for (int a = 0; a < 3; a++) {
					final double v = cycles[3 * p + a];
					if (a < d) c[d * p + a] = v;
					else if (v != 0) throw new InvalidInputException(path + ": trajectory point " + p + " has kz = " + v +
						" but the image is 2D (Z = 1); give -d X:Y:Z with Z > 1");
				}
			}
			for (int p = 0; p < m; p++) {
				for (int a = 0; a < d; a++) {
					final double v = c[d * p + a], half = dims[a] / 2.0;
					if (Math.abs(v) > half * (1 + Trajectory.RANGE_SLACK) + 1e-6) throw new InvalidInputException(path +
						": trajectory point " + p + " axis " + a + " is " + v + " cycles/FOV, outside [-" + half + ", " +
						half + "] for an image of " + dims[a] + " pixels on that axis");
				}
			}
			final int[] size = Arrays.copyOf(dims, d);
			return Trajectory.fromCyclesPerFov(d, c, size, readout, shots, path.getFileName().toString());
		}
	}

	static TrajectoryFile readTrajectory(final Path path) throws IOException {
		final Cfl.Array a = Cfl.read(path);
		final long[] dims = a.dims();
		if (dims[0] != 3) throw new InvalidInputException(path + ": trajectory dims " + Arrays.toString(trim(dims)) +
			": expected [3, readout, spokes] (first dimension 3), found " + dims[0]);
		for (int i = 3; i < Cfl.DIMS; i++)
			if (dims[i] != 1) throw new InvalidInputException(path + ": trajectory dimension " + i + " has size " +
				dims[i] + "; only [3, readout, spokes] trajectories shared by all coils/frames are supported");
		final float[] f = a.data();
		final int m = (int) (dims[1] * dims[2]);
		final double[] c = new double[3 * m];
		for (int i = 0; i < c.length; i++) c[i] = f[2 * i];
		return new TrajectoryFile(path, c, (int) dims[1], (int) dims[2]);
	}

	/** Reads k-space {@code [1, readout, spokes, coils, …]} matching the trajectory; returns its data and dims. */
	static Cfl.Array readKSpace(final Path path, final TrajectoryFile t) throws IOException {
		final Cfl.Array a = Cfl.read(path);
		final long[] d = a.dims();
		if (d[0] != 1 || d[1] != t.readout || d[2] != t.shots) throw new InvalidInputException(path + ": k-space dims " +
			Arrays.toString(trim(d)) + " do not match the trajectory " + t.path.getFileName() + ": expected [1, " +
			t.readout + ", " + t.shots + ", coils, ...]");
		return a;
	}

	/** The k-space array as a {@link KSpace} (coils = dim 3, frames = product of dims 4…15), checked finite. */
	static KSpace kspace(final Cfl.Array a, final Path path) {
		final long[] d = a.dims();
		final int coils = (int) d[3];
		final int frames = (int) (a.elements() / (d[1] * d[2] * coils));
		return new KSpace(a.data(), (int) (d[1] * d[2]), coils, frames).requireFinite(path.toString());
	}

	/** Fails naming the first NaN / infinite value of an image array. */
	static void requireFinite(final float[] data, final Path path) {
		for (int i = 0; i < data.length; i++)
			if (!Float.isFinite(data[i])) throw new InvalidInputException(path + ": value " + i / 2 + " (" +
				(i % 2 == 0 ? "real" : "imaginary") + " part) is " + data[i] + ", expected a finite number");
	}

	static long[] trim(final long[] dims) {
		int n = dims.length;
		while (n > 1 && dims[n - 1] == 1) n--;
		return Arrays.copyOf(dims, n);
	}
}
