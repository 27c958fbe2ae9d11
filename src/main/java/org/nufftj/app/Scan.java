package org.nufftj.app;

import java.util.ArrayList;
import java.util.List;

import org.nufftj.InvalidInputException;
import org.nufftj.data.FrameGroup;
import org.nufftj.data.KSpace;
import org.nufftj.trajectory.Trajectory;

/**
 * One scan, whatever file it came from (BART {@code .cfl/.hdr}, ISMRMRD {@code .h5}): its parts (frames that share
 * one trajectory), the image matrix, the field of view when the file has one, and the frame labels. This is the one
 * k-space type the command line and the Fiji commands reconstruct from ({@link ScanLoader} makes it).
 */
public final class Scan {

	private final String title;
	private final List<FrameGroup> parts;
	private final int frames, slices, coils;
	private final int[] matrix;
	private final double[] pixelMm;
	private final boolean cartesian;
	private final long[] frameDims;
	private final List<String> labels;
	private final String notes;

	/**
	 * @param frameDims BART dims 4…15 whose product is {@code frames} (how an output {@code .cfl} lays the frames out)
	 * @param labels    one label per frame (ISMRMRD loop counters), or empty
	 */
	public Scan(final String title, final List<FrameGroup> parts, final int frames, final int slices, final int coils,
		final int[] matrix, final double[] pixelMm, final boolean cartesian, final long[] frameDims,
		final List<String> labels, final String notes)
	{
		this.title = title;
		this.parts = List.copyOf(parts);
		this.frames = frames;
		this.slices = slices;
		this.coils = coils;
		this.matrix = matrix.clone();
		this.pixelMm = pixelMm == null ? null : pixelMm.clone();
		this.cartesian = cartesian;
		this.frameDims = frameDims.clone();
		this.labels = List.copyOf(labels);
		this.notes = notes;
	}

	/** A scan of one trajectory and its k-space (frames in BART dim 4), e.g. for a benchmark or a script. */
	public static Scan of(final String title, final Trajectory t, final KSpace k, final int[] matrix) {
		return new Scan(title, List.of(new FrameGroup(t, k, 0)), k.frames(), 1, k.coils(), matrix, null, false,
			new long[] { k.frames() }, List.of(), "");
	}

	// -- public API --

	/**
	 * Frames {@code [from, to)} of this scan as a scan of their own (their k-space copied out; frame dims
	 * {@code [to − from]}; labels kept), e.g. for one task of a long series split into frame ranges. Reconstructing the
	 * ranges and putting their images one after the other gives this scan's images.
	 */
	public Scan frameRange(final int from, final int to) {
		InvalidInputException.require(0 <= from && from < to && to <= frames, "frame range [" + from + ", " + to +
			"): expected 0 <= from < to <= " + frames);
		final List<FrameGroup> out = new ArrayList<>();
		for (final FrameGroup g : parts) {
			final int a = Math.max(from, g.firstFrame()), b = Math.min(to, g.firstFrame() + g.kspace().frames());
			if (a >= b) continue;
			final KSpace k = g.kspace();
			final long per = 2L * k.points() * k.coils();
			final float[] d = java.util.Arrays.copyOfRange(k.data(), (int) (per * (a - g.firstFrame())),
				(int) (per * (b - g.firstFrame())));
			out.add(new FrameGroup(g.trajectory(), new KSpace(d, k.points(), k.coils(), b - a), a - from));
		}
		final int s = from % slices == 0 && (to - from) % slices == 0 ? slices : 1;
		return new Scan(title, out, to - from, s, coils, matrix, pixelMm, cartesian, new long[] { to - from },
			labels.isEmpty() ? List.of() : labels.subList(from, to), notes);
	}

	/**
	 * Coils {@code [from, to)} of this scan as a scan of their own (every frame, their k-space copied out), e.g. for
	 * one device of a single frame split over devices by coil.
	 */
	public Scan coilRange(final int from, final int to) {
		final List<FrameGroup> out = new ArrayList<>();
		for (final FrameGroup g : parts) out.add(new FrameGroup(g.trajectory(), g.kspace().coilRange(from, to),
			g.firstFrame()));
		return new Scan(title, out, frames, slices, to - from, matrix, pixelMm, cartesian, frameDims, labels, notes);
	}

	/** The input's name without its extension: the title of the images made from it. */
	public String title() { return title; }

	public List<FrameGroup> parts() { return parts; }

	public int frames() { return frames; }

	/** 2D slices among the frames (ISMRMRD multi-slice), else 1. */
	public int slices() { return slices; }

	public int coils() { return coils; }

	/** Image matrix, 2 or 3 sizes (as many as the trajectory has axes). */
	public int[] matrix() { return matrix.clone(); }

	/** Pixel size in mm from the file's field of view, or null when the file has none (BART). */
	public double[] pixelMm() { return pixelMm == null ? null : pixelMm.clone(); }

	/** Sampled on the Cartesian grid (no density compensation needed). */
	public boolean cartesian() { return cartesian; }

	/** BART dims 4…15 of the frames (their product is {@link #frames()}). */
	public long[] frameDims() { return frameDims.clone(); }

	public List<String> labels() { return labels; }

	/** What was read, for the log. */
	public String notes() { return notes; }
}
