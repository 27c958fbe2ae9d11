package org.nufftj.nufft;

import java.util.LinkedHashMap;
import java.util.Map;

/** Wall-clock (CPU) or CUDA-event (GPU) milliseconds per stage of the last execute, in stage order. */
public final class StageTimes {

	private final Map<String, Double> ms = new LinkedHashMap<>();

	public synchronized void clear() {
		ms.clear();
	}

	public synchronized void add(final String stage, final double millis) {
		ms.merge(stage, millis, Double::sum);
	}

	public synchronized Map<String, Double> snapshot() {
		return new LinkedHashMap<>(ms);
	}

	public synchronized double total() {
		double t = 0;
		for (final double v : ms.values()) t += v;
		return t;
	}

	@Override
	public synchronized String toString() {
		final StringBuilder b = new StringBuilder();
		ms.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(String.format(" %.3f ms", v)));
		return b.toString();
	}
}
