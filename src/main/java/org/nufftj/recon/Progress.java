package org.nufftj.recon;

/**
 * Progress reports and cancellation for long reconstructions. A reconstruction calls {@link #update} between steps
 * and checks {@link #cancelled()}; when it returns true the reconstruction stops with a
 * {@link java.util.concurrent.CancellationException}.
 */
public interface Progress {

	/** {@code fraction} in [0, 1]; {@code what} names the step just starting. */
	void update(double fraction, String what);

	boolean cancelled();

	/** Reports nowhere, never cancels. */
	Progress NONE = new Progress() {

		@Override
		public void update(final double fraction, final String what) {}

		@Override
		public boolean cancelled() {
			return false;
		}
	};

	/** Throws {@link java.util.concurrent.CancellationException} if cancelled, else reports. */
	static void step(final Progress p, final double fraction, final String what) {
		if (p.cancelled()) throw new java.util.concurrent.CancellationException("reconstruction cancelled");
		p.update(fraction, what);
	}
}
