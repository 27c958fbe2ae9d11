package org.nufftj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nufftj.io.Cfl;

/**
 * {@code nufft-j batch} on a folder of simulated scans, one of them corrupt: every good scan reconstructed to the image
 * {@code nufft-j recon} makes of it, the bad one reported in the summary with its error, exit status 1; {@code --resume}
 * recomputes nothing that is complete; two scans with one output and an output over a scan are refused before
 * anything runs.
 */
class BatchCommandTest {

	@TempDir
	Path dir;

	@Test
	void aFolderWithOneCorruptScan() throws Exception {
		final Path scans = Files.createDirectories(dir.resolve("scans")), out = dir.resolve("out");
		final String[] names = { "a", "b", "c" };
		for (int i = 0; i < names.length; i++) {
			final Cli.Result r = Cli.run("simulate", "--matrix", 24 + 8 * i, "--coils", 2, "--seed", 10 + i,
				scans.resolve(names[i] + "_traj"), scans.resolve(names[i]));
			assertEquals(0, r.code, r.toString());
		}
		// A corrupt scan: a valid trajectory, k-space whose data file is cut short of what its header says.
		Files.copy(scans.resolve("a_traj.cfl"), scans.resolve("bad_traj.cfl"));
		Files.copy(scans.resolve("a_traj.hdr"), scans.resolve("bad_traj.hdr"));
		Files.copy(scans.resolve("a.hdr"), scans.resolve("bad.hdr"));
		final byte[] data = Files.readAllBytes(scans.resolve("a.cfl"));
		Files.write(scans.resolve("bad.cfl"), java.util.Arrays.copyOf(data, data.length / 3));

		final Cli.Result r = Cli.run("batch", "--out", out, "--name", "{name}.cfl", "--device", "cpu", scans);
		assertEquals(1, r.code, "one scan failed: exit 1; " + r);
		for (final String n : names) assertTrue(Files.exists(out.resolve(n + ".cfl")), n + " reconstructed; " + r);
		assertFalse(Files.exists(out.resolve("bad.cfl")), "no output for the bad scan");
		final List<String> rows = Files.readAllLines(out.resolve("summary.csv"));
		assertEquals(5, rows.size(), "header and 4 scans: " + rows);
		final String bad = rows.stream().filter(l -> l.contains("bad.cfl")).findFirst().orElseThrow();
		assertTrue(bad.contains(",failed,") && bad.contains("bad.cfl"), bad);
		assertEquals(3, rows.stream().filter(l -> l.contains(",ok,")).count(), rows.toString());
		assertTrue(r.err.contains("[4/4]") || r.err.contains("[1/4]"), "progress lines: " + r.err);

		// The same image as nufft-j recon of that scan.
		final Cli.Result one = Cli.run("recon", "--device", "cpu", scans.resolve("b"), dir.resolve("b-recon.cfl"));
		assertEquals(0, one.code, one.toString());
		final Cfl.Array batch = Cfl.read(out.resolve("b")), recon = Cfl.read(dir.resolve("b-recon"));
		assertArrayEquals(recon.dims(), batch.dims());
		assertArrayEquals(recon.data(), batch.data(), "batch image = recon image");

		// --resume: the complete outputs are left alone, the bad scan is tried again and fails again.
		final FileTime before = Files.getLastModifiedTime(out.resolve("b.cfl"));
		Thread.sleep(20);
		final Cli.Result again = Cli.run("batch", "--out", out, "--name", "{name}.cfl", "--device", "cpu", "--resume",
			scans);
		assertEquals(1, again.code, again.toString());
		assertEquals(before, Files.getLastModifiedTime(out.resolve("b.cfl")), "not recomputed");
		final List<String> rows2 = Files.readAllLines(out.resolve("summary.csv"));
		assertEquals(3, rows2.stream().filter(l -> l.contains(",skipped,")).count(), rows2.toString());
		assertTrue(rows2.stream().anyMatch(l -> l.contains("bad.cfl") && l.contains(",failed,")), rows2.toString());

		// A JSON summary: the same rows, parsed back.
		final Path json = dir.resolve("summary.json");
		final Cli.Result third = Cli.run("batch", "--out", out, "--name", "{name}.cfl", "--device", "cpu", "--resume",
			"--summary", json, scans);
		assertEquals(1, third.code, third.toString());
		final com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(Files.readString(json))
			.getAsJsonObject();
		assertEquals(4, o.getAsJsonArray("scans").size(), o.toString());
		assertEquals(3, o.get("skipped").getAsInt(), o.toString());
		assertEquals(1, o.get("failed").getAsInt(), o.toString());
		final com.google.gson.JsonObject failed = o.getAsJsonArray("scans").asList().stream().map(e -> e
			.getAsJsonObject()).filter(e -> e.get("status").getAsString().equals("failed")).findFirst().orElseThrow();
		assertTrue(failed.get("scan").getAsString().contains("bad.cfl") && !failed.get("error").getAsString().isEmpty(),
			failed.toString());
	}

	@Test
	void outputsThatCollideOrOverwriteAScanAreRefusedFirst() throws Exception {
		final Path scans = Files.createDirectories(dir.resolve("s"));
		for (final String n : new String[] { "x", "y" })
			assertEquals(0, Cli.run("simulate", "--matrix", 16, "--coils", 1, scans.resolve(n + "_traj"),
				scans.resolve(n)).code);
		final Cli.Result same = Cli.run("batch", "--out", dir.resolve("o"), "--name", "one.tif", scans);
		assertNotEquals(0, same.code);
		assertTrue(same.err.contains("{name}"), same.err);
		final Cli.Result over = Cli.run("batch", "--out", scans, "--name", "{name}.cfl", scans);
		assertNotEquals(0, over.code);
		assertTrue(over.err.contains("would overwrite the scan"), over.err);
		assertTrue(Files.exists(scans.resolve("x.cfl")) && Files.size(scans.resolve("x.cfl")) > 0, "scan intact");
		assertFalse(Files.exists(dir.resolve("o").resolve("one.tif")), "nothing written");
	}

	/** Two CPU workers (--devices cpu,cpu) give every scan the image one worker gives it (≤ 1e-6), in scan order. */
	@Test
	void severalWorkersGiveTheImagesOfOne() throws Exception {
		final Path scans = Files.createDirectories(dir.resolve("w"));
		for (int i = 0; i < 4; i++)
			assertEquals(0, Cli.run("simulate", "--matrix", 16 + 4 * i, "--coils", 2, "--seed", 30 + i,
				scans.resolve("s" + i + "_traj"), scans.resolve("s" + i)).code);
		final Cli.Result one = Cli.run("batch", "--out", dir.resolve("one"), "--name", "{name}.cfl", "--device", "cpu",
			scans);
		final Cli.Result two = Cli.run("batch", "--out", dir.resolve("two"), "--name", "{name}.cfl", "--devices",
			"cpu,cpu", scans);
		assertEquals(0, one.code, one.toString());
		assertEquals(0, two.code, two.toString());
		final List<String> rows = Files.readAllLines(dir.resolve("two").resolve("summary.csv"));
		for (int i = 0; i < 4; i++) {
			assertTrue(rows.get(1 + i).contains("s" + i + ".cfl,") && rows.get(1 + i).contains(",ok,"), rows.toString());
			final float[] a = Cfl.read(dir.resolve("one").resolve("s" + i)).data();
			final float[] b = Cfl.read(dir.resolve("two").resolve("s" + i)).data();
			double d = 0, n = 0;
			for (int k = 0; k < a.length; k++) {
				d += (a[k] - b[k]) * (a[k] - b[k]);
				n += a[k] * a[k];
			}
			assertTrue(Math.sqrt(d / n) <= 1e-6, "s" + i + ": two workers vs one " + Math.sqrt(d / n));
		}
		final Cli.Result none = Cli.run("batch", "--out", dir.resolve("x"), "--devices", "gpu:7", "--name",
			"{name}.cfl", scans);
		assertEquals(1, none.code, "no GPU 7: every scan fails, named; " + none);
	}
}
