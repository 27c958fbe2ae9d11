package org.nufftj.app.tune;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;

import org.nufftj.nufft.NufftOptions;
import org.nufftj.trajectory.RadialLines;
import org.nufftj.trajectory.Trajectory;

/**
 * What a tuning result is valid for, the key of a wisdom entry: the device's identity (Backend#identity: GPU name,
 * driver, cuFFT; or CPU model, cores, threads, Java), the image size, the trajectory's class and a hash of its points,
 * the batch (transforms per call: coils × frames), the precision, ε and the direction timed. Two keys match only when
 * every field is equal (ε compared by its decimal text).
 * <p>
 * A key made from a trajectory computes the class and the hash of its points only when first asked (a comparison with
 * a wisdom entry whose cheaper fields all match, or writing the entry): hashing 200,000 points cost a one-shot
 * {@code forward} ~25 ms of its plan before any wisdom held an entry (docs/benchmarks.md, whole process).
 * </p>
 */
public final class TuneKey {

	private final String device;
	private final int[] dims;
	private String trajectoryClass;
	private String pointsHash;
	/** The points the class and hash are computed from, until both are. */
	private Trajectory trajectory;
	private final int points;
	private final int batch;
	private final String precision;
	private final double tolerance;
	private final String direction;

	TuneKey(final String device, final int[] dims, final String trajectoryClass, final String pointsHash,
		final int points, final int batch, final String precision, final double tolerance, final String direction)
	{
		this.device = device;
		this.dims = dims.clone();
		this.trajectoryClass = trajectoryClass;
		this.pointsHash = pointsHash;
		this.points = points;
		this.batch = batch;
		this.precision = precision;
		this.tolerance = tolerance;
		this.direction = direction;
	}

	/** The key of a tuning run of {@code options} on {@code device} (a backend's identity). */
	public static TuneKey of(final String device, final int[] dims, final Trajectory t, final int batch,
		final NufftOptions options, final TuneDirection direction)
	{
		final TuneKey k = new TuneKey(device, dims, null, null, t.count(), batch,
			options.precision().name().toLowerCase(), options.tolerance(), direction.key());
		k.trajectory = t;
		return k;
	}

	// -- public API --

	public String device() { return device; }

	public int[] dims() { return dims.clone(); }

	public synchronized String trajectoryClass() {
		if (trajectoryClass == null) trajectoryClass = trajectoryClass(trajectory);
		if (pointsHash != null) trajectory = null;
		return trajectoryClass;
	}

	public synchronized String pointsHash() {
		if (pointsHash == null) pointsHash = hash(trajectory);
		if (trajectoryClass != null) trajectory = null;
		return pointsHash;
	}

	public int points() { return points; }

	public int batch() { return batch; }

	public String precision() { return precision; }

	public double tolerance() { return tolerance; }

	public String direction() { return direction; }

	/**
	 * "radial lines" when the points lie on uniformly sampled lines through k = 0 (what output-driven spreading
	 * needs), else "non-uniform", with the dimensions.
	 */
	public static String trajectoryClass(final Trajectory t) {
		return t.dimensions() + "D " + (t.dimensions() == 2 && RadialLines.detect(t).isPresent() ? "radial lines" :
			"non-uniform");
	}

	/** SHA-256 of the coordinates (IEEE doubles, big-endian, k in cycles per pixel), first 16 hex digits. */
	public static String hash(final Trajectory t) {
		try {
			final MessageDigest md = MessageDigest.getInstance("SHA-256");
			final double[] c = t.coords();
			final ByteBuffer b = ByteBuffer.allocate(8 * 4096);
			for (int i = 0; i < c.length; i++) {
				b.putDouble(c[i]);
				if (!b.hasRemaining()) {
					md.update(b.array(), 0, b.position());
					b.clear();
				}
			}
			md.update(b.array(), 0, b.position());
			md.update(ByteBuffer.allocate(4).putInt(t.dimensions()).array());
			final StringBuilder s = new StringBuilder();
			final byte[] d = md.digest();
			for (int i = 0; i < 8; i++) s.append(String.format("%02x", d[i]));
			return s.toString();
		}
		catch (final NoSuchAlgorithmException e) {
			throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
		}
	}

	@Override
	public boolean equals(final Object o) {
		if (!(o instanceof TuneKey)) return false;
		final TuneKey k = (TuneKey) o;
		// The fields held first, the computed ones last (and only when the rest match).
		return device.equals(k.device) && Arrays.equals(dims, k.dims) && points == k.points && batch == k.batch &&
			precision.equals(k.precision) && Double.toString(tolerance).equals(Double.toString(k.tolerance)) &&
			direction.equals(k.direction) && trajectoryClass().equals(k.trajectoryClass()) &&
			pointsHash().equals(k.pointsHash());
	}

	@Override
	public int hashCode() {
		return Objects.hash(device, Arrays.hashCode(dims), points, batch, precision, Double.toString(tolerance),
			direction);
	}

	@Override
	public String toString() {
		final StringBuilder d = new StringBuilder();
		for (int a = 0; a < dims.length; a++) d.append(a == 0 ? "" : "x").append(dims[a]);
		return device + " | " + d + " | " + trajectoryClass() + " " + points + " points #" + pointsHash() + " | batch " +
			batch + " | " + precision + " | eps " + tolerance + " | " + direction;
	}
}
