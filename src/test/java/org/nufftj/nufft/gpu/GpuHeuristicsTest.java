package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.nufft.SpreadMethod;
import org.nufftj.trajectory.GoldenAngleRadial;
import org.nufftj.trajectory.TrajectoryKind;

/** The GPU plan's host choices (no GPU): bins, shared memory, method, memory and batch sizes. */
class GpuHeuristicsTest {

	/** The point-serial 3D spreader's block: whole warps over one point's W³ taps, at most its launch bound. */
	@Test
	void serialBlockCoversOnePointsTapsInWholeWarps() {
		for (int w = 2; w <= 16; w++) {
			final int b = GpuHeuristics.serialBlock(w), taps = w * w * w;
			assertEquals(0, b % 32, "W = " + w + ": whole warps");
			assertTrue(b <= GpuHeuristics.SERIAL_MAX_BLOCK, "W = " + w + ": within the launch bound");
			if (taps <= GpuHeuristics.SERIAL_MAX_BLOCK) assertTrue(b >= taps && b - taps < 32, "W = " + w + ": " + b);
			else assertEquals(GpuHeuristics.SERIAL_MAX_BLOCK, b, "W = " + w);
		}
		assertEquals(352, GpuHeuristics.serialBlock(7));
	}

	private static final int H100_OPTIN = 227 * 1024, BUDGET = GpuHeuristics.SHARED_TARGET;

	/** Shared-memory sizes written out from the CUDA layouts (TileStage, interp's tile) for a 2D and a 3D case. */
	@Test
	void sharedBytesFollowTheKernelLayouts() {
		// interp: (32 + 4 - 1)² complex float cells.
		assertEquals(35 * 35 * 8, GpuHeuristics.tileBytes(new int[] { 32, 32 }, 4, 8));
		// spread: two float planes of pitch 36 x 35 rows, then 256 points x (2·4 kernel values + 2 sample parts + an int).
		assertEquals(2 * 36 * 35 * 4 + 256 * ((2 * 4 + 2) * 4 + 4), GpuHeuristics.stagedTileBytes(new int[] { 32, 32 },
			4, 8));
		// 3D double, W = 8, 16x8x8: planes (16 + 8) x 15 x 15, staged 256 x (3·8 + 2 doubles + an int).
		assertEquals(2 * 24 * 15 * 15 * 8 + 256 * ((3 * 8 + 2) * 8 + 4), GpuHeuristics.stagedTileBytes(new int[] { 16,
			8, 8 }, 8, 16));
		assertEquals(Math.max(GpuHeuristics.tileBytes(new int[] { 8, 8, 8 }, 5, 8), GpuHeuristics.stagedTileBytes(
			new int[] { 8, 8, 8 }, 5, 8)), GpuHeuristics.binBytes(new int[] { 8, 8, 8 }, 5, 8));
	}

	/** The second sort for the coil bins: from 2²² points × transforms automatically, always when forced. */
	@Test
	void coilSortFromFourMillionPointTransformsOrWhenForced() {
		assertTrue(GpuHeuristics.coilSort(1_048_576, 8, "auto"), "radial 512², 1024 x 1024 spokes, 8 coils");
		assertTrue(GpuHeuristics.coilSort(524_288, 8, "auto"), "2^22 exactly");
		assertFalse(GpuHeuristics.coilSort(524_287, 8, "auto"));
		assertFalse(GpuHeuristics.coilSort(32_768, 8, "auto"), "a sliding-window frame");
		assertTrue(GpuHeuristics.coilSort(20_000, 8, "true"), "forced");
	}

	/** spread_coils_2d's own bins: smaller at W = 4 in 2D only (GpuHeuristics.coilBin). */
	@Test
	void coilBinsAreOwnOnlyAtWidthFourIn2D() {
		final int[] plan = { 32, 16 };
		assertArrayEquals(new int[] { 16, 8 }, GpuHeuristics.coilBin(4, plan));
		for (final int w : new int[] { 2, 3, 5, 8, 16 }) assertArrayEquals(plan, GpuHeuristics.coilBin(w, plan), "W " + w);
		assertArrayEquals(new int[] { 16, 8, 8 }, GpuHeuristics.coilBin(4, new int[] { 16, 8, 8 }), "3D");
		// eight coils' block at W = 4 (four warps) fits 48 KiB on these bins; on the plan's 32 × 16 it did not
		assertTrue(GpuHeuristics.coilTileBytes(GpuHeuristics.coilBin(4, plan), 4, 8, 4) <= 48 * 1024);
		assertTrue(GpuHeuristics.coilTileBytes(plan, 4, 8, 4) > 48 * 1024);
	}

	/**
	 * spread_coils_2d's layout and choice: coils per warp, plane padding, the block's shared bytes, warps per block, and
	 * the automatic setting by width and batch (docs/gpu-tuning.md).
	 */
	@Test
	void coilSpreadFillsWarpsWithWholeStencilsAndFitsTheDevice() {
		for (int w = 2; w <= 16; w++) {
			final int per = GpuHeuristics.coilsPerWarp(w);
			// several coils per warp only where their W² taps each fit side by side in 32 lanes
			assertTrue(per >= 1 && (per == 1 || per * w * w <= 32) && (w * w > 16 || 2 * per * w * w > 32), "W " + w);
		}
		for (int cells = 1; cells < 3000; cells += 7) {
			final int plane = GpuHeuristics.coilPlane(cells);
			assertTrue(plane >= cells && plane < cells + 24 && plane % 16 == 8, cells + " -> " + plane);
		}
		final int[] bin = { 32, 16 };
		// the layout's size grows with the coils of a block by two planes and one sample row per coil
		final int one = GpuHeuristics.coilTileBytes(bin, 4, 8, 1), two = GpuHeuristics.coilTileBytes(bin, 4, 8, 2);
		final int perCoil = 4 * (2 * GpuHeuristics.coilPlane(36 * 19) + 2 * GpuHeuristics.coilChunk(4) + 1);
		assertEquals(2 * perCoil, two - one); // W = 4: two coils per warp
		// enough warps for the batch, at most the launch bound, fewer where the device's shared memory is short
		assertEquals(1, GpuHeuristics.coilWarps(2, bin, 4, 8, H100_OPTIN));
		assertEquals(2, GpuHeuristics.coilWarps(3, bin, 4, 8, H100_OPTIN));
		assertEquals(4, GpuHeuristics.coilWarps(8, bin, 4, 8, H100_OPTIN));
		assertEquals(GpuHeuristics.COIL_MAX_WARPS, GpuHeuristics.coilWarps(1000, bin, 4, 8, H100_OPTIN));
		final int budget = GpuHeuristics.coilTileBytes(bin, 4, 8, 3);
		assertEquals(3, GpuHeuristics.coilWarps(8, bin, 4, 8, budget));
		assertEquals(0, GpuHeuristics.coilWarps(8, bin, 4, 8, one - 1));
		// the setting: forced either way (never for one transform), else by width and batch
		for (int w = 2; w <= 16; w++) {
			assertTrue(GpuHeuristics.coilSpread(w, 2, "true"), "W " + w);
			assertFalse(GpuHeuristics.coilSpread(w, 1, "true"), "W " + w + ": one transform");
			assertFalse(GpuHeuristics.coilSpread(w, 32, "false"), "W " + w);
			assertFalse(GpuHeuristics.coilSpread(w, 4, "auto"), "W " + w + ": a few transforms keep spread_tiles_2d");
		}
		// the widths measured (docs/gpu-tuning.md): W = 4 from 16 transforms; 5, 7, 8, 10, 12 from 8; never 3 or 6
		assertFalse(GpuHeuristics.coilSpread(4, 7, "auto"));
		assertTrue(GpuHeuristics.coilSpread(4, 8, "auto"));
		for (final int w : new int[] { 5, 7, 8, 10, 12 }) {
			assertTrue(GpuHeuristics.coilSpread(w, 8, "auto"), "W " + w);
			assertFalse(GpuHeuristics.coilSpread(w, 7, "auto"), "W " + w);
		}
		for (final int w : new int[] { 3, 6 }) assertFalse(GpuHeuristics.coilSpread(w, 64, "auto"), "W " + w);
	}

	/** The measured preferences (docs/gpu-tuning.md): 32×16 in 2D, 8³ in 3D up to W = 7, 16×8×8 above; smaller when full. */
	@Test
	void binsArePreferredFirstThatFits() {
		assertArrayEquals(new int[] { 32, 16 }, GpuHeuristics.binSize(2, 4, 8, BUDGET));
		assertArrayEquals(new int[] { 8, 8, 8 }, GpuHeuristics.binSize(3, 5, 8, BUDGET));
		assertArrayEquals(new int[] { 8, 8, 8 }, GpuHeuristics.binSize(3, GpuHeuristics.NARROW_3D, 8, BUDGET));
		assertArrayEquals(new int[] { 16, 8, 8 }, GpuHeuristics.binSize(3, 8, 8, BUDGET));
		for (final int dims : new int[] { 2, 3 }) {
			for (int w = 2; w <= 16; w++) {
				for (final int cbytes : new int[] { 8, 16 }) {
					for (final int budget : new int[] { 48 * 1024, BUDGET }) {
						final int[] b = GpuHeuristics.binSize(dims, w, cbytes, budget);
						assertEquals(dims, b.length);
						final int[][] list = dims == 2 ? GpuHeuristics.BINS_2D : w <= GpuHeuristics.NARROW_3D ?
							GpuHeuristics.BINS_3D_NARROW : GpuHeuristics.BINS_3D;
						final boolean last = java.util.Arrays.equals(b, list[list.length - 1]);
						assertTrue(last || GpuHeuristics.binBytes(b, w, cbytes) <= budget, dims + "D W " + w + ": " +
							java.util.Arrays.toString(b) + " does not fit " + budget);
						// No earlier (preferred) bin fits.
						for (final int[] earlier : list) {
							if (java.util.Arrays.equals(earlier, b)) break;
							assertTrue(GpuHeuristics.binBytes(earlier, w, cbytes) > budget, "preferred " + java.util.Arrays
								.toString(earlier) + " fits " + budget + " at W " + w);
						}
					}
				}
			}
		}
	}

	@Test
	void tunedBinsAreCheckedAgainstTheDevice() {
		assertArrayEquals(new int[] { 16, 16, 8 }, GpuHeuristics.checkBin(new int[] { 16, 16, 8 }, 3, 5, 8, H100_OPTIN));
		InvalidInputException e = assertThrows(InvalidInputException.class, () -> GpuHeuristics.checkBin(new int[] { 16,
			16 }, 3, 5, 8, H100_OPTIN));
		assertTrue(e.getMessage().contains("[16, 16]") && e.getMessage().contains("3 sizes"), e.getMessage());
		e = assertThrows(InvalidInputException.class, () -> GpuHeuristics.checkBin(new int[] { 64, 64, 64 }, 3, 8, 16,
			H100_OPTIN));
		assertTrue(e.getMessage().contains("shared memory"), e.getMessage());
	}

	@Test
	void autoSpreadsSharedWhenItFitsAndNeverOutputDriven() {
		assertEquals(SpreadMethod.SHARED, GpuHeuristics.resolveMethod(SpreadMethod.AUTO, 2, 40_000, H100_OPTIN));
		assertEquals(SpreadMethod.ATOMIC, GpuHeuristics.resolveMethod(SpreadMethod.AUTO, 3, 300_000, H100_OPTIN));
		assertEquals(SpreadMethod.ATOMIC, GpuHeuristics.resolveMethod(SpreadMethod.ATOMIC, 2, 40_000, H100_OPTIN));
		assertEquals(SpreadMethod.OUTPUT_DRIVEN, GpuHeuristics.resolveMethod(SpreadMethod.OUTPUT_DRIVEN, 2, 40_000,
			H100_OPTIN));
		InvalidInputException e = assertThrows(InvalidInputException.class, () -> GpuHeuristics.resolveMethod(
			SpreadMethod.OUTPUT_DRIVEN, 3, 40_000, H100_OPTIN));
		assertTrue(e.getMessage().contains("output-driven") && e.getMessage().contains("3D"), e.getMessage());
		e = assertThrows(InvalidInputException.class, () -> GpuHeuristics.resolveMethod(SpreadMethod.SHARED, 3, 300_000,
			H100_OPTIN));
		assertTrue(e.getMessage().contains("300000") && e.getMessage().contains("atomic"), e.getMessage());
		// Radial lines: applicable (when asked), never chosen by AUTO (no trajectory enters resolveMethod).
		assertTrue(GpuHeuristics.outputDrivenApplicable(new GoldenAngleRadial(64, 30).build()));
		assertTrue(!GpuHeuristics.outputDrivenApplicable(TrajectoryKind.SPIRAL.fullySampled(new int[] { 32, 32 })
			.build()));
		assertEquals(8, GpuHeuristics.radialBatch(false));
		assertEquals(4, GpuHeuristics.radialBatch(true));
	}

	@Test
	void chunksFitTheFreeMemoryLessTheReserve() {
		final long grid = 1024L * 1024, pixels = 512L * 512, m = 1 << 20;
		final long host = GpuHeuristics.perTransformBytes(8, grid, pixels, m, true);
		final long device = GpuHeuristics.perTransformBytes(8, grid, pixels, m, false);
		assertEquals(8 * (2 * grid + pixels + m), host);
		assertEquals(8 * 2 * grid, device, "device buffers: only the grid and the FFT work area");
		final long free = GpuHeuristics.RESERVE_BYTES + 5 * host + host / 2;
		assertEquals(5, GpuHeuristics.chunkSize(100, free, 0, host, Integer.MAX_VALUE, "x"));
		assertEquals(3, GpuHeuristics.chunkSize(3, free, 0, host, Integer.MAX_VALUE, "x"), "no more than asked");
		assertEquals(2, GpuHeuristics.chunkSize(100, free, 0, host, 2, "x"), "the test limit");
		assertEquals(6, GpuHeuristics.chunkSize(100, free, host, host, Integer.MAX_VALUE, "x"), "held buffers count");
		final GpuException e = assertThrows(GpuException.class, () -> GpuHeuristics.chunkSize(1,
			GpuHeuristics.RESERVE_BYTES + host - 1, 0, host, Integer.MAX_VALUE, "grid [1024, 1024]"));
		assertTrue(e.getMessage().contains("grid [1024, 1024]") && e.getMessage().contains("MiB"), e.getMessage());
	}
}
