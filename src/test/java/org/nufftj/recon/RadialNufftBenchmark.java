package org.nufftj.recon;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
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
 * JMH benchmark of the CPU workload, in-process: adjoint and forward NUFFT of radial k-space, 402 spokes × 512
 * samples (2× readout oversampling, 205,824 points per coil) onto 256², float, 8 and 32 coils, ε = 1e-3 and 1e-4; the
 * plan and its points are made once per trial (as in an iterative recon), so times are per execute. Not run by
 * surefire; run with {@code scripts/jmh.sh}, or {@code scripts/jmh-ab.sh} beside an earlier commit (results:
 * docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// With the Vector API module: the engine's vector loops. A -jvmArgsAppend on the command line replaces these
// arguments (e.g. "-Xmx8g -Dnufftj.vector=false" for the scalar loops).
@Fork(value = 1, jvmArgsAppend = { "-Xmx8g", "--add-modules=jdk.incubator.vector" })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RadialNufftBenchmark {

	@Param({ "8", "32" })
	public int coils;

	@Param({ "1e-3", "1e-4" })
	public double tolerance;

	@Param({ "256" })
	public int size;

	/** Worker threads (the comparison: 2, the build machine's cores). */
	@Param({ "2" })
	public int threads;

	@Param({ "402" })
	public int spokes;

	@Param({ "512" })
	public int readout;

	/** Oversampling σ; 0 = the automatic choice ({@code ParameterChoice}), e.g. 2 to force a power-of-two grid. */
	@Param({ "0" })
	public double oversampling;

	private NufftPlan plan;
	private float[] samples, image;

	@Setup(Level.Trial)
	public void setUp() {
		NufftOptions o = NufftOptions.defaults().withTolerance(tolerance).withThreads(threads);
		if (oversampling > 0) o = o.withOversampling(oversampling);
		plan = Nufft.plan(new int[] { size, size }, o);
		plan.setPoints(org.nufftj.app.Benchmark.radial(spokes, readout)); // as `nufft-j bench` makes them
		final Random r = new Random(1);
		samples = new float[2 * spokes * readout * coils];
		image = new float[2 * size * size * coils];
		for (int i = 0; i < samples.length; i++) samples[i] = (float) r.nextGaussian();
		for (int i = 0; i < image.length; i++) image[i] = (float) r.nextGaussian();
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		plan.close();
	}

	@Benchmark
	public float[] adjoint() {
		plan.adjoint(samples, image);
		return image;
	}

	@Benchmark
	public float[] forward() {
		plan.forward(image, samples);
		return samples;
	}
}
