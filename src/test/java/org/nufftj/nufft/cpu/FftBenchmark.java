package org.nufftj.nufft.cpu;

import static org.bytedeco.fftw.global.fftw3.FFTW_BACKWARD;
import static org.bytedeco.fftw.global.fftw3.FFTW_MEASURE;
import static org.bytedeco.fftw.global.fftw3.fftw_destroy_plan;
import static org.bytedeco.fftw.global.fftw3.fftw_execute;
import static org.bytedeco.fftw.global.fftw3.fftw_init_threads;
import static org.bytedeco.fftw.global.fftw3.fftw_plan_many_dft;
import static org.bytedeco.fftw.global.fftw3.fftw_plan_with_nthreads;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.bytedeco.fftw.global.fftw3;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Loader;
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
 * JMH benchmark of the CPU plan's grid FFT (the adjoint's: sign +1) on the engine's own layout, a double grid of
 * {@code coils} transforms stored transform-innermost (issue 10, item 3; results in docs/benchmarks.md):
 * <ul>
 * <li>{@code GRID}: {@link GridFft} as the plan runs it, pruned for an image of n/1.5 per axis (the σ = 1.5 grid of the
 * NUFFT rows), on the plan's workers (since this round the project's own line FFT, {@link LineFft}; before it,
 * JTransforms double 1D FFTs over gathered lines: {@code scripts/jmh-ab.sh} compares the two commits);</li>
 * <li>{@code GRID_FULL}: the same, unpruned (image = grid);</li>
 * <li>{@code FFTW}: FFTW 3.3.10 (JavaCPP presets), one {@code fftw_plan_many_dft} over the batch in place
 * (stride = coils, distance 1), FFTW_MEASURE, {@code threads} FFTW threads, unpruned; the time includes copying the
 * Java grid into the plan's native buffer and back, which a plan keeping its grid in a Java array would pay.</li>
 * <li>{@code TOEPLITZ_FLOAT}: the backend's FFT ({@link CpuFft}) as {@code pics --normal toeplitz} runs it on a float
 * buffer of {@code coils} arrays of n² (x fastest, arrays back to back): the pruned forward from the centred block of
 * n/2 per axis, then the pruned inverse to it (two FFTs per op, as per CG iteration).</li>
 * </ul>
 * {@code n}: the grid side (2D: n², 3D: n³). The forks have {@code jdk.incubator.vector} (the line FFT's vector
 * passes; {@code -jvmArgsAppend -Dnufftj.vector=false} for the scalar ones). Run: {@code scripts/jmh.sh FftBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx3g", "--add-modules", "jdk.incubator.vector" })
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FftBenchmark {

	public enum Impl { GRID, GRID_FULL, FFTW, TOEPLITZ_FLOAT }

	@Param({ "384", "512", "640", "768", "1024" })
	public int n;

	@Param({ "2" })
	public int dims;

	@Param({ "1", "8" })
	public int coils;

	@Param({ "2" })
	public int threads;

	@Param({ "GRID", "GRID_FULL", "FFTW", "TOEPLITZ_FLOAT" })
	public Impl impl;

	private double[] grid;
	private Workers workers;
	private GridFft fft;
	private CpuFft backendFft;
	private float[] floats;
	private CpuBuffer buffer;
	private int[] half;
	private DoublePointer nativeGrid;
	private fftw3.fftw_plan plan;

	@Setup(Level.Trial)
	public void setUp() {
		final int[] size = new int[dims], image = new int[dims];
		long cells = 1;
		for (int a = 0; a < dims; a++) {
			size[a] = n;
			image[a] = impl == Impl.GRID ? (int) Math.round(n / 1.5) : n;
			cells *= n;
		}
		grid = new double[(int) (2 * cells * coils)];
		final Random r = new Random(1);
		for (int i = 0; i < grid.length; i++) grid[i] = r.nextGaussian();
		if (impl == Impl.FFTW) {
			Loader.load(fftw3.class);
			fftw_init_threads();
			fftw_plan_with_nthreads(threads);
			nativeGrid = new DoublePointer(grid.length);
			// FFTW's arrays are row-major: the slowest axis first.
			plan = fftw_plan_many_dft(dims, new IntPointer(size), coils, nativeGrid, null, coils, 1, nativeGrid, null,
				coils, 1, FFTW_BACKWARD, FFTW_MEASURE);
			nativeGrid.put(grid);
		}
		else if (impl == Impl.TOEPLITZ_FLOAT) {
			workers = new Workers(threads);
			backendFft = new CpuFft(size, workers);
			floats = new float[grid.length];
			for (int i = 0; i < grid.length; i++) floats[i] = (float) grid[i];
			buffer = new CpuBuffer(null, floats, null, 0, floats.length);
			half = new int[dims];
			java.util.Arrays.fill(half, n / 2);
		}
		else {
			workers = new Workers(threads);
			fft = new GridFft(size, image, workers);
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		if (plan != null) fftw_destroy_plan(plan);
		if (nativeGrid != null) nativeGrid.close();
		if (workers != null) workers.close();
	}

	@Benchmark
	public Object transform() {
		if (impl == Impl.TOEPLITZ_FLOAT) {
			backendFft.transform(buffer, -1, half, true);
			backendFft.transform(buffer, 1, half, false);
			final float s = (float) (1.0 / (grid.length / 2.0 / coils));
			for (int i = 0; i < floats.length; i++) floats[i] *= s;
			return floats;
		}
		if (impl == Impl.FFTW) {
			nativeGrid.put(grid);
			fftw_execute(plan);
			nativeGrid.get(grid);
		}
		else {
			fft.transform(grid, coils, +1);
		}
		// Keep values bounded over many calls: the unnormalised FFT grows them by √cells per call.
		final double s = 1 / Math.sqrt(grid.length / 2.0 / coils);
		for (int i = 0; i < grid.length; i++) grid[i] *= s;
		return grid;
	}
}
