package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CSV of scripts/cufinufft-bench.sh as the GPU benchmarks read it (no GPU needed). */
class MeasuredReferenceTest {

	private static final String HEADER =
		"kind,row,traj,dim,n,count,transforms,eps,type,method,sort,setpts_ms,exec_ms,exec_min_ms,e2e_pinned_ms,err";

	@TempDir
	Path dir;

	@Test
	void readsRowsAndSetptsLinesByIndexAndDirection() throws IOException {
		final Path csv = dir.resolve("ref.csv");
		Files.write(csv, List.of(HEADER, "row,3,random,2,512,1048576,1,1e-6,1,2,1,0.21,0.2055,0.2001,0.61,5.5e-06",
			"row,3,random,2,512,1048576,1,1e-6,2,1,0,0.11,0.1093,0.1080,0.41,2.1e-06",
			"setpts,1,random,2,1024,16777216,1,1e-3,1,1,1,2.9,9.1,9.0,20.1,1.2e-03"));
		final MeasuredReference ref = new MeasuredReference(csv, "test");
		assertEquals(0.2055, ref.row(3, true).execute);
		assertEquals("SM", ref.row(3, true).methodName());
		assertEquals(0.41, ref.row(3, false).pinnedE2e);
		assertEquals("GM", ref.row(3, false).methodName());
		assertEquals(5.5e-6, ref.row(3, true).error);
		assertEquals(2.9, ref.setpts(1).setpts);
		assertNull(ref.row(4, true));
		assertNull(ref.setpts(0));
	}

	@Test
	void aForeignFileIsRefusedWithTheLineNamed() throws IOException {
		final Path bad = dir.resolve("bad.csv");
		Files.write(bad, List.of("case,ms", "x,1"));
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MeasuredReference(bad,
			"test"));
		assertTrue(e.getMessage().contains("line 1"), e.getMessage());
		final Path shortLine = dir.resolve("short.csv");
		Files.write(shortLine, List.of(HEADER, "row,0,random,2"));
		final IllegalArgumentException s = assertThrows(IllegalArgumentException.class, () -> new MeasuredReference(
			shortLine, "test"));
		assertTrue(s.getMessage().contains("line 2 has 4 fields, expected 16"), s.getMessage());
	}
}
