package org.nufftj.recon;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.nufftj.io.TrajectoryFiles;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.cpu.CpuBackend;
import org.nufftj.trajectory.Trajectory;
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
 * JMH benchmark of the small-sample Pipe–Menon density compensation on the CPU backend: sample-data/bart/radial_traj
 * (64², 101 spokes × 128, 12,928 points), 20 iterations (20 spreads + 20 interpolations through the backend's stage
 * API), as {@code DensityCompensation.compute(cpu, PIPE_MENON, …)} runs it in a reconstruction. The backend is opened
 * once per trial; each call makes its own plan. Run from the repository root with {@code scripts/jmh.sh} or
 * {@code scripts/jmh-ab.sh} (results: docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx2g" })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PipeMenonDcfBenchmark {

	@Param({ "1", "2" })
	public int threads;

	@Param({ "FLOAT", "DOUBLE" })
	public Precision precision;

	@Param({ "20" })
	public int iterations;

	private static final int[] SIZE = { 64, 64 };
	private CpuBackend cpu;
	private Trajectory trajectory;

	@Setup(Level.Trial)
	public void setUp() throws IOException {
		trajectory = TrajectoryFiles.readCfl(Path.of("sample-data", "bart", "radial_traj"), SIZE);
		cpu = new CpuBackend(threads);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		cpu.close();
	}

	@Benchmark
	public float[] pipeMenon() {
		return DensityCompensation.compute(cpu, DcfMethod.PIPE_MENON, trajectory, SIZE, iterations,
			NufftOptions.defaults().withPrecision(precision));
	}
}
