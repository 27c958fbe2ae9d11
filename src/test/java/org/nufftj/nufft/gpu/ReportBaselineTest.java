package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Host-only: the baseline reader takes the device-resident columns of the first benchmark table and nothing else. */
class ReportBaselineTest {

	@Test
	void readsTheBenchmarkTableByCaseEpsilonAndSpread() {
		final List<String> report = List.of("# NUFFT-J GPU report (2026-01-02 03:04 UTC)", "", "## Tests", "",
			"| test | result | s | message |", "|---|---|---|---|", "| A | passed | 0.1 | |", "", "## Benchmarks", "",
			"| case | ε | spread | params | adjoint ms | ref | ratio | forward ms | ref | ratio | e2e | err | cpu | x |",
			"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
			"| radial 2D 256² | 1e-03 | shared | kb | 0.080 | 0.090 | 0.89 | 0.071 | 0.049 | 1.46 | a | b | c | d |",
			"| radial 2D 256² | 1e-06 | shared | kb | 0.123 | 0.151 | 0.82 | 0.084 | 0.062 | 1.36 | a | b | c | d |",
			"| random 3D | 1e-03 | output | not applicable |||||||||||", "",
			"### Where the time goes", "", "| case | ε | spread | adjoint stages |", "|---|---|---|---|",
			"| radial 2D 256² | 1e-03 | shared | 9.0 |");
		final ReportBaseline b = ReportBaseline.parse(Path.of("r.md"), report);
		assertEquals(2, b.size());
		assertEquals(0.080, b.get("radial 2D 256²", 1e-3, "shared").adjoint, 0);
		assertEquals(0.084, b.get("radial 2D 256²", 1e-6, "shared").forward, 0);
		assertNull(b.get("radial 2D 256²", 1e-3, "atomic"));
		assertNull(b.get("random 3D", 1e-3, "output"));
		assertEquals("r.md (2026-01-02 03:04 UTC)", b.source());
	}
}
