package org.nufftj.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nufftj.app.FrontEndParityTest.relative;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.InvalidInputException;
import org.nufftj.data.FrameGroup;
import org.nufftj.data.KSpace;
import org.nufftj.io.Cfl;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.phantom.CoilSensitivities;
import org.nufftj.phantom.Noise;
import org.nufftj.phantom.Simulation;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Trajectory;

/**
 * {@link IterativeReconstruction#run} on scans of several frames and slices: two frames of different objects (a
 * Shepp-Logan and a disc, analytic k-space, 4 coils) are reconstructed frame by frame, each frame equal to the
 * reconstruction of that frame alone (the same code path on a one-frame scan), with maps from a file (one set for
 * every frame, or one per slice in BART's dim 13), and with ESPIRiT or Walsh maps estimated per slice. In double
 * precision, so that the phase-rotated maps' float rounding (10⁻⁷) is not amplified by the CG iterations (in float
 * it reaches 10⁻³ after 10 iterations; measured 5·10⁻⁸ in double).
 */
class IterativeFramesTest {

	private static final int N = 32, COILS = 4, READOUT = 64, SPOKES = 24;
	private static final int[] MATRIX = { N, N };

	private static Session session;
	private static Trajectory t;
	private static KSpace[] frames;
	private static float[] maps;

	@TempDir
	Path dir;

	@BeforeAll
	static void simulate() {
		session = new Session();
		t = new GoldenAngleRadial(READOUT, SPOKES).build();
		final CoilSensitivities c = CoilSensitivities.synthetic(COILS, MATRIX);
		maps = c.maps().data();
		frames = new KSpace[] { new Simulation(AnalyticPhantom.sheppLogan2d(), c).run(t, Noise.NONE, 0).kspace(),
			new Simulation(AnalyticPhantom.disc(2, 0.5, 1), c).run(t, Noise.NONE, 0).kspace() };
	}

	@AfterAll
	static void close() {
		session.close();
	}

	@Test
	void framesFromAFileEqualEachFrameAlone() throws Exception {
		final Path file = dir.resolve("maps.cfl");
		Cfl.write(file, new long[] { N, N, 1, COILS }, maps);
		final IterativeReconstruction.Result both = run(scan(1), IterativeReconstruction.MapsSource.FILE, file);
		assertEquals(2, both.image().frames());
		assertEquals(2, both.pics().size());
		assertEquals(1, both.maps().frames());
		for (int f = 0; f < 2; f++) {
			final float[] alone = run(single(f), IterativeReconstruction.MapsSource.FILE, file).image().data();
			assertTrue(relative(frame(both, f), alone) <= 1e-6, "frame " + f + ": " + relative(frame(both, f), alone));
			assertEquals(10, both.residuals().get(f).length, "one residual per iteration");
		}
		assertTrue(relative(frame(both, 0), frame(both, 1)) > 0.2, "the two frames are different objects");

		// Two slices, maps per slice in dim 13: slice 1's maps are slice 0's times e^{iφ}, so its image is the
		// one-frame image times e^{−iφ} (A' = e^{iφ}A: same normal operator and scale, right-hand side times e^{−iφ}).
		final double phi = 0.9;
		final float[] two = new float[2 * maps.length];
		System.arraycopy(maps, 0, two, 0, maps.length);
		for (int i = 0; i < maps.length / 2; i++) {
			final double re = maps[2 * i], im = maps[2 * i + 1];
			two[maps.length + 2 * i] = (float) (re * Math.cos(phi) - im * Math.sin(phi));
			two[maps.length + 2 * i + 1] = (float) (re * Math.sin(phi) + im * Math.cos(phi));
		}
		final long[] dims = { N, N, 1, COILS, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2 };
		final Path perSlice = dir.resolve("slices.cfl");
		Cfl.write(perSlice, dims, two);
		final IterativeReconstruction.Result sliced = run(scan(2), IterativeReconstruction.MapsSource.FILE, perSlice);
		assertEquals(2, sliced.maps().frames());
		final float[] alone = run(single(1), IterativeReconstruction.MapsSource.FILE, file).image().data();
		final float[] turned = new float[alone.length];
		for (int i = 0; i < alone.length / 2; i++) {
			turned[2 * i] = (float) (alone[2 * i] * Math.cos(phi) + alone[2 * i + 1] * Math.sin(phi));
			turned[2 * i + 1] = (float) (alone[2 * i + 1] * Math.cos(phi) - alone[2 * i] * Math.sin(phi));
		}
		assertTrue(relative(frame(sliced, 1), turned) <= 1e-6, "slice 1 with its own maps: " + relative(frame(sliced,
			1), turned));
		assertTrue(relative(frame(sliced, 0), frame(both, 0)) <= 1e-6, "slice 0");

		// One set for a two-slice scan, or a set per slice for a one-slice scan: refused, naming the file.
		final InvalidInputException e = assertThrows(InvalidInputException.class, () -> run(scan(2),
			IterativeReconstruction.MapsSource.FILE, file));
		assertTrue(e.getMessage().contains("maps.cfl") && e.getMessage().contains("slices"), e.getMessage());
		assertThrows(InvalidInputException.class, () -> run(scan(1), IterativeReconstruction.MapsSource.FILE,
			perSlice));
	}

	@Test
	void estimatedMapsPerSliceEqualEachSliceAlone() throws Exception {
		for (final IterativeReconstruction.MapsSource source : new IterativeReconstruction.MapsSource[] {
			IterativeReconstruction.MapsSource.ESPIRIT, IterativeReconstruction.MapsSource.WALSH })
		{
			final IterativeReconstruction.Result both = run(scan(2), source, null);
			assertEquals(2, both.maps().frames(), source + ": one set of maps per slice");
			for (int f = 0; f < 2; f++) {
				final float[] alone = run(single(f), source, null).image().data();
				assertTrue(relative(frame(both, f), alone) <= 1e-6, source + " slice " + f + ": " + relative(frame(both,
					f), alone));
			}
			// One slice, two frames: the first frame's maps serve both (frame 0 then equals its one-frame reconstruction).
			final IterativeReconstruction.Result shared = run(scan(1), source, null);
			assertEquals(1, shared.maps().frames());
			assertTrue(relative(frame(shared, 0), frame(both, 0)) <= 1e-6, source + ": frame 0");
			assertTrue(shared.mapsNote().contains("every frame"), shared.mapsNote());
		}
		// "Estimate coil sensitivities" shows the sets the reconstruction uses: one per slice, equal to its maps.
		final NufftOptions nufft = Options.nufft(Options.AUTO, 0, 0, 1e-4, "double", "cpu", Options.AUTO, 0);
		final org.nufftj.recon.sense.EspiritMaps[] sets = IterativeReconstruction.espiritPerSet(scan(2), ReconOptions
			.defaults().withNufft(nufft), org.nufftj.recon.sense.EspiritOptions.defaults().withMaps(1), session);
		assertEquals(2, sets.length, "one set per slice");
		final float[] used = run(scan(2), IterativeReconstruction.MapsSource.ESPIRIT, null).maps().data();
		final int length = used.length / 2;
		for (int set = 0; set < 2; set++) {
			assertTrue(relative(sets[set].maps(), java.util.Arrays.copyOfRange(used, set * length, (set + 1) * length))
				<= 1e-6, "set " + set);
		}
		assertEquals(1, IterativeReconstruction.espiritPerSet(scan(1), ReconOptions.defaults().withNufft(nufft),
			org.nufftj.recon.sense.EspiritOptions.defaults().withMaps(1), session).length, "one slice: one set");
	}

	// -- helpers --

	/** Both frames in one part; {@code slices} 1 (two frames of one slice) or 2. */
	private static Scan scan(final int slices) {
		final float[] d = new float[frames[0].data().length * 2];
		System.arraycopy(frames[0].data(), 0, d, 0, frames[0].data().length);
		System.arraycopy(frames[1].data(), 0, d, frames[0].data().length, frames[1].data().length);
		return new Scan("two", List.of(new FrameGroup(t, new KSpace(d, t.count(), COILS, 2), 0)), 2, slices, COILS,
			MATRIX, null, false, new long[] { 2 }, List.of(), "");
	}

	private static Scan single(final int f) {
		return Scan.of("one", t, frames[f], MATRIX);
	}

	private static IterativeReconstruction.Result run(final Scan scan, final IterativeReconstruction.MapsSource source,
		final Path file) throws Exception
	{
		final NufftOptions nufft = Options.nufft(Options.AUTO, 0, 0, 1e-4, "double", "cpu", Options.AUTO, 0);
		final Pics.Settings s = new Pics.Settings(0.01, 10, true, Pics.Normal.NUFFT, nufft);
		return IterativeReconstruction.run(scan, source, file, s, ReconOptions.defaults().withNufft(nufft), null,
			session);
	}

	private static float[] frame(final IterativeReconstruction.Result r, final int f) {
		final int n = 2 * N * N;
		return Arrays.copyOfRange(r.image().data(), f * n, (f + 1) * n);
	}
}
