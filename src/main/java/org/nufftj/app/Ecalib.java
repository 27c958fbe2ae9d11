package org.nufftj.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.io.Cfl;
import org.nufftj.recon.sense.Espirit;
import org.nufftj.recon.sense.EspiritMaps;
import org.nufftj.recon.sense.EspiritOptions;

/**
 * {@code bart ecalib} on files, for the command line and Fiji alike: a fully sampled (at least in its centre)
 * Cartesian k-space [X, Y, Z, coils] → ESPIRiT maps [X, Y, Z, coils, maps] and optionally the eigenvalue maps
 * [X, Y, Z, 1, maps] ({@link Espirit#fromKSpace}: the centred calibration region, kernel, threshold, crop, maps as
 * {@link EspiritOptions}). Both outputs are checked before anything is written and written atomically
 * ({@link Cfl#write}).
 */
public final class Ecalib {

	private Ecalib() {}

	/** Reads {@code kspace}, estimates, writes {@code sens} and (if not null) {@code eigenvalues}. */
	public static EspiritMaps run(final Path kspace, final Path sens, final Path eigenvalues,
		final EspiritOptions options) throws IOException
	{
		final Cfl.Array k = Cfl.read(kspace);
		final long[] d = k.dims();
		for (int a = 4; a < Cfl.DIMS; a++) {
			InvalidInputException.require(d[a] == 1, kspace + ": dims " + Arrays.toString(d) + ": expected [X, Y, Z, " +
				"coils] (dimension " + a + " is " + d[a] + "; one frame only)");
		}
		InvalidInputException.require(d[0] >= 2 && d[1] >= 2, kspace + ": dims " + Arrays.toString(d) +
			": expected a Cartesian k-space [X, Y, Z, coils] with X, Y >= 2 (a non-Cartesian [1, readout, shots, " +
			"coils] k-space must be gridded first)");
		final int[] matrix = d[2] > 1 ? new int[] { (int) d[0], (int) d[1], (int) d[2] } : new int[] { (int) d[0],
			(int) d[1] };
		final EspiritMaps m = Espirit.fromKSpace(k.data(), matrix, (int) d[3], options);
		Cfl.write(sens, m.cflDims(), m.maps());
		if (eigenvalues != null) {
			final float[] ev = m.eigenvalues(), c = new float[2 * ev.length];
			for (int i = 0; i < ev.length; i++) c[2 * i] = ev[i];
			Cfl.write(eigenvalues, m.eigenvalueCflDims(), c);
		}
		return m;
	}

	/**
	 * BART's size argument: one number for every axis ("24") or one per axis ("24:24:1"); axes beyond those given
	 * repeat the last.
	 */
	public static int[] sizes(final String option, final String s) {
		final String[] f = s.split(":");
		InvalidInputException.require(f.length >= 1 && f.length <= 3, option + " " + s + ": expected n or n:n:n");
		final int[] v = new int[3];
		for (int a = 0; a < 3; a++) {
			final String t = f[Math.min(a, f.length - 1)];
			try {
				v[a] = Integer.parseInt(t.trim());
			}
			catch (final NumberFormatException e) {
				throw new InvalidInputException(option + " " + s + ": '" + t + "' is not a whole number");
			}
			InvalidInputException.require(v[a] >= 1, option + " " + s + ": sizes must be >= 1");
		}
		return v;
	}
}
