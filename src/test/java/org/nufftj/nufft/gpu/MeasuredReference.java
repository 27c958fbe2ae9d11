package org.nufftj.nufft.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference library measured in the same run as the GPU benchmarks (issue 9: cuFINUFFT built from its public
 * source on the GPU machine): the CSV that {@code scripts/cufinufft-bench.sh run} writes, one line per workload row
 * (GpuBenchmark.rows() index) or setPoints line and direction (type 1 = adjoint, 2 = forward) with the fastest of its
 * methods. Read from the path in the property {@code nufftj.ref} (GpuSuite: environment NUFFTJ_REF); absent, the
 * benchmarks compare with the reference figures of ../shared/GPU.md.
 */
final class MeasuredReference {

	/** One direction of one row: the fastest method and its figures (ms; error relative l2). */
	static final class Figures {

		final int method, sort;
		final double setpts, execute, executeMin, pinnedE2e, error;

		Figures(final String[] f) {
			method = Integer.parseInt(f[9]);
			sort = Integer.parseInt(f[10]);
			setpts = Double.parseDouble(f[11]);
			execute = Double.parseDouble(f[12]);
			executeMin = Double.parseDouble(f[13]);
			pinnedE2e = Double.parseDouble(f[14]);
			error = Double.parseDouble(f[15]);
		}

		/** cuFINUFFT's method name (gpu_method 1 with or without sorting, 2 shared-memory subproblems, 3, 4). */
		String methodName() {
			switch (method) {
				case 1: return sort == 1 ? "GM-sort" : "GM";
				case 2: return "SM";
				case 3: return "OD";
				case 4: return "BG";
				default: return "method " + method;
			}
		}
	}

	private static final String HEADER =
		"kind,row,traj,dim,n,count,transforms,eps,type,method,sort,setpts_ms,exec_ms,exec_min_ms,e2e_pinned_ms,err";

	private final Map<String, Figures> figures = new HashMap<>();
	private final String source;

	MeasuredReference(final Path csv, final String source) {
		this.source = source;
		final List<String> lines;
		try {
			lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
		}
		catch (final IOException e) {
			throw new UncheckedIOException("reference figures " + csv + ": " + e.getMessage(), e);
		}
		if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
			throw new IllegalArgumentException("reference figures " + csv + ": line 1 is not the header '" + HEADER +
				"'");
		}
		for (int i = 1; i < lines.size(); i++) {
			final String[] f = lines.get(i).split(",");
			if (f.length != 16) {
				throw new IllegalArgumentException("reference figures " + csv + ": line " + (i + 1) + " has " +
					f.length + " fields, expected 16");
			}
			figures.put(key(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[8])), new Figures(f));
		}
	}

	/** The file last read by {@link #fromProperty} and its figures (the benchmarks ask for them per table line). */
	private static String readPath;
	private static MeasuredReference read;

	/** The figures named by the property nufftj.ref, or null when it is unset or empty; read once per path. */
	static synchronized MeasuredReference fromProperty() {
		final String p = System.getProperty("nufftj.ref", "");
		if (p.isEmpty()) return null;
		if (!p.equals(readPath)) {
			read = load(p);
			readPath = p;
		}
		return read;
	}

	private static MeasuredReference load(final String p) {
		final Path csv = Paths.get(p);
		String commit = "";
		try {
			for (final String l : Files.readAllLines(Paths.get(p + ".log"), StandardCharsets.UTF_8)) {
				if (l.startsWith("commit=")) commit = l.substring("commit=".length(), Math.min(l.length(), 15));
			}
		}
		catch (final IOException e) {
			// no log next to it: the commit stays unnamed
		}
		return new MeasuredReference(csv, "cuFINUFFT" + (commit.isEmpty() ? "" : " " + commit) +
			", built from its public source on this machine and run there by scripts/cufinufft-bench.sh (" +
			csv.getFileName() + ")");
	}

	/** A workload row's figures for one direction (adjoint true = type 1), or null when not measured. */
	Figures row(final int index, final boolean adjoint) {
		return figures.get(key("row", index, adjoint ? 1 : 2));
	}

	/** A setPoints line's fastest setpts over the methods (the adjoint's plan), or null. */
	Figures setpts(final int index) {
		return figures.get(key("setpts", index, 1));
	}

	String source() {
		return source;
	}

	private static String key(final String kind, final int index, final int type) {
		return kind + "/" + index + "/" + type;
	}
}
