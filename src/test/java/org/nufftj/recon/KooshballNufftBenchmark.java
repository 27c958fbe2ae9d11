package org.nufftj.recon;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.nufftj.nufft.Nufft;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Radial3D;
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
 * JMH benchmark of issue 10's 3D rows, in-process: adjoint (and forward) NUFFT of one coil of a 3D radial ("kooshball") trajectory,
 * the points of the FINUFFT comparison ({@link Radial3D}, 8192 full-diameter spokes × 256 samples = 2,097,152 points,
 * golden-means directions), onto 128³ at ε = 1e-3 (float) and 64³ at ε = 1e-6 (double), 2 worker threads; plan and
 * points made once per trial, times per execute. Not run by surefire: {@code scripts/jmh.sh KooshballNufftBenchmark}
 * or {@code scripts/jmh-ab.sh} beside an earlier commit (results: docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// With the Vector API module: the engine's vector loops. A -jvmArgsAppend on the command line replaces these
// arguments (e.g. "-Xmx8g -Dnufftj.vector=false" for the scalar loops).
@Fork(value = 1, jvmArgsAppend = { "-Xmx8g", "--add-modules=jdk.incubator.vector" })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class KooshballNufftBenchmark {

	/** "size/tolerance/precision" of the two rows. */
	@Param({ "128/1e-3/FLOAT", "64/1e-6/DOUBLE" })
	public String row;

	@Param({ "2" })
	public int threads;

	private NufftPlan plan;
	private double[] samples, image, adjointOut, forwardOut;

	@Setup(Level.Trial)
	public void setUp() {
		final String[] r = row.split("/");
		final int n = Integer.parseInt(r[0]);
		// The FINUFFT comparison's points (FinufftSideBySide.kooshball): 8192 spokes x 256, golden means.
		final Trajectory t = new Radial3D(256, 8192, Radial3D.Ordering.GOLDEN_MEANS, false).build();
		final int m = t.count();
		final Random random = new Random(1);
		samples = new double[2 * m];
		for (int i = 0; i < samples.length; i++) samples[i] = random.nextGaussian();
		image = new double[2 * n * n * n];
		for (int i = 0; i < image.length; i++) image[i] = random.nextGaussian();
		adjointOut = new double[image.length];
		forwardOut = new double[samples.length];
		plan = Nufft.plan(new int[] { n, n, n }, NufftOptions.defaults().withTolerance(Double.parseDouble(r[1]))
			.withPrecision(Precision.valueOf(r[2])).withThreads(threads));
		plan.setPoints(t);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		plan.close();
	}

	@Benchmark
	public double[] adjoint() {
		plan.adjoint(samples, adjointOut);
		return adjointOut;
	}

	@Benchmark
	public double[] forward() {
		plan.forward(image, forwardOut);
		return forwardOut;
	}
}
