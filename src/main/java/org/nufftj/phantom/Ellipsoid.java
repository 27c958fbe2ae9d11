package org.nufftj.phantom;

import java.util.Arrays;

import org.nufftj.InvalidInputException;

/**
 * One component of an {@link AnalyticPhantom}: a uniform complex intensity on a solid ellipse (2D) or ellipsoid (3D)
 * in field-of-view coordinates u ∈ [−1, 1]^d. A point u is inside when Σ_i (w_i/a_i)² ≤ 1 with
 * {@code w = R·(u − c)}: c the centre, a the semi-axes, R an orthogonal matrix whose rows are the principal axes.
 * <p>
 * Its continuous Fourier transform {@code G(p) = ∫ f(u)·e^{−2πi p·u} du} (p in cycles per unit of u) is exact:
 * with ρ = |diag(a)·R·p| and q = 2πρ,
 * 2D: {@code G(p) = I·π·a₁a₂·jinc(q)·e^{−2πi p·c}}, jinc(q) = 2J₁(q)/q;
 * 3D: {@code G(p) = I·4π·a₁a₂a₃·(sin q − q cos q)/q³·e^{−2πi p·c}}
 * (the transforms of the unit disc and ball, stretched, rotated and shifted).
 * </p>
 */
public final class Ellipsoid {

	private final int d;
	private final double re, im;
	private final double[] centre;
	private final double[] axes;
	private final double[] rotation; // row-major d×d

	/**
	 * @param rotation row-major d×d orthogonal matrix (rows: principal axes in u coordinates)
	 */
	public Ellipsoid(final double re, final double im, final double[] centre, final double[] axes,
		final double[] rotation)
	{
		d = centre.length;
		InvalidInputException.require(d == 2 || d == 3, "ellipsoid: 2 or 3 dimensions, found " + d);
		InvalidInputException.require(axes.length == d && rotation.length == d * d, "ellipsoid: expected " + d +
			" semi-axes and a " + d + "x" + d + " rotation, found " + axes.length + " and " + rotation.length + " values");
		for (final double a : axes)
			InvalidInputException.require(a > 0 && Double.isFinite(a), "ellipsoid: semi-axes must be positive, found " +
				Arrays.toString(axes));
		for (int i = 0; i < d; i++)
			for (int j = 0; j < d; j++) {
				double dot = 0;
				for (int k = 0; k < d; k++) dot += rotation[i * d + k] * rotation[j * d + k];
				InvalidInputException.require(Math.abs(dot - (i == j ? 1 : 0)) < 1e-9,
					"ellipsoid: rotation is not orthogonal: " + Arrays.toString(rotation));
			}
		this.re = re;
		this.im = im;
		this.centre = centre.clone();
		this.axes = axes.clone();
		this.rotation = rotation.clone();
	}

	/** A 2D ellipse rotated by {@code angle} (radians, counter-clockwise from the u₁ axis to its first axis). */
	public static Ellipsoid ellipse(final double intensity, final double cx, final double cy, final double a,
		final double b, final double angle)
	{
		final double c = Math.cos(angle), s = Math.sin(angle);
		return new Ellipsoid(intensity, 0, new double[] { cx, cy }, new double[] { a, b },
			new double[] { c, s, -s, c });
	}

	// -- public API --

	public int dimensions() { return d; }

	public double intensityRe() { return re; }

	public double intensityIm() { return im; }

	public double[] centre() { return centre.clone(); }

	public double[] axes() { return axes.clone(); }

	/** Whether u is inside (boundary included). */
	public boolean contains(final double[] u) {
		double r2 = 0;
		for (int i = 0; i < d; i++) {
			double w = 0;
			for (int j = 0; j < d; j++) w += rotation[i * d + j] * (u[j] - centre[j]);
			w /= axes[i];
			r2 += w * w;
		}
		return r2 <= 1;
	}

	/** Adds G(p) (see the class comment) to out[off], out[off+1]. */
	public void addFourier(final double[] p, final double[] out, final int off) {
		double rho2 = 0, phase = 0, vol = 1;
		for (int i = 0; i < d; i++) {
			double w = 0;
			for (int j = 0; j < d; j++) w += rotation[i * d + j] * p[j];
			w *= axes[i];
			rho2 += w * w;
			phase += p[i] * centre[i];
			vol *= axes[i];
		}
		final double q = 2 * Math.PI * Math.sqrt(rho2);
		final double amp = d == 2 ? Math.PI * vol * Bessel.jinc(q) : 4 * Math.PI * vol * ballProfile(q);
		final double arg = -2 * Math.PI * phase;
		final double c = Math.cos(arg), s = Math.sin(arg);
		out[off] += amp * (re * c - im * s);
		out[off + 1] += amp * (re * s + im * c);
	}

	/** (sin q − q cos q)/q³, → 1/3 at q = 0 (series below q = 1 to avoid cancellation). */
	static double ballProfile(final double q) {
		if (q < 1) {
			// Σ_{m≥1} (−1)^{m+1} 2m q^{2m−2}/(2m+1)!
			final double q2 = q * q;
			double sum = 0, pow = 1, fact = 6; // (2m+1)! for m = 1
			for (int m = 1; m < 14; m++) {
				sum += ((m & 1) == 1 ? 1 : -1) * 2 * m * pow / fact;
				pow *= q2;
				fact *= (2 * m + 2) * (2 * m + 3);
			}
			return sum;
		}
		return (Math.sin(q) - q * Math.cos(q)) / (q * q * q);
	}
}
