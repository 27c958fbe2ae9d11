package org.nufftj.nufft.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The launch structs' layouts (no GPU): GpuStructs' offset tables equal the offsets the CUDA header asserts
 * (NUFFTJ_LAYOUT / NUFFTJ_SIZE in kernels/nufft_common.cuh, checked by nvcc when the modules are built), and the
 * marshalled bytes hold each value at its field's offset.
 */
class GpuStructsTest {

	@Test
	void javaLayoutsEqualTheCudaAssertions() throws IOException {
		final Path header = Paths.get("kernels", "nufft_common.cuh");
		Assumptions.assumeTrue(Files.isRegularFile(header), "kernels/ not found from " + Paths.get("").toAbsolutePath());
		final String src = Files.readString(header);
		final Map<String, Map<String, Integer>> fields = new LinkedHashMap<>();
		final Map<String, Integer> sizes = new LinkedHashMap<>();
		final Matcher f = Pattern.compile("^NUFFTJ_LAYOUT\\((\\w+), (\\w+), (\\d+)\\)", Pattern.MULTILINE).matcher(src);
		while (f.find()) fields.computeIfAbsent(f.group(1), k -> new LinkedHashMap<>()).put(f.group(2), Integer.parseInt(f
			.group(3)));
		final Matcher s = Pattern.compile("^NUFFTJ_SIZE\\((\\w+), (\\d+)\\)", Pattern.MULTILINE).matcher(src);
		while (s.find()) sizes.put(s.group(1), Integer.parseInt(s.group(2)));
		for (final GpuStructs.Layout l : new GpuStructs.Layout[] { GpuStructs.POINT_ARGS, GpuStructs.RADIAL_ARGS,
			GpuStructs.DEAPOD_ARGS, GpuStructs.KERNEL_SPEC, GpuStructs.SETPTS_ARGS })
		{
			assertEquals(fields.get(l.name), l.offsets, l.name + ": Java offsets vs the header's static_asserts");
			if (l.size > 0) assertEquals(sizes.get(l.name), l.size, l.name + " size");
		}
		assertEquals(5, fields.size(), "every asserted struct has a Java layout: " + fields.keySet());
	}

	@Test
	void pointArgsHoldEachValueAtItsOffset() {
		final byte[] a = GpuStructs.pointArgs(0x1000, new long[] { 0x2000, 0x3000, 0 }, new long[] { 0x4000, 0x5000, 0 },
			0x6000, 0x7000, 0x8000, 12345, 67, new int[] { 9, 8 }, new int[] { 32, 32 }, new int[] { 288, 256 });
		final ByteBuffer b = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN);
		final GpuStructs.Layout l = GpuStructs.POINT_ARGS;
		assertEquals(128, a.length);
		assertEquals(0x1000, b.getLong(l.at("perm")));
		assertEquals(0x3000, b.getLong(l.at("first") + 8));
		assertEquals(0, b.getLong(l.at("first") + 16), "no z axis in 2D");
		assertEquals(0x5000, b.getLong(l.at("offset") + 8));
		assertEquals(0x8000, b.getLong(l.at("subCount")));
		assertEquals(12345, b.getInt(l.at("m")));
		assertEquals(67, b.getInt(l.at("subproblems")));
		assertEquals(8, b.getInt(l.at("bins") + 4));
		assertEquals(1, b.getInt(l.at("bins") + 8), "unused axes are 1");
		assertEquals(32, b.getInt(l.at("bin") + 4));
		assertEquals(256, b.getInt(l.at("grid") + 4));
		assertEquals(1, b.getInt(l.at("grid") + 8));
	}

	@Test
	void radialAndDeapodArgsHoldEachValueAtItsOffset() {
		final byte[] r = GpuStructs.radialArgs(0x10, 0x20, 0x30, 0x40, 1000, 50, 20, new int[] { -3, 130, -4, 131 },
			0.25f, new int[] { 128, 96 });
		final ByteBuffer b = ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN);
		final GpuStructs.Layout l = GpuStructs.RADIAL_ARGS;
		assertEquals(72, r.length);
		assertEquals(0x40, b.getLong(l.at("angles")));
		assertEquals(20, b.getInt(l.at("readout")));
		assertEquals(131, b.getInt(l.at("reach") + 12));
		assertEquals(0.25f, b.getFloat(l.at("margin")));
		assertEquals(96, b.getInt(l.at("grid") + 4));
		final byte[] d = GpuStructs.deapodArgs(new long[] { 1, 2, 3 }, new int[] { 10, 20, 1 }, new int[] { 20, 40, 1 });
		final ByteBuffer c = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
		assertEquals(48, d.length);
		assertEquals(3, c.getLong(GpuStructs.DEAPOD_ARGS.at("d") + 16));
		assertEquals(20, c.getInt(GpuStructs.DEAPOD_ARGS.at("image") + 4));
		assertEquals(40, c.getInt(GpuStructs.DEAPOD_ARGS.at("grid") + 4));
		assertTrue(GpuStructs.KERNEL_SPEC.at("type") == 0);
	}

	@Test
	void setptsArgsHoldEachValueAtItsOffset() {
		final long[] ptr = new long[15];
		for (int i = 0; i < 15; i++) ptr[i] = 0x100L * (i + 1);
		final byte[] a = GpuStructs.setptsArgs(ptr, 5000, 4096, 7, 1024, 4100, new int[] { 256, 192 },
			new int[] { 8, 8 }, new int[] { 32, 24 });
		final ByteBuffer b = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN);
		final GpuStructs.Layout l = GpuStructs.SETPTS_ARGS;
		assertEquals(176, a.length);
		assertEquals(0x100, b.getLong(l.at("coords")));
		assertEquals(0x500, b.getLong(l.at("rank")));
		assertEquals(0x800, b.getLong(l.at("first") + 8));
		assertEquals(0xc00, b.getLong(l.at("offset") + 16));
		assertEquals(0xf00, b.getLong(l.at("subCount")));
		assertEquals(5000, b.getInt(l.at("m")));
		assertEquals(4096, b.getInt(l.at("nbins")));
		assertEquals(7, b.getInt(l.at("width")));
		assertEquals(1024, b.getInt(l.at("maxSub")));
		assertEquals(4100, b.getInt(l.at("subCapacity")));
		assertEquals(192, b.getInt(l.at("grid") + 4));
		assertEquals(1, b.getInt(l.at("grid") + 8), "unused axes are 1");
		assertEquals(8, b.getInt(l.at("bin") + 4));
		assertEquals(24, b.getInt(l.at("bins") + 4));
		assertEquals(1, b.getInt(l.at("bins") + 8));
	}
}
