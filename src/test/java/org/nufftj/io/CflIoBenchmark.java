package org.nufftj.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
 * JMH benchmark of BART {@code .cfl} file I/O ({@link Cfl#read}, {@link Cfl#write}) on a file of {@code megabytes} MB
 * (dims [1, 8192, megabytes·16]: 8 bytes per complex value) in a temporary folder, so after the first read it is
 * served from the page cache. Time per call; MB/s = megabytes / (ms/op) · 1000. Each read allocates its result, as
 * {@code nufft-j} does: with {@code -bm ss -wi 0 -i 1 -f N} (one call per fresh JVM) the figure is what a one-shot
 * command pays, including the first touch of the new array's memory. Run from the repository root with
 * {@code scripts/jmh.sh CflIoBenchmark} (results: docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx2g" })
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CflIoBenchmark {

	@Param({ "256" })
	public int megabytes;

	private Path dir;
	private Path file;
	private Path out;
	private long[] dims;
	private float[] data;

	@Setup(Level.Trial)
	public void setUp() throws IOException {
		dir = Files.createTempDirectory("cfl-bench");
		file = dir.resolve("in");
		out = dir.resolve("out");
		dims = new long[] { 1, 8192, 16L * megabytes };
		data = new float[2 * 8192 * 16 * megabytes];
		for (int i = 0; i < data.length; i++) data[i] = i % 1000 - 500;
		Cfl.write(file, dims, data);
	}

	@TearDown(Level.Trial)
	public void tearDown() throws IOException {
		try (Stream<Path> s = Files.walk(dir)) {
			for (final Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) Files.delete(p);
		}
	}

	@Benchmark
	public float[] read() throws IOException {
		return Cfl.read(file).data();
	}

	@Benchmark
	public Path write() throws IOException {
		Cfl.write(out, dims, data);
		return out;
	}
}
