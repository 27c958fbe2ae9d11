package org.nufftj.nufft.gpu;

import java.util.Locale;

import org.nufftj.nufft.Backend;
import org.nufftj.nufft.Backends;
import org.nufftj.nufft.Buffer;
import org.nufftj.nufft.DeviceChoice;
import org.nufftj.nufft.Precision;
import org.nufftj.recon.ultrasound.EchoSimulator;
import org.nufftj.recon.ultrasound.FkMigration;
import org.nufftj.recon.ultrasound.PlaneWave;
import org.nufftj.recon.ultrasound.PlaneWaveImaging;

/**
 * Plane-wave f-k migration frames/s (issue 14): 128 elements × 2048 samples (40 MHz, 5 MHz, 0°, lateral upsampling
 * 1: a 2048 × 128 image), {@link FkMigration} on the GPU device-resident (a full batch of frames already on the
 * device, wall clock to the stream's end), end-to-end from Java frames to envelopes (FkMigration.envelopes on a
 * migration made before; making one timed alone), and on the CPU backend; delay-and-sum (its delay loop on the host)
 * on the same frame. Run by GpuSuite.
 */
final class GpuFkBenchmark {

	private GpuFkBenchmark() {}

	static String report() {
		final StringBuilder md = new StringBuilder("\n## Plane-wave f-k migration (issue 14)\n\n");
		try {
			run(md);
		}
		catch (final RuntimeException e) {
			md.append("f-k benchmark failed: ").append(Cuda.brief(e)).append("\n");
			e.printStackTrace(System.out);
		}
		return md.toString();
	}

	private static void run(final StringBuilder md) {
		final PlaneWave p = new PlaneWave(128, 2048, 0.3e-3, 40e6, 1540, 5e6, 0);
		final float[] frame = EchoSimulator.echoes(p, EchoSimulator.speckle(1, -19e-3, 19e-3, 2e-3, 38e-3, 2000, null),
			0.6);
		md.append("128 elements × 2048 samples, 0°, up 1; wall clock medians (device-resident: 7 batches after 2 ")
			.append("warm-ups, the frames already on the device; end-to-end: 3 calls after 1 on a migration made ")
			.append("before, uploads, modulus and downloads included; tables: making a migration, timed alone).\n\n")
			.append("| device | path | frames per call | ms per call | frames/s |\n")
			.append("|---|---|---|---|---|\n");
		try (GpuBackend gpu = GpuBackend.open(0); FkMigration fk = new FkMigration(gpu, p, 0, 1)) {
			final int f = fk.batch();
			final float[] host = new float[f * 2 * fk.frameValues()];
			for (int i = 0; i < f; i++)
				for (int j = 0; j < frame.length; j++) host[2 * (i * frame.length + j)] = frame[j];
			try (Buffer ch = gpu.allocate(host.length, Precision.FLOAT);
				Buffer img = gpu.allocate((long) f * fk.imageValues(), Precision.FLOAT))
			{
				gpu.write(host, 0, ch);
				final double ms = GpuBenchmark.wallMs(2, 7, () -> {
					fk.analytic(ch, img);
					gpu.synchronize();
				});
				line(md, "gpu", "device-resident (FkMigration.analytic)", f, ms);
			}
			final float[][] frames = new float[4 * f][];
			for (int i = 0; i < frames.length; i++) frames[i] = frame;
			final double e2e = GpuBenchmark.wallMs(1, 3, () -> fk.envelopes(frames));
			line(md, "gpu", "end-to-end, Java frames to envelopes (FkMigration.envelopes)", frames.length, e2e);
			final double plan = GpuBenchmark.wallMs(1, 3, () -> new FkMigration(gpu, p, 0, 1).close());
			line(md, "gpu", "tables (new FkMigration, once per geometry)", 0, plan);
			final double das = GpuBenchmark.wallMs(1, 3, () -> PlaneWaveImaging.delayAndSum(gpu, p, frame, 1, 1));
			line(md, "gpu", "delay-and-sum, F# 1 (host delays, GPU envelope)", 1, das);
		}
		try (Backend cpu = Backends.open(DeviceChoice.CPU, 0, null)) {
			final float[][] frames = { frame, frame, frame, frame };
			try (FkMigration fk = new FkMigration(cpu, p, 0, 1)) {
				final double ms = GpuBenchmark.wallMs(1, 3, () -> fk.envelopes(frames));
				line(md, "cpu (" + Runtime.getRuntime().availableProcessors() + " threads)",
					"end-to-end, Java frames to envelopes (FkMigration.envelopes)", frames.length, ms);
			}
			final double das = GpuBenchmark.wallMs(1, 3, () -> PlaneWaveImaging.delayAndSum(cpu, p, frame, 1, 1));
			line(md, "cpu", "delay-and-sum, F# 1", 1, das);
		}
	}

	private static void line(final StringBuilder md, final String device, final String path, final int frames,
		final double ms)
	{
		md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %s |%n", device, path, frames, ms,
			frames == 0 ? "—" : String.format(Locale.ROOT, "%,.0f", frames * 1000 / ms)));
	}
}
