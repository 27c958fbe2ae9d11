package org.nufftj.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Batch;
import org.nufftj.app.Options;
import org.nufftj.app.Session;
import org.nufftj.io.AtomicFiles;
import org.nufftj.recon.ReconOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nufft-j batch}: the gridding reconstruction of {@code recon} over many scans, in one process. */
@Command(name = "batch", mixinStandardHelpOptions = true,
	description = { "Gridding reconstruction of many scans with one set of options (those of 'recon'), one process.",
		"Inputs: folders (their ISMRMRD .h5 files and BART k-space .cfl files with <name>_traj.cfl beside them),",
		"files, or @list (a text file naming one scan per line). Each output is --out/<template>, {name} = the scan's",
		"file name without extension. A scan that fails is reported with its error and the others go on; the exit",
		"status is 1 when any failed. A summary table (CSV: scan, output, status, device, ms, error) is written." })
final class BatchCommand implements Callable<Integer> {

	@Mixin
	NufftArgs nufft;

	@Option(names = "--dcf", paramLabel = "auto|none|ramp|voronoi|pipe-menon", defaultValue = "auto",
		description = "Density compensation (default: ${DEFAULT-VALUE}: per scan, none for Cartesian designs, else pipe-menon).")
	String dcf;

	@Option(names = "--dcf-iterations", paramLabel = "n", defaultValue = "" + ReconOptions.DEFAULT_DCF_ITERATIONS,
		description = "Pipe-Menon iterations (default: ${DEFAULT-VALUE}).")
	int dcfIterations;

	@Option(names = "--combine", paramLabel = "sos|walsh|none", defaultValue = "sos",
		description = "Coil combination (default: ${DEFAULT-VALUE}).")
	String combine;

	@Option(names = "--out", paramLabel = "folder", required = true,
		description = "Folder of the outputs (created if missing).")
	Path out;

	@Option(names = "--name", paramLabel = "template", defaultValue = "{name}.tif",
		description = "Output name per scan (default: ${DEFAULT-VALUE}; .tif: magnitude TIFF stack, else .cfl).")
	String name;

	@Option(names = "--resume", description = "Skip the scans whose output exists (outputs appear only when complete).")
	boolean resume;

	@Option(names = "--devices", paramLabel = "list",
		description = { "Reconstruct several scans at once, one worker per device: gpu:all, or a list such as",
			"gpu:0,gpu:1 or cpu,cpu (CPU workers share the cores). Default: one worker on --device." })
	String devices;

	@Option(names = "--summary", paramLabel = "file.csv|file.json",
		description = "Summary table, CSV or (name ending in .json) JSON (default: <out>/summary.csv).")
	Path summary;

	@Parameters(arity = "1..*", paramLabel = "<scans>", description = "Folders, scan files or @list files.")
	List<Path> inputs;

	@Spec
	CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		Options.dcf(dcf, false);
		InvalidInputException.require(dcfIterations >= 1, "--dcf-iterations: expected >= 1, found " + dcfIterations);
		final ReconOptions options = ReconOptions.defaults().withNufft(nufft.options())
			.withCombine(Options.combine(combine)).withDcfIterations(dcfIterations);
		final List<Path> scans = Batch.scans(inputs);
		final List<Path> outputs = new ArrayList<>();
		for (final Path s : scans) outputs.add(Batch.output(out, name, s));
		Files.createDirectories(out);
		final PrintWriter err = spec.commandLine().getErr();
		final List<Batch.Item> items;
		final Batch.Writer writer = (o, scan, r) -> ImageFiles.write(o, r.image(), scan.frameDims());
		if (devices == null) {
			try (Session session = new Session(err::println)) {
				items = Batch.run(scans, outputs, options, dcf, nufft.dims(), resume, session, writer, err::println);
			}
		}
		else {
			final List<org.nufftj.nufft.DeviceChoice> list = Batch.devices(devices);
			final long cpuWorkers = list.stream().filter(d -> d.kind() != org.nufftj.nufft.DeviceChoice.Kind.GPU).count();
			final int threads = cpuWorkers == 0 ? 0 : Math.max(1, (options.nufft().threads() > 0 ? options.nufft()
				.threads() : Runtime.getRuntime().availableProcessors()) / (int) cpuWorkers);
			items = Batch.run(scans, outputs, options, dcf, nufft.dims(), resume, list, threads, writer, err::println,
				err::println);
		}
		final Path table = summary != null ? summary : out.resolve("summary.csv");
		final boolean json = table.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".json");
		final byte[] bytes = (json ? Batch.json(items) : Batch.csv(items)).getBytes(StandardCharsets.UTF_8);
		AtomicFiles.write(table, os -> os.write(bytes));
		final long failed = Batch.count(items, Batch.Item.Status.FAILED);
		err.println("batch: " + Batch.count(items, Batch.Item.Status.OK) + " reconstructed, " + Batch.count(items,
			Batch.Item.Status.SKIPPED) + " skipped, " + failed + " failed; summary " + table);
		return failed == 0 ? Main.OK : Main.BAD_INPUT; // 1: at least one scan failed (each named in the summary)
	}
}
