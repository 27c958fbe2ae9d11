package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.util.LinkedHashMap;
import java.util.Map;

import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUgraphNode;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamCaptureMode;
import jcuda.driver.JCudaDriver;

/**
 * CUDA graphs of a plan's device-resident executes (issue 9, item 2): the fixed launch sequence of one execute (stage
 * events, pad or clear, spread or interpolate, the FFT's launches or cuFFT's, crop) captured from the stream once and
 * replayed as one graph launch, instead of one host launch call per kernel — what small transforms are bound by.
 * <p>
 * A graph belongs to its direction, input and output addresses, batch and stage events: the first execute with them runs the
 * launches plainly (it makes what later ones reuse: FFT plans and work areas, lazily loaded kernels, the own FFT's
 * twiddles); the second is captured (cuStreamBeginCapture … cuStreamEndCapture, thread-local mode) and launched; later
 * ones launch the graph. The plan clears its graphs whenever what they point at changes (setPoints, a larger grid,
 * close). Where capture fails (a call the driver does not allow in a capture), the plan runs without graphs from
 * then on.
 * </p>
 * <p>
 * On by default; the system property {@code nufftj.cudaGraphs=false} turns them off (every execute then launches its
 * kernels one by one). On the H100 (2026-11-25, docs/benchmarks.md) the graphs took the 256² rows' device-resident
 * forward from 0.047–0.075 to 0.033–0.054 ms; the whole GPU suite runs with them on (docs/gpu-runs/).
 * </p>
 */
final class GpuGraphs implements AutoCloseable {

	/** Graphs kept per plan (least recently used dropped): a few buffer pairs of an iterative solver or a benchmark. */
	static final int CAPACITY = 8;

	private final CUstream stream;
	private final boolean enabled;
	private boolean broken;
	/** True while an execute's launches are being captured (stage events are then recorded as graph nodes). */
	private boolean capturing;
	/** By key: null after the first execute (seen), the graph after the second. */
	private final Map<Key, CUgraphExec> graphs = new LinkedHashMap<>(16, 0.75f, true) {

		private static final long serialVersionUID = 1L;

		@Override
		protected boolean removeEldestEntry(final Map.Entry<Key, CUgraphExec> e) {
			if (size() <= CAPACITY) return false;
			if (e.getValue() != null) JCudaDriver.cuGraphExecDestroy(e.getValue()); // freed when done if in flight
			return true;
		}
	};

	GpuGraphs(final CUstream stream) {
		this.stream = stream;
		enabled = !"false".equalsIgnoreCase(System.getProperty("nufftj.cudaGraphs", "true").trim());
	}

	/**
	 * Runs one execute as a graph where it can: true when the graph was launched (queued on the stream), false when the
	 * caller must run {@code launches} itself (graphs off, an address unknown, the first execute of its kind, or a
	 * failed capture). {@code in} and {@code out} are device addresses ({@link DeviceArray#address}; −1 unknown);
	 * {@code events} names the set of stage events the launches record (a graph records into the set it captured).
	 */
	boolean run(final boolean forward, final long in, final long out, final int batch, final int events,
		final Runnable launches)
	{
		if (!enabled || broken || in < 0 || out < 0) return false;
		final Key key = new Key(forward, in, out, batch, events);
		if (!graphs.containsKey(key)) {
			graphs.put(key, null);
			return false;
		}
		CUgraphExec exec = graphs.get(key);
		if (exec == null) {
			exec = capture(launches);
			if (exec == null) {
				broken = true;
				return false;
			}
			graphs.put(key, exec);
		}
		check(JCudaDriver.cuGraphLaunch(exec, stream), "cuGraphLaunch (NUFFT " + (forward ? "forward" : "adjoint") +
			", batch " + batch + ")");
		return true;
	}

	/** The graph of {@code launches} as captured from the stream, instantiated; null where the capture failed. */
	private CUgraphExec capture(final Runnable launches) {
		if (JCudaDriver.cuStreamBeginCapture(stream, CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) !=
			CUresult.CUDA_SUCCESS) return null;
		boolean launched = false;
		capturing = true;
		try {
			launches.run();
			launched = true;
		}
		catch (final RuntimeException e) {
			// a call the capture does not allow: ended below, and the caller runs the launches without a graph
		}
		finally {
			capturing = false;
		}
		final CUgraph graph = new CUgraph();
		final int ended = JCudaDriver.cuStreamEndCapture(stream, graph);
		if (ended != CUresult.CUDA_SUCCESS) return null;
		try {
			if (!launched) return null;
			final CUgraphExec exec = new CUgraphExec();
			final byte[] log = new byte[256]; // JCuda wants the error node and log buffer, though unused here
			return JCudaDriver.cuGraphInstantiate(exec, graph, new CUgraphNode(), log, log.length) ==
				CUresult.CUDA_SUCCESS ? exec : null;
		}
		finally {
			JCudaDriver.cuGraphDestroy(graph);
		}
	}

	/** True while launches are being captured into a graph. */
	boolean capturing() {
		return capturing;
	}

	/** Number of graphs made (for tests). */
	int size() {
		return (int) graphs.values().stream().filter(g -> g != null).count();
	}

	/** Drops every graph (what they point at is about to change). */
	void clear() {
		for (final CUgraphExec g : graphs.values())
			if (g != null) JCudaDriver.cuGraphExecDestroy(g);
		graphs.clear();
	}

	@Override
	public void close() {
		clear();
	}

	private record Key(boolean forward, long in, long out, int batch, int events) {}
}
