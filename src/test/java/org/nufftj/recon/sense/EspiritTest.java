package org.nufftj.recon.sense;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.TestSeeds;
import org.nufftj.phantom.CoilSensitivities;

/**
 * ESPIRiT on synthetic Cartesian data y_c = DFT(S_c·ρ) with known maps S_c ({@link SyntheticCoils}), fresh random
 * sizes, maps and objects (seed in every message). The measure is the chordal distance sin θ between the estimated
 * map vector s(x) and the true S(x) (0 when they are parallel, whatever the phase); 1 − |⟨s, S⟩|/(|s||S|) ≈ sin²θ/2.
 */
class EspiritTest {

	private static final double FLOAT_U = Math.ulp(1f) / 2; // 2^-24, relative rounding of a float

	/**
	 * The exact case. For maps band-limited to integer frequencies |q_a| ≤ w (cycles per FOV), every k-space window u_p
	 * of DFT(S·ρ) is a combination of the (k + 2w)^d fixed vectors b_m = [Ŝ_c(m + δ)]_{c,δ}, whatever ρ; with a
	 * generic ρ the calibration rows span exactly those, so the calibration matrix has rank (k + 2w)^d, the kept
	 * kernels span them (threshold 4× above the float rounding floor 2^-24‖A‖_F, below the signal), every window of the whole (circular)
	 * k-space lies in their span, and G(x)S(x) = S(x) at every pixel, inside the object or not: λ₁ = 1, s ∥ S.
	 * <p>
	 * What is left is the k-space's float rounding E (|E| ≤ 2^-24|A| per entry, so ‖E‖₂ ≤ 2^-24‖A‖_F with
	 * ‖A‖_F² = Σσ²). Wedin: the kernel subspace turns by at most β = ‖E‖₂/σ_r; the projector then moves by β and,
	 * since G = (1/P)EᴴΠE with EᴴE = P·I, so does G (‖ΔG‖ ≤ β). Weyl: |λ₁ − 1| ≤ β; Davis–Kahan: sin θ ≤ β/(1 − λ₂ − β)
	 * per pixel. Both bounds get 2× and 1e-6 (float output) on top. (Measured: sin θ ~ 1e-6, far inside.)
	 * </p>
	 */
	@Test
	void bandLimitedMapsAreRecoveredExactlyEverywhere2D() {
		final long seed = TestSeeds.fresh();
		final Random random = new Random(seed);
		final int[] n = { 40 + random.nextInt(30), 40 + random.nextInt(30), 1 };
		final int coils = 4 + random.nextInt(5), w = 1, k = 5 + random.nextInt(2);
		exact(seed, random, n, coils, w, k, 20 + random.nextInt(6));
	}

	/** The same in 3D on a small volume (kernel 4³, calibration 10³–11³). */
	@Test
	void bandLimitedMapsAreRecoveredExactlyEverywhere3D() {
		final long seed = TestSeeds.fresh();
		final Random random = new Random(seed);
		final int[] n = { 16 + random.nextInt(6), 16 + random.nextInt(6), 14 + random.nextInt(6) };
		exact(seed, random, n, 8, 1, 3, 10 + random.nextInt(2));
	}

	/**
	 * BART's defaults (t = 0.001, c = 0.8, k = 6, calibration 24) on the model coils of {@code CoilSensitivities}
	 * (half a cycle per FOV: not band-limited on the DFT grid) or random smooth band-limited maps, and a textured
	 * ellipse of semi-axes 0.25–0.3 N:
	 * <ul>
	 * <li>inside the object, at least 2 pixels from its edge: λ₁ ≥ c, so the map is kept and Σ_c|s_c|² = 1 (to float
	 * rounding, 1e-5), and sin θ ≤ 0.2 at every pixel, r.m.s. ≤ 0.05. Why these: in the exact case (above) the error
	 * is rounding only; here the default threshold discards the kernels with σ &lt; √t·σ₀ ≈ 3% σ₀, which carry the
	 * maps' spectral leakage (the model coils are not band-limited on the DFT grid) and the object's edges, so errors
	 * of a few √t are expected, largest near the edge since G(x) is a trigonometric polynomial of degree k − 1 that
	 * changes on a scale of N/k pixels. The bounds leave 2× (worst pixel) and 4× (r.m.s.) over the largest values
	 * measured in 18 draws while writing the test (0.09 and 0.012).</li>
	 * <li>outside, farther than N/k pixels from the object: λ₁ &lt; c, so the crop leaves Σ_c|s_c|² = 0 exactly (there
	 * are no data there; the same smoothness scale limits how far λ₁ ≈ 1 reaches out).</li>
	 * </ul>
	 */
	@Test
	void defaultsGiveTheTrueMapsInsideAndNothingOutside() {
		final long seed = TestSeeds.fresh();
		final Random random = new Random(seed);
		final int[] n = { 72 + 2 * random.nextInt(6), 72 + 2 * random.nextInt(6), 1 };
		final int coils = 6 + random.nextInt(3);
		final boolean model = random.nextBoolean();
		final double[] maps = model ? modelMaps(coils, n) : SyntheticCoils.bandLimitedMaps(random, n, coils, 2, true);
		final boolean[] support = new boolean[n[0] * n[1]];
		final double[] rho = SyntheticCoils.object(random, n, support, 0.25, 0.3, false);
		final float[] ksp = SyntheticCoils.kspace(maps, rho, n, coils);
		final EspiritOptions o = EspiritOptions.defaults().withMaps(1);
		final EspiritMaps e = Espirit.fromKSpace(ksp, new int[] { n[0], n[1] }, coils, o);
		final String what = "seed " + seed + ", " + n[0] + "x" + n[1] + ", " + coils + (model ? " model" :
			" random smooth") + " coils, " + e.kernels() + " kernels";
		final float[] m = e.maps(), ev = e.eigenvalues();
		final int pixels = n[0] * n[1], far = (int) Math.ceil((double) n[0] / EspiritOptions.DEFAULT_KERNEL);
		final boolean[] in = SyntheticCoils.erode(support, n, 2);
		final boolean[] out = SyntheticCoils.outside(support, n, far);
		int nIn = 0, nOut = 0;
		double sum2 = 0;
		for (int p = 0; p < pixels; p++) {
			final String at = what + ", pixel (" + p % n[0] + ", " + p / n[0] + ")";
			if (in[p]) {
				nIn++;
				assertTrue(ev[p] >= o.crop(), at + ": eigenvalue " + ev[p] + " inside the object is below the crop");
				assertEquals(1, SyntheticCoils.energy(m, 0, p, pixels, coils), 1e-5, at + ": sum |s_c|^2 inside");
				final double s = SyntheticCoils.sine(m, 0, maps, p, pixels, coils);
				assertTrue(s <= 0.2, at + ": sin theta " + s + " inside the object (bound 0.2)");
				sum2 += s * s;
			}
			if (out[p]) {
				nOut++;
				assertTrue(ev[p] < o.crop(), at + ": eigenvalue " + ev[p] + " far outside the object is not cropped");
				assertEquals(0, SyntheticCoils.energy(m, 0, p, pixels, coils), 0, at + ": sum |s_c|^2 outside");
			}
		}
		assertTrue(nIn > 100 && nOut > 100, what + ": too few pixels to judge (" + nIn + " inside, " + nOut +
			" outside)");
		final double rms = Math.sqrt(sum2 / nIn);
		System.out.println(what + ": rms sin theta inside " + rms);
		assertTrue(rms <= 0.05, what + ": rms sin theta " + rms + " inside the object (bound 0.05)");
	}

	/**
	 * Phase: with {@code FIRST_COIL} s_0(x) is real and ≥ 0 at every kept pixel; with {@code PRINCIPAL_COMPONENT}
	 * rᴴs(x) is, r the dominant eigenvector of Σ_k y(k)y(k)ᴴ (computed here by a direct sum); both differ only by a
	 * per-pixel phase (sin θ ≤ 1e-5, float rounding). Scaling the data by a complex constant changes nothing (1e-4:
	 * float rounding of the scaled input moves the kernels by ~1e-7/σ_r).
	 */
	@Test
	void phaseReferenceAndScaleInvariance() {
		final long seed = TestSeeds.fresh();
		final Random random = new Random(seed);
		final int[] n = { 48 + random.nextInt(10), 48 + random.nextInt(10), 1 };
		final int coils = 4 + random.nextInt(4), pixels = n[0] * n[1];
		final double[] maps = modelMaps(coils, n);
		final double[] rho = SyntheticCoils.object(random, n, null, 0.25, 0.4, false);
		final float[] ksp = SyntheticCoils.kspace(maps, rho, n, coils);
		final int[] size = { n[0], n[1] };
		final EspiritOptions o = EspiritOptions.defaults().withMaps(2).withCrop(0.5);
		final EspiritMaps pc = Espirit.fromKSpace(ksp, size, coils, o);
		final EspiritMaps first = Espirit.fromKSpace(ksp, size, coils, o.withPhase(
			EspiritOptions.PhaseReference.FIRST_COIL));
		final double[] r = principalComponent(CalibrationRegion.extract(ksp, size, coils, 24), coils);
		final float[] a = pc.maps(), b = first.maps();
		final double[] bd = new double[b.length];
		for (int i = 0; i < b.length; i++) bd[i] = b[i];
		int kept = 0;
		for (int set = 0; set < 2; set++)
			for (int p = 0; p < pixels; p++) {
				final String at = "seed " + seed + ", set " + set + ", pixel " + p;
				if (SyntheticCoils.energy(b, set, p, pixels, coils) == 0) continue;
				kept++;
				final int o0 = 2 * (p + pixels * coils * set);
				assertEquals(0, b[o0 + 1], 1e-6, at + ": Im s_0 with the first-coil reference");
				assertTrue(b[o0] >= 0, at + ": Re s_0 " + b[o0] + " with the first-coil reference");
				double tr = 0, ti = 0;
				for (int c = 0; c < coils; c++) {
					final int oc = 2 * (p + pixels * (c + coils * set));
					tr += r[2 * c] * a[oc] + r[2 * c + 1] * a[oc + 1];
					ti += r[2 * c] * a[oc + 1] - r[2 * c + 1] * a[oc];
				}
				assertEquals(0, ti, 1e-5, at + ": Im r^H s with the principal-component reference");
				assertTrue(tr >= 0, at + ": Re r^H s " + tr + " with the principal-component reference");
				final double[] one = new double[2 * pixels * coils];
				System.arraycopy(bd, 2 * pixels * coils * set, one, 0, one.length);
				assertTrue(SyntheticCoils.sine(a, set, one, p, pixels, coils) <= 1e-5, at + ": the two references " +
					"differ by more than a phase");
			}
		assertTrue(kept > pixels / 4, "seed " + seed + ": only " + kept + " kept pixels");

		final double phi = 2 * Math.PI * random.nextDouble(), scale = Math.pow(10, 6 * random.nextDouble() - 3);
		final float[] scaled = new float[ksp.length];
		for (int i = 0; i < ksp.length; i += 2) {
			scaled[i] = (float) (scale * (ksp[i] * Math.cos(phi) - ksp[i + 1] * Math.sin(phi)));
			scaled[i + 1] = (float) (scale * (ksp[i] * Math.sin(phi) + ksp[i + 1] * Math.cos(phi)));
		}
		final float[] c = Espirit.fromKSpace(scaled, size, coils, o).maps();
		double worst = 0;
		for (int i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - c[i]));
		assertTrue(worst <= 1e-4, "seed " + seed + ": data x " + scale + " e^(i " + phi + ") changed the maps by " +
			worst);
	}

	// -- helpers --

	private static void exact(final long seed, final Random random, final int[] n, final int coils, final int w,
		final int k, final int cal)
	{
		final int[] size = n[2] == 1 ? new int[] { n[0], n[1] } : n;
		final int rank = (int) Math.pow(k + 2 * w, n[2] == 1 ? 2 : 3);
		float[] ksp;
		double[] maps;
		double frob, t;
		int draws = 0;
		while (true) {
			maps = SyntheticCoils.bandLimitedMaps(random, n, coils, w, false);
			final double[] rho = SyntheticCoils.object(random, n, null, 0.25, 0.4, true);
			ksp = SyntheticCoils.kspace(maps, rho, n, coils);
			// Threshold: 4× the float rounding floor, σ_noise ≤ ‖E‖₂ ≤ 2^-24‖A‖_F (Weyl), so no rounding direction is
			// kept.
			final CalibrationMatrix a = new CalibrationMatrix(CalibrationRegion.extract(ksp, size, coils, cal), k);
			final double[] cov = a.covariance();
			frob = 0;
			for (int i = 0; i < a.columns(); i++) frob += cov[2 * (i * a.columns() + i)];
			final HermitianEigen top = new HermitianEigen(a.columns());
			top.decompose(cov);
			t = 16 * FLOAT_U * FLOAT_U * frob / top.value(0);
			// Exact recovery presumes the true rank is numerically determined: its smallest kernel (in double) well
			// above the float floor, the next one well below. A draw whose rank-th eigenvalue of AᴴA lies within 10× of
			// the cut (seen: seed 32046453143341, 124 of 125 kept) is not such a case and is drawn again, from the same
			// seeded stream. (100× was too strict for 3D volumes of 20³ and a 10³ calibration: seed 67445997905226
			// drew 75, 23, 16, 18, 13× in a row, each with the next eigenvalue at 1e-3 of the cut; the bounds below
			// follow the kept σ through β, so a margin of 10× keeps them valid.)
			if (top.value(rank - 1) >= 10 * t * top.value(0) && top.value(rank) <= 0.1 * t * top.value(0)) break;
			assertTrue(++draws < 10, "seed " + seed + ": 10 draws in a row with a numerically undetermined rank");
		}
		final EspiritMaps e = Espirit.fromKSpace(ksp, size, coils, EspiritOptions.defaults().withKernel(k)
			.withCalibration(cal).withThreshold(t).withCrop(0).withMaps(2));
		final int d = n[2] == 1 ? 2 : 3;
		final String what = "seed " + seed + ", " + java.util.Arrays.toString(size) + ", " + coils + " coils, w " + w +
			", kernel " + k + ", calibration " + cal + ", threshold " + t;
		assertEquals((int) Math.pow(k + 2 * w, d), e.kernels(), what + ": kernels kept (the rank (k + 2w)^d)");
		final double[] sv = e.singularValues();
		final double beta = FLOAT_U * Math.sqrt(frob) / sv[e.kernels() - 1];
		final float[] m = e.maps(), ev = e.eigenvalues();
		final int pixels = m.length / (4 * coils);
		double worst = 0;
		for (int p = 0; p < pixels; p++) {
			final String at = what + ", pixel " + p + ", beta " + beta;
			assertTrue(Math.abs(ev[p] - 1) <= 2 * beta + 1e-6, at + ": lambda_1 " + ev[p]);
			final double gap = 1 - ev[p + pixels] - beta;
			final double s = SyntheticCoils.sine(m, 0, maps, p, pixels, coils);
			if (gap > 0) assertTrue(s <= 2 * beta / gap + 1e-6, at + ": sin theta " + s + ", lambda_2 " +
				ev[p + pixels]);
			worst = Math.max(worst, s);
		}
		System.out.println(what + ": worst sin theta " + worst + " (bound from beta " + beta + ")");
	}

	private static double[] modelMaps(final int coils, final int[] n) {
		final float[] f = CoilSensitivities.synthetic(coils, new int[] { n[0], n[1] }).maps().data();
		final double[] maps = new double[f.length];
		for (int i = 0; i < f.length; i++) maps[i] = f[i];
		return maps;
	}

	/**
	 * Dominant eigenvector of R = Σ_k y(k)y(k)ᴴ over the region by power iteration in double, its largest entry made
	 * real and positive (the documented convention).
	 */
	private static double[] principalComponent(final CalibrationRegion region, final int coils) {
		final float[] d = region.data();
		final int q = region.positions();
		final double[][] rr = new double[coils][coils], ri = new double[coils][coils];
		for (int c = 0; c < coils; c++)
			for (int e = 0; e < coils; e++)
				for (int k = 0; k < q; k++) {
					final double ar = d[2 * (k + q * c)], ai = d[2 * (k + q * c) + 1];
					final double br = d[2 * (k + q * e)], bi = d[2 * (k + q * e) + 1];
					rr[c][e] += ar * br + ai * bi;
					ri[c][e] += ai * br - ar * bi;
				}
		double[] v = new double[2 * coils];
		v[0] = 1;
		for (int it = 0; it < 2000; it++) {
			final double[] u = new double[2 * coils];
			for (int c = 0; c < coils; c++)
				for (int e = 0; e < coils; e++) {
					u[2 * c] += rr[c][e] * v[2 * e] - ri[c][e] * v[2 * e + 1];
					u[2 * c + 1] += rr[c][e] * v[2 * e + 1] + ri[c][e] * v[2 * e];
				}
			double s = 0;
			for (final double x : u) s += x * x;
			for (int i = 0; i < u.length; i++) u[i] /= Math.sqrt(s);
			v = u;
		}
		int big = 0;
		for (int c = 1; c < coils; c++) if (Math.hypot(v[2 * c], v[2 * c + 1]) > Math.hypot(v[2 * big], v[2 * big + 1])) big = c;
		final double a = Math.hypot(v[2 * big], v[2 * big + 1]), pr = v[2 * big] / a, pi = -v[2 * big + 1] / a;
		final double[] r = new double[2 * coils];
		for (int c = 0; c < coils; c++) {
			r[2 * c] = v[2 * c] * pr - v[2 * c + 1] * pi;
			r[2 * c + 1] = v[2 * c] * pi + v[2 * c + 1] * pr;
		}
		return r;
	}
}
