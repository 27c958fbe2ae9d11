package org.nufftj.recon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.InvalidInputException;
import org.nufftj.data.FrameGroup;
import org.nufftj.data.KSpace;
import org.nufftj.io.IsmrmrdData;
import org.nufftj.io.IsmrmrdReader;
import org.nufftj.io.IsmrmrdTools;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.trajectory.Trajectory;

/**
 * Partial Fourier on the Cartesian FFT path ({@link CartesianFft}, {@link PartialFourier}), on a file of
 * {@code ismrmrd_generate_cartesian_shepp_logan} (48², 4 coils with complex sensitivities, 2× readout oversampling):
 * one side of the phase-encode lines (33%) or of the readout (30%) removed, or zeroed in place as BART data holds
 * it. Against the SoS image of the full data: homodyne's NRMSE is lower than zero-filled's, both finite and of the
 * full image's size; homodyne keeps the image scale (mean over the object within 3%); removed and zeroed lines give
 * the same image; homodyne on full data, on a centre of fewer than 8 lines, on two partial axes, or off the FFT path
 * is one clear error.
 */
class HomodyneTest {

	@TempDir
	static Path dir;

	static IsmrmrdData data;
	static int n = 48;

	@BeforeAll
	static void generate() throws Exception {
		final Path gen = IsmrmrdTools.tool("ismrmrd_generate_cartesian_shepp_logan");
		if (gen == null) return;
		final Path file = dir.resolve("pf.h5");
		IsmrmrdTools.run(List.of(gen.toString(), "-m", "" + n, "-c", "4", "-r", "1", "-o", file.toString()), dir);
		data = IsmrmrdReader.read(file);
	}

	@Test
	void homodyneBeatsZeroFillingOnPhaseEncodeAndReadout() {
		Assumptions.assumeTrue(data != null, IsmrmrdTools.why);
		final FrameGroup full = data.blocks().get(0);
		final float[] ref = recon(full.trajectory(), full.kspace(), PartialFourier.ZERO).image().magnitude();
		for (final int[] cut : new int[][] { { 1, 33 }, { 0, 30 } }) { // axis, percent of that axis removed
			final int axis = cut[0];
			final double fraction = cut[1] / 100.0;
			final FrameGroup removed = cut(full, axis, fraction, false), zeroed = cut(full, axis, fraction, true);
			final ReconResult zr = recon(removed.trajectory(), removed.kspace(), PartialFourier.ZERO);
			final ReconResult hr = recon(removed.trajectory(), removed.kspace(), PartialFourier.HOMODYNE);
			assertTrue(hr.backend().contains("homodyne") && hr.backend().contains("axis " + axis), hr.backend());
			assertTrue(zr.backend().contains("zero-filled"), zr.backend());
			final float[] zero = zr.image().magnitude(), homo = hr.image().magnitude();
			assertEquals(ref.length, zero.length);
			assertEquals(ref.length, homo.length);
			assertArrayEquals(data.matrix(), hr.image().size(), "same matrix");
			assertArrayEquals(data.matrix(), zr.image().size(), "same matrix");
			for (final float v : homo) assertTrue(Float.isFinite(v), "finite");
			for (final float v : zero) assertTrue(Float.isFinite(v), "finite");
			final double ez = nrmse(ref, zero), eh = nrmse(ref, homo);
			final String what = cut[1] + "% of axis " + axis + " removed: NRMSE vs full data, zero-filled " + ez +
				", homodyne " + eh;
			System.out.println(what);
			assertTrue(eh < ez, what);
			final double mRef = objectMean(ref, ref), mHomo = objectMean(ref, homo);
			assertTrue(Math.abs(mHomo / mRef - 1) < 0.03, "homodyne keeps the full-data scale: object mean " + mHomo +
				" vs " + mRef + " (" + what + ")");
			// BART holds missing lines as zeros in place: detected the same way, the same image.
			final float[] z = recon(zeroed.trajectory(), zeroed.kspace(), PartialFourier.HOMODYNE).image().magnitude();
			assertTrue(nrmse(homo, z) < 1e-6, "zeroed lines = removed lines, " + nrmse(homo, z));
		}
	}

	@Test
	void homodyneRefusesWhatItCannotDo() {
		Assumptions.assumeTrue(data != null, IsmrmrdTools.why);
		final FrameGroup full = data.blocks().get(0);
		InvalidInputException e = assertThrows(InvalidInputException.class, () -> recon(full.trajectory(),
			full.kspace(), PartialFourier.HOMODYNE));
		assertTrue(e.getMessage().contains("not partial Fourier"), e.getMessage());
		final FrameGroup narrow = cut(full, 1, 0.45, false); // centre 2·(24 − 21.6…) + 1 < 8 lines
		e = assertThrows(InvalidInputException.class, () -> recon(narrow.trajectory(), narrow.kspace(),
			PartialFourier.HOMODYNE));
		assertTrue(e.getMessage().contains("symmetric centre") && e.getMessage().contains("at least 8"), e.getMessage());
		final FrameGroup both = cut(cut(full, 1, 0.3, false), 0, 0.3, false);
		e = assertThrows(InvalidInputException.class, () -> recon(both.trajectory(), both.kspace(),
			PartialFourier.HOMODYNE));
		assertTrue(e.getMessage().contains("2 axes"), e.getMessage());
		final FrameGroup pf = cut(full, 1, 0.3, false);
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null)) {
			e = assertThrows(InvalidInputException.class, () -> GriddingRecon.reconstruct(cpu, pf.trajectory(),
				pf.kspace(), data.matrix(), ReconOptions.defaults().withDcf(DcfMethod.NONE).withCartesianFft(false)
					.withPartialFourier(PartialFourier.HOMODYNE), Progress.NONE));
			assertTrue(e.getMessage().contains("needs Cartesian data reconstructed by FFT"), e.getMessage());
		}
		// Zero-filled partial data is accepted as before.
		assertNotNull(recon(pf.trajectory(), pf.kspace(), PartialFourier.ZERO).image());
	}

	// -- helpers --

	private static ReconResult recon(final Trajectory t, final KSpace k, final PartialFourier pf) {
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 2, null)) {
			return GriddingRecon.reconstruct(cpu, t, k, data.matrix(), ReconOptions.defaults().withDcf(DcfMethod.NONE)
				.withPartialFourier(pf), Progress.NONE);
		}
	}

	/** The samples whose signed grid line on {@code axis} lies in the first {@code fraction} of it removed or zeroed. */
	private static FrameGroup cut(final FrameGroup g, final int axis, final double fraction, final boolean zero) {
		final Trajectory t = g.trajectory();
		final KSpace k = g.kspace();
		final int size = CartesianFft.grid(t, data.matrix()).size()[axis];
		final int first = -size / 2 + (int) Math.round(fraction * size);
		final int m = t.count();
		final int[] keep = java.util.stream.IntStream.range(0, m).filter(j -> zero || Math.round(t.k(j, axis) * size) >=
			first).toArray();
		final float[] y = new float[2 * keep.length * k.coils() * k.frames()];
		final KSpace out = new KSpace(y, keep.length, k.coils(), k.frames());
		for (int c = 0; c < k.coils(); c++)
			for (int f = 0; f < k.frames(); f++)
				for (int i = 0; i < keep.length; i++) {
					final boolean kept = Math.round(t.k(keep[i], axis) * size) >= first;
					y[out.offset(c, f) + 2 * i] = kept ? k.data()[k.offset(c, f) + 2 * keep[i]] : 0;
					y[out.offset(c, f) + 2 * i + 1] = kept ? k.data()[k.offset(c, f) + 2 * keep[i] + 1] : 0;
				}
		return new FrameGroup(t.select(keep, t.name() + " cut"), out, g.firstFrame());
	}

	private static double nrmse(final float[] ref, final float[] x) {
		double e = 0, r = 0;
		for (int i = 0; i < ref.length; i++) {
			e += (ref[i] - x[i]) * (double) (ref[i] - x[i]);
			r += ref[i] * (double) ref[i];
		}
		return Math.sqrt(e / r);
	}

	/** Mean of x over the object: the pixels where the full-data image exceeds 20% of its maximum. */
	private static double objectMean(final float[] ref, final float[] x) {
		double max = 0, s = 0;
		int count = 0;
		for (final float v : ref) max = Math.max(max, v);
		for (int i = 0; i < ref.length; i++) if (ref[i] > 0.2 * max) {
			s += x[i];
			count++;
		}
		return s / count;
	}
}
