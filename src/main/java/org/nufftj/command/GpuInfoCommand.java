package org.nufftj.command;

import org.nufftj.ij1.CommandLauncher;
import org.nufftj.nufft.gpu.GpuInfo;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

/**
 * Plugins › NUFFT-J › GPU Info: what the GPU engine finds (driver, devices with memory and compute capability, cuFFT,
 * kernel modules, from {@link GpuInfo#describe()}) and whether GPU {@code device} can run plans, or why not
 * ({@link GpuInfo#unusableReason}).
 */
@Plugin(type = Command.class, label = "GPU Info", menuRoot = CommandLauncher.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>GPU Info", headless = true)
public class GpuInfoCommand extends NufftCommand {

	@Parameter(persist = false, label = "device", description = "GPU ordinal")
	public int device = 0;

	@Parameter(type = ItemIO.OUTPUT, label = "log")
	public String log;

	@Override
	protected void execute() {
		org.nufftj.InvalidInputException.require(device >= 0, "device: expected a GPU ordinal >= 0, found " + device);
		final StringBuilder b = new StringBuilder("NUFFT-J GPU Info\n");
		b.append("Java ").append(System.getProperty("java.version")).append(" on ").append(System.getProperty(
			"os.name")).append(' ').append(System.getProperty("os.arch")).append('\n');
		try {
			b.append(GpuInfo.describe()).append('\n');
			final String why = GpuInfo.unusableReason(device);
			b.append(why == null ? "gpu:" + device + " is usable: device=gpu and device=auto run on it"
				: "gpu:" + device + " is not used: " + why + " (device=auto runs on the CPU)");
		}
		catch (final LinkageError e) {
			b.append("GPU engine classes not loadable (JCuda jars missing from jars/?): ").append(e);
		}
		log = b.toString().trim();
	}
}
