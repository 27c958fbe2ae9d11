package org.nufftj.io;

import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.nufftj.InvalidInputException;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;

/**
 * Plane-wave RF channel data from a UFF file (the ultrasound file format, HDF5; Bernard et al., IEEE IUS 2018), in the
 * layout the USTB writes and the PICMUS data sets use — the subset needed for plane-wave imaging with a linear array:
 * <pre>
 * /channel_data                      group (attribute class = "uff.channel_data" when present)
 *   data                             float or double, [waves][channels][samples] or [frames][waves][channels][samples]
 *                                    (the MATLAB [samples × channels × waves × frames] as HDF5 stores it)
 *   sampling_frequency               Hz          initial_time    s (time of sample 0; 0 when the front crosses the origin)
 *   sound_speed                      m/s         modulation_frequency  0 (RF; IQ data are refused)
 *   pulse/center_frequency           Hz
 *   probe/pitch                      m  (or probe/geometry [channels][≥ 1], x in column 0, for a uniform array)
 *   sequence/NNNNNNNN/source/azimuth rad, one group per wave in index order (8-digit 1-based names, USTB "sequence_0001"
 *                                    style names also accepted); source/distance must be Inf (a plane wave)
 * </pre>
 * Only the first frame is read. A missing or malformed dataset fails with an {@link InvalidInputException} naming the
 * file and the dataset.
 */
public final class UffChannelData {

	/** Channel data per wave, [wave][sample·channels + channel] (channel fastest), and the acquisition. */
	public final float[][] channels;
	public final int elements, samples;
	public final double pitch, fs, c, f0, t0;
	public final double[] angles;

	private UffChannelData(final float[][] channels, final int elements, final int samples, final double pitch,
		final double fs, final double c, final double f0, final double t0, final double[] angles)
	{
		this.channels = channels;
		this.elements = elements;
		this.samples = samples;
		this.pitch = pitch;
		this.fs = fs;
		this.c = c;
		this.f0 = f0;
		this.t0 = t0;
		this.angles = angles;
	}

	// -- public API --

	/** Reads {@code /channel_data} of {@code file}. */
	public static UffChannelData read(final Path file) {
		InvalidInputException.require(Files.isRegularFile(file), file + ": no such file");
		try (HdfFile h = new HdfFile(file)) {
			final String g = "/channel_data";
			final Node root = node(h, file, g);
			InvalidInputException.require(root instanceof Group, file + ": " + g + " is not a group");
			final Dataset data = dataset(h, file, g + "/data");
			final int[] dims = data.getDimensions();
			InvalidInputException.require(dims.length == 3 || dims.length == 4, file + ": " + g +
				"/data: expected [waves][channels][samples] or [frames][waves][channels][samples], found " + dims.length +
				" dimensions");
			final int off = dims.length - 3, waves = dims[off], elements = dims[off + 1], samples = dims[off + 2];
			InvalidInputException.require(waves >= 1 && elements >= 2 && samples >= 2, file + ": " + g +
				"/data: expected >= 1 wave, >= 2 channels, >= 2 samples, found " + waves + " x " + elements + " x " + samples);
			InvalidInputException.require((long) waves * elements * samples < Integer.MAX_VALUE, file + ": " + g +
				"/data: too large for one array (" + (long) waves * elements * samples + " values in the first frame)");
			final double[] flat = doubles(data.getDataFlat(), file, g + "/data");
			final float[][] ch = new float[waves][elements * samples];
			for (int w = 0; w < waves; w++)
				for (int e = 0; e < elements; e++)
					for (int k = 0; k < samples; k++)
						ch[w][k * elements + e] = (float) flat[(w * elements + e) * samples + k];
			final double fs = scalar(h, file, g + "/sampling_frequency");
			final double t0 = scalar(h, file, g + "/initial_time");
			final double c = scalar(h, file, g + "/sound_speed");
			final double mod = optionalScalar(h, g + "/modulation_frequency", 0);
			InvalidInputException.require(mod == 0, file + ": " + g +
				"/modulation_frequency: expected 0 (RF channel data), found " + mod + " Hz (IQ data are not supported)");
			final double f0 = scalar(h, file, g + "/pulse/center_frequency");
			final double pitch = pitch(h, file, g + "/probe", elements);
			final double[] angles = angles(h, file, g + "/sequence", waves);
			return new UffChannelData(ch, elements, samples, pitch, fs, c, f0, t0, angles);
		}
		catch (final InvalidInputException e) {
			throw e;
		}
		catch (final RuntimeException e) {
			throw new InvalidInputException(file + ": not a readable UFF (HDF5) file: " + e.getMessage(), e);
		}
	}

	// -- helpers --

	private static double pitch(final HdfFile h, final Path file, final String probe, final int elements) {
		if (exists(h, probe + "/pitch")) {
			final double p = scalar(h, file, probe + "/pitch");
			InvalidInputException.require(p > 0, file + ": " + probe + "/pitch: expected > 0 m, found " + p);
			return p;
		}
		final Dataset geo = dataset(h, file, probe + "/geometry");
		final int[] d = geo.getDimensions();
		InvalidInputException.require(d.length == 2 && d[0] == elements && d[1] >= 1, file + ": " + probe +
			"/geometry: expected [" + elements + "][>= 1] (x in column 0), found " + java.util.Arrays.toString(d));
		final double[] g = doubles(geo.getDataFlat(), file, probe + "/geometry");
		final double p = g[d[1]] - g[0];
		for (int e = 1; e < elements; e++) {
			final double step = g[e * d[1]] - g[(e - 1) * d[1]];
			InvalidInputException.require(p > 0 && Math.abs(step - p) <= 1e-6 * p, file + ": " + probe +
				"/geometry: expected a uniform linear array (x increasing by the pitch), element " + e + " is " + step +
				" m from the previous, element 1 " + p + " m");
		}
		return p;
	}

	private static double[] angles(final HdfFile h, final Path file, final String seq, final int waves) {
		final Node n = node(h, file, seq);
		InvalidInputException.require(n instanceof Group, file + ": " + seq + " is not a group");
		final Map<Integer, String> byIndex = new TreeMap<>();
		for (final String name : ((Group) n).getChildren().keySet()) {
			final String digits = name.replaceAll("^[^0-9]*", "");
			InvalidInputException.require(!digits.isEmpty() && digits.matches("[0-9]+"), file + ": " + seq + "/" + name +
				": expected waves named by their 1-based index (00000001, ...)");
			byIndex.put(Integer.parseInt(digits), name);
		}
		InvalidInputException.require(byIndex.size() == waves, file + ": " + seq + ": expected " + waves +
			" waves (one per /channel_data/data wave), found " + byIndex.size());
		final List<Double> out = new ArrayList<>();
		for (final String name : byIndex.values()) {
			final String w = seq + "/" + name + "/source";
			if (exists(h, w + "/distance")) {
				final double d = scalar(h, file, w + "/distance");
				InvalidInputException.require(Double.isInfinite(d), file + ": " + w +
					"/distance: expected Inf (a plane wave), found " + d + " m");
			}
			out.add(scalar(h, file, w + "/azimuth"));
		}
		return out.stream().mapToDouble(Double::doubleValue).toArray();
	}

	private static boolean exists(final HdfFile h, final String path) {
		try {
			h.getByPath(path);
			return true;
		}
		catch (final RuntimeException e) {
			return false;
		}
	}

	private static Node node(final HdfFile h, final Path file, final String path) {
		try {
			return h.getByPath(path);
		}
		catch (final RuntimeException e) {
			throw new InvalidInputException(file + ": missing UFF dataset or group " + path);
		}
	}

	private static Dataset dataset(final HdfFile h, final Path file, final String path) {
		final Node n = node(h, file, path);
		InvalidInputException.require(n instanceof Dataset, file + ": " + path + ": expected a dataset, found a group");
		return (Dataset) n;
	}

	private static double scalar(final HdfFile h, final Path file, final String path) {
		final double[] v = doubles(dataset(h, file, path).getDataFlat(), file, path);
		InvalidInputException.require(v.length == 1, file + ": " + path + ": expected one number, found " + v.length);
		return v[0];
	}

	private static double optionalScalar(final HdfFile h, final String path, final double otherwise) {
		return exists(h, path) ? scalar(h, null, path) : otherwise;
	}

	private static double[] doubles(final Object o, final Path file, final String path) {
		if (o instanceof Number) return new double[] { ((Number) o).doubleValue() };
		InvalidInputException.require(o != null && o.getClass().isArray() && (o instanceof double[] ||
			o instanceof float[] || o instanceof int[] || o instanceof long[] || o instanceof short[]), file + ": " + path +
				": expected numbers, found " + (o == null ? "nothing" : o.getClass().getSimpleName()));
		if (o instanceof double[]) return (double[]) o;
		if (o instanceof float[]) {
			final float[] f = (float[]) o;
			final double[] out = new double[f.length];
			for (int i = 0; i < f.length; i++) out[i] = f[i];
			return out;
		}
		final double[] out = new double[Array.getLength(o)];
		for (int i = 0; i < out.length; i++) out[i] = ((Number) Array.get(o, i)).doubleValue();
		return out;
	}
}
