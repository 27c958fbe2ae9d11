package org.nufftj.nufft.gpu;

import static org.nufftj.nufft.gpu.Cuda.check;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * One CUDA device in use: retains its primary context (the one cuFFT's runtime also uses), loads the kernel modules
 * as they are first needed, and releases both in {@link #close()}. No global state: a {@link GpuBackend} owns one of
 * these, and its plans borrow it. Call {@link #makeCurrent()} on the thread that issues work; lookups and module loads
 * are synchronized, so plans on several threads may share one device. Kernels are named by (module, extern "C" name):
 * the device knows the modules, not what their kernels are for.
 */
public final class GpuDevice implements AutoCloseable {

	/** Kernel modules, one per stage (kernels/*.cu), loaded from resources. */
	static final String[] MODULES = { "spread", "spread_radial", "interp", "deapodize", "vector", "setpts", "exact", "fft" };
	static final String RESOURCE_DIR = "/org/nufftj/gpu/";
	/** Largest grid y extent of a launch (transforms per launch of the batched kernels). */
	static final int MAX_GRID_Y = 65535;

	private final int ordinal;
	private final CUdevice device = new CUdevice();
	private final CUcontext context = new CUcontext();
	private final Map<String, CUmodule> modules = new HashMap<>();
	private final Map<String, CUfunction> functions = new HashMap<>();
	/** Dynamic shared memory each function has been opted in to (above 48 KiB), by module/kernel key. */
	private final Map<String, Integer> sharedOptedIn = new HashMap<>();
	private final String name;
	private final int ccMajor, ccMinor, sharedOptin, multiprocessors;
	private final long totalMemory;
	private boolean closed;

	/**
	 * Opens GPU {@code ordinal}: retains its primary context; loads no kernel module yet ({@link #load}, or the first
	 * {@link #launch} of one of its kernels, does). Throws {@link GpuException} with the reason (no driver, no such
	 * device) — never a raw linkage error.
	 */
	public GpuDevice(final int ordinal) {
		this.ordinal = ordinal;
		try {
			JCudaDriver.setExceptionsEnabled(false);
		}
		catch (final LinkageError e) {
			throw new GpuException("CUDA driver not usable: JCuda's driver library did not load (" + Cuda.brief(e) + ")", e);
		}
		check(JCudaDriver.cuInit(0), "cuInit (is an NVIDIA driver installed?)");
		final int[] count = new int[1];
		check(JCudaDriver.cuDeviceGetCount(count), "cuDeviceGetCount");
		if (ordinal < 0 || ordinal >= count[0]) {
			throw new GpuException("GPU " + ordinal + " does not exist: the driver reports " + count[0] + " device(s)");
		}
		check(JCudaDriver.cuDeviceGet(device, ordinal), "cuDeviceGet(" + ordinal + ")");
		final byte[] nameBytes = new byte[256];
		check(JCudaDriver.cuDeviceGetName(nameBytes, nameBytes.length, device), "cuDeviceGetName");
		int len = 0;
		while (len < nameBytes.length && nameBytes[len] != 0) len++;
		name = new String(nameBytes, 0, len, StandardCharsets.US_ASCII);
		ccMajor = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
		ccMinor = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
		sharedOptin = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
		multiprocessors = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
		final long[] total = new long[1];
		check(JCudaDriver.cuDeviceTotalMem(total, device), "cuDeviceTotalMem");
		totalMemory = total[0];
		check(JCudaDriver.cuDevicePrimaryCtxRetain(context, device), "cuDevicePrimaryCtxRetain(" + ordinal + ")");
	}

	// -- public API --

	public int ordinal() { return ordinal; }

	public String name() { return name; }

	public String computeCapability() { return ccMajor + "." + ccMinor; }

	public long totalMemory() { return totalMemory; }

	/** Largest dynamic shared memory one block may opt in to, in bytes. */
	public int sharedMemoryOptin() { return sharedOptin; }

	public int multiprocessors() { return multiprocessors; }

	/** The SM clock the driver reports (CU_DEVICE_ATTRIBUTE_CLOCK_RATE: the peak, in kHz). */
	public int clockKhz() {
		return attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
	}

	/** Makes this device's primary context current on the calling thread. */
	public void makeCurrent() {
		ensureOpen();
		check(JCudaDriver.cuCtxSetCurrent(context), "cuCtxSetCurrent(GPU " + ordinal + ")");
	}

	/** {free, total} device memory in bytes. */
	public long[] memoryInfo() {
		makeCurrent();
		final long[] free = new long[1], total = new long[1];
		check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo");
		return new long[] { free[0], total[0] };
	}

	/**
	 * Launches {@code kernel} (an extern "C" name defined in {@code module}, one of the {@link #MODULES}) on
	 * {@code stream} with a grid of
	 * gridX × gridY blocks of {@code block} threads and {@code sharedBytes} of dynamic shared memory (opted in above
	 * 48 KiB). {@code args} is JCuda's kernel-parameter pointer: {@code Pointer.to(Pointer.to(a), Pointer.to(new
	 * int[] { n }), …)}, one entry per kernel parameter, in order and of the parameter's exact type. A failed launch
	 * throws {@link GpuException} naming the kernel, the grid and {@code sizes}. A grid of 0 blocks launches nothing.
	 */
	public void launch(final String module, final String kernel, final long gridX, final int gridY, final int block,
		final int sharedBytes, final CUstream stream, final Pointer args, final String sizes)
	{
		if (gridX == 0 || gridY == 0) return;
		if (gridX > Integer.MAX_VALUE || gridY > MAX_GRID_Y) {
			throw new GpuException("cuLaunchKernel(" + kernel + "): grid " + gridX + "x" + gridY + " exceeds the " +
				"device's grid limits (" + sizes + ")");
		}
		final CUfunction f = prepare(module, kernel, sharedBytes);
		check(JCudaDriver.cuLaunchKernel(f, (int) gridX, gridY, 1, block, 1, 1, sharedBytes, stream, args, null),
			"cuLaunchKernel(" + kernel + ", grid " + gridX + "x" + gridY + ", block " + block + ", " + sizes + ")");
	}

	/**
	 * Loads the named kernel modules ({@link #MODULES}) now unless loaded already, so that a device that cannot run
	 * them (no code for its architecture, a missing resource) fails here with the reason rather than at a later launch.
	 */
	public synchronized void load(final String... names) {
		for (final String m : names) module(m);
	}

	/**
	 * Kernel {@code kernel} of {@code module}, resolved (module loaded, function looked up: with CUDA's lazy loading the
	 * lookup is what loads the function's code) and opted in to {@code sharedBytes} of dynamic shared memory when that
	 * exceeds 48 KiB (once per size). Plans call it at plan time for every kernel they will launch, so the first
	 * execute pays none of it; {@link #launch} calls it too (then a map lookup).
	 */
	synchronized CUfunction prepare(final String module, final String kernel, final int sharedBytes) {
		final CUfunction f = function(module, kernel);
		if (sharedBytes > 48 * 1024) {
			final String key = module + "/" + kernel;
			if (sharedOptedIn.getOrDefault(key, 0) < sharedBytes) {
				check(JCudaDriver.cuFuncSetAttribute(f, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					sharedBytes), "cuFuncSetAttribute(" + kernel + ", max dynamic shared " + sharedBytes + " B)");
				sharedOptedIn.put(key, sharedBytes);
			}
		}
		return f;
	}

	/** Kernel {@code kernel} (its extern "C" name) of module {@code module} (loaded on first use). */
	synchronized CUfunction function(final String module, final String kernel) {
		ensureOpen();
		final String key = module + "/" + kernel;
		final CUfunction cached = functions.get(key);
		if (cached != null) return cached;
		final CUmodule m = module(module);
		final CUfunction f = new CUfunction();
		check(JCudaDriver.cuModuleGetFunction(f, m, kernel), "cuModuleGetFunction(" + module + ".fatbin, " + kernel + ")");
		functions.put(key, f);
		return f;
	}

	@Override
	public String toString() {
		return "gpu " + ordinal + ": " + name + " (CC " + computeCapability() + ", " + (totalMemory >> 20) + " MiB)";
	}

	/** Unloads the modules and releases the primary context; idempotent. */
	@Override
	public synchronized void close() {
		if (closed) return;
		closed = true;
		JCudaDriver.cuCtxSetCurrent(context);
		for (final CUmodule m : modules.values()) JCudaDriver.cuModuleUnload(m);
		modules.clear();
		functions.clear();
		sharedOptedIn.clear();
		JCudaDriver.cuDevicePrimaryCtxRelease(device);
	}

	// -- helpers --

	private void ensureOpen() {
		if (closed) throw new IllegalStateException("GPU " + ordinal + " (" + name + ") is closed");
	}

	private int attribute(final int attr) {
		final int[] v = new int[1];
		check(JCudaDriver.cuDeviceGetAttribute(v, attr, device), "cuDeviceGetAttribute(" + attr + ")");
		return v[0];
	}

	/** Module {@code module} (kernels/&lt;module&gt;.cu), loaded into the primary context on first use. */
	private CUmodule module(final String module) {
		ensureOpen();
		final CUmodule loaded = modules.get(module);
		if (loaded != null) return loaded;
		if (!Arrays.asList(MODULES).contains(module)) {
			throw new IllegalArgumentException("no kernel module '" + module + "', expected one of " +
				String.join(", ", MODULES));
		}
		final String resource = RESOURCE_DIR + module + ".fatbin";
		final byte[] image = resource(resource);
		makeCurrent();
		final CUmodule m = new CUmodule();
		check(JCudaDriver.cuModuleLoadData(m, image), "cuModuleLoadData(" + resource + ", " + image.length +
			" bytes) on " + name + " CC " + computeCapability());
		modules.put(module, m);
		return m;
	}

	static byte[] resource(final String resource) {
		try (InputStream in = GpuDevice.class.getResourceAsStream(resource)) {
			if (in == null) throw new GpuException("kernel module resource " + resource + " is missing from the jar");
			final ByteArrayOutputStream out = new ByteArrayOutputStream();
			in.transferTo(out);
			return out.toByteArray();
		}
		catch (final IOException e) {
			throw new GpuException("reading " + resource + ": " + e, e);
		}
	}
}
