package org.nufftj.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.NumberLists;
import org.nufftj.io.UffChannelData;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.recon.ultrasound.EchoSimulator;
import org.nufftj.recon.ultrasound.PlaneWave;
import org.nufftj.recon.ultrasound.PlaneWaveImaging;

/**
 * Plane-wave ultrasound for both front ends (CLI {@code us-simulate} / {@code us-recon} and the Fiji commands): the
 * parsing of angle and point lists, the phantoms of the simulator, and the reconstruction with its output geometry
 * (envelope or log-compressed B-mode, pixel size and x/z origin in mm), so that the two front ends cannot drift apart.
 */
public final class Ultrasound {

	/** The phantoms of the simulator. */
	public static final String[] PHANTOMS = { "points", "speckle", "cyst" };

	/** A B-mode image [rows][width] (row-major) with its calibration: pixel size and the position of pixel (0, 0), mm. */
	public static final class Image {

		public final float[] pixels;
		public final int width, height;
		public final double dxMm, dzMm, x0Mm, z0Mm;

		Image(final float[] pixels, final int width, final int height, final double dxMm, final double dzMm,
			final double x0Mm, final double z0Mm)
		{
			this.pixels = pixels;
			this.width = width;
			this.height = height;
			this.dxMm = dxMm;
			this.dzMm = dzMm;
			this.x0Mm = x0Mm;
			this.z0Mm = z0Mm;
		}
	}

	/** Channel data with their acquisition: one frame per transmit angle (radians). */
	public static final class Channels {

		public final PlaneWave probe;
		public final double[] angles;
		public final float[][] data;

		public Channels(final PlaneWave probe, final double[] angles, final float[][] data) {
			this.probe = probe;
			this.angles = PlaneWave.checkAngles(angles);
			InvalidInputException.require(data.length == angles.length, "channel data: expected one frame per angle (" +
				angles.length + "), found " + data.length);
			this.data = data;
		}
	}

	private Ultrasound() {}

	/** The channel data and acquisition of a UFF file ({@link UffChannelData}); every parameter comes from the file. */
	public static Channels readUff(final Path file) {
		final UffChannelData u = UffChannelData.read(file);
		final PlaneWave p;
		try {
			p = new PlaneWave(u.elements, u.samples, u.pitch, u.fs, u.c, u.f0, u.t0);
		}
		catch (final InvalidInputException e) {
			throw new InvalidInputException(file + ": " + e.getMessage(), e);
		}
		try {
			return new Channels(p, u.angles, u.channels);
		}
		catch (final InvalidInputException e) {
			throw new InvalidInputException(file + ": /channel_data/sequence: " + e.getMessage(), e);
		}
	}

	// -- public API --

	/** "−10,−5,0,5,10" (degrees) → radians, checked ({@link PlaneWave#anglesFromDegrees}); the field named {@code what}. */
	public static double[] parseAngles(final String degrees, final String what) {
		InvalidInputException.require(degrees != null && !degrees.isBlank(), what +
			": expected at least one angle in degrees (e.g. -10,0,10), found none");
		return PlaneWave.anglesFromDegrees(NumberLists.parse(degrees, what, "angle"));
	}

	/** "x,z;x,z…" (mm) → {x, z, 1} triples in m; the field named {@code what}. */
	public static double[][] parsePoints(final String points, final String what) {
		final List<double[]> list = new ArrayList<>();
		for (final String s : points.split(";")) {
			final String[] xz = s.trim().split(",");
			InvalidInputException.require(xz.length == 2, what + ": expected x,z pairs in mm separated by ';', found '" +
				s + "'");
			try {
				list.add(new double[] { Double.parseDouble(xz[0].trim()) * 1e-3, Double.parseDouble(xz[1].trim()) * 1e-3,
					1 });
			}
			catch (final NumberFormatException e) {
				throw new InvalidInputException(what + ": not a number in '" + s + "'");
			}
		}
		return list.toArray(new double[0][]);
	}

	/** The number of time samples that records echoes down to {@code depthMm} for the acquisition {@code probe}. */
	public static int samplesForDepth(final PlaneWave probe, final double depthMm) {
		InvalidInputException.require(depthMm > 0 && Double.isFinite(depthMm), "depth: expected > 0 mm, found " +
			depthMm);
		final int samples = (int) Math.ceil((2 * depthMm * 1e-3 / probe.c() - probe.t0()) * probe.fs());
		InvalidInputException.require(samples >= 2, "depth " + depthMm + " mm is reached before the start time t0");
		return samples;
	}

	/**
	 * Scatterers of {@code phantom}: "points" (the list {@code points}, mm), "speckle" (seeded speckle filling the
	 * array's width from 5 mm to the deepest depth) or "cyst" (that speckle with an anechoic cyst of radius 3 mm at
	 * the centre of the region).
	 */
	public static double[][] phantom(final String phantom, final PlaneWave p, final String points, final long seed) {
		final String k = phantom == null ? "" : phantom.trim().toLowerCase(java.util.Locale.ROOT);
		if (k.equals("points")) return parsePoints(points, "points");
		InvalidInputException.require(k.equals("speckle") || k.equals("cyst"),
			"phantom: expected points, speckle or cyst, found '" + phantom + "'");
		final double half = -p.x(0), zmax = (p.t0() + (p.samples() - 1) / p.fs()) * p.c() / 2, z0 = 5e-3;
		InvalidInputException.require(zmax > z0 + 2e-3, "phantom " + k + ": the recorded depth " + zmax * 1e3 +
			" mm must reach beyond 7 mm");
		final double area = 2 * half * (zmax - z0);
		// About 25 scatterers per mm² (a few per resolution cell at 5 MHz).
		final int count = (int) Math.max(1, Math.round(area * 25e6));
		final double[][] cysts = k.equals("cyst") ? new double[][] { { 0, (z0 + zmax) / 2, 3e-3 } } : null;
		return EchoSimulator.speckle(seed, -half, half, z0, zmax, count, cysts);
	}

	/** Channel data of {@code scatterers}, one frame per angle (radians). */
	public static float[][] simulate(final PlaneWave p, final double[] angles, final double[][] scatterers,
		final double bandwidth)
	{
		PlaneWave.checkAngles(angles);
		final float[][] out = new float[angles.length][];
		for (int a = 0; a < angles.length; a++) out[a] = EchoSimulator.echoes(p, angles[a], scatterers, bandwidth);
		return out;
	}

	/**
	 * The coherent compound of {@code channels} (one frame per angle) by {@code method} on {@code device}: the envelope
	 * (linear), or log-compressed to {@code logDb} dB below its maximum when {@code logDb} is not null; calibrated in
	 * mm with x of column 0 = x_0 (first element) and z of row 0 = 0.
	 */
	public static Image reconstruct(final Session session, final DeviceChoice device, final PlaneWave p,
		final double[] angles, final float[][] channels, final PlaneWaveImaging.Method method, final int up,
		final double fNumber, final Double logDb)
	{
		InvalidInputException.require(logDb == null || logDb > 0 && Double.isFinite(logDb),
			"log: expected > 0 dB, found " + logDb);
		final Backend b = session.backend(device, 0);
		final float[] img = PlaneWaveImaging.image(b, p, angles, channels, method, up, fNumber);
		if (logDb != null) logCompress(img, logDb);
		return new Image(img, p.elements() * up, p.samples(), p.pitch() / up * 1e3, p.dz() * 1e3, p.x(0) * 1e3, 0);
	}

	/** In place: 20·log10(v / max), floored at −{@code db}. */
	public static void logCompress(final float[] img, final double db) {
		float max = 0;
		for (final float v : img) max = Math.max(max, v);
		for (int i = 0; i < img.length; i++)
			img[i] = (float) Math.max(-db, 20 * Math.log10(Math.max(img[i], 1e-30f) / Math.max(max, 1e-30f)));
	}
}
