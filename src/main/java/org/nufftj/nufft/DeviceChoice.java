package org.nufftj.nufft;

import org.nufftj.InvalidInputException;

/** Where a plan runs: {@code auto} (GPU when usable, else CPU with one notice), {@code cpu}, {@code gpu}, {@code gpu:N}. */
public final class DeviceChoice {

	public enum Kind { AUTO, CPU, GPU }

	public static final DeviceChoice AUTO = new DeviceChoice(Kind.AUTO, 0);
	public static final DeviceChoice CPU = new DeviceChoice(Kind.CPU, 0);

	private final Kind kind;
	private final int ordinal;

	private DeviceChoice(final Kind kind, final int ordinal) {
		this.kind = kind;
		this.ordinal = ordinal;
	}

	public static DeviceChoice gpu(final int ordinal) {
		return new DeviceChoice(Kind.GPU, ordinal);
	}

	public static DeviceChoice parse(final String s) {
		final String t = s.trim().toLowerCase();
		if (t.equals("auto")) return AUTO;
		if (t.equals("cpu")) return CPU;
		if (t.equals("gpu")) return gpu(0);
		if (t.startsWith("gpu:")) {
			try {
				final int n = Integer.parseInt(t.substring(4));
				if (n >= 0) return gpu(n);
			}
			catch (final NumberFormatException e) { /* falls through to the error */ }
		}
		throw new InvalidInputException("device: expected auto, cpu, gpu or gpu:N, found '" + s + "'");
	}

	public Kind kind() { return kind; }

	/** GPU ordinal (0 unless {@code gpu:N}). */
	public int ordinal() { return ordinal; }

	@Override
	public String toString() {
		return kind == Kind.GPU ? (ordinal == 0 ? "gpu" : "gpu:" + ordinal) : kind.name().toLowerCase();
	}

	@Override
	public boolean equals(final Object o) {
		return o instanceof DeviceChoice && ((DeviceChoice) o).kind == kind && ((DeviceChoice) o).ordinal == ordinal;
	}

	@Override
	public int hashCode() {
		return kind.hashCode() * 31 + ordinal;
	}
}
