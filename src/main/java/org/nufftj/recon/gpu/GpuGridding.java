package org.nufftj.recon.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.nufft.StageTimes;
import org.nufftj.nufft.gpu.DeviceArray;
import org.nufftj.nufft.gpu.GpuDevice;
import org.nufftj.nufft.gpu.GpuNufftPlan;
import org.nufftj.nufft.gpu.PinnedStaging;
import org.nufftj.recon.CoilCombination;
import org.nufftj.recon.CoilCombine;

/**
 * The device-resident frame of a gridding reconstruction ({@link org.nufftj.recon.GriddingRecon}) on a float
 * {@link GpuNufftPlan}: per frame the samples of all coils are uploaded once, multiplied by the density compensation on
 * the device (w stays on the device for every frame: uploaded once, or already there when computed on the device,
 * {@link GpuPipeMenon}), transformed by the plan's device-resident adjoint, combined on the
 * device (root sum of squares, or Walsh with the maths of {@link CoilCombine#walsh}), and only the combined image — plus
 * the coil images when asked — comes back. Same maths, scaling and layout as the host path.
 * <p>
 * Memory: the samples and coil images of all coils of one frame stay on the device ({@link #residentBytes}), since
 * Walsh needs every coil at every pixel; the adjoint runs in chunks of as many coils as the plan's batch buffers fit
 * beside them ({@link GpuNufftPlan#chunkSize}, {@link GpuNufftPlan#reserve}; the plan's own sample and image buffers
 * sit unused on this path, a batch's worth). When the resident buffers and one transform do not fit, or Walsh is asked
 * for more coils than the kernels take ({@link ReconKernels#walshUnsupported}: 128, fewer where shared memory is
 * smaller), {@link #open} returns null and the caller keeps the host path.
 * </p>
 * <p>
 * Owns every device buffer, pinned buffer and event it makes, and frees them in {@link #close()} (the plan keeps its
 * own batch buffers until the plan closes). Use from the thread that uses the plan.
 * </p>
 */
public final class GpuGridding implements AutoCloseable {

	/** Device memory left free beside the resident buffers and one transform (cuFFT plans, other users). */
	static final long RESERVE_BYTES = 256L << 20;

	private final GpuNufftPlan plan;
	private final GpuDevice device;
	private final CUstream stream;
	private final ReconKernels kernels;
	private final CoilCombination combine;
	private final int[] size;
	private final int coils, m, batch;
	private final long pixels;
	private final CUevent[] events = new CUevent[5];
	/** Weights on the device made by the caller (borrowed), or null: then {@link #weights} holds an upload of dcf. */
	private final GpuWeights resident;
	private DeviceArray weights, samples, images, combined, energy;
	private PinnedStaging staging;
	private boolean closed;

	// -- public API --

	/**
	 * The device path for {@code plan} (points set) with density compensation {@code dcf} (one weight per sample),
	 * {@code coils} coils per frame and images of {@code size}; null when the host path must run instead (not a
	 * {@link GpuNufftPlan}, double precision, too many coils for GPU Walsh, or not enough free device memory).
	 */
	public static GpuGridding open(final NufftPlan plan, final float[] dcf, final int coils, final int[] size,
		final CoilCombination combine)
	{
		return open(plan, dcf, null, coils, size, combine);
	}

	/**
	 * As {@link #open(NufftPlan, float[], int, int[], CoilCombination)}, with the weights already on the plan's device
	 * when {@code resident} is not null (e.g. {@link GpuPipeMenon#weights}; borrowed, not freed here, and must hold the
	 * values of {@code dcf}): no upload. The caller keeps {@code resident} open until this is closed.
	 */
	public static GpuGridding open(final NufftPlan plan, final float[] dcf, final GpuWeights resident, final int coils,
		final int[] size, final CoilCombination combine)
	{
		if (!(plan instanceof GpuNufftPlan)) return null;
		final GpuNufftPlan g = (GpuNufftPlan) plan;
		if (g.parameters().precision() != Precision.FLOAT || coils > ReconKernels.MAX_COILS) return null;
		final GpuDevice device = g.device();
		if (resident != null && (resident.device() != device || resident.count() != dcf.length)) {
			throw new IllegalArgumentException("GPU gridding: resident weights (" + resident.count() + " on " +
				resident.device() + ") do not belong to the plan's " + dcf.length + " samples on " + device);
		}
		if (combine == CoilCombination.WALSH && ReconKernels.walshUnsupported(coils, device.sharedMemoryOptin()) != null) {
			return null;
		}
		final long pixels = g.parameters().imagePixels();
		final long perTransform = g.predictDeviceBytes(1) - g.predictDeviceBytes(0);
		final long need = residentBytes(plan.points(), pixels, coils, combine) + perTransform + RESERVE_BYTES;
		if (need > device.memoryInfo()[0]) return null;
		return new GpuGridding(g, dcf, resident, coils, size, combine);
	}

	/**
	 * Reconstructs one frame: {@code y} holds the frame's samples of all coils from {@code yOffset} (KSpace layout,
	 * [coil][sample] complex interleaved); the combined image (channels 1 for SOS / Walsh, coils for NONE) goes to
	 * {@code out} from {@code outOffset}, the coil images to {@code kept} from {@code keptOffset} when kept is not
	 * null. Stage times are added to {@code times}. Returns when the results are in the arrays.
	 */
	public void frame(final float[] y, final int yOffset, final float[] out, final int outOffset, final float[] kept,
		final int keptOffset, final StageTimes times)
	{
		if (closed) throw new IllegalStateException("GPU gridding is closed");
		device.makeCurrent();
		record(0);
		staging.upload(y, yOffset, 2L * m * coils, false, samples.pointer(), stream);
		record(1);
		kernels.dcfWeight(samples.pointer(), resident != null ? resident.pointer() : weights.pointer(), m, coils);
		record(2);
		final double[] adjoint = new double[3];
		for (int c0 = 0; c0 < coils; c0 += batch) {
			final int cb = Math.min(batch, coils - c0);
			plan.adjointDevice(samples.at(8L * m * c0), images.at(8L * pixels * c0), cb);
			plan.synchronize();
			final double[] st = plan.deviceStageMillis();
			for (int i = 0; i < 3; i++) adjoint[i] += st[i];
		}
		record(3);
		switch (combine) {
			case SOS:
				kernels.sumOfSquares(images.pointer(), combined.pointer(), (int) pixels, coils);
				break;
			case WALSH:
				kernels.coilEnergy(images.pointer(), energy.pointer(), (int) pixels, coils);
				kernels.walsh(images.pointer(), energy.pointer(), combined.pointer(), size, coils, CoilCombine.WINDOW / 2,
					CoilCombine.POWER_ITERATIONS);
				break;
			default:
				break;
		}
		record(4);
		final long t0 = System.nanoTime();
		final long coilFloats = 2L * pixels * coils;
		if (combine == CoilCombination.NONE) {
			staging.download(images.pointer(), out, outOffset, coilFloats, false, stream);
			if (kept != null) System.arraycopy(out, outOffset, kept, keptOffset, (int) coilFloats);
		}
		else {
			staging.download(combined.pointer(), out, outOffset, 2L * pixels, false, stream);
			if (kept != null) staging.download(images.pointer(), kept, keptOffset, coilFloats, false, stream);
		}
		final double download = (System.nanoTime() - t0) / 1e6;
		times.add("upload", elapsed(0, 1));
		times.add("dcf (gpu)", elapsed(1, 2));
		times.add("spread (" + plan.spreadMethod().name().toLowerCase() + ")", adjoint[0]);
		times.add("fft", adjoint[1]);
		times.add("crop+deapodize", adjoint[2]);
		if (combine != CoilCombination.NONE) times.add("combine " + combine.key() + " (gpu)", elapsed(3, 4));
		times.add("download", download);
	}

	/** Transforms the plan runs at once (coils per adjoint chunk). */
	public int batch() { return batch; }

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		device.makeCurrent();
		JCudaDriver.cuStreamSynchronize(stream);
		for (final DeviceArray a : new DeviceArray[] { weights, samples, images, combined, energy })
			if (a != null) a.close();
		weights = samples = images = combined = energy = null;
		if (staging != null) staging.close();
		staging = null;
		for (final CUevent e : events)
			if (e != null) JCudaDriver.cuEventDestroy(e);
	}

	// -- helpers --

	/**
	 * Device bytes held besides the plan's: samples and coil images of all coils (complex float), the combined image
	 * (SOS, Walsh), the weights and the coil energies (Walsh).
	 */
	static long residentBytes(final long m, final long pixels, final int coils, final CoilCombination combine) {
		long b = 8L * coils * (m + pixels) + 4L * m;
		if (combine != CoilCombination.NONE) b += 8L * pixels;
		if (combine == CoilCombination.WALSH) b += 8L * coils;
		return b;
	}

	private GpuGridding(final GpuNufftPlan plan, final float[] dcf, final GpuWeights resident, final int coils,
		final int[] size, final CoilCombination combine)
	{
		this.plan = plan;
		this.resident = resident;
		this.device = plan.device();
		this.stream = plan.stream();
		this.kernels = new ReconKernels(device, stream);
		this.combine = combine;
		this.size = size.clone();
		this.coils = coils;
		this.m = plan.points();
		this.pixels = plan.parameters().imagePixels();
		if (dcf.length != m) {
			throw new IllegalArgumentException("GPU gridding: " + dcf.length + " DCF weights for " + m + " samples");
		}
		boolean ok = false;
		try {
			device.makeCurrent();
			if (resident == null) weights = DeviceArray.of(dcf, "DCF weights, " + m + " samples");
			samples = new DeviceArray(8L * m * coils, "samples, " + m + " x " + coils + " coils");
			images = new DeviceArray(8L * pixels * coils, "coil images, " + pixels + " pixels x " + coils + " coils");
			if (combine != CoilCombination.NONE) combined = new DeviceArray(8L * pixels, "combined image, " + pixels +
				" pixels");
			if (combine == CoilCombination.WALSH) energy = new DeviceArray(8L * coils, "coil energies, " + coils + " coils");
			staging = new PinnedStaging();
			for (int i = 0; i < events.length; i++) {
				final CUevent e = new CUevent();
				check(JCudaDriver.cuEventCreate(e, 0), "cuEventCreate (GPU gridding)");
				events[i] = e;
			}
			batch = plan.chunkSize(coils);
			plan.reserve(batch);
			ok = true;
		}
		finally {
			if (!ok) close();
		}
	}

	private void record(final int i) {
		check(JCudaDriver.cuEventRecord(events[i], stream), "cuEventRecord (GPU gridding)");
	}

	/** Milliseconds between two recorded events; both must have completed (after a synchronous download). */
	private double elapsed(final int from, final int to) {
		final float[] ms = new float[1];
		check(JCudaDriver.cuEventElapsedTime(ms, events[from], events[to]), "cuEventElapsedTime (GPU gridding)");
		return ms[0];
	}
}
