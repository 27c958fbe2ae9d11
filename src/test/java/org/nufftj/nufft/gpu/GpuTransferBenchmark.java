package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import jcuda.Pointer;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

import org.nufftj.nufft.NufftOptions;
import org.nufftj.nufft.NufftParameters;
import org.nufftj.nufft.ParameterChoice;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.trajectory.Trajectory;

/**
 * Host transfers of the GPU engine (issue 9, item 3), side by side in one run: the PCIe bound (pinned DMA, each
 * direction alone and both at once), the driver's pageable path from a Java array, staging rings of several shapes
 * and the plans' pinned mirrors from and to Java arrays, the host copy alone by 1–16 threads; then whole executes of
 * the end-to-end rows from Java arrays (through the mirrors, and through the rings), from {@link PinnedArray}s (and the pinned pipeline's piece size) and device-resident, against the reference
 * library's pinned-buffer figures
 * (../shared/GPU.md). Run by GpuSuite ({@code run REPORT.md transfer}, and with every full benchmark run).
 */
final class GpuTransferBenchmark {

	private GpuTransferBenchmark() {}

	/** Bytes of the bandwidth measurements. */
	static final int BYTES = 64 << 20;

	static String report() {
		final StringBuilder md = new StringBuilder("\n## Host transfers and end-to-end executes (issue 9, item 3)\n\n");
		try (GpuBackend b = GpuBackend.open(0)) {
			executes(b, bandwidth(b, md), md);
		}
		catch (final RuntimeException e) {
			md.append("\nTransfer benchmark failed: ").append(Cuda.brief(e)).append("\n");
			e.printStackTrace(System.out);
		}
		return md.toString();
	}

	// -- bandwidth --

	/** The bandwidth table; returns the pinned rates, bytes per ms host → device and device → host. */
	private static double[] bandwidth(final GpuBackend b, final StringBuilder md) {
		b.gpu().makeCurrent();
		final CUstream s1 = b.stream(), s2 = new CUstream();
		check(JCudaDriver.cuStreamCreate(s2, 0), "cuStreamCreate");
		final Pointer pinA = new Pointer(), pinB = new Pointer();
		check(JCudaDriver.cuMemHostAlloc(pinA, BYTES, 0), "cuMemHostAlloc");
		check(JCudaDriver.cuMemHostAlloc(pinB, BYTES, 0), "cuMemHostAlloc");
		final float[] arr = new float[BYTES / 4];
		final Random r = new Random(1);
		for (int i = 0; i < arr.length; i++) arr[i] = r.nextFloat();
		try (DeviceArray dA = new DeviceArray(BYTES, "bandwidth A"); DeviceArray dB = new DeviceArray(BYTES, "bandwidth B");
			PinnedStaging r44 = new PinnedStaging(4, 4 << 20); PinnedStaging r84 = new PinnedStaging(8, 4 << 20);
			PinnedStaging r48 = new PinnedStaging(4, 8 << 20); PinnedStaging r416 = new PinnedStaging(4, 16 << 20))
		{
			final double h2d = CudaEvents.medianMs(s1, 2, 9, i -> check(JCudaDriver.cuMemcpyHtoDAsync(dA.pointer(), pinA,
				BYTES, s1), "cuMemcpyHtoDAsync"));
			final double d2h = CudaEvents.medianMs(s1, 2, 9, i -> check(JCudaDriver.cuMemcpyDtoHAsync(pinB, dB.pointer(),
				BYTES, s1), "cuMemcpyDtoHAsync"));
			final double both = GpuBenchmark.wallMs(2, 9, () -> {
				check(JCudaDriver.cuMemcpyHtoDAsync(dA.pointer(), pinA, BYTES, s1), "cuMemcpyHtoDAsync");
				check(JCudaDriver.cuMemcpyDtoHAsync(pinB, dB.pointer(), BYTES, s2), "cuMemcpyDtoHAsync");
				check(JCudaDriver.cuStreamSynchronize(s1), "sync");
				check(JCudaDriver.cuStreamSynchronize(s2), "sync");
			});
			final double pageUp = GpuBenchmark.wallMs(2, 9, () -> check(JCudaDriver.cuMemcpyHtoD(dA.pointer(),
				Pointer.to(arr), BYTES), "cuMemcpyHtoD(pageable)"));
			final double pageDown = GpuBenchmark.wallMs(2, 9, () -> check(JCudaDriver.cuMemcpyDtoH(Pointer.to(arr),
				dB.pointer(), BYTES), "cuMemcpyDtoH(pageable)"));
			// The plans' host side for Java arrays: HostMirror, with the backend's pool and with a thread on every
			// processor but one, its DMAs
			// overlapping the copies (per run of finished units, per output segment) or after them (one DMA).
			final List<String> mirrorRows = new ArrayList<>();
			final List<Double> mirrorMs = new ArrayList<>();
			final int cpus = Runtime.getRuntime().availableProcessors();
			for (final int k : java.util.stream.IntStream.of(GpuBackend.copyThreads(), Math.max(1, cpus - 1)).distinct()
				.toArray())
			{
				final java.util.concurrent.ThreadPoolExecutor pool = k == GpuBackend.copyThreads() ? b.copyPool() :
					new java.util.concurrent.ThreadPoolExecutor(k, k, 10, java.util.concurrent.TimeUnit.SECONDS,
						new java.util.concurrent.LinkedBlockingQueue<>());
				final HostMirror mirror = new HostMirror(pool);
				try {
					if (!mirror.ensure(BYTES, BYTES)) throw new GpuException("host mirror: no pinned memory for 2 x " +
						BYTES);
					final PinnedStaging.Host h = PinnedStaging.Host.of(arr);
					for (final boolean overlap : new boolean[] { true, false }) {
						mirrorMs.add(GpuBenchmark.wallMs(2, 9, () -> {
							final HostMirror.Fill fill = mirror.fill(h, 0, arr.length, false);
							if (overlap) {
								for (int u = 0; u < fill.units(); u++) {
									fill.await(u);
									mirror.upload(u == 0 ? 0 : fill.end(u - 1), fill.end(u), dA.pointer(), s1);
								}
							}
							else {
								for (int u = 0; u < fill.units(); u++) fill.await(u);
								mirror.upload(0, BYTES, dA.pointer(), s1);
							}
							check(JCudaDriver.cuStreamSynchronize(s1), "sync");
						}));
						mirrorRows.add("mirrored Java float[] → device, " + k + " threads, " + (overlap ?
							"DMA per copied unit" : "one DMA after the copies"));
						mirrorMs.add(GpuBenchmark.wallMs(2, 9, () -> {
							final HostMirror.Drain drain = mirror.drain(h, 0, false);
							drain.download(dB.pointer(), 0, BYTES, s1, overlap ? HostMirror.SEGMENT : Long.MAX_VALUE);
							drain.finish();
						}));
						mirrorRows.add("mirrored device → Java float[], " + k + " threads, " + (overlap ? "drained by " +
							(HostMirror.SEGMENT >> 20) + " MiB segments as they land" : "one DMA, then drained"));
					}
				}
				finally {
					mirror.close();
					if (pool != b.copyPool()) pool.shutdown();
				}
			}
			final PinnedStaging[] rings = { r44, r84, r48, r416 };
			final String[] ringNames = { "4 × 4 MiB", "8 × 4 MiB", "4 × 8 MiB", "4 × 16 MiB" };
			final double[] stagedUp = new double[rings.length], stagedDown = new double[rings.length];
			for (int k = 0; k < rings.length; k++) {
				final PinnedStaging staging = rings[k];
				stagedUp[k] = GpuBenchmark.wallMs(2, 9, () -> {
					staging.upload(arr, 0, arr.length, false, dA.pointer(), s1);
					check(JCudaDriver.cuStreamSynchronize(s1), "sync");
				});
				stagedDown[k] = GpuBenchmark.wallMs(2, 9, () -> staging.download(dB.pointer(), arr, 0, arr.length, false,
					s1));
			}
			md.append("64 MiB per copy; pinned: CUDA events, others wall clock; median of 9 after 2 warm-ups. staged = ")
				.append("a ring of n pinned slices of s MiB (the plans' executes use ").append(GpuNufftPlan.STAGING_SLICES)
				.append(" × ").append(GpuNufftPlan.STAGING_SLICE_BYTES >> 20).append(" MiB), filled and drained by ")
				.append(Runtime.getRuntime().availableProcessors()).append(" host threads, from and to a Java float[].\n\n");
			md.append("| copy | ms | GB/s |\n|---|---|---|\n");
			row(md, "pinned host → device", h2d, BYTES);
			row(md, "pinned device → host", d2h, BYTES);
			row(md, "pinned, both directions at once (2 × 64 MiB)", both, 2L * BYTES);
			row(md, "pageable Java float[] → device (driver)", pageUp, BYTES);
			row(md, "pageable device → Java float[] (driver)", pageDown, BYTES);
			for (int k = 0; k < rings.length; k++) {
				row(md, "staged Java float[] → device, " + ringNames[k], stagedUp[k], BYTES);
				row(md, "staged device → Java float[], " + ringNames[k], stagedDown[k], BYTES);
			}
			for (int k = 0; k < mirrorRows.size(); k++) row(md, mirrorRows.get(k), mirrorMs.get(k), BYTES);
			// The host side alone: a Java float[] into pinned memory by k threads (each a contiguous part).
			final java.nio.FloatBuffer pinned = pinA.getByteBuffer(0, BYTES).order(java.nio.ByteOrder.nativeOrder())
				.asFloatBuffer();
			for (final int k : new int[] { 1, 2, 4, 8, 16 }) {
				final java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(k);
				try {
					final int per = arr.length / k;
					final double ms = GpuBenchmark.wallMs(2, 9, () -> pool.submit(() -> java.util.stream.IntStream
						.range(0, k).parallel().forEach(part -> pinned.put(part * per, arr, part * per, per))).join());
					row(md, "host copy Java float[] → pinned, " + k + " thread" + (k == 1 ? "" : "s"), ms, BYTES);
				}
				finally {
					pool.shutdown();
				}
			}
			return new double[] { BYTES / h2d, BYTES / d2h };
		}
		finally {
			JCudaDriver.cuMemFreeHost(pinA);
			JCudaDriver.cuMemFreeHost(pinB);
			JCudaDriver.cuStreamDestroy(s2);
		}
	}


	private static void row(final StringBuilder md, final String what, final double ms, final long bytes) {
		md.append(String.format(Locale.ROOT, "| %s | %.3f | %.1f |%n", what, ms, bytes / ms / 1e6));
	}

	// -- executes --

	/** An end-to-end row: a GpuBenchmark workload and the reference library's pinned-buffer times (ms). */
	private static final class E2e {

		final GpuBenchmark.Row row;
		final double refAdjoint, refForward;

		E2e(final GpuBenchmark.Row row, final double refAdjoint, final double refForward) {
			this.row = row;
			this.refAdjoint = refAdjoint;
			this.refForward = refForward;
		}
	}

	static List<E2e> rows() {
		final List<E2e> l = new ArrayList<>();
		final MeasuredReference ref = MeasuredReference.fromProperty();
		final List<GpuBenchmark.Row> all = GpuBenchmark.rows();
		for (int i = 0; i < all.size(); i++) {
			final GpuBenchmark.Row r = all.get(i);
			if (r.eps != 1e-3) continue;
			if (ref != null) {
				// Measured in this run: the same rows, the reference's pinned-buffer times (fastest method).
				final MeasuredReference.Figures a = ref.row(i, true), f = ref.row(i, false);
				if (a != null && f != null && (r.transforms > 1 || r.size.length == 3 && r.points > 2_000_000 ||
					r.name.equals("random 2D 512², M=1,048,576") || r.name.startsWith("kooshball"))) {
					l.add(new E2e(r, a.pinnedE2e, f.pinnedE2e));
				}
				continue;
			}
			if (r.name.equals("random 2D 512², M=1,048,576")) l.add(new E2e(r, 0.42, 0.30));
			if (r.name.equals("random 2D 512², M=1,048,576, 8 transforms")) l.add(new E2e(r, 3.06, 2.13));
			if (r.name.equals("radial 2D 512², 1024 × 1024 spokes, 8 transforms")) l.add(new E2e(r, 2.80, 1.97));
			if (r.name.startsWith("kooshball 3D 128³")) l.add(new E2e(r, 2.08, 1.65));
			if (r.name.equals("random 3D 256³, M=16,777,216")) l.add(new E2e(r, 17.2, 14.5));
		}
		return l;
	}

	private static void executes(final GpuBackend b, final double[] bound, final StringBuilder md) {
		md.append("\nWhole executes, float, shared spreading, wall clock median of 7 after 2 warm-ups (device-resident: ")
			.append("CUDA events, median of 10 after 3). arrays = Java float[] in and out, the plan's default: ")
			.append("through its pinned mirrors where a chunk runs in several pieces of about ")
			.append(GpuNufftPlan.PIECE_BYTES >> 20).append(" MiB of transfers (the host threads' copies overlapping ")
			.append("the DMA and the transforms), else through its staging rings; arrays, mirrors = Java arrays through ")
			.append("the mirrors always; arrays, rings = through the rings of ").append(GpuNufftPlan.STAGING_SLICES)
			.append(" × ").append(GpuNufftPlan.STAGING_SLICE_BYTES >> 20).append(" MiB always (one piece per memory ")
			.append("chunk; the default before 2026-11-29's sixth session); pinned = PinnedArray in ")
			.append("and out, no CPU copy, pipelined in pieces of about ").append(GpuNufftPlan.PIECE_BYTES >> 20)
			.append(" MiB of transfers overlapping the transforms; bound = input bytes / pinned H2D rate + output ")
			.append("bytes / pinned D2H rate (the copies alone, not overlapped); ref = the reference library with pinned ")
			.append("buffers and asynchronous copies (").append(MeasuredReference.fromProperty() == null ?
				"../shared/GPU.md, not measured in this run" : GpuSuite.referenceSource().replaceFirst(", CUDA-event.*", "") +
				", setpts excluded, median of 10 after 2 warm-ups").append("); ratio = ours / ref; ")
			.append("images/s = transforms per second from arrays / pinned / device-resident.\n\n");
		md.append("| case | dir | device ms | arrays ms | arrays, mirrors ms | arrays, rings ms | pinned ms | bound ms | ref pinned ms | ")
			.append("arrays / ref | pinned / ref | images/s (arrays / pinned / device) |\n")
			.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		final StringBuilder pieceSweeps = new StringBuilder();
		for (final E2e e : rows()) {
			try {
				execute(b, e, bound, md, pieceSweeps);
			}
			catch (final RuntimeException x) {
				md.append("| ").append(e.row.name).append(" | | failed: ").append(Cuda.brief(x).replace('|', '/'))
					.append(" |||||||||\n");
				x.printStackTrace(System.out);
			}
		}
		md.append('\n').append(pieceSweeps);
	}

	/**
	 * One row's lines into {@code md}, with {@code bound} the pinned rates (bytes per ms, up and down); a batched row's
	 * piece-size sweep into {@code pieceSweeps}.
	 */
	private static void execute(final GpuBackend b, final E2e e, final double[] bound, final StringBuilder md,
		final StringBuilder pieceSweeps)
	{
		final GpuBenchmark.Row row = e.row;
		final Random r = new Random(row.hashCode() ^ System.nanoTime());
		final Trajectory t = GpuBenchmark.trajectory(row, r);
		final int m = t.count(), tr = row.transforms;
		long px = 1;
		for (final int n : row.size) px *= n;
		final NufftOptions o = NufftOptions.defaults().withTolerance(row.eps).withSpreadMethod(SpreadMethod.SHARED)
			.withDevice(b.device());
		final NufftParameters p = ParameterChoice.choose(row.size, o);
		final float[] img = GpuBenchmark.gaussian(r, (int) (2 * px * tr)), smp = GpuBenchmark.gaussian(r, 2 * m * tr);
		final float[] outSmp = new float[smp.length], outImg = new float[img.length];
		try (GpuNufftPlan plan = new GpuNufftPlan(b, p, o, null);
			PinnedArray pImg = PinnedArray.floats(b, img.length); PinnedArray pSmp = PinnedArray.floats(b, smp.length);
			PinnedArray pOutImg = PinnedArray.floats(b, img.length);
			PinnedArray pOutSmp = PinnedArray.floats(b, smp.length);
			DeviceArray dImg = DeviceArray.of(img, "image"); DeviceArray dSmp = DeviceArray.of(smp, "samples");
			DeviceArray dOutImg = new DeviceArray(4L * img.length, "out image");
			DeviceArray dOutSmp = new DeviceArray(4L * smp.length, "out samples"))
		{
			pImg.floats().put(img);
			pSmp.floats().put(smp);
			plan.setPoints(t);
			plan.reserve(tr);
			final double devA = CudaEvents.medianMs(plan.stream(), 3, 10, i -> plan.adjointDevice(dSmp.pointer(),
				dOutImg.pointer(), tr));
			final double devF = CudaEvents.medianMs(plan.stream(), 3, 10, i -> plan.forwardDevice(dImg.pointer(),
				dOutSmp.pointer(), tr));
			final double serA = GpuBenchmark.wallMs(2, 7, () -> plan.adjoint(smp, outImg));
			final String stagesA = plan.times().toString();
			final double serF = GpuBenchmark.wallMs(2, 7, () -> plan.forward(img, outSmp));
			final String stagesF = plan.times().toString();
			plan.mirrorAlways(true);
			final double mirA = GpuBenchmark.wallMs(2, 7, () -> plan.adjoint(smp, outImg));
			final double mirF = GpuBenchmark.wallMs(2, 7, () -> plan.forward(img, outSmp));
			plan.mirrorAlways(false);
			plan.hostMirror(false);
			final double pipA = GpuBenchmark.wallMs(2, 7, () -> plan.adjoint(smp, outImg));
			final String ringStagesA = plan.times().toString();
			final double pipF = GpuBenchmark.wallMs(2, 7, () -> plan.forward(img, outSmp));
			plan.hostMirror(true);
			final double pinA = GpuBenchmark.wallMs(2, 7, () -> plan.adjoint(pSmp, pOutImg));
			final double pinF = GpuBenchmark.wallMs(2, 7, () -> plan.forward(pImg, pOutSmp));
			final long imgBytes = 4L * img.length, smpBytes = 4L * smp.length;
			final double boundA = smpBytes / bound[0] + imgBytes / bound[1];
			final double boundF = imgBytes / bound[0] + smpBytes / bound[1];
			line(md, row.name, "adjoint", devA, serA, mirA, pipA, pinA, boundA, e.refAdjoint, tr);
			line(md, row.name, "forward", devF, serF, mirF, pipF, pinF, boundF, e.refForward, tr);
			if (tr > 1) {
				// The piece size of the pinned pipeline, on the batched rows.
				final StringBuilder sweep = new StringBuilder();
				for (final long mib : new long[] { 4, 8, 16, 32 }) {
					plan.pieceBytes(mib << 20);
					final double a = GpuBenchmark.wallMs(2, 7, () -> plan.adjoint(pSmp, pOutImg));
					final double f = GpuBenchmark.wallMs(2, 7, () -> plan.forward(pImg, pOutSmp));
					sweep.append(String.format(Locale.ROOT, "%s%d MiB %.2f / %.2f ms", sweep.length() == 0 ? "" : "; ",
						mib, a, f));
				}
				plan.pieceBytes(GpuNufftPlan.PIECE_BYTES);
				pieceSweeps.append("- ").append(row.name).append(", pinned adjoint / forward by piece size: ")
					.append(sweep).append('\n');
			}
			System.out.println(row.name + " Java-array stages, mirrors: adjoint " + stagesA + "; forward " + stagesF +
				"; rings: adjoint " + ringStagesA);
		}
	}

	private static void line(final StringBuilder md, final String name, final String dir, final double dev,
		final double arrays, final double mirrors, final double rings, final double pinned, final double bound,
		final double ref, final int transforms)
	{
		md.append(String.format(Locale.ROOT,
			"| %s | %s | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %,.0f / %,.0f / %,.0f |%n", name,
			dir, dev, arrays, mirrors, rings, pinned, bound, ref, arrays / ref, pinned / ref, transforms * 1000 / arrays,
			transforms * 1000 / pinned, transforms * 1000 / dev));
	}


}
