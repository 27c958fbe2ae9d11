package org.nufftj.recon;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.nufftj.app.Scan;
import org.nufftj.app.ScanLoader;
import org.nufftj.data.FrameGroup;
import org.nufftj.io.Cfl;
import org.nufftj.io.IsmrmrdData;
import org.nufftj.io.IsmrmrdReader;
import org.nufftj.io.IsmrmrdTools;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.phantom.AnalyticPhantom;
import org.nufftj.phantom.CoilSensitivities;
import org.nufftj.phantom.Noise;
import org.nufftj.phantom.Simulation;
import org.nufftj.trajectory.Trajectory;
import org.nufftj.trajectory.TrajectoryKind;
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
 * {@code -p source=cfl}: the same series as a BART file instead (for machines without the ISMRMRD tools, such as the
 * GPU machine): {@code [1, 512, 256, 8, 1, …, 20 frames in dim 10]}, made by our own analytic simulation
 * (Shepp–Logan × 8 synthetic coil maps on the Cartesian grid with 2× readout oversampling, each frame with its own
 * phase), read by ScanLoader as a Cartesian design and reconstructed the same way.
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

	@Param({ "ismrmrd" })
	public String source;

	private static final int[] MATRIX = { 256, 256 };
	private static final int COILS = 8, FRAMES = 20;

	private Path dir, file;
	private Backend backend;

	@Setup(Level.Trial)
	public void setUp() throws Exception {
		dir = Files.createTempDirectory("cine");
		if (source.equals("cfl")) {
			file = dir.resolve("cine.cfl");
			writeCfl(file);
		}
		else {
			final Path gen = IsmrmrdTools.tool("ismrmrd_generate_cartesian_shepp_logan");
			if (gen == null) throw new IllegalStateException(IsmrmrdTools.why);
			file = dir.resolve("cine.h5");
			IsmrmrdTools.run(List.of(gen.toString(), "-m", "256", "-c", "8", "-r", "20", "-k", "-o", file.toString()),
				dir);
		}
		backend = Backends.open(DeviceChoice.parse(device), threads, null);
	}

	/** The BART cine: one simulated frame of k-space, each frame turned by its own phase e^{0.3i·f}. */
	private static void writeCfl(final Path file) throws java.io.IOException {
		final Trajectory t = TrajectoryKind.CARTESIAN.designFor(MATRIX, 2 * MATRIX[0], MATRIX[1]).build();
		final Simulation sim = new Simulation(AnalyticPhantom.sheppLogan2d(), CoilSensitivities.synthetic(COILS,
			MATRIX));
		final float[] one = sim.run(t, Noise.NONE, Runtime.getRuntime().availableProcessors()).kspace().data();
		final float[] all = new float[one.length * FRAMES];
		for (int f = 0; f < FRAMES; f++) {
			final double c = Math.cos(0.3 * f), sn = Math.sin(0.3 * f);
			for (int i = 0; i < one.length; i += 2) {
				all[f * one.length + i] = (float) (one[i] * c - one[i + 1] * sn);
				all[f * one.length + i + 1] = (float) (one[i] * sn + one[i + 1] * c);
			}
		}
		final long[] dims = new long[Cfl.DIMS];
		Arrays.fill(dims, 1);
		dims[1] = t.readout();
		dims[2] = t.shots();
		dims[3] = COILS;
		dims[10] = FRAMES;
		Cfl.write(file, dims, all);
	}

	@TearDown(Level.Trial)
	public void tearDown() throws Exception {
		backend.close();
		try (var files = Files.list(dir)) {
			for (final Path f : (Iterable<Path>) files::iterator) Files.deleteIfExists(f);
		}
		Files.deleteIfExists(dir);
	}

	@Benchmark
	public ReconResult cine() throws Exception {
		final ReconResult r;
		if (source.equals("cfl")) {
			final Scan s = ScanLoader.load(file, null, TrajectoryKind.CARTESIAN, MATRIX);
			final FrameGroup part = s.parts().get(0);
			r = GriddingRecon.reconstruct(backend, part.trajectory(), part.kspace(), s.matrix(), ReconOptions.defaults()
				.withDcf(DcfMethod.NONE), Progress.NONE);
		}
		else {
			final IsmrmrdData d = IsmrmrdReader.read(file);
			final var part = d.blocks().get(0);
			r = GriddingRecon.reconstruct(backend, part.trajectory(), part.kspace(), d.matrix(), ReconOptions.defaults()
				.withDcf(DcfMethod.NONE), Progress.NONE);
		}
		if (r.image().frames() != 20 || !r.backend().contains("exact FFT")) throw new IllegalStateException(
			"expected 20 frames by the exact FFT path, found " + r.image().frames() + " by " + r.backend());
		return r;
	}
}
