package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.AbstractExactPlan;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.NufftPlan;
import org.nufftj.nufft.Precision;
import org.nufftj.trajectory.Trajectory;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/**
 * The GPU's exact plan ({@link org.nufftj.nufft.Backend#exactPlan}): direct sums over every sample-voxel pair by the
 * kernels of kernels/exact.cu (Stone et al. 2008: samples or voxels tiled through shared memory, the trigonometry on
 * the special function units, phase arguments formed in double and reduced to one cycle, so float results carry the
 * float round-off of the sums alone). The points stay on the device in double ([point][axis]). Up to
 * {@link #MAX_BATCH} transforms (coils) share each phase; more are done in groups. Small problems are split over
 * chunks of the summed dimension (atomics into the zeroed output) so that every SM has work.
 * <p>
 * Asynchronous on the backend's stream like every buffer operation; registered with the backend, closed with it.
 * </p>
 */
public final class GpuExactPlan extends AbstractExactPlan {

	/** Transforms that share one phase per launch (the largest kernel template, TB in kernels/exact.cu). */
	static final int MAX_BATCH = 8;
	/** Threads per block and samples (voxels) per shared tile: BLOCK, TILE in kernels/exact.cu. */
	static final int BLOCK = 128, TILE = 256;
	private static final String MODULE = "exact";

	private final GpuBackend backend;
	private final long pixels;
	private DeviceArray points;
	private int count;
	private boolean closed;

	GpuExactPlan(final GpuBackend backend, final int[] size, final Precision precision) {
		super(backend, size, precision);
		this.backend = backend;
		pixels = parameters.imagePixels();
		backend.opened(this);
	}

	// -- public API --

	@Override
	public void setPoints(final Trajectory trajectory) {
		ensureOpen();
		parameters.requireDimensions(trajectory);
		backend.gpu().makeCurrent();
		backend.synchronize(); // queued work may still read the old points
		if (points != null) points.close();
		points = null;
		count = trajectory.count();
		points = DeviceArray.of(trajectory.coords(), "exact plan: " + count + " points");
	}

	@Override
	public int points() { return count; }

	@Override
	public void forward(final float[] image, final float[] samples) {
		arrays(true, image, samples);
	}

	@Override
	public void adjoint(final float[] samples, final float[] image) {
		arrays(false, image, samples);
	}

	@Override
	public void forward(final double[] image, final double[] samples) {
		arrays(true, image, samples);
	}

	@Override
	public void adjoint(final double[] samples, final double[] image) {
		arrays(false, image, samples);
	}

	@Override
	public void forward(final Buffer image, final Buffer samples) {
		run(true, mine(image, "exact forward: image"), mine(samples, "exact forward: samples"));
	}

	@Override
	public void adjoint(final Buffer samples, final Buffer image) {
		run(false, mine(image, "exact adjoint: image"), mine(samples, "exact adjoint: samples"));
	}

	@Override
	public void close() {
		if (closed) return;
		closed = true;
		try {
			if (points != null) {
				backend.synchronize();
				points.close();
			}
		}
		finally {
			points = null;
			backend.closed(this);
		}
	}

	@Override
	public String toString() {
		return "exact plan " + Arrays.toString(size) + " on " + backend.name();
	}

	// -- launch geometry (host logic, no GPU) --

	/** Chunks of the summed dimension ({@code summed} values) for {@code blocks} blocks on {@code sms} SMs. */
	static int chunks(final long blocks, final long summed, final int sms) {
		final long target = 8L * Math.max(1, sms);
		if (blocks >= target) return 1;
		final long most = Math.max(1, (summed + TILE - 1) / TILE);
		return (int) Math.max(1, Math.min(Math.min(most, (target + blocks - 1) / blocks), GpuVectorKernels.MAX_GRID_Y));
	}

	/** Voxels per thread along x of the adjoint kernel of batch {@code tb} (UNROLL(TB) in kernels/exact.cu). */
	static int unroll(final int tb) {
		return tb <= 2 ? 8 : 4;
	}

	/** The largest kernel batch (1, 2, 4 or 8) not above {@code remaining}. */
	static int batch(final int remaining) {
		int b = MAX_BATCH;
		while (b > remaining) b /= 2;
		return b;
	}

	// -- helpers --

	/** T transforms in groups of 1, 2, 4 or 8, each group one launch (after a zeroing memset when chunked). */
	private void run(final boolean forward, final GpuBuffer image, final GpuBuffer samples) {
		ensureOpen();
		if (count == 0) throw new IllegalStateException("exact plan: setPoints must be called before forward/adjoint");
		backend.gpu().makeCurrent();
		final int transforms = NufftPlan.transforms(this, image.length(), samples.length());
		final boolean dbl = image.isDouble();
		final int complexBytes = 2 * image.bytesPerValue();
		final int nx = size[0], ny = size[1], nz = size.length > 2 ? size[2] : 1;
		final GpuBuffer out = forward ? samples : image;
		final long summed = forward ? pixels : count;
		final int sms = backend.gpu().multiprocessors();
		for (int b0 = 0; b0 < transforms;) {
			final int tb = batch(transforms - b0);
			final long threads = forward ? count : (long) ((nx + unroll(tb) - 1) / unroll(tb)) * ny * nz;
			final long blocks = (threads + BLOCK - 1) / BLOCK;
			final int chunks = chunks(blocks, summed, sms);
			final long chunk = ((summed + chunks - 1) / chunks + TILE - 1) / TILE * TILE;
			final String sizes = Arrays.toString(size) + ", " + count + " points, transforms " + b0 + "+" + tb + " of " +
				transforms + ", " + chunks + " chunks";
			final CUdeviceptr in = (forward ? image : samples).pointer().withByteOffset(b0 * (forward ? pixels : count) *
				complexBytes);
			final long outStride = forward ? count : pixels;
			final CUdeviceptr o = out.pointer().withByteOffset(b0 * outStride * complexBytes);
			if (chunks > 1) { // the chunks add into this batch's part of the output
				check(JCudaDriver.cuMemsetD8Async(o, (byte) 0, tb * outStride * complexBytes, backend.stream()),
					"cuMemsetD8Async(exact plan output, " + sizes + ")");
			}
			// exact_{adjoint,forward}_S_TB(const double* k, int dims, long long m, const C* in, long long inStride,
			//   int nx, int ny, int nz, C* out, long long outStride, int sign, long long chunk)
			final KernelArgs args = new KernelArgs().pointer(points.pointer()).i32(size.length).i64(count).pointer(in)
				.i64(forward ? pixels : count).i32(nx).i32(ny).i32(nz).pointer(o).i64(outStride).i32(
					forward ? -1 : 1).i64(chunk);
			backend.gpu().launch(MODULE, "exact_" + (forward ? "forward" : "adjoint") + "_" + (dbl ? "d" : "f") + "_" + tb,
				blocks, chunks, BLOCK, 0, backend.stream(), args.build(), sizes);
			b0 += tb;
		}
	}

	private void arrays(final boolean forward, final Object image, final Object samples) {
		ensureOpen();
		final long t0 = System.nanoTime();
		final int il = image instanceof float[] ? ((float[]) image).length : ((double[]) image).length;
		final int sl = samples instanceof float[] ? ((float[]) samples).length : ((double[]) samples).length;
		NufftPlan.transforms(this, il, sl);
		final Precision p = parameters.precision();
		try (GpuBuffer i = backend.allocate(il, p); GpuBuffer s = backend.allocate(sl, p)) {
			backend.writeConverting(host(forward ? image : samples), forward ? i : s);
			run(forward, i, s);
			backend.readConverting(forward ? s : i, host(forward ? samples : image));
		}
		times.clear();
		times.add(forward ? "direct forward" : "direct adjoint", (System.nanoTime() - t0) / 1e6);
	}

	private static PinnedStaging.Host host(final Object a) {
		return a instanceof float[] ? PinnedStaging.Host.of((float[]) a) : PinnedStaging.Host.of((double[]) a);
	}

	private GpuBuffer mine(final Buffer b, final String what) {
		ensureOpen();
		final GpuBuffer g = backend.mine(b, what);
		if (g.precision() != parameters.precision()) {
			throw new InvalidInputException(what + ": a " + g.precision().name().toLowerCase() + " buffer, the plan is " +
				parameters.precision().name().toLowerCase());
		}
		return g;
	}

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("exact plan is closed");
		backend.ensureOpen();
	}
}
