package org.nufftj.imglib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.TestSeeds;
import org.nufftj.app.BartNufft;
import org.nufftj.app.Session;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.Trajectory;

import net.imglib2.img.array.ArrayImg;
import net.imglib2.img.array.ArrayImgs;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.type.numeric.complex.ComplexFloatType;
import net.imglib2.view.Views;

/**
 * {@link ImgNufft} on fresh random inputs: the same numbers as the BART-scaled transform on arrays, inputs read in
 * place and results over the transform's own arrays, ⟨A x, y⟩ = ⟨x, Aᴴ y⟩ through the images, a view read once, and
 * a wrong sample count named.
 */
class ImgNufftTest {

	@Test
	void forwardAndAdjointOnImgs() {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int n = 20, coils = 3, frames = 2;
		final int[] size = { n, n };
		final Trajectory t = TestTrajectories.make("golden angle", size, 600, r);
		final float[] y = gaussian(r, 2 * t.count() * coils * frames), x = gaussian(r, 2 * n * n * coils * frames);
		final float[] yBefore = y.clone(), xBefore = x.clone();
		final ArrayImg<ComplexFloatType, FloatArray> kspace = ArrayImgs.complexFloats(y, t.count(), coils, frames);
		final ArrayImg<ComplexFloatType, FloatArray> image = ArrayImgs.complexFloats(x, n, n, coils, frames);
		final NufftOptions o = NufftOptions.defaults().withDevice(DeviceChoice.CPU).withTolerance(1e-6);
		try (Session session = new Session()) {
			final ArrayImg<ComplexFloatType, FloatArray> ahy = ImgNufft.adjoint(session, t, size, kspace, o);
			final ArrayImg<ComplexFloatType, FloatArray> ax = ImgNufft.forward(session, t, image, o);
			assertArrayEquals(new long[] { n, n, coils, frames }, ahy.dimensionsAsLongArray());
			assertArrayEquals(new long[] { t.count(), coils, frames }, ax.dimensionsAsLongArray());
			assertArrayEquals(yBefore, y, "k-space untouched");
			assertArrayEquals(xBefore, x, "image untouched");
			// The same numbers as the array API.
			assertArrayEquals(BartNufft.adjoint(session, t, size, yBefore, o).data(), ComplexImgs.storage(ahy),
				"adjoint vs arrays, seed " + seed);
			assertArrayEquals(BartNufft.forward(session, t, size, xBefore, o).data(), ComplexImgs.storage(ax),
				"forward vs arrays, seed " + seed);
			// Adjointness through the images.
			// Float rounding scales with the vectors' norms, not with the (possibly cancelling) inner product.
			final double lhs = dotRe(ComplexImgs.storage(ax), y), rhs = dotRe(x, ComplexImgs.storage(ahy));
			final double scale = norm(ComplexImgs.storage(ax)) * norm(y) + norm(x) * norm(ComplexImgs.storage(ahy));
			assertEquals(lhs, rhs, 1e-6 * scale, "<Ax, y> vs <x, A^H y>, seed " + seed);
			// A view (not array-backed) is read once, with the same result.
			final var view = Views.interval(Views.extendZero(kspace), kspace);
			assertArrayEquals(ComplexImgs.storage(ahy), ComplexImgs.storage(ImgNufft.adjoint(session, t, size, view, o)),
				"view input, seed " + seed);
			assertSame(y, ComplexImgs.storage(kspace), "the k-space Img still wraps the caller's array");
			final var bad = ArrayImgs.complexFloats(t.count() - 1, coils, frames);
			final InvalidInputException e = assertThrows(InvalidInputException.class, () -> ImgNufft.adjoint(session, t,
				size, bad, o));
			assertTrue(e.getMessage().contains(String.valueOf(t.count() - 1)) && e.getMessage().contains(String.valueOf(
				t.count())), e.getMessage());
		}
	}

	private static float[] gaussian(final Random r, final int len) {
		final float[] a = new float[len];
		for (int i = 0; i < len; i++) a[i] = (float) r.nextGaussian();
		return a;
	}

	private static double norm(final float[] a) {
		return Math.sqrt(dotRe(a, a));
	}

	/** Re⟨a, b⟩ = Σ Re(conj(a)·b) over interleaved complex arrays. */
	private static double dotRe(final float[] a, final float[] b) {
		double s = 0;
		for (int i = 0; i < a.length; i += 2) s += (double) a[i] * b[i] + (double) a[i + 1] * b[i + 1];
		return s;
	}
}
