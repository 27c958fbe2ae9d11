package org.nufftj.recon;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.nufftj.io.IsmrmrdData;
import org.nufftj.io.IsmrmrdReader;
import org.nufftj.io.IsmrmrdTools;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH benchmark of a Cartesian cine series end to end from the file: {@code ismrmrd_generate_cartesian_shepp_logan
 * -m 256 -c 8 -r 20 -k} (256², 8 coils, 20 repetitions as frames, 2× readout oversampling), read with IsmrmrdReader
 * and reconstructed by the exact FFT path (CartesianFft through GriddingRecon, DCF none, root sum of squares).
 * Frames/s = 20 · 1000 / (ms/op). {@code -p device=gpu} runs the FFTs and the coil combination on the GPU backend.
 * Run from the repository root: {@code scripts/jmh.sh CartesianCineBenchmark} (results: docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx4g" })
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class CartesianCineBenchmark {

	@Param({ "cpu" })
	public String device;

	@Param({ "0" })
	public int threads;

	private Path dir, file;
	private Backend backend;

	@Setup(Level.Trial)
	public void setUp() throws Exception {
		final Path gen = IsmrmrdTools.tool("ismrmrd_generate_cartesian_shepp_logan");
		if (gen == null) throw new IllegalStateException(IsmrmrdTools.why);
		dir = Files.createTempDirectory("cine");
		file = dir.resolve("cine.h5");
		IsmrmrdTools.run(List.of(gen.toString(), "-m", "256", "-c", "8", "-r", "20", "-k", "-o", file.toString()), dir);
		backend = Backends.open(DeviceChoice.parse(device), threads, null);
	}

	@TearDown(Level.Trial)
	public void tearDown() throws Exception {
		backend.close();
		Files.deleteIfExists(file);
		Files.deleteIfExists(dir);
	}

	@Benchmark
	public ReconResult cine() throws Exception {
		final IsmrmrdData d = IsmrmrdReader.read(file);
		final var part = d.blocks().get(0);
		final ReconResult r = GriddingRecon.reconstruct(backend, part.trajectory(), part.kspace(), d.matrix(),
			ReconOptions.defaults().withDcf(DcfMethod.NONE), Progress.NONE);
		if (r.image().frames() != 20 || !r.backend().contains("exact FFT")) throw new IllegalStateException(
			"expected 20 frames by the exact FFT path, found " + r.image().frames() + " by " + r.backend());
		return r;
	}
}
