package org.nufftj.ij1;

import java.util.Set;

import org.nufftj.command.ImagePlusAdapter;
import org.nufftj.command.NufftCommand;
import org.scijava.plugin.PluginInfo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.nufftj.InvalidInputException;
import org.nufftj.command.ReconstructCommand;
import org.nufftj.data.ComplexImage;
import org.nufftj.imglib.ComplexPlanes;
import org.scijava.Context;
import org.scijava.command.Command;
import org.scijava.command.CommandInfo;
import org.scijava.command.CommandService;
import org.scijava.module.ModuleItem;
import org.scijava.plugin.Plugin;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.img.planar.PlanarImg;
import net.imglib2.type.numeric.real.FloatType;

/** The ImageJ 1 bridge: menu entries, macro options, in-process runs, and the ImgLib2 ↔ ImagePlus adapter. */
class LauncherTest {

	@Test
	void oneMenuEntryPerCommandOfThePluginIndexAndNoImageJ2MenuEntry() throws Exception {
		final Map<String, String> config = Headless.ours();
		final Map<String, PluginInfo<Command>> commands = CommandLauncher.commands();
		// Every command of the plugin index, none listed by hand: the menu entries, each once.
		assertEquals(Set.of("reconstruct", "simulate", "forward", "compare", "trajectory", "benchmark", "gpuinfo",
			"iterative", "coilmaps", "ussimulate", "usrecon"), commands.keySet());
		assertEquals(commands.size(), config.size(), "plugins.config: " + config);
		for (final Map.Entry<String, PluginInfo<Command>> e : commands.entrySet()) {
			final Plugin p = e.getValue().loadClass().getAnnotation(Plugin.class);
			assertEquals("org.nufftj.ij1.CommandLauncher(\"" + e.getKey() + "\")", config.get(p.label()),
				"plugins.config entry for " + p.label());
			// SciJava/Fiji build their menus from the "app" root only; ours is private, so Fiji lists the command once.
			assertEquals(NufftCommand.MENU_ROOT, p.menuRoot());
			assertNotEquals("app", p.menuRoot());
			assertEquals("Plugins>NUFFT-J>" + p.label(), p.menuPath());
		}
	}

	@Test
	void macroOptionsBecomeInputs() {
		final List<ModuleItem<?>> inputs = new ArrayList<>();
		for (final ModuleItem<?> i : MacroInputs.userInputs(new CommandInfo(ReconstructCommand.class).inputs()))
			inputs.add(i);
		final Map<String, Object> v = MacroInputs.parse("Reconstruct k-space", inputs,
			"kspace=[/data/my scan.h5] trajectory=[golden angle] width=6 tolerance=1e-6 coils device=gpu:1");
		assertEquals(new File("/data/my scan.h5"), v.get("kspace"));
		assertEquals("golden angle", v.get("trajectory"));
		assertEquals(6, v.get("width"));
		assertEquals(1e-6, (Double) v.get("tolerance"), 0);
		assertEquals(true, v.get("coils"));
		assertEquals("gpu:1", v.get("device"));
		assertNull(v.get("compare"), "absent keys keep the command's default");
		final InvalidInputException typo = assertThrows(InvalidInputException.class, () -> MacroInputs.parse("R",
			inputs, "kspace=[a.h5] kernal=kb"));
		assertTrue(typo.getMessage().contains("unknown key 'kernal'"), typo.getMessage());
		assertThrows(InvalidInputException.class, () -> MacroInputs.parse("R", inputs, "width=six"));
	}

	@Test
	void launcherRunsACommandFromMacroOptionsInProcess() {
		final Context context = new Context(CommandService.class);
		try {
			final CommandLauncher.Run ok = CommandLauncher.execute(ReconstructCommand.class,
				"kspace=[sample-data/ismrmrd/radial_shepp_logan.h5] device=cpu output=[magnitude and phase]", context);
			assertNull(ok.error, ok.error);
			final ImagePlus imp = (ImagePlus) ok.outputs.get("image");
			assertEquals(2, imp.getNChannels());
			assertNotNull(ok.outputs.get("log"));
			final CommandLauncher.Run bad = CommandLauncher.execute(ReconstructCommand.class,
				"kspace=[sample-data/ismrmrd/radial_shepp_logan.h5] combine=max", context);
			assertTrue(bad.error.startsWith("NUFFT-J: combine: unknown value 'max'"), bad.error);
			assertTrue(bad.outputs.isEmpty());
		}
		finally {
			context.dispose();
		}
	}

	// -- ImgLib2 <-> ImagePlus --

	@Test
	void planarImagesAndStacksShareTheirPlanes() {
		final Random rnd = new Random();
		final int w = 5 + rnd.nextInt(7), h = 3 + rnd.nextInt(5), c = 2, z = 3, t = 2;
		final List<float[]> planes = new ArrayList<>();
		for (int i = 0; i < c * z * t; i++) {
			final float[] p = new float[w * h];
			for (int j = 0; j < p.length; j++) p[j] = rnd.nextFloat();
			planes.add(p);
		}
		final PlanarImg<FloatType, FloatArray> img = ComplexPlanes.wrap(planes, w, h, c, z, t);
		final ImagePlus imp = ImagePlusAdapter.wrap(img, "shared");
		assertEquals(c, imp.getNChannels());
		assertEquals(z, imp.getNSlices());
		assertEquals(t, imp.getNFrames());
		for (int i = 0; i < planes.size(); i++) assertSame(planes.get(i), imp.getStack().getPixels(i + 1));
		// Pixel (x, y) of plane (ci, zi, ti) is the same number through ImgLib2 and ImageJ.
		final net.imglib2.RandomAccess<FloatType> ra = img.randomAccess();
		final int x = rnd.nextInt(w), y = rnd.nextInt(h), ci = 1, zi = 2, ti = 1;
		ra.setPosition(new long[] { x, y, ci, zi, ti });
		final int index = imp.getStackIndex(ci + 1, zi + 1, ti + 1);
		assertEquals(ra.get().get(), imp.getStack().getProcessor(index).getf(x, y));

		final PlanarImg<FloatType, FloatArray> back = ImagePlusAdapter.toImg(imp);
		for (int i = 0; i < planes.size(); i++) assertSame(planes.get(i), ComplexPlanes.plane(back, i));
	}

	@Test
	void nonFloatStacksAreConverted() {
		final ImageStack s = new ImageStack(4, 3);
		final ByteProcessor bp = new ByteProcessor(4, 3);
		bp.set(2, 1, 200);
		s.addSlice(bp);
		final PlanarImg<FloatType, FloatArray> img = ImagePlusAdapter.toImg(new ImagePlus("bytes", s));
		assertEquals(200f, ComplexPlanes.plane(img, 0)[2 + 4 * 1]);
	}

	@Test
	void complexPartsAreComputedOncePerPlane() {
		final float[] d = { 3, 4, -1, 0, 0, 2, 1, 1 }; // 2 x 2 pixels
		final ComplexImage ci = new ComplexImage(d, new int[] { 2, 2 }, 1, 1, null);
		final PlanarImg<FloatType, FloatArray> p = ComplexPlanes.planes(ci, ComplexPlanes.Part.MAGNITUDE,
			ComplexPlanes.Part.PHASE);
		assertEquals(2, p.dimension(2));
		final float[] mag = ComplexPlanes.plane(p, 0), phase = ComplexPlanes.plane(p, 1);
		// Display order: array element (i0, i1) = (1, 0) is pixel (x, y) = (0, 1), plane index 2.
		assertEquals(5f, mag[0]);
		assertEquals(1f, mag[2]);
		assertEquals((float) Math.PI, phase[2], 1e-6f);
		assertEquals((float) (Math.PI / 2), phase[1], 1e-6f);
		final ImagePlus imp = ImagePlusAdapter.wrap(p, "parts");
		assertSame(mag, imp.getStack().getPixels(1));
		assertTrue(imp.getStack().getProcessor(1) instanceof FloatProcessor);
	}
}
