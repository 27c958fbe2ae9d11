package org.nufftj.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.cli.Main;
import org.nufftj.io.Cfl;

/**
 * The batch on Spark in local mode ({@code local[2,2]}: two task threads, a task may fail once): on simulated scans,
 * one of them corrupt, every good scan gives the image {@code nufft-j recon} gives, the corrupt one is a "failed" row;
 * a task whose first attempt fails after writing its output is retried and leaves exactly one complete result (no
 * temporary files, one summary row per scan); with resume, nothing complete is recomputed.
 */
class SparkBatchTest {

	private static JavaSparkContext sc;

	@TempDir
	static Path dir;

	@BeforeAll
	static void start() {
		sc = new JavaSparkContext(new SparkConf().setMaster("local[2,2]").setAppName("nufft-j test")
			.set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1"));
	}

	@AfterAll
	static void stop() {
		if (sc != null) sc.close();
	}

	@Test
	void scansOnSparkEqualTheirCommandLineReconstructionsAndSurviveARetry() throws Exception {
		final Path scans = Files.createDirectories(dir.resolve("scans")), out = dir.resolve("out");
		final String[] names = { "a", "b", "c" };
		for (int i = 0; i < names.length; i++)
			assertEquals(0, Main.execute("simulate", "--matrix", String.valueOf(24 + 8 * i), "--coils", "2", "--seed",
				String.valueOf(20 + i), scans.resolve(names[i] + "_traj").toString(), scans.resolve(names[i]).toString()));
		for (final String ext : new String[] { "_traj.cfl", "_traj.hdr", ".hdr" })
			Files.copy(scans.resolve("a" + ext), scans.resolve("bad" + ext));
		final byte[] data = Files.readAllBytes(scans.resolve("a.cfl"));
		Files.write(scans.resolve("bad.cfl"), java.util.Arrays.copyOf(data, data.length / 3));
		final List<String> list = new ArrayList<>();
		for (final String n : new String[] { "a", "b", "bad", "c" }) list.add(scans.resolve(n + ".cfl").toString());

		final List<String> rows = SparkBatch.run(sc, list, new SparkBatch.Settings().out(out.toString())
			.failFirstAttemptOf("b.cfl", dir.resolve("injected").toString()));
		assertTrue(Files.exists(dir.resolve("injected")), "the first attempt at b failed (and was retried)");
		assertEquals(4, rows.size(), rows.toString());
		for (int i = 0; i < list.size(); i++) assertTrue(rows.get(i).startsWith(list.get(i) + ","), "order: " + rows);
		assertTrue(rows.get(2).contains(",failed,"), rows.get(2));
		assertEquals(3, rows.stream().filter(r -> r.contains(",ok,")).count(), rows.toString());
		try (Stream<Path> files = Files.list(out)) {
			final List<String> names2 = files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
			assertEquals(List.of("a.cfl", "a.hdr", "b.cfl", "b.hdr", "c.cfl", "c.hdr"), names2,
				"exactly the complete outputs, no temporary or duplicate files");
		}
		for (final String n : names) {
			assertEquals(0, Main.execute("recon", "--device", "cpu", scans.resolve(n).toString(),
				dir.resolve(n + "-recon.cfl").toString()));
			final Cfl.Array spark = Cfl.read(out.resolve(n)), recon = Cfl.read(dir.resolve(n + "-recon"));
			assertArrayEquals(recon.dims(), spark.dims(), n);
			assertArrayEquals(recon.data(), spark.data(), n + ": Spark image = nufft-j recon image");
		}

		final long before = Files.getLastModifiedTime(out.resolve("a.cfl")).toMillis();
		Thread.sleep(20);
		final List<String> again = SparkBatch.run(sc, list, new SparkBatch.Settings().out(out.toString()).resume(true));
		assertEquals(3, again.stream().filter(r -> r.contains(",skipped,")).count(), again.toString());
		assertTrue(again.get(2).contains(",failed,"), again.get(2));
		assertEquals(before, Files.getLastModifiedTime(out.resolve("a.cfl")).toMillis(), "not recomputed");
	}

	@Test
	void aLongSeriesSplitIntoFrameRangesReassemblesToTheSingleProcessImage() throws Exception {
		final Path d = Files.createDirectories(dir.resolve("series"));
		assertEquals(0, Main.execute("simulate", "--matrix", "24", "--coils", "2", d.resolve("s_traj").toString(),
			d.resolve("one").toString()));
		Files.copy(d.resolve("s_traj.cfl"), d.resolve("series_traj.cfl"));
		Files.copy(d.resolve("s_traj.hdr"), d.resolve("series_traj.hdr"));
		// Five frames in BART dim 10 (time), frame f = (1 + f/4) × the simulated k-space.
		final Cfl.Array one = Cfl.read(d.resolve("one"));
		final int frames = 5, n = one.data().length;
		final float[] series = new float[n * frames];
		for (int f = 0; f < frames; f++)
			for (int i = 0; i < n; i++) series[f * n + i] = one.data()[i] * (1 + f / 4f);
		final long[] dims = one.dims().clone();
		dims[10] = frames;
		Cfl.write(d.resolve("series"), dims, series);

		assertEquals(0, Main.execute("recon", "--device", "cpu", d.resolve("series").toString(),
			d.resolve("whole.cfl").toString()));
		final Path marker = dir.resolve("injected-series");
		final Path out = SparkBatch.runSeries(sc, d.resolve("series.cfl").toString(), 2, new SparkBatch.Settings()
			.out(dir.resolve("series-out").toString()).failFirstAttemptOf("series.cfl", marker.toString()));
		assertTrue(Files.exists(marker), "the first attempt at frames [0, 2) failed (and was retried)");
		final Cfl.Array whole = Cfl.read(d.resolve("whole")), spark = Cfl.read(out);
		assertArrayEquals(whole.dims(), spark.dims(), "dims of the whole series");
		double diff = 0, ref = 0;
		for (int i = 0; i < whole.data().length; i++) {
			diff += Math.pow(whole.data()[i] - spark.data()[i], 2);
			ref += Math.pow(whole.data()[i], 2);
		}
		assertTrue(Math.sqrt(diff / ref) <= 1e-6, "relative l2 " + Math.sqrt(diff / ref));
		try (Stream<Path> files = Files.list(out.getParent())) {
			assertEquals(List.of("series.cfl", "series.hdr"), files.map(p -> p.getFileName().toString()).sorted()
				.collect(Collectors.toList()), "the output alone: partial files removed");
		}
	}
}
