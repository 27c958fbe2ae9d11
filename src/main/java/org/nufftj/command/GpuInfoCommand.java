package org.nufftj.command;

import org.nufftj.app.Session;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Attr;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

/**
 * Plugins › NUFFT-J › GPU Info: what the GPU engine finds (driver, devices with memory and compute capability, cuFFT,
 * kernel modules, from {@link Session#describeDevices()}) and whether GPU {@code device} can run plans, or why not
 * ({@link Session#unusableReason}).
 */
@Plugin(type = Command.class, label = "GPU Info", menuRoot = NufftCommand.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>GPU Info", headless = true,
	attrs = @Attr(name = NufftCommand.KEY, value = "gpuinfo"))
public class GpuInfoCommand extends NufftCommand {

	@Parameter(persist = false, label = "device", description = "GPU ordinal")
	public int device = 0;

	@Parameter(persist = false, label = "FFT engine", choices = { GpuInfoCommand.UNCHANGED, "auto", "cufft", "own" },
		description = "GPU FFT: auto = cuFFT when it loads, else NUFFT-J's own kernels; a change reopens the GPU")
	public String fft = UNCHANGED;

	@Parameter(type = ItemIO.OUTPUT, label = "log")
	public String log;

	/** The FFT choice that leaves the engine as it is (NUFFTJ_FFT, an earlier choice, or auto). */
	public static final String UNCHANGED = "unchanged";

	@Override
	protected void execute() {
		org.nufftj.InvalidInputException.require(device >= 0, "device: expected a GPU ordinal >= 0, found " + device);
		final StringBuilder b = new StringBuilder("NUFFT-J GPU Info\n");
		if (!UNCHANGED.equals(fft)) {
			org.nufftj.app.Options.fftEngine("FFT engine", fft);
			final int closed = session().closeGpuBackends();
			b.append("FFT engine set to ").append(fft).append(closed > 0 ? " (the open GPU backend was closed; the " +
				"next GPU run opens it with this engine)" : "").append('\n');
		}
		b.append("Java ").append(System.getProperty("java.version")).append(" on ").append(System.getProperty(
			"os.name")).append(' ').append(System.getProperty("os.arch")).append('\n');
		b.append(Session.describeDevices()).append('\n');
		final String why = Session.unusableReason(device);
		b.append(why == null ? "gpu:" + device + " is usable: device=gpu and device=auto run on it"
			: "gpu:" + device + " is not used: " + why + " (device=auto runs on the CPU)");
		log = b.toString().trim();
	}
}
