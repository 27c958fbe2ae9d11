package org.nufftj.nufft.cpu;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.jtransforms.fft.DoubleFFT_1D;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH benchmark of one JTransforms double complex 1D FFT of {@code n} points, the unit {@link GridFft} runs over every
 * line of the CPU plan's grid: which line lengths are fast (issue 10, item 4; the figures behind the CPU FFT cost
 * classes of {@code nufft.ParameterChoice}, results in docs/benchmarks.md). One thread; the line is transformed in
 * place forward and back (the scaling of the inverse is off), so the data stay bounded. Run:
 * {@code scripts/jmh.sh FftLengthBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FftLengthBenchmark {

	@Param({ "320", "384", "400", "432", "480", "500", "512", "640", "768", "1024" })
	public int n;

	private DoubleFFT_1D fft;
	private double[] line;

	@Setup
	public void setUp() {
		fft = new DoubleFFT_1D(n);
		line = new double[2 * n];
		final Random r = new Random(1);
		for (int i = 0; i < line.length; i++) line[i] = r.nextGaussian();
	}

	/** One forward and one inverse transform of the line: report half the time per FFT. */
	@Benchmark
	public double[] forwardAndBack() {
		fft.complexForward(line);
		fft.complexInverse(line, true);
		return line;
	}
}
