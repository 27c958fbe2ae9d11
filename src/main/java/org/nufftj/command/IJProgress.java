package org.nufftj.command;

import org.nufftj.recon.Progress;

import ij.IJ;

/** Reconstruction progress on ImageJ's status bar and progress bar; Esc cancels (ImageJ's own convention). */
public final class IJProgress implements Progress {

	private final String task;

	public IJProgress(final String task) {
		this.task = task;
		IJ.resetEscape();
	}

	@Override
	public void update(final double fraction, final String what) {
		IJ.showStatus(task + ": " + what);
		IJ.showProgress(Math.min(1, Math.max(0, fraction)));
	}

	@Override
	public boolean cancelled() {
		return IJ.escapePressed() || Thread.currentThread().isInterrupted();
	}

	/** Clears the progress bar. */
	public void done() {
		IJ.showProgress(1.0);
		IJ.showStatus("");
	}
}
