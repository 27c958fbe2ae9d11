package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nufftj.TestSeeds;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.nufft.StageTimes;
import org.nufftj.nufft.TestBuffers;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Trajectory;

/**
 * Device-resident executes replayed as CUDA graphs (GpuGraphs) give what the same plan without graphs gives, on fresh
 * data every call (a graph replays launches, not results), for every spreading method, after setPoints with other
 * points (the graphs must be remade: stale ones would read the old points' arrays), and after a larger batch (a new
 * grid); and they are made (from the second execute with the same buffers on) by default, not with
 * {@code nufftj.cudaGraphs=false}.
 */
@Tag("gpu")
@ExtendWith(GpuTests.Available.class)
class GpuGraphsTest {

	@ParameterizedTest
	@EnumSource(value = SpreadMethod.class, names = { "ATOMIC", "SHARED", "OUTPUT_DRIVEN" })
	void graphsGiveWhatThePlainLaunchesGive(final SpreadMethod method) {
		final long seed = TestSeeds.fresh();
		final Random r = new Random(seed);
		final int[] size = { 48, 40 };
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-4).withSpreadMethod(method);
		try (GpuBackend b = GpuBackend.open(0)) {
			final GpuNufftPlan graphed = new GpuNufftPlan(b, ParameterChoice.choose(size, o), o); // the default
			final GpuNufftPlan plain;
			System.setProperty("nufftj.cudaGraphs", "false");
			try {
				plain = new GpuNufftPlan(b, ParameterChoice.choose(size, o), o);
			}
			finally {
				System.clearProperty("nufftj.cudaGraphs");
			}
			try (graphed; plain) {
				for (final int spokes : new int[] { 64, 81 }) {
					final Trajectory t = new GoldenAngleRadial(spokes, 2 * size[0]).build();
					graphed.setPoints(t);
					plain.setPoints(t);
					assertEquals(0, graphed.graphCount(), "setPoints drops the graphs");
					for (final int batch : new int[] { 2, 3 }) {
						final int px = size[0] * size[1], m = t.count();
						try (Buffer x = b.allocate(2L * px * batch, Precision.FLOAT); Buffer y = b.allocate(2L * m * batch,
							Precision.FLOAT); Buffer y2 = b.allocate(2L * m * batch, Precision.FLOAT); Buffer x2 = b.allocate(2L *
								px * batch, Precision.FLOAT))
						{
							for (int call = 0; call < 4; call++) {
								final double[] image = Arrays2.gaussian(r, 2 * px * batch), samples = Arrays2.gaussian(r, 2 * m *
									batch);
								TestBuffers.write(b, image, x);
								graphed.forward(x, y);
								plain.forward(x, y2);
								final double ef = Arrays2.relativeError(TestBuffers.download(b, y), TestBuffers.download(b, y2));
								TestBuffers.write(b, samples, y);
								graphed.adjoint(y, x);
								final StageTimes times = graphed.times();
								plain.adjoint(y, x2);
								final double ea = Arrays2.relativeError(TestBuffers.download(b, x), TestBuffers.download(b, x2));
								final String what = method + ", " + spokes + " spokes, batch " + batch + ", call " + call +
									", seed " + seed;
								assertTrue(ef <= 1e-6 && ea <= 1e-6, "graph vs plain launches: forward " + ef + ", adjoint " +
									ea + ": " + what);
								assertEquals(3, times.snapshot().size(), "three stage times: " + times + ", " + what);
								assertTrue(times.total() >= 0, "stage times: " + times + ", " + what);
							}
							assertTrue(graphed.graphCount() >= 2, "a forward and an adjoint graph: " + graphed.graphCount() +
								", " + method + ", seed " + seed);
							assertEquals(0, plain.graphCount(), "with nufftj.cudaGraphs=false none are made");
						}
					}
				}
			}
		}
	}
}
