package org.nufftj.imglib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.app.Benchmark;
import org.nufftj.app.Scan;
import org.nufftj.app.Session;
import org.nufftj.data.KSpace;
import org.nufftj.imglib.ComplexPlanes.Part;
import org.nufftj.recon.CoilCombination;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.GriddingRecon;
import org.nufftj.recon.ImageComparison;
import org.nufftj.recon.Progress;
import org.nufftj.recon.ReconOptions;
import org.nufftj.recon.ReconResult;
import org.nufftj.trajectory.Trajectory;

import net.imglib2.img.Img;
import net.imglib2.img.array.ArrayImgs;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.img.planar.PlanarImg;
import net.imglib2.type.numeric.complex.ComplexFloatType;
import net.imglib2.type.numeric.real.FloatType;
import net.imglib2.view.Views;

/**
 * The ImgLib2 API: a reconstruction from an {@code Img} of k-space reads the image's own array and returns an image
 * over the reconstruction's own array (no pixel array copied on the way in or out), with the numbers of the recon
 * API called directly.
 */
class ImgReconTest {

	@Test
	void reconstructionFromAnImgCopiesNoPixelArray() {
		final long seed = new Random().nextLong();
		final Random random = new Random(seed);
		final int n = 16, coils = 3, frames = 2;
		final Trajectory t = Benchmark.radial(24, 2 * n);
		final float[] samples = Benchmark.random(2 * t.count() * coils * frames, random);
		final float[] before = samples.clone();
		final Img<ComplexFloatType> kspace = ArrayImgs.complexFloats(samples, t.count(), coils, frames);
		final ReconOptions o = ReconOptions.defaults().withCombine(CoilCombination.WALSH);
		final ImgRecon.Result r;
		try (Session session = new Session()) {
			r = ImgRecon.reconstruct(session, t, kspace, new int[] { n, n }, o, Progress.NONE);
		}
		// In: the recon reads the Img's own array; out: the Img returned is over the recon's own array.
		assertSame(samples, ComplexImgs.toKSpace(kspace).data(), "k-space array shared, seed " + seed);
		assertArrayEquals(before, samples, "input untouched, seed " + seed);
		assertSame(r.result().image().data(), ComplexImgs.storage(r.image()), "image array shared, seed " + seed);
		assertArrayEquals(new long[] { n, n, 1, frames }, r.image().dimensionsAsLongArray());
		// The same numbers as the recon API on the arrays.
		final ReconResult direct;
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 0, null)) {
			direct = GriddingRecon.reconstruct(cpu, t, new KSpace(before, t.count(), coils, frames), new int[] { n, n },
				o, Progress.NONE);
		}
		final ImageComparison c = ImageComparison.of(direct.image().data(), r.result().image().data());
		assertTrue(c.nrmse() <= 1e-6, "vs the recon API: " + c + ", seed " + seed);
		// Pixel (x, y, channel, frame) of the Img is the interleaved value at that index.
		final var ra = r.image().randomAccess();
		ra.setPosition(new long[] { 5, 7, 0, 1 });
		final int i = 2 * (5 + n * (7 + n * (0 + 1)));
		assertEquals(r.result().image().data()[i], ra.get().getRealFloat());
		assertEquals(r.result().image().data()[i + 1], ra.get().getImaginaryFloat());
		// A view is not an array image: read once into an array, same result.
		final var view = Views.interval(kspace, kspace);
		assertNotSame(samples, ComplexImgs.toKSpace(view).data());
		assertArrayEquals(samples, ComplexImgs.toKSpace(view).data());
		// The ImagePlus adapter's planes are computed from the Img in place.
		final PlanarImg<FloatType, FloatArray> mag = ComplexPlanes.planes(r.image(), 2, Part.MAGNITUDE);
		final float[] expected = DisplayOrder.toDisplay(r.result().image().magnitude(), n, n);
		for (int f = 0; f < frames; f++)
			for (int p = 0; p < n * n; p++)
				assertEquals(expected[f * n * n + p], ComplexPlanes.plane(mag, f)[p], "frame " + f + " pixel " + p);
	}

	@Test
	void aLoadedScanIsAnImgOverItsOwnArray() {
		final Scan scan = ImgRecon.load(Path.of("sample-data/bart/radial.cfl"));
		final Img<ComplexFloatType> k = ImgRecon.kspace(scan, 0);
		assertSame(scan.parts().get(0).kspace().data(), ComplexImgs.storage(k));
		assertArrayEquals(new long[] { 128 * 101, 4, 1 }, k.dimensionsAsLongArray());
		final Img<ComplexFloatType> x = ImgRecon.reconstruct(scan.parts().get(0).trajectory(), k, scan.matrix(),
			ReconOptions.defaults());
		assertArrayEquals(new long[] { 64, 64, 1, 1 }, x.dimensionsAsLongArray());
	}
}
