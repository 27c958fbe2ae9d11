package org.nufftj.recon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.data.KSpace;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.trajectory.Trajectory;

/** Gridding reconstruction: scale of a constant object, layout of results, cancellation, bad input. */
class GriddingReconTest {

	private final Random random = new Random();

	/** A constant disc, k-space by the exact NUDFT, reconstructs at its true value inside and ~0 outside. */
	@ParameterizedTest
	@EnumSource(value = DcfMethod.class, names = { "RAMP", "VORONOI", "PIPE_MENON" })
	void constantDiscKeepsItsValue(final DcfMethod method) {
		final int n = 48;
		final Trajectory t = ReconTestData.radial(80, 2 * n, random.nextDouble());
		final double value = 0.5 + random.nextDouble();
		final float[] disc = ReconTestData.disc(n, 14);
		for (int i = 0; i < disc.length; i++) disc[i] *= value;
		final KSpace k = new KSpace(Nudft.forward(new int[] { n, n }, t, disc, 2), t.count(), 1, 1);
		final ReconOptions o = ReconOptions.defaults().withDcf(method).withCombine(CoilCombination.NONE)
			.withNufft(NufftOptions.defaults().withTolerance(1e-4));
		final float[] img = GriddingRecon.reconstruct(t, k, new int[] { n, n }, o, null).image().data();
		double inside = 0, outside = 0;
		int ni = 0, no = 0;
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				final double r = Math.hypot(x - n / 2, y - n / 2);
				if (r < 10) {
					inside += img[2 * (x + n * y)];
					ni++;
				}
				else if (r > 18 && r < 22) {
					outside += Math.abs(img[2 * (x + n * y)]);
					no++;
				}
			}
		assertEquals(value, inside / ni, 0.02 * value, method + ": mean inside the disc");
		// Truncation ringing 4-8 pixels outside the edge of an ideally low-passed disc stays below a few percent.
		assertTrue(outside / no < 0.03 * value, method + ": mean |value| outside the disc " + outside / no);
	}

	@Test
	void layoutOfCoilsFramesAndCombinations() {
		final int n = 16, coils = 3, frames = 2;
		final Trajectory t = ReconTestData.radial(24, 2 * n, 0.1);
		final float[] y = new float[2 * t.count() * coils * frames];
		for (int i = 0; i < y.length; i++) y[i] = (float) random.nextGaussian();
		final KSpace k = new KSpace(y, t.count(), coils, frames);
		final int[] size = { n, n };
		final ReconOptions base = ReconOptions.defaults().withDcf(DcfMethod.RAMP);
		final ReconResult none = GriddingRecon.reconstruct(t, k, size, base.withCombine(CoilCombination.NONE), null);
		assertEquals(coils, none.image().channels());
		assertEquals(frames, none.image().frames());
		assertNull(none.coils());
		final ReconResult sos = GriddingRecon.reconstruct(t, k, size, base.withKeepCoils(true), null);
		assertEquals(1, sos.image().channels());
		assertArrayEquals(none.image().data(), sos.coils().data(), "kept coil images = uncombined result");
		final float[] expected = new float[2 * n * n * frames];
		for (int f = 0; f < frames; f++)
			System.arraycopy(CoilCombine.sumOfSquares(none.image().data(), f * 2 * n * n * coils, n * n, coils), 0,
				expected, f * 2 * n * n, 2 * n * n);
		assertArrayEquals(expected, sos.image().data());
		assertEquals(t.count(), sos.dcf().length);
		// Where each stage ran: the CPU plan keeps the host path; the weights first.
		assertTrue(sos.stages().snapshot().containsKey("dcf (host)"), sos.stages().toString());
		assertTrue(sos.stages().snapshot().containsKey("combine sos (host)"), sos.stages().toString());
		assertTrue(sos.describe().contains("; stages: dcf weights ramp (host)"), sos.describe());
		// Per-coil image = Fᴴ(w ⊙ y), checked against the exact adjoint.
		final float[] wy = new float[2 * t.count()];
		for (int m = 0; m < t.count(); m++) {
			wy[2 * m] = y[2 * m] * sos.dcf()[m];
			wy[2 * m + 1] = y[2 * m + 1] * sos.dcf()[m];
		}
		final double[] ref = Nudft.adjoint(size, t, Nudft.toDouble(wy), 2);
		double num = 0, den = 0;
		for (int i = 0; i < ref.length; i++) {
			num += Math.pow(none.image().data()[i] - ref[i], 2);
			den += ref[i] * ref[i];
		}
		assertTrue(Math.sqrt(num / den) < 1e-4, "coil 0 frame 0 vs exact adjoint: " + Math.sqrt(num / den));
	}

	@Test
	void cancellationStopsTheReconstruction() {
		final Trajectory t = ReconTestData.radial(8, 16, 0);
		final KSpace k = new KSpace(new float[2 * t.count() * 4], t.count(), 1, 4);
		final AtomicInteger updates = new AtomicInteger();
		final Progress cancelAfterTwo = new Progress() {
			@Override public void update(final double fraction, final String what) { updates.incrementAndGet(); }
			@Override public boolean cancelled() { return updates.get() >= 2; }
		};
		assertThrows(CancellationException.class, () -> GriddingRecon.reconstruct(t, k, new int[] { 8, 8 },
			ReconOptions.defaults().withDcf(DcfMethod.NONE), cancelAfterTwo));
	}

	@Test
	void badInputIsRejected() {
		final Trajectory t = ReconTestData.radial(8, 16, 0);
		final float[] y = new float[2 * t.count()];
		y[5] = Float.NaN;
		final ReconOptions o = ReconOptions.defaults();
		assertThrows(InvalidInputException.class, () -> GriddingRecon.reconstruct(t, new KSpace(y, t.count(), 1, 1),
			new int[] { 8, 8 }, o, null));
		assertThrows(InvalidInputException.class, () -> GriddingRecon.reconstruct(t,
			new KSpace(new float[2 * (t.count() - 1)], t.count() - 1, 1, 1), new int[] { 8, 8 }, o, null));
		assertThrows(InvalidInputException.class, () -> GriddingRecon.reconstruct(t,
			new KSpace(new float[2 * t.count()], t.count(), 1, 1), new int[] { 8, 8, 8 }, o, null));
		assertThrows(InvalidInputException.class, () -> o.withDcfIterations(0));
		assertThrows(InvalidInputException.class, () -> o.withMatrix(new int[] { 1, 8 }));
		assertEquals(CoilCombination.WALSH, CoilCombination.parse("adaptive"));
		assertEquals(CoilCombination.SOS, CoilCombination.parse("Sum of Squares"));
	}
}
