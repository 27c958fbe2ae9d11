package org.nufftj.app.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.TestSeeds;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.Arrays2;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Nudft;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TuneMode;
import org.nufftj.nufft.TestTrajectories;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.Trajectory;

/**
 * The tuner on one backend (the CPU in CI: CpuTunerTest; a GPU on the device machine: GpuTunerTest): every candidate
 * it timed meets ε against the exact NUDFT (fresh random points and data, seed printed), the wisdom answers a second
 * run without timing, and other keys are not matched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractTunerTest {

	/** The backend under test; closed after the class. */
	protected abstract Backend open();

	private Backend backend;

	@BeforeAll
	void openBackend() {
		backend = open();
	}

	@AfterAll
	void closeBackend() {
		if (backend != null) backend.close();
	}

	@Test
	void everyTimedCandidateMeetsEpsAgainstTheNudft(@TempDir final Path dir) {
		final long seed = TestSeeds.fresh();
		System.out.println(getClass().getSimpleName() + " seed " + seed);
		final Random r = new Random(seed);
		check(dir, new int[] { 24, 20 }, TestTrajectories.make("random", new int[] { 24, 20 }, 700, r), 1e-3,
			Precision.FLOAT, r);
		check(dir, new int[] { 24, 20 }, new GoldenAngleRadial(24, 30).build(), 1e-5, Precision.DOUBLE, r);
		check(dir, new int[] { 10, 12, 8 }, TestTrajectories.make("random", new int[] { 10, 12, 8 }, 600, r), 1e-4,
			Precision.FLOAT, r);
	}

	/**
	 * The tuner knows its points: at an ε between the worst-offset model of Kaiser–Bessel W = 4, σ = 2 and what the
	 * tuner asks of the model on these points (with its margin), the heuristic must take W = 5 there, and the tuner
	 * times W = 4, which meets ε against the NUDFT ({@link #check} runs every timed candidate). Fails when the tuner
	 * accepts plans by the worst offset only (no W = 4 candidate) or when the model on the points with its margin
	 * undershoots an achieved error.
	 */
	@Test
	void aWidthThePointsAllowIsTimedAndMeetsEps(@TempDir final Path dir) {
		final long seed = TestSeeds.fresh();
		System.out.println(getClass().getSimpleName() + " narrower width, seed " + seed);
		final Random r = new Random(seed);
		final int[] size = { 48, 40 };
		final Trajectory t = TestTrajectories.make("random", size, 2500, r);
		final NufftOptions kb = NufftOptions.defaults().withDevice(backend.device()).withKernel(KernelType.KAISER_BESSEL)
			.withOversampling(2);
		final NufftParameters narrow = ParameterChoice.choose(size, kb.withWidth(4));
		final double asked = ParameterChoice.expectedError(narrow, t) * ParameterChoice.onPointsMargin(size, t.count());
		final double worst = narrow.predictedError();
		assertTrue(asked < 0.9 * worst, "random points spread over the offsets: model on them with its margin " + asked +
			", worst offset " + worst);
		final double eps = Math.sqrt(asked * worst);
		assertEquals(5, ParameterChoice.choose(size, kb.withTolerance(eps)).width(), "the heuristic's width at " + eps);
		final Tuner.Report report = check(dir, size, t, eps, Precision.FLOAT, r);
		assertTrue(report.candidates().stream().anyMatch(c -> c.ok() && c.parameters().width() == 4 &&
			c.parameters().kernel() == KernelType.KAISER_BESSEL && c.parameters().oversampling() == 2),
			"Kaiser-Bessel W = 4, sigma = 2 timed at eps " + eps + ":\n" + report.table());
	}

	@Test
	void aSecondTuneOfTheSameKeyTimesNothing(@TempDir final Path dir) {
		final Random r = new Random();
		final int[] size = { 20, 16 };
		final Trajectory t = TestTrajectories.make("random", size, 500, r);
		final Tuner tuner = new Tuner(new Wisdom(dir.resolve("w.json"), null), null);
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-3);
		final Tuner.Report first = tuner.tune(backend, t, size, 2, o, TuneDirection.BOTH, TuneMode.QUICK, 5, true);
		assertTrue(first.timed() >= 2, "the default and at least one candidate: " + first.table());
		assertFalse(first.fromWisdom());
		final Tuner.Report second = tuner.tune(backend, t, size, 2, o, TuneDirection.BOTH, TuneMode.QUICK, 5, true);
		assertEquals(0, second.timed(), second.table());
		assertTrue(second.fromWisdom());
		assertTrue(second.candidates().isEmpty());
		assertEquals(first.winner(), second.winner());
		// A fresh tuner (another run) on the same file: also answered by the wisdom.
		final Tuner.Report third = new Tuner(new Wisdom(dir.resolve("w.json"), null), null).tune(backend, t, size, 2,
			o, TuneDirection.BOTH, TuneMode.QUICK, 5, true);
		assertEquals(0, third.timed());
		// resolve() with tuning off reads the winner; options with an explicit kernel are never overridden.
		final NufftOptions resolved = tuner.resolve(backend, t, size, 2, o, TuneDirection.BOTH);
		assertEquals(first.winner().apply(o).width(), resolved.width());
		assertEquals(first.winner().oversampling(), resolved.oversampling());
		final NufftOptions explicit = o.withKernel(KernelType.GAUSSIAN);
		assertSame(explicit, tuner.resolve(backend, t, size, 2, explicit, TuneDirection.BOTH));
	}

	@Test
	void anotherKeyIsNotMatched(@TempDir final Path dir) {
		final Random r = new Random();
		final int[] size = { 20, 16 };
		final Trajectory t = TestTrajectories.make("random", size, 400, r);
		final Wisdom w = new Wisdom(dir.resolve("w.json"), null);
		final Tuner tuner = new Tuner(w, null);
		final NufftOptions o = NufftOptions.defaults().withTolerance(1e-3);
		tuner.tune(backend, t, size, 1, o, TuneDirection.ADJOINT, TuneMode.QUICK, 2, true);
		final String id = backend.identity();
		assertTrue(w.lookup(TuneKey.of(id, size, t, 1, o, TuneDirection.ADJOINT)).isPresent());
		assertFalse(w.lookup(TuneKey.of(id, size, t, 1, o.withTolerance(1e-4), TuneDirection.ADJOINT)).isPresent(),
			"other eps");
		assertFalse(w.lookup(TuneKey.of(id, new int[] { 16, 20 }, t, 1, o, TuneDirection.ADJOINT)).isPresent(),
			"other dims");
		assertFalse(w.lookup(TuneKey.of(id, size, t, 2, o, TuneDirection.ADJOINT)).isPresent(), "other batch");
		assertFalse(w.lookup(TuneKey.of(id, size, t, 1, o.withPrecision(Precision.DOUBLE), TuneDirection.ADJOINT))
			.isPresent(), "other precision");
		assertFalse(w.lookup(TuneKey.of(id, size, t, 1, o, TuneDirection.FORWARD)).isPresent(), "other direction");
		assertFalse(w.lookup(TuneKey.of(id + " (another)", size, t, 1, o, TuneDirection.ADJOINT)).isPresent(),
			"other device");
		final Trajectory moved = TestTrajectories.make("random", size, 400, r);
		assertFalse(w.lookup(TuneKey.of(id, size, moved, 1, o, TuneDirection.ADJOINT)).isPresent(), "other points");
		// And a tuning run for another ε times again.
		assertTrue(tuner.tune(backend, t, size, 1, o.withTolerance(1e-4), TuneDirection.ADJOINT, TuneMode.QUICK, 2,
			true).timed() >= 1);
	}

	// -- helpers --

	/**
	 * Tunes (exhaustive, small budget) and checks every candidate that was timed, the winner among them: forward and
	 * adjoint of random data against the NUDFT in double, relative l2 error ≤ ε.
	 */
	private Tuner.Report check(final Path dir, final int[] size, final Trajectory t, final double eps,
		final Precision p, final Random r)
	{
		final Tuner tuner = new Tuner(new Wisdom(dir.resolve("accuracy.json"), null), null);
		final NufftOptions o = NufftOptions.defaults().withTolerance(eps).withPrecision(p);
		final Tuner.Report report = tuner.tune(backend, t, size, 1, o, TuneDirection.BOTH, TuneMode.EXHAUSTIVE, 6,
			true);
		assertNotNull(report.winner(), report.table());
		final List<TunedParameters> checked = new ArrayList<>();
		for (final Tuner.Candidate c : report.candidates()) {
			if (!c.ok()) continue;
			assertTrue(c.modelError() <= eps, c.parameters() + ": model error " + c.modelError());
			final NufftOptions tuned = c.parameters().apply(o);
			int pixels = 1;
			for (final int n : size) pixels *= n;
			final double[] x = Arrays2.gaussian(r, 2 * pixels), y = Arrays2.gaussian(r, 2 * t.count());
			final double[] fx = new double[y.length], ay = new double[x.length];
			try (NufftPlan plan = backend.plan(size, tuned)) {
				plan.setPoints(t);
				plan.forward(x, fx);
				plan.adjoint(y, ay);
			}
			final double ef = Arrays2.relativeError(fx, Nudft.forward(size, t, x, 2));
			final double ea = Arrays2.relativeError(ay, Nudft.adjoint(size, t, y, 2));
			assertTrue(ef <= eps && ea <= eps, c.parameters() + " on " + t + " " + java.util.Arrays.toString(size) +
				": forward error " + ef + ", adjoint " + ea + ", eps " + eps + "\n" + report.table());
			checked.add(c.parameters());
		}
		assertTrue(checked.contains(report.winner()), "the winner was checked: " + report.table());
		assertTrue(checked.size() >= 3, "at least the default and two candidates within the budget: " + report.table());
		return report;
	}
}
