package org.nufftj.recon.sense;

import java.util.Random;

/**
 * Test data for ESPIRiT: coil maps S_c(x), an object ρ(x) and the exact multi-coil Cartesian k-space
 * y_c(k) = Σ_x S_c(x)ρ(x) e^{−2πi k·x/N} (centred k and x, docs/conventions.md), all in double; plus the per-pixel
 * subspace measure. Layouts as in {@link CalibrationRegion}: [coil][z][y][x], interleaved.
 */
final class SyntheticCoils {

	private SyntheticCoils() {}

	/**
	 * Band-limited maps: S_c(x) = Σ_q a_cq e^{+2πi q·x/N} over integer q (cycles per field of view) with
	 * |q_a| ≤ w on the axes of size &gt; 1, random complex a_cq of size ~1/(1 + |q|²) (smooth maps).
	 */
	static double[] bandLimitedMaps(final Random random, final int[] n, final int coils, final int w,
		final boolean smooth)
	{
		final int pixels = n[0] * n[1] * n[2];
		final double[] s = new double[2 * pixels * coils];
		final int wz = n[2] > 1 ? w : 0;
		for (int c = 0; c < coils; c++)
			for (int qz = -wz; qz <= wz; qz++)
				for (int qy = -w; qy <= w; qy++)
					for (int qx = -w; qx <= w; qx++) {
						final double amp = smooth ? 1.0 / (1 + qx * qx + qy * qy + qz * qz) : 1;
						final double ar = amp * random.nextGaussian(), ai = amp * random.nextGaussian();
						for (int z = 0; z < n[2]; z++)
							for (int y = 0; y < n[1]; y++)
								for (int x = 0; x < n[0]; x++) {
									final double arg = 2 * Math.PI * ((double) qx * (x - n[0] / 2) / n[0] +
										(double) qy * (y - n[1] / 2) / n[1] + (double) qz * (z - n[2] / 2) / n[2]);
									final int o = 2 * (x + n[0] * (y + n[1] * (z + n[2] * c)));
									s[o] += ar * Math.cos(arg) - ai * Math.sin(arg);
									s[o + 1] += ar * Math.sin(arg) + ai * Math.cos(arg);
								}
					}
		return s;
	}

	/**
	 * An object: an ellipse (ellipsoid) of random semi-axes {@code lo}–{@code hi} × N centred near the middle, with a
	 * random per-pixel texture 0.5–1.5 and a smaller inner ellipse of twice the intensity; complex with a smooth phase
	 * ({@code white}: a random phase per pixel, so that its spectrum is flat). Returns interleaved values;
	 * {@code support} (may be null) gets the mask.
	 */
	static double[] object(final Random random, final int[] n, final boolean[] support, final double lo,
		final double hi, final boolean white)
	{
		final int pixels = n[0] * n[1] * n[2];
		final double[] rho = new double[2 * pixels];
		final double[] axes = new double[3], centre = new double[3];
		for (int a = 0; a < 3; a++) {
			axes[a] = n[a] == 1 ? 1e9 : (lo + (hi - lo) * random.nextDouble()) * n[a];
			centre[a] = n[a] == 1 ? 0 : (random.nextDouble() - 0.5) * 0.1 * n[a];
		}
		final double phase = 2 * Math.PI * random.nextDouble();
		for (int z = 0; z < n[2]; z++)
			for (int y = 0; y < n[1]; y++)
				for (int x = 0; x < n[0]; x++) {
					final double[] u = { x - n[0] / 2, y - n[1] / 2, z - n[2] / 2 };
					double r2 = 0, i2 = 0;
					for (int a = 0; a < 3; a++) {
						final double d = (u[a] - centre[a]) / axes[a];
						r2 += d * d;
						i2 += 4 * d * d;
					}
					final int p = x + n[0] * (y + n[1] * z);
					if (r2 > 1) continue;
					if (support != null) support[p] = true;
					final double m = (0.5 + random.nextDouble()) * (i2 <= 1 ? 2 : 1);
					final double ph = white ? 2 * Math.PI * random.nextDouble() : phase + 0.5 * Math.PI * u[0] / n[0];
					rho[2 * p] = m * Math.cos(ph);
					rho[2 * p + 1] = m * Math.sin(ph);
				}
		return rho;
	}

	/** y_c(k) = Σ_x S_c(x)ρ(x) e^{−2πi k·x/N}, centred, as float. */
	static float[] kspace(final double[] maps, final double[] rho, final int[] n, final int coils) {
		final int pixels = n[0] * n[1] * n[2];
		final double[] img = new double[2 * pixels * coils];
		for (int c = 0; c < coils; c++)
			for (int p = 0; p < pixels; p++) {
				final int o = 2 * (p + pixels * c);
				img[o] = maps[o] * rho[2 * p] - maps[o + 1] * rho[2 * p + 1];
				img[o + 1] = maps[o] * rho[2 * p + 1] + maps[o + 1] * rho[2 * p];
			}
		for (int a = 0; a < 3; a++) if (n[a] > 1) dft(img, n, coils, a);
		final float[] out = new float[img.length];
		for (int i = 0; i < img.length; i++) out[i] = (float) img[i];
		return out;
	}

	/**
	 * The chordal distance between the lines spanned by a = est(set, ·, p) and b = truth(·, p) (coil vectors):
	 * sin θ = √(1 − |⟨a, b⟩|² / (|a|²|b|²)), 0 for parallel vectors whatever their phase; NaN if either is 0.
	 */
	static double sine(final float[] est, final int set, final double[] truth, final int p, final int pixels,
		final int coils)
	{
		double ab_r = 0, ab_i = 0, aa = 0, bb = 0;
		for (int c = 0; c < coils; c++) {
			final int oa = 2 * (p + pixels * (c + coils * set)), ob = 2 * (p + pixels * c);
			final double ar = est[oa], ai = est[oa + 1], br = truth[ob], bi = truth[ob + 1];
			ab_r += ar * br + ai * bi;
			ab_i += ar * bi - ai * br;
			aa += ar * ar + ai * ai;
			bb += br * br + bi * bi;
		}
		if (aa == 0 || bb == 0) return Double.NaN;
		return Math.sqrt(Math.max(0, 1 - (ab_r * ab_r + ab_i * ab_i) / (aa * bb)));
	}

	/** Σ_c |s_c(p)|² of map set {@code set}. */
	static double energy(final float[] maps, final int set, final int p, final int pixels, final int coils) {
		double e = 0;
		for (int c = 0; c < coils; c++) {
			final int o = 2 * (p + pixels * (c + coils * set));
			e += (double) maps[o] * maps[o] + (double) maps[o + 1] * maps[o + 1];
		}
		return e;
	}

	/** Pixels of {@code support} at least {@code margin} pixels (Chebyshev distance) from its complement. */
	static boolean[] erode(final boolean[] support, final int[] n, final int margin) {
		return erode(support, n, margin, false);
	}

	/** Complement of the support dilated by {@code margin} (pixels beyond the image count as outside). */
	static boolean[] outside(final boolean[] support, final int[] n, final int margin) {
		final boolean[] inv = new boolean[support.length];
		for (int i = 0; i < inv.length; i++) inv[i] = !support[i];
		return erode(inv, n, margin, true);
	}

	// -- helpers --

	/** Erosion of a mask by a (2·margin + 1)-pixel cube; {@code beyond}: the mask's value outside the image. */
	private static boolean[] erode(final boolean[] support, final int[] n, final int margin, final boolean beyond) {
		final boolean[] out = new boolean[support.length];
		for (int z = 0; z < n[2]; z++)
			for (int y = 0; y < n[1]; y++)
				for (int x = 0; x < n[0]; x++) {
					boolean all = true;
					for (int dz = n[2] > 1 ? -margin : 0; all && dz <= (n[2] > 1 ? margin : 0); dz++)
						for (int dy = -margin; all && dy <= margin; dy++)
							for (int dx = -margin; all && dx <= margin; dx++) {
								final int xx = x + dx, yy = y + dy, zz = z + dz;
								final boolean inImage = xx >= 0 && yy >= 0 && zz >= 0 && xx < n[0] && yy < n[1] &&
									zz < n[2];
								all = inImage ? support[xx + n[0] * (yy + n[1] * zz)] : beyond;
							}
					out[x + n[0] * (y + n[1] * z)] = all;
				}
		return out;
	}


	/** In-place centred DFT along {@code axis}: y(k) = Σ_x f(x) e^{−2πi k x/N}, k and x = index − ⌊N/2⌋. */
	private static void dft(final double[] a, final int[] n, final int coils, final int axis) {
		final int len = n[axis];
		final int stride = axis == 0 ? 1 : axis == 1 ? n[0] : n[0] * n[1];
		final double[] cos = new double[len * len], sin = new double[len * len];
		for (int k = 0; k < len; k++)
			for (int x = 0; x < len; x++) {
				final long m = Math.floorMod((long) (k - len / 2) * (x - len / 2), (long) len);
				cos[k * len + x] = Math.cos(2 * Math.PI * m / len);
				sin[k * len + x] = -Math.sin(2 * Math.PI * m / len);
			}
		final int pixels = n[0] * n[1] * n[2];
		final double[] in = new double[2 * len];
		for (int c = 0; c < coils; c++)
			for (int start = 0; start < pixels; start++) {
				if (start / stride % len != 0) continue; // first element of each line along the axis
				for (int i = 0; i < len; i++) {
					in[2 * i] = a[2 * (pixels * c + start + i * stride)];
					in[2 * i + 1] = a[2 * (pixels * c + start + i * stride) + 1];
				}
				for (int k = 0; k < len; k++) {
					double re = 0, im = 0;
					for (int x = 0; x < len; x++) {
						final double cr = cos[k * len + x], ci = sin[k * len + x];
						re += in[2 * x] * cr - in[2 * x + 1] * ci;
						im += in[2 * x] * ci + in[2 * x + 1] * cr;
					}
					a[2 * (pixels * c + start + k * stride)] = re;
					a[2 * (pixels * c + start + k * stride) + 1] = im;
				}
			}
	}
}
