package org.nufftj.command;

import org.nufftj.ij1.CommandLauncher;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

/**
 * Plugins › NUFFT-J › GPU Info: which engine a GPU request gets and why. It asks the plan factory for a small plan on
 * {@code gpu:N} and reports the backend it names (device, driver, memory, cuFFT come from the GPU engine's own
 * description), or the reason it fails; with no GPU engine in this build the plan runs on the CPU and says so.
 */
@Plugin(type = Command.class, label = "GPU Info", menuRoot = CommandLauncher.MENU_ROOT,
	menuPath = "Plugins>NUFFT-J>GPU Info", headless = true)
public class GpuInfoCommand extends NufftCommand {

	@Parameter(label = "device", description = "GPU ordinal")
	public int device = 0;

	@Parameter(type = ItemIO.OUTPUT, label = "log")
	public String log;

	@Override
	protected void execute() {
		org.nufftj.InvalidInputException.require(device >= 0, "device: expected a GPU ordinal >= 0, found " + device);
		final StringBuilder b = new StringBuilder("NUFFT-J GPU Info\n");
		b.append("Java ").append(System.getProperty("java.version")).append(" on ").append(System.getProperty(
			"os.name")).append(' ').append(System.getProperty("os.arch")).append('\n');
		b.append("JCuda classes: ").append(present("jcuda.driver.JCudaDriver") ? "present" : "absent").append(", JCufft: ")
			.append(present("jcuda.jcufft.JCufft") ? "present" : "absent").append('\n');
		try (NufftPlan plan = Nufft.plan(new int[] { 16, 16 }, NufftOptions.defaults().withDevice(DeviceChoice.gpu(
			device))))
		{
			final String backend = plan.backend();
			b.append("gpu:").append(device).append(" request runs on: ").append(backend).append('\n');
			if (Comparison.isCpu(backend)) b.append("The GPU is not used: this build's plan factory has no GPU engine " +
				"for this request (see docs/fiji.md, GPU).\n");
		}
		catch (final RuntimeException | LinkageError e) {
			b.append("gpu:").append(device).append(" is not usable: ").append(e.getMessage()).append('\n');
		}
		log = b.toString().trim();
	}

	private static boolean present(final String cls) {
		try {
			Class.forName(cls, false, GpuInfoCommand.class.getClassLoader());
			return true;
		}
		catch (final ClassNotFoundException | LinkageError e) {
			return false;
		}
	}
}
