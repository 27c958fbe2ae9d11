package org.nufftj.nufft.gpu;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Shared set-up of the GPU tests (this package's and other layers'): skip, with the reason, where no usable GPU exists. */
public final class GpuTests {

	private GpuTests() {}

	/** Skips the calling test class unless GPU 0, its driver, cuFFT and the kernel modules all work. */
	public static void assumeGpu() {
		final String reason = GpuInfo.unusableReason(0);
		Assumptions.assumeTrue(reason == null, "no usable GPU: " + reason);
	}

	/**
	 * {@code @ExtendWith(GpuTests.Available.class)} on a GPU test class: without a usable GPU 0 the class is reported
	 * as skipped, with the reason (no driver, no cuFFT, …), before any of its set-up runs.
	 */
	public static final class Available implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context) {
			final String reason = GpuInfo.unusableReason(0);
			return reason == null ? ConditionEvaluationResult.enabled("GPU 0 is usable") :
				ConditionEvaluationResult.disabled("no usable GPU: " + reason);
		}
	}
}
