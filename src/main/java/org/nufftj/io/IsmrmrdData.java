package org.nufftj.io;

import java.util.List;

import org.nufftj.data.FrameGroup;
import org.nufftj.data.KSpace;
import org.nufftj.trajectory.Trajectory;

/**
 * What {@link IsmrmrdReader} makes of an ISMRMRD file: the header, and the imaging readouts grouped into frames (one
 * frame per distinct (slice, contrast, phase, repetition, set, average) label, slice fastest). Consecutive frames
 * that share one trajectory are kept together in a {@link FrameGroup}, so the usual file (one trajectory for every slice
 * and repetition) is one block holding one {@link KSpace} with all its frames.
 * <p>
 * Coordinates are in NUFFT-J units, cycles per pixel of the <em>recon</em> space, so reconstructing
 * {@link #matrix()} pixels gives the recon field of view; see {@link IsmrmrdReader} for the conversion.
 * </p>
 */
public final class IsmrmrdData {


	/** Loop counters of one frame, as in the acquisition header's {@code idx}. */
	public static final class FrameLabel {

		public final int slice, contrast, phase, repetition, set, average;

		FrameLabel(final int slice, final int contrast, final int phase, final int repetition, final int set,
			final int average)
		{
			this.slice = slice;
			this.contrast = contrast;
			this.phase = phase;
			this.repetition = repetition;
			this.set = set;
			this.average = average;
		}

		@Override
		public String toString() {
			return "slice " + slice + (contrast != 0 ? " contrast " + contrast : "") + (phase != 0 ? " phase " + phase : "") +
				(repetition != 0 ? " repetition " + repetition : "") + (set != 0 ? " set " + set : "") +
				(average != 0 ? " average " + average : "");
		}
	}

	private final String source;
	private final IsmrmrdHeader header;
	private final List<FrameGroup> blocks;
	private final List<FrameLabel> frames;
	private final int slices;
	private final int coils;
	private final int[] matrix;
	private final double[] pixelMm;
	private final boolean storedTrajectory;
	private final String notes;

	IsmrmrdData(final String source, final IsmrmrdHeader header, final List<FrameGroup> blocks,
		final List<FrameLabel> frames, final int slices, final int coils, final int[] matrix, final double[] pixelMm,
		final boolean storedTrajectory, final String notes)
	{
		this.source = source;
		this.header = header;
		this.blocks = List.copyOf(blocks);
		this.frames = List.copyOf(frames);
		this.slices = slices;
		this.coils = coils;
		this.matrix = matrix;
		this.pixelMm = pixelMm;
		this.storedTrajectory = storedTrajectory;
		this.notes = notes;
	}

	// -- public API --

	public String source() { return source; }

	public IsmrmrdHeader header() { return header; }

	public List<FrameGroup> blocks() { return blocks; }

	/** Frame labels, in frame order (slice fastest). */
	public List<FrameLabel> frames() { return frames; }

	/** Number of distinct slices; {@code frames().size() / slices()} is the number of other frames when whole. */
	public int slices() { return slices; }

	public int coils() { return coils; }

	/** Reconstruction matrix (2 or 3 axes) from the recon space. */
	public int[] matrix() { return matrix.clone(); }

	/** Pixel size in mm per axis of {@link #matrix()} (recon FOV / recon matrix), or null when the header lacks a FOV. */
	public double[] pixelMm() { return pixelMm == null ? null : pixelMm.clone(); }

	/** True when the file stored k-space coordinates; false when they were derived from Cartesian encode steps. */
	public boolean storedTrajectory() { return storedTrajectory; }

	/** What the reader did that a user should know (skipped scans, dropped samples, unit conversions). */
	public String notes() { return notes; }

	/** True when every frame shares one trajectory. */
	public boolean sharedTrajectory() { return blocks.size() == 1; }
}
