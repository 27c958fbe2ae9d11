package org.nufftj.app.tune;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;

import org.nufftj.InvalidInputException;
import org.nufftj.app.Benchmark;
import org.nufftj.kernel.KernelType;
import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DeviceException;
import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.TuneMode;
import org.nufftj.trajectory.Trajectory;

/**
 * Times plan candidates on a backend and keeps the fastest that meets ε (gNUFFTW's per-device tuning, Ou 2017; FFTW's
 * MEASURE with wisdom). Written once against {@link Backend}: the same code tunes the CPU and a GPU.
 * <p>
 * <b>Candidates.</b> The heuristic's plan ({@link ParameterChoice}, "default") is always timed first. Then, for the
 * Kaiser–Bessel and exponential-of-semicircle kernels and σ ∈ {1.25, 1.5, 2, 2.25}, the least W whose model error on
 * the tuned points meets ε ({@link ParameterChoice#expectedError}; exhaustive mode also W + 1 and the least W of the
 * worst-offset model, {@link ParameterChoice#choose}); each with the backend's variants
 * ({@link Backend#variants}: GPU spreading method — atomic, shared with each bin that fits, output-driven on 2D
 * radial lines; CPU kernel evaluation online or from a lookup table). Quick mode times the variants only for the
 * fastest (kernel, σ, W); exhaustive mode times every combination. A candidate whose model error on the points exceeds
 * ε, that cannot run on these points (output-driven spreading off radial lines), or whose plan the device cannot hold
 * ({@link DeviceException}), is listed and skipped.
 * </p>
 * <p>
 * <b>Accuracy on the tuned points.</b> The heuristic must meet ε before it sees the points, so it takes the worst
 * sub-cell offset (where Cartesian points sit); radial, spiral, kooshball and random points spread over all offsets
 * and reach up to 2× less error (docs/conventions.md). A tuning run knows its points (the wisdom key holds their hash),
 * so it accepts a plan whose model on these points meets ε ({@link ParameterChoice#meetsOnPoints}, with a margin for
 * one input's fluctuation about the model): often one width narrower, e.g. the kooshball of
 * docs/gpu-report.md at ε = 1e-5, Kaiser–Bessel σ = 2: W = 6 (model on the points 9.1e-6, achieved 7.4e-6 adjoint and
 * 8.7e-6 forward on the CPU) where the heuristic takes W = 7 (worst offset 1.4e-5 at W = 6). ErrorModelTest pins that
 * the achieved error stays below that model; the tuner tests check every timed candidate against the NUDFT. A tuned plan
 * meets ε on the points it was tuned for; setPoints with other points keeps its parameters (tune again for them).
 * </p>
 * <p>
 * <b>Timing.</b> Random data of the batch in the backend's buffers (on a GPU: device-resident; the copies from and to
 * host arrays are the same for every candidate, so they would only add their noise to the ranking; from host arrays
 * where the buffers do not fit the device); per candidate: plan, setPoints, warm-up executes, then the median of
 * repeats of the direction asked (both: the sum of the forward and adjoint medians), each execute waited for; fast
 * executes are repeated until about 20 ms are timed (at most 31). Candidates are started while the budget lasts (the
 * default always; a candidate started is finished). A final round times the default and the three fastest twice more,
 * interleaved, and keeps each one's best median (the JIT compiles during the first candidates: without it the default,
 * timed first, would look slower than it is).
 * </p>
 * <p>
 * <b>Wisdom.</b> A key found in the {@link Wisdom} with a mode at least the one asked is used without timing (a second
 * run is a no-op: {@link Report#timed()} = 0); a new winner is recorded there.
 * </p>
 */
public final class Tuner {

	/**
	 * σ of the candidates: a GPU's automatic set and 2.25, where the kernel can be one width narrower at small ε (on
	 * the H200 the kooshball adjoint at ε = 1e-5 ran 0.86× as long with it, its forward 1.04×: docs/gpu-tuning.md).
	 */
	static final double[] SIGMAS = java.util.stream.DoubleStream.concat(java.util.Arrays.stream(
		ParameterChoice.gpuSigmas()), java.util.stream.DoubleStream.of(2.25)).distinct().toArray();
	static final KernelType[] KERNELS = { KernelType.KAISER_BESSEL, KernelType.EXP_SEMICIRCLE };

	private final Wisdom wisdom;
	private final Consumer<String> log;

	/** A tuner reading and writing {@code wisdom} (null: none); progress lines to {@code log} (null: none). */
	public Tuner(final Wisdom wisdom, final Consumer<String> log) {
		this.wisdom = wisdom;
		this.log = log;
	}

	public Wisdom wisdom() { return wisdom; }

	// -- public API --

	/**
	 * The options a plan for these points should be made with: {@code options} itself unless it is
	 * {@link NufftOptions#tunable()} (explicit kernel, σ, W, spreading or bins are never overridden); else the wisdom's
	 * winner for the key when there is one, found by a mode at least {@code options.tuneMode()} (OFF takes any), and
	 * it still meets ε by the model; else, when {@code options.tuneMode()} is not OFF, the winner of a tuning run
	 * (recorded in the wisdom); else {@code options} (the heuristic).
	 */
	public NufftOptions resolve(final Backend backend, final Trajectory t, final int[] size, final int batch,
		final NufftOptions options, final TuneDirection direction)
	{
		if (!options.tunable()) return options;
		final TuneMode mode = options.tuneMode();
		final TuneKey key = TuneKey.of(backend.identity(), size, t, batch, options, direction);
		final Optional<Wisdom.Entry> known = wisdom == null ? Optional.empty() : wisdom.lookup(key);
		if (known.isPresent() && known.get().mode().ordinal() >= mode.ordinal()) {
			final NufftOptions o = applied(known.get().winner(), options, size, t);
			if (o != null) return o;
		}
		if (mode == TuneMode.OFF) return options;
		final Report r = tune(backend, t, size, batch, options, direction, mode, options.tuneBudgetSeconds(), true);
		final NufftOptions o = applied(r.winner(), options, size, t);
		return o != null ? o : options;
	}

	/**
	 * Tunes a plan for {@code t} on {@code backend} ({@code mode} QUICK or EXHAUSTIVE; OFF only consults the wisdom)
	 * and records the winner in the wisdom. With {@code useWisdom}, a wisdom entry of the key found by a mode at least
	 * {@code mode} is returned without timing anything.
	 */
	public Report tune(final Backend backend, final Trajectory t, final int[] size, final int batch,
		final NufftOptions options, final TuneDirection direction, final TuneMode mode, final double budgetSeconds,
		final boolean useWisdom)
	{
		InvalidInputException.require(batch >= 1, "tune: batch (coils x frames) must be >= 1, found " + batch);
		final NufftOptions base = options.withTuning(TuneMode.OFF, 0);
		final TuneKey key = TuneKey.of(backend.identity(), size, t, batch, options, direction);
		if (useWisdom && wisdom != null) {
			final Optional<Wisdom.Entry> e = wisdom.lookup(key);
			if (e.isPresent() && (e.get().mode().ordinal() >= mode.ordinal()) &&
				applied(e.get().winner(), base, size, t) != null)
			{
				return new Report(key, List.of(), e.get().winner(), e.get(), 0);
			}
		}
		if (mode == TuneMode.OFF) return new Report(key, List.of(), null, null, 0);
		final long deadline = System.nanoTime() + (long) (budgetSeconds * 1e9);
		try (Timing timing = new Timing(backend, t, size, direction, batch, base.precision(),
			mode == TuneMode.EXHAUSTIVE ? 2 : 1, mode == TuneMode.EXHAUSTIVE ? 5 : 3))
		{
			return tune(key, timing, base, mode, deadline);
		}
	}

	/**
	 * Times the heuristic's plan first. Where the device cannot hold it beside the batch's buffers, they are freed and
	 * it is timed from host arrays; where it still fails on the device, that failure ends the tuning run.
	 */
	private static Candidate timeDefault(final Timing timing, final NufftOptions base, final List<Candidate> rows) {
		Candidate def = timing.run("default (heuristic)", base, rows);
		if (def.deviceFailure != null && timing.onDevice()) {
			timing.releaseBuffers();
			rows.clear();
			def = timing.run("default (heuristic)", base, rows);
		}
		if (def.deviceFailure != null) throw def.deviceFailure;
		return def;
	}

	private Report tune(final TuneKey key, final Timing timing, final NufftOptions base, final TuneMode mode,
		final long deadline)
	{
		final int[] size = timing.size;
		final List<Candidate> rows = new ArrayList<>();
		final Candidate def = timeDefault(timing, base, rows);
		InvalidInputException.require(def.ok(), "tune: the heuristic's plan failed: " + def.failure);
		final List<NufftOptions> shapes = new ArrayList<>();
		for (final KernelType k : KERNELS) for (final double sigma : SIGMAS) {
			final NufftOptions o = base.withKernel(k).withOversampling(sigma);
			final int w;
			try {
				w = ParameterChoice.choose(size, o).width();
			}
			catch (final InvalidInputException e) {
				continue; // ε not reachable with this kernel and σ
			}
			// The least W whose model on these points meets ε: at most the worst offset's W, often one less.
			int wp = w;
			while (wp > ParameterChoice.MIN_WIDTH && timing.accepts(ParameterChoice.choose(size, o.withWidth(wp - 1)),
				base.tolerance())) wp--;
			shapes.add(o.withWidth(wp));
			if (mode == TuneMode.EXHAUSTIVE) {
				if (wp + 1 <= ParameterChoice.MAX_WIDTH) shapes.add(o.withWidth(wp + 1));
				if (w > wp + 1) shapes.add(o.withWidth(w));
			}
		}
		for (final NufftOptions s : shapes) {
			if (System.nanoTime() > deadline) break;
			if (mode == TuneMode.EXHAUSTIVE) {
				for (final NufftOptions v : variants(timing.backend, size, s)) {
					if (System.nanoTime() > deadline) break;
					timing.run(null, v, rows);
				}
			}
			else timing.run(null, s, rows);
		}
		if (mode == TuneMode.QUICK) {
			final Candidate best = fastest(rows);
			final List<NufftOptions> vs = variants(timing.backend, size, best.options.withSpreadMethod(
				org.nufftj.nufft.SpreadMethod.AUTO).withBins(null).withEvaluation(NufftOptions.Evaluation.ONLINE));
			for (final NufftOptions v : vs.subList(Math.min(1, vs.size()), vs.size())) {
				if (System.nanoTime() > deadline) break;
				timing.run(null, v, rows);
			}
		}
		// Final round: the default and the fastest few again, interleaved, keeping each one's best median, so that
		// the default (timed first, while the JIT was still compiling) is not judged on a colder run than the others.
		final List<Candidate> finals = new ArrayList<>();
		finals.add(def);
		rows.stream().filter(c -> c.ok() && c != def).sorted((a, b) -> Double.compare(a.millis, b.millis)).limit(3)
			.forEach(finals::add);
		for (int round = 0; round < 2; round++) for (final Candidate c : finals) timing.retime(c);
		final Candidate win = fastest(rows);
		win.winner = true;
		final int timed = (int) rows.stream().filter(Candidate::ok).count();
		final Wisdom.Entry entry = new Wisdom.Entry(key, win.parameters, mode, win.millis, def.millis, win.modelError,
			timed, Instant.now().toString());
		if (wisdom != null) {
			try {
				wisdom.record(entry);
			}
			catch (final IOException e) {
				if (log != null) log.accept("NUFFT-J: could not write the wisdom file " + wisdom.file() + ": " + e);
			}
		}
		return new Report(key, rows, win.parameters, entry, timed);
	}

	// -- results --

	/** One timed (or skipped) candidate. */
	public static final class Candidate {

		final String label;
		final NufftOptions options;
		TunedParameters parameters;
		double modelError = Double.NaN, forwardMillis = Double.NaN, adjointMillis = Double.NaN,
			millis = Double.POSITIVE_INFINITY;
		String failure;
		/** The device's failure that skipped this candidate, or null. */
		DeviceException deviceFailure;
		boolean winner;

		Candidate(final String label, final NufftOptions options) {
			this.label = label;
			this.options = options;
		}

		public boolean ok() { return failure == null; }

		public boolean isDefault() { return label != null; }

		public boolean isWinner() { return winner; }

		public TunedParameters parameters() { return parameters; }

		/** The plan's model error on the tuned points (relative, {@link ParameterChoice#expectedError}). */
		public double modelError() { return modelError; }

		/** Median time of the direction asked (both: forward + adjoint), ms; infinite when skipped. */
		public double millis() { return millis; }

		public double forwardMillis() { return forwardMillis; }

		public double adjointMillis() { return adjointMillis; }

		/** Why it was skipped, or null. */
		public String failure() { return failure; }
	}

	/** What a tuning run did: its key, the candidates (empty when the wisdom answered), the winner. */
	public static final class Report {

		private final TuneKey key;
		private final List<Candidate> candidates;
		private final TunedParameters winner;
		private final Wisdom.Entry entry;
		private final int timed;

		Report(final TuneKey key, final List<Candidate> candidates, final TunedParameters winner,
			final Wisdom.Entry entry, final int timed)
		{
			this.key = key;
			this.candidates = Collections.unmodifiableList(new ArrayList<>(candidates));
			this.winner = winner;
			this.entry = entry;
			this.timed = timed;
		}

		public TuneKey key() { return key; }

		public List<Candidate> candidates() { return candidates; }

		/** The winner's parameters, or null (mode OFF without wisdom). */
		public TunedParameters winner() { return winner; }

		/** The wisdom entry written, or read when the wisdom answered; null when none. */
		public Wisdom.Entry entry() { return entry; }

		/** Candidates timed in this run: 0 when the wisdom answered. */
		public int timed() { return timed; }

		public boolean fromWisdom() { return timed == 0 && entry != null; }

		/** The candidates as a table (winner marked *), or the wisdom entry used. */
		public String table() {
			final StringBuilder b = new StringBuilder();
			if (fromWisdom()) {
				return b.append(String.format(Locale.ROOT, "wisdom (%s, %s): %s, %.3f ms (default %.3f ms, %.2fx), " +
					"model error %.2e; nothing timed%n", entry.mode().key(), entry.created(), winner, entry.tunedMillis(),
					entry.defaultMillis(), entry.defaultMillis() / entry.tunedMillis(), entry.modelError())).toString();
			}
			b.append(String.format(Locale.ROOT, "%-2s %-44s %11s %10s %10s %10s  %s%n", "", "candidate", "model error",
				"fwd ms", "adj ms", "ms", "note"));
			for (final Candidate c : candidates) {
				b.append(String.format(Locale.ROOT, "%-2s %-44s %11s %10s %10s %10s  %s%n", c.winner ? "*" : "",
					c.parameters == null ? describe(c.options) : c.parameters.toString(),
					Double.isNaN(c.modelError) ? "-" : String.format(Locale.ROOT, "%.2e", c.modelError),
					ms(c.forwardMillis), ms(c.adjointMillis), c.ok() ? ms(c.millis) : "-",
					(c.isDefault() ? c.label + (c.ok() ? "" : "; ") : "") + (c.ok() ? "" : c.failure)));
			}
			if (winner != null) {
				final Candidate d = candidates.get(0);
				b.append(String.format(Locale.ROOT, "winner: %s, %.3f ms vs default %.3f ms (default/tuned %.2fx); " +
					"%d candidates timed%n", winner, entry.tunedMillis(), d.millis, d.millis / entry.tunedMillis(), timed));
			}
			return b.toString();
		}

		private static String ms(final double v) {
			return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
		}
	}

	// -- helpers --

	/**
	 * {@code winner} applied to {@code options}, or null when it is out of range or does not meet ε on the points of
	 * {@code t} by the model.
	 */
	private NufftOptions applied(final TunedParameters winner, final NufftOptions options, final int[] size,
		final Trajectory t)
	{
		if (winner == null) return null;
		try {
			final NufftOptions o = winner.apply(options);
			return ParameterChoice.meetsOnPoints(ParameterChoice.choose(size, o), t, options.tolerance()) ? o : null;
		}
		catch (final InvalidInputException e) {
			if (log != null) log.accept("NUFFT-J: wisdom entry " + winner + " is not usable here (" + e.getMessage() +
				"); the heuristic is used");
			return null;
		}
	}

	/** The backend's variants of plan options {@code o} (fixed kernel, σ, W). */
	private static List<NufftOptions> variants(final Backend backend, final int[] size, final NufftOptions o) {
		final NufftParameters p;
		try {
			p = ParameterChoice.choose(size, o);
		}
		catch (final InvalidInputException e) {
			return List.of(o);
		}
		return backend.variants(p, o);
	}

	private static Candidate fastest(final List<Candidate> rows) {
		Candidate best = rows.get(0);
		for (final Candidate c : rows) if (c.ok() && c.millis < best.millis) best = c;
		return best;
	}

	private static String describe(final NufftOptions o) {
		return o.kernel().key() + " W=" + (o.width() == 0 ? "auto" : o.width()) + " sigma=" + (o.oversampling() == 0 ?
			"auto" : o.oversampling()) + " spread=" + o.spreadMethod().name().toLowerCase();
	}

	/** Times candidates on fixed random data in the backend's buffers; closing it frees them. */
	private static final class Timing implements AutoCloseable {

		private final Backend backend;
		private final Trajectory t;
		private final int[] size;
		private final TuneDirection direction;
		private final int warmup, repeats;
		/** Most timed runs of one direction per candidate and round (see {@link #times}). */
		static final int MAX_REPEATS = 31;
		/** Timed milliseconds a candidate's runs of one direction should add up to, where MAX_REPEATS allows. */
		static final double MIN_TIMED_MS = 20;

		/** The random data in the backend's buffers, or null where they did not fit (then the host arrays are used). */
		private Buffer image, samples;
		private final float[] hostImage, hostSamples;
		private final List<TunedParameters> seen = new ArrayList<>();
		/** The model on the points per plan shape (kernel, W, σ, grid), computed once each. */
		private final Map<String, Double> onPoints = new HashMap<>();

		Timing(final Backend backend, final Trajectory t, final int[] size, final TuneDirection direction,
			final int batch, final Precision precision, final int warmup, final int repeats)
		{
			this.backend = backend;
			this.t = t;
			this.size = size.clone();
			this.direction = direction;
			this.warmup = warmup;
			this.repeats = repeats;
			long pixels = 1;
			for (final int n : size) pixels *= n;
			final Random r = new Random(1);
			hostImage = Benchmark.random((int) Math.min(Integer.MAX_VALUE - 8, 2 * pixels * batch), r);
			hostSamples = Benchmark.random((int) Math.min(Integer.MAX_VALUE - 8, 2L * t.count() * batch), r);
			Buffer i = null, s = null;
			try {
				i = buffer(hostImage, precision);
				s = buffer(hostSamples, precision);
			}
			catch (final DeviceException e) {
				// The batch does not fit beside the plans (or the device failed): time from host arrays, which the
				// plans move in pieces, rather than fail the tuning run.
				if (i != null) i.close();
				i = null;
				s = null;
			}
			image = i;
			samples = s;
		}

		private Buffer buffer(final float[] values, final Precision precision) {
			if (precision == Precision.FLOAT) return backend.wrap(values);
			final double[] d = new double[values.length];
			for (int i = 0; i < d.length; i++) d[i] = values[i];
			return backend.wrap(d);
		}

		/** Whether the data are in the backend's buffers (else host arrays are timed). */
		boolean onDevice() {
			return image != null;
		}

		/** Frees the buffers and forgets the candidates timed; later timings are from host arrays. */
		void releaseBuffers() {
			close();
			image = null;
			samples = null;
			seen.clear();
		}

		/** {@link ParameterChoice#expectedError} of {@code p} on the tuned points. */
		double onPoints(final NufftParameters p) {
			return onPoints.computeIfAbsent(p.kernel().type().key() + " " + p.width() + " " + p.oversampling() + " " +
				java.util.Arrays.toString(p.gridSize()) + " " + p.precision(), k -> ParameterChoice.expectedError(p, t));
		}

		/** {@link ParameterChoice#meetsOnPoints} with the model on the points computed once per shape. */
		boolean accepts(final NufftParameters p, final double eps) {
			return ParameterChoice.meetsOnPoints(onPoints(p), size, t.count(), eps);
		}

		/** Times {@code c} again; its times become the smaller of the old and new medians. */
		void retime(final Candidate c) {
			try (NufftPlan plan = backend.plan(size, c.options)) {
				plan.setPoints(t);
				measure(plan, c);
			}
		}

		private void measure(final NufftPlan plan, final Candidate c) {
			double total = 0;
			if (direction != TuneDirection.ADJOINT) {
				c.forwardMillis = bestMedian(() -> {
					if (image == null) plan.forward(hostImage, hostSamples);
					else plan.forward(image, samples);
				}, c.forwardMillis);
				total += c.forwardMillis;
			}
			if (direction != TuneDirection.FORWARD) {
				c.adjointMillis = bestMedian(() -> {
					if (image == null) plan.adjoint(hostSamples, hostImage);
					else plan.adjoint(samples, image);
				}, c.adjointMillis);
				total += c.adjointMillis;
			}
			c.millis = total;
		}

		/** The smaller of {@code previous} (NaN: none yet) and the median time of {@code run}, each run waited for. */
		private double bestMedian(final Runnable run, final double previous) {
			final double median = Benchmark.median(times(() -> {
				run.run();
				backend.synchronize();
			}));
			return Double.isNaN(previous) ? median : Math.min(median, previous);
		}

		/**
		 * Ascending times (ms) of {@code run} after the warm-ups: at least {@code repeats}, and more, up to
		 * {@link #MAX_REPEATS}, until they add up to about {@link #MIN_TIMED_MS}. Three runs of a 0.1-ms GPU execute
		 * left its median a few percent off between rounds, enough to misrank two plans (radial 256² at ε 1e-6 on the
		 * H200, fifth session of 2026-11-29: the winner ran 1.05× the default in the alternate timing).
		 */
		private double[] times(final Runnable run) {
			final double first = Benchmark.times(run, warmup, 1)[0];
			final int n = (int) Math.min(MAX_REPEATS, Math.max(repeats, Math.ceil(MIN_TIMED_MS / Math.max(first,
				1e-3))));
			final double[] all = java.util.Arrays.copyOf(Benchmark.times(run, 0, n - 1), n);
			all[n - 1] = first;
			java.util.Arrays.sort(all);
			return all;
		}

		/** Times {@code o} (unless a candidate of the same resolved parameters was timed) and adds its row. */
		Candidate run(final String label, final NufftOptions o, final List<Candidate> rows) {
			final Candidate c = new Candidate(label, o);
			try (NufftPlan plan = backend.plan(size, o)) {
				final NufftParameters p = plan.parameters();
				c.parameters = TunedParameters.of(p, o);
				if (seen.contains(c.parameters)) return c;
				seen.add(c.parameters);
				c.modelError = onPoints(p);
				rows.add(c);
				if (!accepts(p, o.tolerance())) {
					c.failure = String.format(Locale.ROOT, "model error on the points (x %.3f) above eps %.1e",
						ParameterChoice.onPointsMargin(size, t.count()), o.tolerance());
					return c;
				}
				plan.setPoints(t);
				measure(plan, c);
			}
			catch (final InvalidInputException e) {
				if (!rows.contains(c)) rows.add(c);
				c.failure = "not applicable: " + e.getMessage();
			}
			catch (final DeviceException e) {
				// e.g. a σ = 2.25 3D grid that does not fit this device's memory: that candidate is skipped.
				if (!rows.contains(c)) rows.add(c);
				c.failure = "device: " + e.getMessage();
				c.deviceFailure = e;
			}
			return c;
		}

		@Override
		public void close() {
			if (image == null) return;
			try {
				image.close();
			}
			finally {
				samples.close();
			}
		}
	}
}
