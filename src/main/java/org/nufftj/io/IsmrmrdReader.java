package org.nufftj.io;

import java.lang.reflect.Array;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.nufftj.data.FrameGroup;
import org.nufftj.InvalidInputException;
import org.nufftj.data.KSpace;
import org.nufftj.trajectory.Trajectory;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;

/**
 * Reads ISMRMRD raw data ({@code .h5}, ismrmrd.readthedocs.io) with the pure-Java HDF5 reader io.jhdf:
 * {@code /dataset/xml} (the header, {@link IsmrmrdHeader}) and {@code /dataset/data}, a 1D dataset of compound records
 * {@code {head, traj, data}} where {@code traj} and {@code data} are variable-length float arrays.
 * <p>
 * What it does with the records:
 * </p>
 * <ul>
 * <li>Skips readouts flagged as noise, parallel calibration only (not {@code CALIBRATION_AND_IMAGING}), navigator,
 * phase correction, HP/RT feedback, dummy scans, surface coil correction and phase stabilisation; the count goes into
 * {@link IsmrmrdData#notes()}.</li>
 * <li>Drops {@code discard_pre}/{@code discard_post} samples.</li>
 * <li>Stored trajectory ({@code trajectory_dimensions > 0}): ISMRMRD leaves the unit to the writer; the common
 * convention (ISMRMRD's own {@code generate_cartesian_shepp_logan -k}, Gadgetron's radial and spiral gadgets) is
 * normalised k, cycles per pixel of the <em>encoded</em> space, in [−½, ½]. Values beyond ±½ that fit within
 * ±(encoded matrix)/2 are taken as cycles per FOV (BART style) and divided by the encoded matrix size. For 2D data
 * (encoded z = 1) only the first two trajectory components are used (a third one, e.g. a stored density weight, is
 * ignored and noted).</li>
 * <li>No stored trajectory (Cartesian): {@code kx = (s − center_sample) / number_of_samples},
 * {@code ky = (kspace_encode_step_1 − center) / encoded y}, {@code kz} likewise from step 2 when encoded z > 1; the
 * centre comes from the header's encoding limits (else matrix/2); {@code IS_REVERSE} readouts are reversed.</li>
 * <li>Readout oversampling removal: coordinates are rescaled from encoded-space pixels to recon-space pixels by the
 * ratio of pixel sizes (recon FOV/recon matrix over encoded FOV/encoded matrix), so reconstructing the recon matrix
 * gives exactly the recon field of view (the oversampled FOV is never formed). Samples that then lie beyond ±½ (k
 * beyond the recon resolution) are dropped and counted in the notes.</li>
 * <li>Readouts are grouped into frames by (slice, contrast, phase, repetition, set, average), slice fastest.</li>
 * </ul>
 */
public final class IsmrmrdReader {

	/** Acquisition flag bit numbers (1-based, ismrmrd.h ISMRMRD_AcquisitionFlags) of readouts that are not image data. */
	static final int[] SKIPPED_FLAGS = { 19, 20, 23, 24, 26, 27, 28, 29, 30, 31 };
	static final int FLAG_IS_REVERSE = 22;

	private IsmrmrdReader() {}

	// -- public API --

	/** True when the file starts with the HDF5 signature (after an optional user block); false on any read error. */
	public static boolean looksLikeHdf5(final Path file) {
		try (java.io.InputStream in = Files.newInputStream(file)) {
			final byte[] sig = new byte[8];
			return in.readNBytes(sig, 0, 8) == 8 && sig[0] == (byte) 0x89 && sig[1] == 'H' && sig[2] == 'D' &&
				sig[3] == 'F';
		}
		catch (final java.io.IOException e) {
			return false;
		}
	}

	/** Reads the file; every problem with it is an {@link InvalidInputException} naming the file. */
	public static IsmrmrdData read(final Path file) {
		final String src = file.toString();
		if (!Files.exists(file)) throw new InvalidInputException(src + ": file not found");
		if (!Files.isRegularFile(file)) throw new InvalidInputException(src + ": not a regular file");
		final long size;
		try {
			size = Files.size(file);
		}
		catch (final java.io.IOException e) {
			throw new InvalidInputException(src + ": cannot read (" + e.getMessage() + ")");
		}
		if (size < 8 || !looksLikeHdf5(file)) throw new InvalidInputException(src +
			": not an HDF5 file (no HDF5 signature), expected ISMRMRD raw data (.h5)");
		try (HdfFile hdf = new HdfFile(file)) {
			final long eof = hdf.getHdfBackingStorage().getSuperblock().getEndOfFileAddress() + hdf.getUserBlockSize();
			if (eof > size) throw new InvalidInputException(src + ": HDF5 file is truncated (" + size +
				" bytes, its superblock says " + eof + ")");
			final Group group = datasetGroup(hdf, src);
			final IsmrmrdHeader header = IsmrmrdHeader.parse(xmlText(group, src), src);
			final Node dataNode = group.getChild("data");
			if (!(dataNode instanceof Dataset)) throw new InvalidInputException(src + ": " + group.getPath() +
				"data is missing: no acquisitions in this ISMRMRD file");
			final Object records = ((Dataset) dataNode).getData();
			if (!(records instanceof Map)) throw new InvalidInputException(src + ": " + group.getPath() +
				"data is not a compound dataset of acquisitions");
			return assemble(src, header, (Map<?, ?>) records);
		}
		catch (final InvalidInputException e) {
			throw e;
		}
		catch (final RuntimeException | Error e) {
			if (e instanceof OutOfMemoryError) throw (OutOfMemoryError) e;
			throw new InvalidInputException(src + ": cannot read HDF5 content, file damaged or truncated (" +
				e.getClass().getSimpleName() + ": " + IsmrmrdHeader.oneLine(e.getMessage()) + ")", e);
		}
	}

	// -- helpers --

	private static Group datasetGroup(final HdfFile hdf, final String src) {
		final Node d = hdf.getChildren().get("dataset");
		if (d instanceof Group) return (Group) d;
		for (final Node n : hdf.getChildren().values()) {
			if (n instanceof Group && ((Group) n).getChildren().containsKey("xml") &&
				((Group) n).getChildren().containsKey("data")) return (Group) n;
		}
		throw new InvalidInputException(src + ": not an ISMRMRD file (no /dataset group with xml and data; found " +
			hdf.getChildren().keySet() + ")");
	}

	private static String xmlText(final Group g, final String src) {
		final Node x = g.getChild("xml");
		if (!(x instanceof Dataset)) throw new InvalidInputException(src + ": not an ISMRMRD file (no " + g.getPath() +
			"xml header)");
		final Object v = ((Dataset) x).getData();
		if (v instanceof String) return (String) v;
		if (v instanceof String[] && ((String[]) v).length > 0) return ((String[]) v)[0];
		throw new InvalidInputException(src + ": " + g.getPath() + "xml is not a string");
	}

	/** One imaging readout after discards: coordinates (dims per sample) and data (2 floats per sample per coil). */
	private static final class Readout {
		double[] k;
		float[] data; // [coil][sample] interleaved, sample fastest
		int samples;
		int coils;
	}

	private static IsmrmrdData assemble(final String src, final IsmrmrdHeader h, final Map<?, ?> rec) {
		final Map<?, ?> head = (Map<?, ?>) field(rec, "head", src);
		final Object[] trajs = (Object[]) field(rec, "traj", src);
		final Object[] datas = (Object[]) field(rec, "data", src);
		final int n = datas.length;
		final long[] nsamp = longs(field(head, "number_of_samples", src));
		final long[] nchan = longs(field(head, "active_channels", src));
		final long[] tdim = longs(field(head, "trajectory_dimensions", src));
		final long[] flags = head.containsKey("flags") ? longs(head.get("flags")) : new long[n];
		final long[] center = head.containsKey("center_sample") ? longs(head.get("center_sample")) : null;
		final long[] pre = head.containsKey("discard_pre") ? longs(head.get("discard_pre")) : new long[n];
		final long[] post = head.containsKey("discard_post") ? longs(head.get("discard_post")) : new long[n];
		final Map<?, ?> idx = head.containsKey("idx") ? (Map<?, ?>) head.get("idx") : Map.of();
		final long[] step1 = idxField(idx, "kspace_encode_step_1", n);
		final long[] step2 = idxField(idx, "kspace_encode_step_2", n);
		final long[] slice = idxField(idx, "slice", n), contrast = idxField(idx, "contrast", n);
		final long[] phase = idxField(idx, "phase", n), rep = idxField(idx, "repetition", n);
		final long[] set = idxField(idx, "set", n), avg = idxField(idx, "average", n);

		final int[] em = h.encodedMatrix();
		final boolean threeD = em[2] > 1;
		final int dims = threeD ? 3 : 2;
		final double[] scale = pixelRatio(h, dims);
		int skipped = 0, dropped = 0, ignoredTrajComponents = 0;
		boolean stored = false, derived = false, cyclesPerFov = false;
		int coils = -1;

		// Group imaging readouts by frame label, in file order within a frame.
		final TreeMap<long[], List<Readout>> byFrame = new TreeMap<>(IsmrmrdReader::compareLabels);
		for (int i = 0; i < n; i++) {
			if (isSkipped(flags[i])) {
				skipped++;
				continue;
			}
			final int ns = (int) nsamp[i], nc = (int) nchan[i], td = (int) tdim[i];
			final float[] d = floats(datas[i]);
			if (d.length != 2L * ns * nc) throw new InvalidInputException(src + ": acquisition " + i + " holds " +
				d.length + " data floats, expected 2 x " + ns + " samples x " + nc + " channels");
			if (coils < 0) coils = nc;
			else if (coils != nc) throw new InvalidInputException(src + ": acquisition " + i + " has " + nc +
				" active channels, earlier ones " + coils + "; mixed channel counts are not supported");
			final int p0 = (int) pre[i], p1 = ns - (int) post[i];
			if (p0 < 0 || p1 <= p0) throw new InvalidInputException(src + ": acquisition " + i + " discards " + pre[i] +
				" + " + post[i] + " of " + ns + " samples, leaving none");
			final Readout r = new Readout();
			r.samples = p1 - p0;
			r.coils = nc;
			r.k = new double[r.samples * dims];
			if (td > 0) {
				stored = true;
				final float[] t = floats(trajs[i]);
				if (t.length != (long) td * ns) throw new InvalidInputException(src + ": acquisition " + i + " holds " +
					t.length + " trajectory floats, expected " + td + " dimensions x " + ns + " samples");
				if (td < dims) throw new InvalidInputException(src + ": acquisition " + i + " stores " + td +
					"D k-space coordinates, the encoded space is " + dims + "D");
				if (td > dims) ignoredTrajComponents = td - dims;
				for (int s = p0; s < p1; s++)
					for (int a = 0; a < dims; a++) r.k[(s - p0) * dims + a] = t[s * td + a];
			}
			else {
				derived = true;
				final boolean reverse = (flags[i] >>> (FLAG_IS_REVERSE - 1) & 1L) != 0;
				final double c = center != null ? center[i] : ns / 2;
				final double ky = (step1[i] - centre(h.step1Limits(), em[1])) / em[1];
				final double kz = threeD ? (step2[i] - centre(h.step2Limits(), em[2])) / em[2] : 0;
				for (int s = p0; s < p1; s++) {
					final int sx = reverse ? ns - 1 - s : s;
					r.k[(s - p0) * dims] = (sx - c) / ns;
					r.k[(s - p0) * dims + 1] = ky;
					if (threeD) r.k[(s - p0) * dims + 2] = kz;
				}
			}
			r.data = new float[2 * r.samples * nc];
			for (int c = 0; c < nc; c++)
				System.arraycopy(d, 2 * (c * ns + p0), r.data, 2 * c * r.samples, 2 * r.samples);
			byFrame.computeIfAbsent(new long[] { avg[i], set[i], rep[i], contrast[i], phase[i], slice[i] },
				k -> new ArrayList<>()).add(r);
		}
		if (byFrame.isEmpty()) throw new InvalidInputException(src + ": no imaging acquisitions (" + n +
			" records, " + skipped + " flagged as noise/calibration/navigator)");

		// Unit check over all stored coordinates: cycles per pixel, or cycles per FOV.
		if (stored) {
			double max = 0;
			for (final List<Readout> rs : byFrame.values())
				for (final Readout r : rs) for (final double v : r.k) max = Math.max(max, Math.abs(v));
			if (max > 0.5 + Trajectory.RANGE_SLACK) {
				int maxHalf = 0;
				for (int a = 0; a < dims; a++) maxHalf = Math.max(maxHalf, em[a]);
				if (max <= maxHalf / 2.0 + 1e-3) cyclesPerFov = true;
				else throw new InvalidInputException(src + ": stored trajectory reaches |k| = " + max +
					", expected cycles per pixel in [-0.5, 0.5] (or cycles per FOV within +-" + maxHalf / 2 + ")");
			}
		}

		// Build frames: coordinates in recon-pixel units, drop samples beyond the recon resolution.
		final List<IsmrmrdData.FrameLabel> labels = new ArrayList<>();
		final List<double[]> frameK = new ArrayList<>();
		final List<float[]> frameData = new ArrayList<>();
		final List<int[]> frameShape = new ArrayList<>();
		final java.util.Set<Long> sliceSet = new java.util.TreeSet<>();
		for (final Map.Entry<long[], List<Readout>> e : byFrame.entrySet()) {
			final long[] key = e.getKey();
			labels.add(new IsmrmrdData.FrameLabel((int) key[5], (int) key[3], (int) key[4], (int) key[2], (int) key[1],
				(int) key[0]));
			sliceSet.add(key[5]);
			int total = 0;
			for (final Readout r : e.getValue()) total += r.samples;
			final boolean[] keep = new boolean[total];
			int kept = 0, m = 0;
			final double[] kAll = new double[total * dims];
			for (final Readout r : e.getValue()) {
				for (int s = 0; s < r.samples; s++, m++) {
					boolean inside = true;
					for (int a = 0; a < dims; a++) {
						double v = r.k[s * dims + a];
						if (cyclesPerFov) v /= em[a];
						v *= scale[a];
						kAll[m * dims + a] = v;
						if (Math.abs(v) > 0.5 + Trajectory.RANGE_SLACK) inside = false;
					}
					keep[m] = inside;
					if (inside) kept++;
				}
			}
			dropped += total - kept;
			if (kept == 0) throw new InvalidInputException(src + ": frame " + labels.get(labels.size() - 1) +
				" has no samples within the recon resolution");
			final double[] k = new double[kept * dims];
			final float[] data = new float[2 * kept * coils];
			int o = 0;
			m = 0;
			for (final Readout r : e.getValue()) {
				for (int s = 0; s < r.samples; s++, m++) {
					if (!keep[m]) continue;
					System.arraycopy(kAll, m * dims, k, o * dims, dims);
					for (int c = 0; c < coils; c++) {
						data[2 * (o + kept * c)] = r.data[2 * (s + r.samples * c)];
						data[2 * (o + kept * c) + 1] = r.data[2 * (s + r.samples * c) + 1];
					}
					o++;
				}
			}
			frameK.add(k);
			frameData.add(data);
			final int first = e.getValue().get(0).samples;
			boolean uniform = kept == total;
			for (final Readout r : e.getValue()) uniform &= r.samples == first;
			frameShape.add(uniform ? new int[] { first, e.getValue().size() } : new int[] { kept, 1 });
		}

		// Merge consecutive frames with identical trajectories into blocks.
		final List<FrameGroup> blocks = new ArrayList<>();
		int start = 0;
		for (int f = 1; f <= frameK.size(); f++) {
			if (f < frameK.size() && Arrays.equals(frameK.get(f), frameK.get(start))) continue;
			final int count = f - start;
			final int points = frameK.get(start).length / dims;
			final float[] data = new float[2 * points * coils * count];
			for (int j = 0; j < count; j++)
				System.arraycopy(frameData.get(start + j), 0, data, j * 2 * points * coils, 2 * points * coils);
			final int[] shape = frameShape.get(start);
			final Trajectory t = new Trajectory(dims, frameK.get(start), shape[0], shape[1],
				fileName(src) + (frameK.size() > 1 && count < frameK.size() ? " frame " + start : ""));
			blocks.add(new FrameGroup(t, new KSpace(data, points, coils, count), start));
			for (int j = start; j < f; j++) {
				frameData.set(j, null); // let the per-frame copies go
			}
			start = f;
		}

		final int[] rm = h.reconMatrix();
		final int[] matrix = threeD ? rm.clone() : new int[] { rm[0], rm[1] };
		final double[] px = h.reconPixelMm();
		final double[] pixel = Double.isNaN(px[0]) || Double.isNaN(px[1]) ? null : Arrays.copyOf(px, dims);
		final StringBuilder notes = new StringBuilder();
		notes.append(stored ? "stored trajectory" + (cyclesPerFov ? " (cycles/FOV, converted)" : " (cycles/pixel)")
			: "Cartesian coordinates derived from encode steps").append(derived && stored ? " and derived" : "");
		if (skipped > 0) notes.append("; skipped ").append(skipped).append(" noise/calibration/navigator readouts");
		if (dropped > 0) notes.append("; dropped ").append(dropped).append(" samples beyond the recon resolution");
		if (ignoredTrajComponents > 0) notes.append("; ignored ").append(ignoredTrajComponents)
			.append(" extra trajectory component(s) (e.g. stored density weights)");
		if (h.encodings() > 1) notes.append("; used the first of ").append(h.encodings()).append(" encodings");
		boolean resampled = false;
		for (int a = 0; a < dims; a++) resampled |= Math.abs(scale[a] - 1) > 1e-9;
		if (resampled) notes.append("; k rescaled by the encoded/recon pixel ratio ").append(Arrays.toString(
			Arrays.copyOf(scale, dims)));
		return new IsmrmrdData(src, h, blocks, labels, sliceSet.size(), coils, matrix, pixel, stored, notes.toString());
	}

	private static double centre(final int[] limits, final int size) {
		return limits != null ? limits[2] : size / 2;
	}

	/** Recon pixel / encoded pixel per axis (1 where either FOV is missing). */
	private static double[] pixelRatio(final IsmrmrdHeader h, final int dims) {
		final double[] r = h.reconPixelMm(), e = h.encodedPixelMm();
		final double[] s = new double[3];
		for (int a = 0; a < 3; a++) s[a] = Double.isNaN(r[a]) || Double.isNaN(e[a]) ? 1 : r[a] / e[a];
		return s;
	}

	static boolean isSkipped(final long flags) {
		for (final int bit : SKIPPED_FLAGS) if ((flags >>> (bit - 1) & 1L) != 0) return true;
		return false;
	}

	private static int compareLabels(final long[] a, final long[] b) {
		for (int i = 0; i < a.length; i++) {
			final int c = Long.compare(a[i], b[i]);
			if (c != 0) return c;
		}
		return 0;
	}

	private static Object field(final Map<?, ?> m, final String name, final String src) {
		final Object v = m.get(name);
		if (v == null) throw new InvalidInputException(src + ": ISMRMRD acquisition records have no '" + name +
			"' field (found " + m.keySet() + ")");
		return v;
	}

	private static long[] idxField(final Map<?, ?> idx, final String name, final int n) {
		final Object v = idx.get(name);
		return v == null ? new long[n] : longs(v);
	}

	/** Any 1D numeric array jhdf returns (short/int/long/BigInteger for the unsigned types) as long[]. */
	static long[] longs(final Object array) {
		final int n = Array.getLength(array);
		final long[] out = new long[n];
		for (int i = 0; i < n; i++) {
			final Object v = Array.get(array, i);
			out[i] = v instanceof BigInteger ? ((BigInteger) v).longValue() : ((Number) v).longValue();
		}
		return out;
	}

	private static float[] floats(final Object a) {
		if (a instanceof float[]) return (float[]) a;
		if (a == null) return new float[0];
		final int n = Array.getLength(a);
		final float[] out = new float[n];
		for (int i = 0; i < n; i++) out[i] = ((Number) Array.get(a, i)).floatValue();
		return out;
	}

	private static String fileName(final String src) {
		final int slash = src.lastIndexOf('/');
		return slash < 0 ? src : src.substring(slash + 1);
	}
}
