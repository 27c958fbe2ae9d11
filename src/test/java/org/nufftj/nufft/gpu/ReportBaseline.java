package org.nufftj.nufft.gpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The device-resident figures of an earlier GPU report (the committed docs/gpu-report.md), so that a new run can say
 * per benchmark row whether it is slower than before: GpuSuite adds a section "Against the previous report" when the
 * property {@code nufftj.baseline} names such a file. Rows are matched by case, ε and spreading label.
 */
final class ReportBaseline {

	/** Adjoint and forward device-resident medians (ms) of one earlier row. */
	static final class Figures {
		final double adjoint, forward;

		Figures(final double adjoint, final double forward) {
			this.adjoint = adjoint;
			this.forward = forward;
		}
	}

	private final Path source;
	private final String date;
	private final Map<String, Figures> rows;

	private ReportBaseline(final Path source, final String date, final Map<String, Figures> rows) {
		this.source = source;
		this.date = date;
		this.rows = rows;
	}

	// -- public API --

	/** The baseline named by the property {@code nufftj.baseline}, or null (none named, unreadable: said on stdout). */
	static ReportBaseline fromProperty() {
		final String p = System.getProperty("nufftj.baseline");
		if (p == null || p.isBlank()) return null;
		try {
			return parse(Path.of(p), Files.readAllLines(Path.of(p), StandardCharsets.UTF_8));
		}
		catch (final IOException | RuntimeException e) {
			System.out.println("baseline report " + p + " not used: " + e);
			return null;
		}
	}

	/**
	 * Reads the first table under "## Benchmarks": columns case | ε | spread | params | adjoint ms | ref | ratio |
	 * forward ms | ... (the layout GpuSuite writes).
	 */
	static ReportBaseline parse(final Path source, final List<String> lines) {
		String date = "";
		if (!lines.isEmpty() && lines.get(0).contains("(")) {
			final String h = lines.get(0);
			date = h.substring(h.indexOf('(') + 1, h.lastIndexOf(')') > 0 ? h.lastIndexOf(')') : h.length());
		}
		final Map<String, Figures> rows = new LinkedHashMap<>();
		boolean inBench = false, inTable = false;
		for (final String l : lines) {
			if (l.startsWith("## ")) {
				if (inBench) break;
				inBench = l.startsWith("## Benchmarks");
				continue;
			}
			if (!inBench) continue;
			if (l.startsWith("|---")) {
				inTable = true;
				continue;
			}
			if (inTable && l.startsWith("| ")) {
				final String[] c = l.split("\\|", -1);
				if (c.length < 10) continue;
				try {
					rows.put(key(c[1].trim(), c[2].trim(), c[3].trim()), new Figures(Double.parseDouble(c[5].trim()),
						Double.parseDouble(c[8].trim())));
				}
				catch (final NumberFormatException e) { /* a row that did not run: not a baseline */ }
			}
			else if (inTable) break;
		}
		return new ReportBaseline(source, date, rows);
	}

	/** The row's earlier figures, or null when the earlier report has no such row. */
	Figures get(final String caseName, final double eps, final String spread) {
		return rows.get(key(caseName, String.format(Locale.ROOT, "%.0e", eps), spread));
	}

	String source() { return source + (date.isEmpty() ? "" : " (" + date + ")"); }

	int size() { return rows.size(); }

	// -- helpers --

	private static String key(final String caseName, final String eps, final String spread) {
		return caseName + " | " + eps.toLowerCase(Locale.ROOT) + " | " + spread;
	}
}
