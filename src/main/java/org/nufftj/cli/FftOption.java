package org.nufftj.cli;

import org.nufftj.app.Options;

import picocli.CommandLine.Option;

/**
 * {@code --fft auto|cufft|own}: the GPU FFT engine of the backends this run opens (docs/gpu.md), for every command
 * that can run on the GPU. Applied before any backend opens; absent, the environment variable NUFFTJ_FFT (else auto).
 */
final class FftOption {

	@Option(names = "--fft", paramLabel = "auto|cufft|own",
		description = { "GPU FFT engine (default: the environment variable NUFFTJ_FFT, else auto = cuFFT when it loads,",
			"else NUFFT-J's own kernels; own also prunes the padded/cropped lines; see docs/gpu.md). The CPU ignores it." })
	String fft;

	/** Selects the engine when --fft was given ({@link Options#fftEngine}); a bad value fails with one line. */
	void apply() {
		if (fft != null) Options.fftEngine("--fft", fft);
	}
}
