package org.nufftj.command;

import org.nufftj.recon.ultrasound.PlaneWave;
import org.scijava.plugin.Parameter;

/**
 * The acquisition keys the ultrasound commands share (units as on the command line: mm, MHz, m/s, µs), and the
 * {@link PlaneWave} they describe in SI units.
 */
public abstract class AbstractUltrasoundCommand extends NufftCommand {

	@Parameter(persist = false, label = "pitch", description = "element pitch (mm)")
	public double pitch = 0.15;

	@Parameter(persist = false, label = "fs", description = "sampling rate (MHz)")
	public double fs = 40;

	@Parameter(persist = false, label = "c", description = "speed of sound (m/s)")
	public double c = 1540;

	@Parameter(persist = false, label = "f0", description = "pulse centre frequency (MHz)")
	public double f0 = 5;

	@Parameter(persist = false, label = "t0", description = "time of the first sample (us)")
	public double t0 = 0;

	/** The acquisition of these keys for {@code elements} elements and {@code samples} time samples. */
	protected PlaneWave planeWave(final int elements, final int samples) {
		return new PlaneWave(elements, samples, pitch * 1e-3, fs * 1e6, c, f0 * 1e6, t0 * 1e-6);
	}
}
