package org.nufftj.command;

import java.util.Arrays;
import java.util.Locale;

import org.nufftj.InvalidInputException;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.Precision;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.DcfMethod;
import org.nufftj.recon.ReconOptions;
import org.nufftj.trajectory.TrajectoryKind;

/**
 * The choice lists the commands offer (they are the values macros may use) and their translation into typed options.
 * Every parse failure is an {@link InvalidInputException} naming the key, the value found and the values allowed.
 */
public final class Options {

	private Options() {}

	public static final String AUTO = "auto";

	public static final String[] KERNELS = { "auto", "es", "kb", "gauss" };
	public static final String[] DCFS = { "auto", "none", "ramp", "voronoi", "pipe-menon" };
	public static final String[] COMBINES = { "sos", "walsh", "none" };
	public static final String[] PRECISIONS = { "float", "double" };
	public static final String[] DEVICES = { "auto", "cpu", "gpu" };
	public static final String[] TRAJECTORIES = { "from file", "radial", "golden angle", "tiny golden", "spiral",
		"stack of stars", "3D radial", "PROPELLER", "Cartesian" };
	public static final String[] DESIGNS = { "radial", "golden angle", "tiny golden", "spiral", "stack of stars",
		"3D radial", "PROPELLER", "Cartesian" };
	public static final String MAGNITUDE = "magnitude", MAG_PHASE = "magnitude and phase", RE_IM = "real and imaginary";
	public static final String[] OUTPUTS = { MAGNITUDE, MAG_PHASE, RE_IM };

	// -- public API --

	/** {@code value} if it is one of {@code allowed} (ignoring case), in the allowed spelling; else a clear error. */
	public static String choice(final String key, final String value, final String[] allowed) {
		final String v = value == null ? "" : value.trim();
		for (final String a : allowed) if (a.equalsIgnoreCase(v)) return a;
		throw new InvalidInputException(key + ": unknown value '" + v + "', expected one of " + Arrays.toString(allowed));
	}

	/** The NUFFT options of the common keys. */
	public static NufftOptions nufft(final String kernel, final double oversampling, final int width,
		final double tolerance, final String precision, final String device)
	{
		choice("kernel", kernel, KERNELS);
		choice("precision", precision, PRECISIONS);
		return NufftOptions.defaults().withKernel(KernelType.parse(kernel)).withOversampling(oversampling).withWidth(
			width).withTolerance(tolerance).withPrecision(Precision.parse(precision)).withDevice(device(device));
	}

	/** auto, cpu, gpu or gpu:N. */
	public static DeviceChoice device(final String device) {
		try {
			return DeviceChoice.parse(device == null ? "" : device);
		}
		catch (final InvalidInputException e) {
			throw new InvalidInputException("device: unknown value '" + device + "', expected one of auto, cpu, gpu, " +
				"gpu:N");
		}
	}

	/** DCF method; "auto" is none for Cartesian sampling and Pipe-Menon otherwise. */
	public static DcfMethod dcf(final String dcf, final boolean cartesian) {
		final String d = choice("dcf", dcf, DCFS);
		if (d.equals(AUTO)) return cartesian ? DcfMethod.NONE : DcfMethod.PIPE_MENON;
		return DcfMethod.parse(d);
	}

	public static CoilCombination combine(final String combine) {
		return CoilCombination.parse(choice("combine", combine, COMBINES));
	}

	public static ReconOptions recon(final NufftOptions nufft, final DcfMethod dcf, final CoilCombination combine) {
		return ReconOptions.defaults().withNufft(nufft).withDcf(dcf).withCombine(combine);
	}

	/** "from file" or a design kind. */
	public static TrajectoryKind trajectory(final String trajectory) {
		return TrajectoryKind.parse(choice("trajectory", trajectory, TRAJECTORIES));
	}

	/**
	 * A matrix key: "auto" (null: take it from the data), "N" (N x N), "NxM" or "NxMxL".
	 */
	public static int[] matrix(final String matrix) {
		final String m = matrix == null ? "" : matrix.trim().toLowerCase(Locale.ROOT);
		if (m.isEmpty() || m.equals(AUTO) || m.equals("0")) return null;
		final String[] parts = m.split("\\s*[x×*,]\\s*");
		if (parts.length > 3) throw new InvalidInputException("matrix: '" + matrix + "' has " + parts.length +
			" sizes, expected N, NxM or NxMxL");
		final int[] out = new int[parts.length == 1 ? 2 : parts.length];
		try {
			for (int i = 0; i < parts.length; i++) out[i] = Integer.parseInt(parts[i]);
		}
		catch (final NumberFormatException e) {
			throw new InvalidInputException("matrix: '" + matrix + "' is not auto, N, NxM or NxMxL");
		}
		if (parts.length == 1) out[1] = out[0];
		for (final int s : out) if (s < 1 || s > 65536) throw new InvalidInputException("matrix: size " + s +
			" in '" + matrix + "' is outside 1 to 65536");
		if (out.length == 3 && out[2] == 1) return new int[] { out[0], out[1] };
		return out;
	}

	public static String describeMatrix(final int[] m) {
		final StringBuilder b = new StringBuilder();
		for (int i = 0; i < m.length; i++) b.append(i == 0 ? "" : "x").append(m[i]);
		return b.toString();
	}
}
