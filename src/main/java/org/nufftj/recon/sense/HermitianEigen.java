package org.nufftj.recon.sense;

import java.util.Arrays;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.nufftj.InvalidInputException;

/**
 * Eigen-decomposition of a complex Hermitian n×n matrix H = X + iY (row-major, interleaved (re, im)), in double,
 * through EJML's real symmetric QR algorithm on the real embedding
 * <pre>
 *   M = [ X  −Y ]     H(a + ib) = λ(a + ib)   ⇔   M(a; b) = λ(a; b)   and   M(−b; a) = λ(−b; a)
 *       [ Y   X ]
 * </pre>
 * (M is symmetric because X is symmetric and Y antisymmetric). Every eigenvalue of H appears twice in M, and M's
 * eigenspace of an eigenvalue of complex multiplicity r is 2r-dimensional and closed under (a; b) ↦ (−b; a), the
 * real form of multiplication by i. The complex eigenvectors are therefore recovered from M's (sorted) real ones by
 * complex Gram–Schmidt inside each cluster of equal eigenvalues (tolerance {@value #CLUSTER} × the largest |λ|),
 * taking at each step a candidate with a large residual (at least half the largest; then the one of largest eigenvalue):
 * r orthonormal complex vectors per cluster, whatever basis of the 2r-dimensional real eigenspace the QR algorithm
 * returned. (Over a cluster of 2r real vectors of which s complex directions are taken, the squared residuals sum to
 * 2(r − s), so the largest is ≥ 1/r while a direction is missing, and ≈ 0, i.e. in the span, once all r are taken.) Eigenvalues are returned in decreasing order.
 * <p>
 * Not thread-safe (it keeps its workspace); use one instance per thread.
 * </p>
 */
public final class HermitianEigen {

	/** Relative tolerance under which two eigenvalues of M count as one cluster. */
	static final double CLUSTER = 1e-12;
	/** Candidates whose squared residual after Gram–Schmidt is below this lie in the span already taken. */
	private static final double IN_SPAN = 1e-3;

	private final int n;
	private final DMatrixRMaj m;
	private final EigenDecomposition_F64<DMatrixRMaj> eig;
	private final double[] values;
	private final double[][] vectors;
	private final Integer[] order;
	private final double[] lambda;
	private double scale;
	private int found;

	public HermitianEigen(final int n) {
		InvalidInputException.require(n >= 1, "Hermitian eigen-decomposition: expected a size >= 1, found " + n);
		this.n = n;
		m = new DMatrixRMaj(2 * n, 2 * n);
		eig = DecompositionFactory_DDRM.eig(2 * n, true, true);
		values = new double[n];
		vectors = new double[n][];
		order = new Integer[2 * n];
		lambda = new double[2 * n];
	}

	// -- public API --

	/** The number of eigenvectors the last {@link #computeVectors} kept. */
	public int vectors() { return found; }

	/** The matrix size n. */
	public int size() { return n; }

	/** Eigenvalue i in decreasing order (all n are kept). */
	public double value(final int i) { return values[i]; }

	/** Eigenvector i (unit norm, interleaved, 2n values; not a copy), for i below {@link #vectors()}. */
	public double[] vector(final int i) {
		if (i >= found) throw new IndexOutOfBoundsException("eigenvector " + i + " of " + found + " computed");
		return vectors[i];
	}

	/**
	 * Decomposes {@code h} (n×n, row-major, interleaved; the lower triangle is read and the upper one taken as its
	 * conjugate, so the matrix is Hermitian by construction): all n eigenvalues ({@link #value}), and the eigenvectors
	 * of the {@code vectorsWanted} largest ({@link #vector}).
	 */
	public void decompose(final double[] h, final int vectorsWanted) {
		decompose(h);
		computeVectors(vectorsWanted);
	}

	/** The eigenvalues of {@code h} only (see {@link #decompose(double[], int)}); then {@link #computeVectors}. */
	public void decompose(final double[] h) {
		InvalidInputException.require(h.length == 2 * n * n, "Hermitian eigen-decomposition: expected " + 2 * n * n +
			" values, found " + h.length);
		final int s = 2 * n;
		final double[] md = m.data;
		for (int i = 0; i < n; i++)
			for (int j = 0; j <= i; j++) {
				final double x = h[2 * (i * n + j)], y = i == j ? 0 : h[2 * (i * n + j) + 1];
				// H[i][j] = x + iy, H[j][i] = x − iy: X[i][j] = X[j][i] = x, Y[i][j] = y, Y[j][i] = −y.
				md[i * s + j] = x;
				md[j * s + i] = x;
				md[(i + n) * s + (j + n)] = x;
				md[(j + n) * s + (i + n)] = x;
				md[i * s + (j + n)] = -y; // block (0, 1) is −Y
				md[j * s + (i + n)] = y;
				md[(i + n) * s + j] = y; // block (1, 0) is Y
				md[(j + n) * s + i] = -y;
			}
		found = 0;
		if (!eig.decompose(m)) throw new IllegalStateException("EJML symmetric eigen-decomposition failed (" + s +
			"x" + s + ")");
		scale = 0;
		for (int i = 0; i < s; i++) {
			order[i] = i;
			lambda[i] = eig.getEigenvalue(i).real;
			scale = Math.max(scale, Math.abs(lambda[i]));
		}
		Arrays.sort(order, (a, b) -> Double.compare(lambda[b], lambda[a]));
		// Each eigenvalue of H is a pair of equal eigenvalues of M.
		for (int i = 0; i < n; i++) values[i] = 0.5 * (lambda[order[2 * i]] + lambda[order[2 * i + 1]]);
	}

	/**
	 * The eigenvectors of the {@code wanted} largest eigenvalues (capped at n) of the last {@link #decompose}: complex
	 * Gram–Schmidt with pivoting inside clusters of equal eigenvalues (see the class comment).
	 */
	public void computeVectors(final int wanted) {
		final int want = Math.max(0, Math.min(n, wanted));
		found = 0;
		if (want == 0) return;
		final int s = 2 * n;
		final double tol = CLUSTER * scale + Double.MIN_NORMAL;
		final boolean[] used = new boolean[s];
		final double[][] candidate = new double[s][];
		final double[] res = new double[2 * n], norms = new double[s];
		int head = 0;
		while (found < want && head < s) {
			if (used[head]) {
				head++;
				continue;
			}
			// The cluster of the first unused eigenvalue; in it, the first candidate (largest eigenvalue) whose residual
			// is at least half the largest one. Pivoting keeps the residual far from round-off in a degenerate
			// cluster (see the class comment); taking the first such keeps the order of eigenvalues that are merely
			// close.
			int end = head;
			double most = 0;
			for (int i = head; i < s && lambda[order[i]] >= lambda[order[head]] - tol; i++, end = i) {
				if (used[i]) continue;
				if (candidate[i] == null) candidate[i] = complexVector(order[i]);
				norms[i] = residual(candidate[i], res);
				if (norms[i] < IN_SPAN) used[i] = true;
				else most = Math.max(most, norms[i]);
			}
			int best = -1;
			for (int i = head; i < end && best < 0; i++) if (!used[i] && norms[i] >= 0.5 * most) best = i;
			if (best < 0) continue;
			residual(candidate[best], res);
			normalize(res);
			if (vectors[found] == null) vectors[found] = new double[2 * n];
			residual(res, vectors[found]); // second pass: orthogonal to round-off
			normalize(vectors[found]);
			used[best] = true;
			found++;
		}
		if (found < want) throw new IllegalStateException("Hermitian eigen-decomposition: recovered " + found + " of " +
			want + " eigenvectors (" + n + "x" + n + ")");
	}


	/** Real eigenvector of M (index into EJML's list) as the complex vector a + ib. */
	private double[] complexVector(final int index) {
		final DMatrixRMaj v = eig.getEigenVector(index);
		final double[] z = new double[2 * n];
		for (int i = 0; i < n; i++) {
			z[2 * i] = v.data[i];
			z[2 * i + 1] = v.data[i + n];
		}
		normalize(z);
		return z;
	}

	/** out = z − Σ_j v_j (v_jᴴ z) over the vectors found so far; returns |out|². */
	private double residual(final double[] z, final double[] out) {
		System.arraycopy(z, 0, out, 0, 2 * n);
		for (int j = 0; j < found; j++) {
			final double[] v = vectors[j];
			double re = 0, im = 0;
			for (int i = 0; i < 2 * n; i += 2) {
				re += v[i] * out[i] + v[i + 1] * out[i + 1];
				im += v[i] * out[i + 1] - v[i + 1] * out[i];
			}
			for (int i = 0; i < 2 * n; i += 2) {
				out[i] -= v[i] * re - v[i + 1] * im;
				out[i + 1] -= v[i] * im + v[i + 1] * re;
			}
		}
		double s = 0;
		for (final double x : out) s += x * x;
		return s;
	}

	private static void normalize(final double[] z) {
		double s = 0;
		for (final double x : z) s += x * x;
		final double f = 1 / Math.sqrt(s);
		for (int i = 0; i < z.length; i++) z[i] *= f;
	}
}
