package org.nufftj.recon;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;

import org.nufftj.trajectory.Trajectory;

/**
 * Voronoi cell areas of 2D sample positions, each cell built by clipping the sampled region with the perpendicular
 * bisectors of nearby samples (found through a uniform bucket grid), searched ring by ring until no unseen sample can
 * cut the cell (security radius: twice the farthest cell vertex). Robust to the co-circular and coincident points
 * radial trajectories are full of (no Delaunay predicates needed).
 */
final class Voronoi {

	/** Vertices of the polygon that approximates the disc boundary of the sampled region. */
	private static final int DISC_VERTICES = 256;

	private Voronoi() {}

	/** Areas for every sample of {@code t}; coincident samples share one cell. {@code delta}: readout spacing. */
	static float[] areas(final Trajectory t, final double delta) {
		final int m = t.count();
		// Unique positions (coincident within 1e-9 cycles/pixel share a cell).
		final Map<Long, Integer> index = new HashMap<>();
		final int[] owner = new int[m];
		final double[] ux = new double[m], uy = new double[m];
		int n = 0;
		for (int i = 0; i < m; i++) {
			final long key = Math.round(t.k(i, 0) * 1e9) * 2_000_000_011L + Math.round(t.k(i, 1) * 1e9);
			Integer u = index.get(key);
			if (u == null) {
				u = n++;
				index.put(key, u);
				ux[u] = t.k(i, 0);
				uy[u] = t.k(i, 1);
			}
			owner[i] = u;
		}
		final int unique = n;
		final int[] multiplicity = new int[unique];
		for (int i = 0; i < m; i++) multiplicity[owner[i]]++;

		double rmax = 0;
		for (int u = 0; u < unique; u++) rmax = Math.max(rmax, Math.hypot(ux[u], uy[u]));
		final double radius = rmax + delta / 2;
		final double[][] region = region(radius);

		// Bucket grid over the bounding square of the points.
		final double lo = -Math.max(rmax, 1e-12), span = 2 * Math.max(rmax, 1e-12);
		final int b = Math.max(1, (int) Math.ceil(Math.sqrt(unique / 2.0)));
		final double h = span / b;
		final int[] count = new int[b * b + 1];
		final int[] bucketOf = new int[unique];
		for (int u = 0; u < unique; u++) {
			bucketOf[u] = bucket(ux[u], lo, h, b) + b * bucket(uy[u], lo, h, b);
			count[bucketOf[u] + 1]++;
		}
		for (int i = 0; i < b * b; i++) count[i + 1] += count[i];
		final int[] members = new int[unique];
		final int[] fill = Arrays.copyOf(count, b * b);
		for (int u = 0; u < unique; u++) members[fill[bucketOf[u]]++] = u;

		final double[] area = new double[unique];
		IntStream.range(0, unique).parallel().forEach(u -> {
			final Polygon cell = new Polygon(region[0], region[1]);
			final double px = ux[u], py = uy[u];
			final int bx = bucketOf[u] % b, by = bucketOf[u] / b;
			for (int r = 0;; r++) {
				boolean any = false;
				for (int jy = by - r; jy <= by + r; jy++) {
					if (jy < 0 || jy >= b) continue;
					for (int jx = bx - r; jx <= bx + r; jx++) {
						if (jx < 0 || jx >= b) continue;
						if (Math.max(Math.abs(jx - bx), Math.abs(jy - by)) != r) continue; // ring only
						any = true;
						final int cell0 = jx + b * jy;
						for (int q = count[cell0]; q < count[cell0 + 1]; q++) {
							final int v = members[q];
							if (v == u) continue;
							final double nx = ux[v] - px, ny = uy[v] - py;
							// keep {x : (x − (p+q)/2)·(q − p) ≤ 0}
							cell.clip(nx, ny, 0.5 * (nx * (px + ux[v]) + ny * (py + uy[v])));
						}
					}
				}
				// Unseen samples lie at least r·h away; they cannot cut the cell once 2·(farthest vertex) ≤ r·h.
				if (cell.size == 0 || 2 * cell.farthest(px, py) <= r * h || (!any && r > b)) break;
			}
			area[u] = cell.area();
		});
		final float[] w = new float[m];
		for (int i = 0; i < m; i++) w[i] = (float) (area[owner[i]] / multiplicity[owner[i]]);
		return w;
	}

	// -- helpers --

	private static int bucket(final double v, final double lo, final double h, final int b) {
		return Math.min(b - 1, Math.max(0, (int) ((v - lo) / h)));
	}

	/** The disc of the given radius (a polygon circumscribing it) intersected with [−½, ½]². */
	private static double[][] region(final double radius) {
		final double[] x = new double[DISC_VERTICES], y = new double[DISC_VERTICES];
		// Circumscribed polygon: vertices at radius / cos(π/n) so the disc lies inside.
		final double rv = radius / Math.cos(Math.PI / DISC_VERTICES);
		for (int i = 0; i < DISC_VERTICES; i++) {
			final double a = 2 * Math.PI * (i + 0.5) / DISC_VERTICES;
			x[i] = rv * Math.cos(a);
			y[i] = rv * Math.sin(a);
		}
		final Polygon p = new Polygon(x, y);
		p.clip(1, 0, 0.5);
		p.clip(-1, 0, 0.5);
		p.clip(0, 1, 0.5);
		p.clip(0, -1, 0.5);
		return new double[][] { Arrays.copyOf(p.x, p.size), Arrays.copyOf(p.y, p.size) };
	}

	/** A convex polygon, counter-clockwise, clipped in place by half-planes. */
	private static final class Polygon {

		double[] x, y, tx, ty;
		int size;

		Polygon(final double[] x0, final double[] y0) {
			size = x0.length;
			x = Arrays.copyOf(x0, Math.max(16, 2 * size));
			y = Arrays.copyOf(y0, x.length);
			tx = new double[x.length];
			ty = new double[x.length];
		}

		/** Keeps {p : a·px + b·py ≤ c} (Sutherland–Hodgman against one line). */
		void clip(final double a, final double b, final double c) {
			if (size == 0) return;
			boolean allIn = true;
			for (int i = 0; i < size && allIn; i++) allIn = a * x[i] + b * y[i] <= c;
			if (allIn) return;
			if (tx.length < 2 * size + 2) {
				tx = new double[4 * size + 4];
				ty = new double[tx.length];
			}
			int k = 0;
			for (int i = 0; i < size; i++) {
				final int j = (i + 1) % size;
				final double si = a * x[i] + b * y[i] - c, sj = a * x[j] + b * y[j] - c;
				if (si <= 0) {
					tx[k] = x[i];
					ty[k++] = y[i];
				}
				if ((si < 0 && sj > 0) || (si > 0 && sj < 0)) {
					final double f = si / (si - sj);
					tx[k] = x[i] + f * (x[j] - x[i]);
					ty[k++] = y[i] + f * (y[j] - y[i]);
				}
			}
			double[] s = x;
			x = tx;
			tx = s;
			s = y;
			y = ty;
			ty = s;
			size = k;
			if (x.length < tx.length) {
				x = Arrays.copyOf(x, tx.length);
				y = Arrays.copyOf(y, tx.length);
			}
		}

		double farthest(final double px, final double py) {
			double r = 0;
			for (int i = 0; i < size; i++) r = Math.max(r, Math.hypot(x[i] - px, y[i] - py));
			return r;
		}

		double area() {
			double s = 0;
			for (int i = 0; i < size; i++) {
				final int j = (i + 1) % size;
				s += x[i] * y[j] - x[j] * y[i];
			}
			return Math.abs(s) / 2;
		}
	}
}
