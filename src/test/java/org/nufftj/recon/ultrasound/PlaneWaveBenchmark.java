package org.nufftj.recon.ultrasound;

import java.util.concurrent.TimeUnit;

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
 * JMH benchmark of one plane-wave frame, 128 elements × 2048 samples (0°, 40 MHz, 5 MHz, lateral upsampling 1: a
 * 2048 × 128 image): f-k migration against delay-and-sum (receive F# 1) on the same backend, side by side in one run.
 * Frames/s = 1000 / (ms/op). {@code -p device=gpu} runs the FFTs (f-k's four batched 1D FFTs, DAS's envelope FFTs)
 * on the GPU backend; the Stolt mapping, transposes and DAS's delay loop stay on the host. Run from the repository
 * root: {@code scripts/jmh.sh PlaneWaveBenchmark} (results: docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx2g" })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PlaneWaveBenchmark {

	@Param({ "fk", "das" })
	public String method;

	@Param({ "cpu" })
	public String device;

	@Param({ "0" })
	public int threads;

	private Backend backend;
	private PlaneWave p;
	private float[] channels;

	@Setup(Level.Trial)
	public void setUp() {
		p = new PlaneWave(128, 2048, 0.3e-3, 40e6, 1540, 5e6, 0);
		channels = EchoSimulator.echoes(p, EchoSimulator.speckle(1, -19e-3, 19e-3, 2e-3, 38e-3, 2000, null), 0.6);
		backend = Backends.open(DeviceChoice.parse(device), threads, null);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		backend.close();
	}

	@Benchmark
	public float[] frame() {
		return PlaneWaveImaging.image(backend, p, new double[] { 0 }, new float[][] { channels }, PlaneWaveImaging.Method
			.parse(method), 1, 1);
	}
}
