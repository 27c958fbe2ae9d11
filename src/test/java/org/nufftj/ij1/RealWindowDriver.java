package org.nufftj.ij1;

import java.awt.Button;
import java.awt.Checkbox;
import java.awt.Choice;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.EventQueue;
import java.awt.Frame;
import java.awt.Label;
import java.awt.Menu;
import java.awt.MenuBar;
import java.awt.MenuItem;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.TextField;
import java.awt.Window;
import java.awt.event.ActionEvent;
import java.awt.event.ActionListener;
import java.awt.image.BufferedImage;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import javax.imageio.ImageIO;

import ij.IJ;
import ij.ImageJ;
import ij.ImagePlus;
import ij.Menus;
import ij.WindowManager;
import ij.gui.GenericDialog;
import ij.process.ImageProcessor;

/**
 * Not a test: the program {@link RealWindowIT} starts in its own JVM on an X display (Xvfb) with
 * {@code -Dplugins.dir=target/imagej}, so ImageJ 1 loads NUFFT-J from the packaged folder exactly as a user's copy does.
 * It uses ImageJ 1 and AWT only (our classes live in the plugin jar, loaded by ImageJ's plugin class loader), drives the
 * real windows as a user would, and prints what it saw as lines ({@code MENU}, {@code WINDOW}, {@code LOG},
 * {@code DIALOG}, {@code IMAGE}, {@code FAIL}) for the IT to check; screenshots go to the folder given as argument.
 * <p>
 * How the command is run: the Plugins › NUFFT-J › Simulate k-space menu item's ActionEvent is delivered to its listeners
 * (ImageJ itself) on the event thread, as a click on the item does; the GenericDialog that opens is filled in by setting
 * its text fields and choices (found by their labels, the macro keys), and OK is pressed by dispatching the OK button's
 * ActionEvent. No macro options are involved: the dialog's own values reach the command.
 * </p>
 */
public final class RealWindowDriver {

	private RealWindowDriver() {}

	public static void main(final String[] args) throws Exception {
		final File shots = new File(args[0]);
		shots.mkdirs();
		try {
			drive(shots);
		}
		catch (final Throwable t) {
			System.out.println("FAIL driver: " + t);
			t.printStackTrace(System.out);
		}
		System.out.flush();
		System.exit(0);
	}

	private static void drive(final File shots) throws Exception {
		new ImageJ();
		final ImageJ ij = waitFor("the ImageJ window", 60, () -> {
			final ImageJ i = IJ.getInstance();
			return i != null && i.isShowing() ? i : null;
		});
		Thread.sleep(2000); // let plugin scanning finish and any error window appear
		// 1. The menu: Plugins › NUFFT-J as the menu bar shows it.
		final MenuBar bar = onEdt(Menus::getMenuBar);
		final Menu nufft = onEdt(() -> submenu(submenu(bar, "Plugins"), "NUFFT-J"));
		if (nufft == null) System.out.println("FAIL no Plugins>NUFFT-J menu");
		else for (int i = 0; i < nufft.getItemCount(); i++) System.out.println("MENU " + nufft.getItem(i).getLabel());
		windows("start");
		// 2. Run Simulate k-space from its menu item, through its dialog.
		final MenuItem item = nufft == null ? null : find(nufft, "Simulate k-space");
		if (item == null) {
			System.out.println("FAIL no Simulate k-space menu item");
			return;
		}
		EventQueue.invokeLater(() -> {
			for (final ActionListener l : item.getActionListeners())
				l.actionPerformed(new ActionEvent(item, ActionEvent.ACTION_PERFORMED, item.getActionCommand()));
		});
		final GenericDialog gd = waitFor("the Simulate k-space dialog", 60, () -> {
			for (final Window w : Window.getWindows())
				if (w instanceof GenericDialog && w.isShowing() && "Simulate k-space".equals(((Dialog) w).getTitle()))
					return (GenericDialog) w;
			return null;
		});
		onEdt(() -> {
			set(gd, "trajectory", "radial");
			set(gd, "matrix", "64");
			set(gd, "coils", "2");
			set(gd, "device", "cpu");
			return null;
		});
		Thread.sleep(500);
		System.out.println("DIALOG " + gd.getTitle() + " " + gd.getWidth() + "x" + gd.getHeight());
		screenshot(gd, new File(shots, "dialog.png"));
		onEdt(() -> {
			final Button ok = button(gd, "OK");
			if (ok == null) System.out.println("FAIL no OK button");
			else ok.dispatchEvent(new ActionEvent(ok, ActionEvent.ACTION_PERFORMED, ok.getActionCommand()));
			return null;
		});
		// 3. The result: the phantom and its reconstruction as image windows.
		final ImagePlus recon = waitFor("the reconstruction window", 120, () -> {
			for (final int id : ids()) {
				final ImagePlus imp = WindowManager.getImage(id);
				if (imp != null && imp.getWindow() != null && imp.getWindow().isShowing() && !imp.getTitle().endsWith(
					"phantom")) return imp;
			}
			return null;
		});
		Thread.sleep(1000);
		ImagePlus phantom = null;
		for (final int id : ids()) {
			final ImagePlus imp = WindowManager.getImage(id);
			if (imp != null && imp.getTitle().endsWith("phantom")) phantom = imp;
		}
		System.out.println(String.format(Locale.ROOT, "IMAGE %dx%d correlation-with-phantom %.4f title %s", recon
			.getWidth(), recon.getHeight(), phantom == null ? Double.NaN : correlation(phantom.getProcessor(), recon
				.getProcessor()), recon.getTitle()));
		screenshot(recon.getWindow(), new File(shots, "result.png"));
		screenshot(ij, new File(shots, "imagej.png"));
		windows("end");
	}

	// -- helpers --

	/** Every visible window's title, and the Log's text (where ImageJ writes plugin configuration errors). */
	private static void windows(final String when) {
		for (final Window w : Window.getWindows()) {
			if (!w.isShowing()) continue;
			final String title = w instanceof Frame ? ((Frame) w).getTitle() : w instanceof Dialog ? ((Dialog) w)
				.getTitle() : w.getClass().getName();
			System.out.println("WINDOW " + when + " " + title);
		}
		final String log = IJ.getLog();
		if (log != null) for (final String line : log.split("\n")) System.out.println("LOG " + when + " " + line);
	}

	private static int[] ids() {
		final int[] ids = WindowManager.getIDList();
		return ids == null ? new int[0] : ids;
	}

	private static double correlation(final ImageProcessor a, final ImageProcessor b) {
		if (a.getWidth() != b.getWidth() || a.getHeight() != b.getHeight()) return Double.NaN;
		final int n = a.getWidth() * a.getHeight();
		double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
		for (int i = 0; i < n; i++) {
			final double x = a.getf(i), y = b.getf(i);
			sa += x;
			sb += y;
			saa += x * x;
			sbb += y * y;
			sab += x * y;
		}
		final double cov = sab - sa * sb / n, va = saa - sa * sa / n, vb = sbb - sb * sb / n;
		return cov / Math.sqrt(va * vb);
	}

	private static Menu submenu(final Object parent, final String label) {
		if (parent instanceof MenuBar) {
			final MenuBar mb = (MenuBar) parent;
			for (int i = 0; i < mb.getMenuCount(); i++)
				if (label.equals(mb.getMenu(i).getLabel())) return mb.getMenu(i);
		}
		else if (parent instanceof Menu) {
			final MenuItem m = find((Menu) parent, label);
			if (m instanceof Menu) return (Menu) m;
		}
		return null;
	}

	private static MenuItem find(final Menu menu, final String label) {
		for (int i = 0; i < menu.getItemCount(); i++)
			if (label.equals(menu.getItem(i).getLabel())) return menu.getItem(i);
		return null;
	}

	/** The dialog's components in order (labels come before their fields). */
	private static List<Component> flat(final Container c, final List<Component> out) {
		for (final Component k : c.getComponents()) {
			out.add(k);
			if (k instanceof Container) flat((Container) k, out);
		}
		return out;
	}

	/** Sets the field that follows the label {@code key} (GenericDialog puts each label before its field). */
	private static void set(final GenericDialog gd, final String key, final String value) {
		final List<Component> all = flat(gd, new ArrayList<>());
		for (int i = 0; i < all.size(); i++) {
			if (!(all.get(i) instanceof Label) || !key.equals(((Label) all.get(i)).getText().trim())) continue;
			for (int j = i + 1; j < all.size(); j++) {
				final Component f = all.get(j);
				if (f instanceof TextField) {
					((TextField) f).setText(value);
					return;
				}
				if (f instanceof Choice) {
					((Choice) f).select(value);
					return;
				}
				if (f instanceof Checkbox) {
					((Checkbox) f).setState(Boolean.parseBoolean(value));
					return;
				}
			}
		}
		System.out.println("FAIL dialog has no field " + key);
	}

	private static Button button(final Container c, final String label) {
		for (final Component k : flat(c, new ArrayList<>()))
			if (k instanceof Button && label.equals(((Button) k).getLabel().trim())) return (Button) k;
		return null;
	}

	/** A screenshot of the window as the X server shows it (Robot), else as the window paints itself. */
	private static void screenshot(final Window w, final File file) throws Exception {
		final AtomicReference<Rectangle> bounds = new AtomicReference<>();
		EventQueue.invokeAndWait(() -> bounds.set(new Rectangle(w.getLocationOnScreen(), w.getSize())));
		BufferedImage img;
		try {
			img = new Robot().createScreenCapture(bounds.get());
		}
		catch (final Exception e) {
			img = new BufferedImage(w.getWidth(), w.getHeight(), BufferedImage.TYPE_INT_RGB);
			final BufferedImage target = img;
			EventQueue.invokeAndWait(() -> w.printAll(target.getGraphics()));
		}
		ImageIO.write(img, "png", file);
		System.out.println("SCREENSHOT " + file);
	}

	private static <T> T onEdt(final Callable<T> c) throws Exception {
		final AtomicReference<T> r = new AtomicReference<>();
		final AtomicReference<Exception> e = new AtomicReference<>();
		EventQueue.invokeAndWait(() -> {
			try {
				r.set(c.call());
			}
			catch (final Exception x) {
				e.set(x);
			}
		});
		if (e.get() != null) throw e.get();
		return r.get();
	}

	private static <T> T waitFor(final String what, final int seconds, final Callable<T> c) throws Exception {
		final long end = System.nanoTime() + seconds * 1_000_000_000L;
		while (System.nanoTime() < end) {
			final T t = c.call();
			if (t != null) return t;
			Thread.sleep(200);
		}
		throw new IllegalStateException("timed out after " + seconds + " s waiting for " + what);
	}
}
