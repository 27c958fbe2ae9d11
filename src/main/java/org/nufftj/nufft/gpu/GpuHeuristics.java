package org.nufftj.nufft.gpu;

import java.util.Arrays;

import org.nufftj.InvalidInputException;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.trajectory.RadialLines;
import org.nufftj.trajectory.Trajectory;

/**
 * The GPU plan's choices, all host arithmetic (as cuFINUFFT keeps its heuristics apart from setpts and execution):
 * the bin of the binned kernels, the spreading method AUTO resolves to, shared-memory sizes of the blocks, device
 * memory per transform and how many transforms run at once. Measured choices are in docs/gpu-tuning.md. No state;
 * tested without a GPU (GpuHeuristicsTest).
 */
final class GpuHeuristics {

	private GpuHeuristics() {}

	/** Threads per block of the NUFFT kernels. */
	static final int BLOCK = 256;
	/** Most threads per block of spread_serial_3d_* (its __launch_bounds__). */
	static final int SERIAL_MAX_BLOCK = 512;
	/**
	 * Bins (tiles) of the shared-memory spreader, in order of preference: the first whose block (tile of (bin + W − 1)
	 * cells per axis plus the staged points) fits {@link #SHARED_TARGET} is used. Larger bins give each block more
	 * points for the same tile clearing and flushing; smaller ones let more blocks share an SM. Measured on the H100
	 * (docs/gpu-tuning.md): in 3D up to W = {@value #NARROW_3D}, 8×8×8 bins spread 1.2–1.5× faster than 16×16×8; at
	 * W = 8, 16×8×8 (three blocks per SM) 1.16× faster than 16×16×8 (two) and 8×8×8 (more flushing). In 2D on the
	 * H200 (2026-11-28, one call, five rows at W = 4, 7, 8): 32×16 (x × y) spread 1.03–1.31× faster than 32×32 and
	 * at least as fast as 16×16, 64×32 and 64×64 on every row but one (radial ε 1e-5: 64×32 0.215 against 0.218 ms);
	 * 32×32, never the first to fit after it, stays in the list as a tuning candidate ({@link #tuningBins}).
	 */
	static final int[][] BINS_2D = { { 32, 16 }, { 32, 32 }, { 16, 16 } },
		BINS_3D = { { 16, 8, 8 }, { 8, 8, 8 }, { 4, 4, 4 } }, BINS_3D_NARROW = { { 8, 8, 8 }, { 4, 4, 4 } };
	static final int SHARED_TARGET = 96 * 1024, NARROW_3D = 7;
	/** Most points one shared-memory subproblem (block) spreads: dense bins (radial centres) are split. */
	static final int MAX_SUBPROBLEM = 1024;
	/** Points staged per chunk by spread_tiles_* (TILE_CHUNK in kernels/spread.cu). */
	static final int TILE_CHUNK = 256;
	/** Cells per block of the output-driven spreader, per axis (RADIAL_BLOCK_X/Y in kernels/spread_radial.cu). */
	static final int RADIAL_BLOCK = 16;
	/** Device memory kept free for cuFFT plans, the context and other users: the one definition. */
	static final long RESERVE_BYTES = 256L << 20;

	// -- 3D shared-memory spreading: point-serial or atomic --

	/**
	 * Whether a 3D shared-memory spread fills its tile point by point with plain stores (spread_serial_3d_*, the
	 * default) rather than with shared atomics (spread_tiles_3d_*): the system property {@code nufftj.spread3d=atomic}
	 * picks the latter, for side-by-side measurement (docs/gpu-tuning.md).
	 */
	static boolean serial3d() {
		return !"atomic".equalsIgnoreCase(System.getProperty("nufftj.spread3d", "serial").trim());
	}

	/** Threads per block of spread_serial_3d_*: whole warps covering the W³ taps of one point, at most 512. */
	static int serialBlock(final int width) {
		final int taps = width * width * width;
		return Math.min(SERIAL_MAX_BLOCK, (taps + 31) / 32 * 32);
	}

	// -- 2D shared-memory spreading of several transforms at once (spread_coils_2d_*) --

	/**
	 * Points staged per chunk by spread_coils_2d_* at width W (coil_chunk in kernels/spread.cu): 64 at W = 4, else 128.
	 * At W = 4 the smaller stage leaves room for more blocks per SM (8 coils on 16 × 8 bins: 27.7 → 21.3 KB a block, 8
	 * → 10 blocks); on the H200, 8-coil adjoints at ε 1e-3, two rounds alternating: random 512² 0.580, 0.579 ms with 128
	 * against 0.552, 0.553 with 64 (0.517, 0.542 with 32), radial 512² 0.490, 0.493 against 0.481, 0.484 (0.502, 0.522
	 * with 32) (docs/gpu-tuning.md, 2026-11-29, second session). Wider kernels keep 128 (not measured with less).
	 */
	static int coilChunk(final int width) {
		return width == 4 ? 64 : 128;
	}

	/** Most warps per block of spread_coils_2d_* (its __launch_bounds__ is 256 threads). */
	static final int COIL_MAX_WARPS = 8;

	/** The system property {@code nufftj.spreadCoils}: auto (default), true (every width) or false (never). */
	static String coilSetting() {
		return System.getProperty("nufftj.spreadCoils", "auto").trim().toLowerCase(java.util.Locale.ROOT);
	}

	/**
	 * Whether a 2D shared-memory spread of {@code batch} transforms at width W runs spread_coils_2d_* (point-serial per
	 * warp, the kernel values of a point computed once for all transforms) rather than spread_tiles_2d_* per transform.
	 * Setting (see {@link #coilSetting}) true: from two transforms, at every width; false: never (both for side-by-side
	 * measurement and tests). Otherwise where it measured faster on the H200 (docs/gpu-tuning.md, coil spreading:
	 * radial 512², widths 3–12, batches 2, 8, 16): from 8 transforms at widths from 5 whose W² taps fill at least
	 * three quarters of the lanes' rounds (one coil per warp, ⌈W²/32⌉ rounds of 32 lanes per point: not W = 6, 36 taps
	 * in two rounds), and at W = 4 from 8 transforms, where it runs on smaller bins of its own ({@link #coilBin}).
	 * Below that, the warps' point-by-point chains (one point per round, few warps per SM for the tiles of a whole
	 * group of coils) lose to spread_tiles_2d_*'s shared atomics.
	 */
	static boolean coilSpread(final int width, final int batch, final String setting) {
		if (batch < 2 || setting.equals("false")) return false;
		if (setting.equals("true")) return true;
		if (width == 4) return batch >= 8; // on its own bins, coilBin
		final int taps = width * width, rounds = (taps + 31) / 32;
		return batch >= 8 && width >= 5 && 4 * taps >= 3 * 32 * rounds;
	}

	/**
	 * The bin spread_coils_2d_* runs on when the plan's bins are its heuristic's ({@code planBin}): 16 × 8 at W = 4
	 * (the plan then sorts its points a second time for it, where that pays: {@link #coilSort}), else the plan's. At
	 * W = 4 a warp spreads two coils, and the tiles of a block's eight coils on 32 × 16 bins (about 44 KiB) left four
	 * blocks, a sixth of the warps, per SM (Nsight Compute: 17% achieved occupancy); on the H200, radial 512², 1024 ×
	 * 1024 spokes, 8 coils, ε 1e-3, the spread took 0.49 ms with per-transform tiles on 32 × 16, 0.51 with this kernel
	 * on 32 × 16, 0.40 on 16 × 16, 0.38 on 8 × 8 and 0.37 on 16 × 8 (docs/gpu-tuning.md, 2026-11-29). At W = 8 the bins
	 * made no difference (0.87–0.92 ms from 32 × 16 to 16 × 8). The interpolation keeps the plan's bins: it ran slower
	 * on 16 × 8.
	 */
	static int[] coilBin(final int width, final int[] planBin) {
		return planBin.length == 2 && width == 4 ? new int[] { 16, 8 } : planBin.clone();
	}

	/**
	 * Most points one subproblem of spread_coils_2d_* takes on its own bins ({@link #coilBin}): 256, not the plan's
	 * {@link #MAX_SUBPROBLEM}. Each warp of its block walks the subproblem's points one by one for all the block's
	 * coils, so a block of 1024 points (a radial centre's bin holds thousands) outlasted the others: Nsight Compute
	 * showed the SMs idle 21% of the kernel's time (achieved occupancy 48% of 62.5%). On the H200, radial 512², 1024 ×
	 * 1024 spokes, 8 coils, ε 1e-3, the spread took 0.231–0.233 ms with 256 against 0.274–0.278 with 1024 (two rounds,
	 * the kernel then also staging samples a chunk ahead, a variant not kept); random 512² × 8 (no dense bins) and
	 * W = 8 unchanged (docs/gpu-tuning.md, seventh session).
	 */
	static final int COIL_MAX_SUBPROBLEM = 256;

	/** Points × transforms from which the automatic setting sorts the points for {@link #coilBin} (2²²). */
	static final long COIL_SORT_MIN = 1L << 22;

	/**
	 * Whether a plan with {@link #coilBin}s of its own sorts its {@code points} a second time for a spread of
	 * {@code batch} transforms (else it spreads with per-transform tiles on its own bins). Setting true: always (tests);
	 * auto: from {@value #COIL_SORT_MIN} points × transforms. The second sort (six launches and a read-back) costs about
	 * what it saves below that: on the H200 the 8-coil radial 512² adjoint gained 0.13 ms at 1M points (8M
	 * point-transforms), while the real-time sliding window (8 coils, 16,384 and 32,768 points a frame, a setPoints
	 * and an adjoint per frame) lost 0.06–0.08 ms a frame with it (docs/gpu-tuning.md, 2026-11-29); with the gain
	 * taken as proportional to points × transforms, one adjoint per setPoints pays for the sort from about 4M. (That
	 * sort uploaded the coordinates from the host again; it now copies them on the device, so the threshold errs on
	 * the side of the per-transform tiles.)
	 */
	static boolean coilSort(final long points, final int batch, final String setting) {
		return setting.equals("true") || points * batch >= COIL_SORT_MIN;
	}

	/** Transforms (coils) one warp of spread_coils_2d_* spreads at once: W² lanes each (coils_per_warp in spread.cu). */
	static int coilsPerWarp(final int width) {
		return width * width <= 16 ? 32 / (width * width) : 1;
	}

	/** Floats of one tile plane of spread_coils_2d_* for {@code cells} cells (coil_plane in spread.cu: 8 mod 16). */
	static int coilPlane(final int cells) {
		return (cells + 7) / 16 * 16 + 8;
	}

	/**
	 * spread_coils_2d_*'s shared memory with {@code warps} warps: per coil of the block (warps × {@link #coilsPerWarp})
	 * two planes of {@link #coilPlane}((bx + W) × (by + W − 1)) values and 2·{@link #coilChunk} + 1 sample values, per
	 * staged point 2W kernel values and an int tile offset. (At W = 4 in float the kernel lays a coil's tile and samples
	 * out as complex values in the same room.)
	 */
	static int coilTileBytes(final int[] bin, final int width, final int cbytes, final int warps) {
		final long coils = (long) warps * coilsPerWarp(width), real = cbytes / 2, chunk = coilChunk(width);
		final long plane = coilPlane((bin[0] + width) * (bin[1] + width - 1));
		final long bytes = real * (2 * coils * plane + chunk * 2 * width + coils * (2 * chunk + 1)) + 4L * chunk;
		return (int) Math.min(Integer.MAX_VALUE, bytes);
	}

	/**
	 * Warps per block of spread_coils_2d_* for {@code batch} transforms: enough for the batch (at most
	 * {@value #COIL_MAX_WARPS}) and fewer while the block would not fit {@code sharedOptin}; 0 when even one warp's block
	 * does not fit (spread_tiles_2d_* then).
	 */
	static int coilWarps(final int batch, final int[] bin, final int width, final int cbytes, final int sharedOptin) {
		final int per = coilsPerWarp(width);
		int warps = Math.min(COIL_MAX_WARPS, (batch + per - 1) / per);
		while (warps > 0 && coilTileBytes(bin, width, cbytes, warps) > sharedOptin) warps--;
		return warps;
	}

	// -- bins and shared memory --

	/** A complex tile of (bin + W − 1) cells per axis (interp_tiles_*). */
	static int tileBytes(final int[] bin, final int width, final int cbytes) {
		long cells = 1;
		for (final int b : bin) cells *= b + width - 1;
		return (int) Math.min(Integer.MAX_VALUE, cells * cbytes);
	}

	/**
	 * spread_tiles_*: two real planes of pitch (bin + W) × (bin + W − 1)… cells, then TILE_CHUNK staged points of
	 * d·W kernel values, two sample components and one int cell offset (TileStage in kernels/spread.cu).
	 * spread_serial_3d_* gets the same bytes and stages as many points as its products take room for (up to 64).
	 */
	static int stagedTileBytes(final int[] bin, final int width, final int cbytes) {
		long cells = bin[0] + width;
		for (int a = 1; a < bin.length; a++) cells *= bin[a] + width - 1;
		final int real = cbytes / 2;
		final long stage = (long) TILE_CHUNK * ((bin.length * width + 2) * real + 4);
		return (int) Math.min(Integer.MAX_VALUE, 2 * cells * real + stage);
	}

	/** Shared memory a binned block of {@code bin} needs: the larger of the spreader's and the interpolator's. */
	static int binBytes(final int[] bin, final int width, final int cbytes) {
		return Math.max(tileBytes(bin, width, cbytes), stagedTileBytes(bin, width, cbytes));
	}

	/**
	 * The bin of the binned kernels: the first of the preferred list ({@link #BINS_2D}; in 3D {@link #BINS_3D_NARROW}
	 * up to W = {@value #NARROW_3D}, else {@link #BINS_3D}) whose block fits {@code sharedBudget}, else the smallest.
	 */
	static int[] binSize(final int dims, final int width, final int cbytes, final int sharedBudget) {
		final int[][] options = dims == 2 ? BINS_2D : width <= NARROW_3D ? BINS_3D_NARROW : BINS_3D;
		for (final int[] b : options) {
			if (binBytes(b, width, cbytes) <= sharedBudget) return b.clone();
		}
		return options[options.length - 1].clone();
	}

	/**
	 * A bin asked for by a tuning run (GpuBenchmark's {@code shared@16x8x8}): {@code dims} positive sizes whose block
	 * fits the device's opt-in shared memory, else an {@link InvalidInputException} naming it.
	 */
	static int[] checkBin(final int[] bin, final int dims, final int width, final int cbytes, final int sharedOptin) {
		InvalidInputException.require(bin.length == dims && Arrays.stream(bin).allMatch(b -> b >= 1), "GPU bins " +
			Arrays.toString(bin) + ": expected " + dims + " sizes >= 1");
		final int need = binBytes(bin, width, cbytes);
		InvalidInputException.require(need <= sharedOptin, "GPU bins " + Arrays.toString(bin) + " need " + need +
			" B of shared memory per block at W = " + width + ", the device allows " + sharedOptin);
		return bin.clone();
	}

	/**
	 * Bins a tuner times for shared-memory spreading: every bin of the preferred lists of {@code dims} axes
	 * ({@link #BINS_2D}; in 3D {@link #BINS_3D} and {@link #BINS_3D_NARROW}) whose block fits {@code sharedOptin},
	 * each once, in list order.
	 */
	static java.util.List<int[]> tuningBins(final int dims, final int width, final int cbytes, final int sharedOptin) {
		final java.util.List<int[]> out = new java.util.ArrayList<>();
		for (final int[][] list : dims == 2 ? new int[][][] { BINS_2D } : new int[][][] { BINS_3D, BINS_3D_NARROW }) {
			for (final int[] b : list) {
				if (binBytes(b, width, cbytes) > sharedOptin) continue;
				if (out.stream().noneMatch(o -> Arrays.equals(o, b))) out.add(b.clone());
			}
		}
		return out;
	}

	// -- spreading method --

	/**
	 * The method a plan spreads with. AUTO: SHARED whenever its block fits the device's opt-in shared memory (it
	 * replaces W^d global atomics per point by shared ones plus one pass over the tile, which wins on the dense centres
	 * of radial trajectories and on uniform points alike at M ≥ grid size), else ATOMIC. AUTO never picks
	 * OUTPUT_DRIVEN: on the H100 benchmark rows it was 30–50× slower than SHARED on single transforms and 6–9× on 8
	 * coils (docs/gpu-tuning.md); it runs only when asked, on 2D plans, and {@link #outputDrivenApplicable} decides at
	 * setPoints whether the points allow it.
	 */
	static SpreadMethod resolveMethod(final SpreadMethod asked, final int dims, final int sharedBytes,
		final int sharedOptin)
	{
		switch (asked) {
			case ATOMIC: return SpreadMethod.ATOMIC;
			case SHARED:
				if (sharedBytes > sharedOptin) {
					throw new InvalidInputException("GPU NUFFT: shared-memory spreading needs " + sharedBytes +
						" B of shared memory per block, the device allows " + sharedOptin + "; use spread method atomic");
				}
				return SpreadMethod.SHARED;
			case OUTPUT_DRIVEN:
				if (dims != 2) {
					throw new InvalidInputException("GPU NUFFT: spread method output-driven gathers from 2D radial lines, " +
						"the plan's image is " + dims + "D; use auto, atomic or shared");
				}
				return SpreadMethod.OUTPUT_DRIVEN;
			default: return sharedBytes <= sharedOptin ? SpreadMethod.SHARED : SpreadMethod.ATOMIC;
		}
	}

	/**
	 * Whether output-driven spreading can run on {@code t}: a 2D trajectory of radial lines ({@link RadialLines}:
	 * readout × shots, every shot uniformly spaced on a line through k = 0).
	 */
	static boolean outputDrivenApplicable(final Trajectory t) {
		return t.dimensions() == 2 && RadialLines.detect(t).isPresent();
	}

	/** Transforms one output-driven block accumulates in registers (RADIAL_BATCH_F / _D in kernels/spread_radial.cu). */
	static int radialBatch(final boolean dbl) {
		return dbl ? 4 : 8;
	}

	// -- device memory --

	/**
	 * Device bytes one transform needs at once: the fine grid and cuFFT's work area (about one grid), plus, for
	 * host-array calls, the plan's own image and sample buffers.
	 */
	static long perTransformBytes(final int cbytes, final long gridPoints, final long pixels, final long points,
		final boolean hostArrays)
	{
		return cbytes * (2 * gridPoints + (hostArrays ? pixels + Math.max(points, 1) : 0));
	}

	/**
	 * How many of {@code transforms} run at once: as many as fit {@code free} bytes (plus {@code held}, the batch
	 * buffers the plan already has and would replace) less {@link #RESERVE_BYTES}, at most {@code limit}. Fewer than one
	 * is a {@link GpuException} naming the sizes ({@code what}).
	 */
	static int chunkSize(final int transforms, final long free, final long held, final long perTransform,
		final int limit, final String what)
	{
		final long room = free + held - RESERVE_BYTES;
		final long fit = room / perTransform;
		if (fit < 1) {
			throw new GpuException("GPU NUFFT: one transform needs " + (perTransform >> 20) + " MiB of device memory (" +
				what + "), only " + ((free + held) >> 20) + " MiB are free, " + (RESERVE_BYTES >> 20) + " MiB kept in reserve");
		}
		return (int) Math.min(Math.min(transforms, fit), limit);
	}
}
