package org.nufftj.command;

import java.io.File;

import org.nufftj.app.Options;
import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.recon.ReconOptions;
import org.scijava.plugin.Parameter;

/**
 * The keys of the commands that reconstruct a k-space file (Reconstruct k-space, Compare CPU and GPU): the file, its
 * trajectory, the matrix, density compensation and coil combination, on top of the NUFFT keys. The file is read by
 * the application layer's {@link ScanLoader}, as {@code nufft-j recon} reads it.
 */
public abstract class AbstractScanCommand extends AbstractNufftCommand {

	@Parameter(persist = false, label = "kspace", description = "k-space file: ISMRMRD .h5 or BART .cfl", style = "open")
	public File kspace;

	@Parameter(persist = false, label = "traj",
		description = "trajectory file (BART .cfl or CSV), only for data without coordinates", required = false,
		style = "open")
	public File traj;

	@Parameter(persist = false, label = "trajectory", description = "trajectory design for data stored without coordinates",
		choices = { "from file", "radial", "golden angle", "tiny golden", "spiral", "stack of stars", "3D radial",
			"PROPELLER", "Cartesian" })
	public String trajectory = "from file";

	@Parameter(persist = false, label = "matrix", description = "image matrix: auto (from the file), N, NxM or NxMxL")
	public String matrix = "auto";

	@Parameter(persist = false, label = "dcf", description = "density compensation; auto = none for Cartesian, else Pipe-Menon",
		choices = { "auto", "none", "ramp", "voronoi", "pipe-menon" })
	public String dcf = "auto";

	@Parameter(persist = false, label = "combine", choices = { "sos", "walsh", "none" })
	public String combine = "sos";

	@Parameter(persist = false, label = "partialfourier", description = "Cartesian partial Fourier / asymmetric echo: " +
		"zero-filled, or homodyne (Noll 1991; refused for data that is not partial Fourier)", choices = { "zero",
			"homodyne" })
	public String partialfourier = "zero";

	/** The option keys checked, before any file is read. */
	protected void checkKeys() {
		Options.combine(combine);
		Options.partialFourier(partialfourier);
		Options.dcf(dcf, false);
		Options.matrix(matrix);
		Options.trajectory(trajectory);
	}

	/** The scan of the file keys. */
	protected Scan loadScan() {
		checkKeys();
		return ScanLoader.load(kspace == null ? null : kspace.toPath(), traj == null || traj.getPath().isEmpty() ? null :
			traj.toPath(), Options.trajectory(trajectory), Options.matrix(matrix));
	}

	/** The reconstruction options of the keys for {@code scan}, on {@code device}. */
	protected ReconOptions reconOptions(final Scan scan, final String device) {
		return Options.recon(nufftOptions(device), Options.dcf(dcf, scan.cartesian()), Options.combine(combine))
			.withPartialFourier(Options.partialFourier(partialfourier));
	}
}
