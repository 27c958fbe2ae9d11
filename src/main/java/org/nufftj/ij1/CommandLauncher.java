package org.nufftj.ij1;

import java.awt.GraphicsEnvironment;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nufftj.InvalidInputException;
import org.nufftj.command.NufftCommand;
import org.scijava.Context;
import org.scijava.command.Command;
import org.scijava.command.CommandInfo;
import org.scijava.command.CommandModule;
import org.scijava.command.CommandService;
import org.scijava.module.ModuleItem;
import org.scijava.log.LogService;
import org.scijava.plugin.Plugin;
import org.scijava.plugin.PluginIndex;
import org.scijava.plugin.PluginInfo;

import ij.IJ;
import ij.ImagePlus;
import ij.Macro;
import ij.WindowManager;
import ij.gui.GenericDialog;
import ij.gui.Plot;
import ij.macro.Interpreter;
import ij.measure.ResultsTable;
import ij.plugin.PlugIn;

/**
 * The ImageJ 1 entry of every NUFFT-J command (plugins.config points here with the command's short name as the
 * argument). It reads {@code Macro.getOptions()} into the command's {@code @Parameter} inputs (field name = key), or
 * asks with a GenericDialog whose labels are the keys (so the ImageJ 1 Recorder records
 * {@code run("Reconstruct k-space", "kspace=[…] device=cpu")}), runs the command in a SciJava {@link Context} (Fiji's
 * own when present, else one made here) and shows its outputs as ImagePlus / ResultsTable / Plot / Log lines.
 * <p>
 * One menu entry per command in Fiji: the commands' {@code @Plugin} annotations use the menu root {@link NufftCommand#MENU_ROOT}
 * instead of SciJava's application menu, so Fiji's ImageJ2 menus do not list them; the only menu entries are the
 * ImageJ 1 ones from plugins.config (which Fiji shows too).
 * </p>
 * <p>
 * Errors: a command's failure is one message, shown with {@code IJ.error} when there is a user interface, and written
 * to the Log in batch or headless mode; a running macro is then aborted (like any ImageJ 1 error), so it never goes on
 * with a missing result. No exception reaches ImageJ's exception window.
 * </p>
 */
public class CommandLauncher implements PlugIn {

	/**
	 * The NUFFT-J commands by launcher key (the plugins.config argument): every {@link Command} of the
	 * SciJava plugin index under {@link NufftCommand#MENU_ROOT}, keyed by its {@code @Plugin} attribute
	 * {@link NufftCommand#KEY}. Nothing is listed by hand: a new command with a key is found here, and a test checks
	 * plugins.config against this table.
	 */
	public static Map<String, PluginInfo<Command>> commands() {
		// Our class loader, not the thread's: in plain ImageJ 1 our jar sits in plugins/, seen only by ImageJ's plugin
		// class loader (the thread's default found no command there).
		final PluginIndex index = new PluginIndex(new org.scijava.plugin.DefaultPluginFinder(
			CommandLauncher.class.getClassLoader()));
		index.discover();
		final Map<String, PluginInfo<Command>> out = new LinkedHashMap<>();
		for (final PluginInfo<Command> info : index.getPlugins(Command.class)) {
			if (!NufftCommand.MENU_ROOT.equals(info.getMenuRoot())) continue;
			final String key = info.get(NufftCommand.KEY);
			if (key == null) throw new IllegalStateException(info.getClassName() + ": a NUFFT-J command without a " +
				"launcher key (@Plugin attrs " + NufftCommand.KEY + "=...)");
			if (out.put(key, info) != null) throw new IllegalStateException("two NUFFT-J commands with the launcher key '" +
				key + "'");
		}
		return out;
	}

	/** NUFFT-J command failures reported in this process (the macro runner's exit status depends on it). */
	private static final java.util.concurrent.atomic.AtomicInteger FAILURES = new java.util.concurrent.atomic.AtomicInteger();

	/** How many NUFFT-J commands have failed in this process so far. */
	public static int failures() {
		return FAILURES.get();
	}

	@Override
	public void run(final String arg) {
		final Map<String, PluginInfo<Command>> commands = commands();
		final PluginInfo<Command> command = commands.get(arg == null ? "" : arg.trim());
		if (command == null) {
			report("NUFFT-J: unknown command '" + arg + "', expected one of " + commands.keySet());
			return;
		}
		final Context context = ContextHolder.context();
		try {
			final Run run = execute(command.loadClass(), Macro.getOptions(), context);
			if (run == null) return; // dialog cancelled
			if (run.error != null) {
				report(run.error);
				return;
			}
			show(run.outputs);
		}
		catch (final InvalidInputException e) {
			report(NufftCommand.PREFIX + e.getMessage());
		}
		catch (final RuntimeException | LinkageError | org.scijava.InstantiableException e) {
			final LogService log = context.getService(LogService.class);
			if (log != null) log.error(NufftCommand.PREFIX + "internal error", e);
			report(NufftCommand.PREFIX + "internal error: " + e);
		}
	}

	/** What a command produced: its outputs by name, or one error message. */
	public static final class Run {

		public final Map<String, Object> outputs;
		public final String error;

		Run(final Map<String, Object> outputs, final String error) {
			this.outputs = outputs;
			this.error = error;
		}
	}

	/**
	 * Runs a command with macro options (or, when {@code options} is null and there is a screen, a dialog); null when
	 * the user cancelled the dialog. No output is shown: that is {@link #show}'s job.
	 */
	public static Run execute(final Class<? extends Command> type, final String options, final Context context) {
		final CommandInfo info = info(context, type);
		final String label = info.getLabel();
		final List<ModuleItem<?>> inputs = MacroInputs.userInputs(info.inputs());
		final CommandModule module;
		try {
			module = (CommandModule) info.createModule();
		}
		catch (final org.scijava.module.ModuleException e) {
			throw new IllegalStateException("cannot create " + label + ": " + e.getMessage(), e);
		}
		context.inject(module.getCommand());
		final Map<String, Object> values;
		if (options != null) values = MacroInputs.parse(label, inputs, options);
		else if (GraphicsEnvironment.isHeadless() || Interpreter.isBatchMode()) values = Map.of();
		else {
			values = Dialogs.ask(label, inputs, module);
			if (values == null) return null;
		}
		for (final Map.Entry<String, Object> e : values.entrySet()) module.setInput(e.getKey(), e.getValue());
		for (final ModuleItem<?> item : info.inputs()) {
			if (ImagePlus.class.isAssignableFrom(item.getType()) && module.getInput(item.getName()) == null) {
				final ImagePlus current = WindowManager.getCurrentImage();
				if (current == null && item.isRequired()) return new Run(Map.of(), NufftCommand.PREFIX + label +
					" needs an open image");
				module.setInput(item.getName(), current);
			}
		}
		module.run();
		if (module.isCanceled()) return new Run(Map.of(), module.getCancelReason());
		final Map<String, Object> outputs = new LinkedHashMap<>();
		for (final ModuleItem<?> item : info.outputs()) {
			final Object v = module.getOutput(item.getName());
			if (v != null) outputs.put(item.getName(), v);
		}
		return new Run(outputs, null);
	}

	/** Shows outputs: images (batch mode aware), tables, plots; strings go to the Log. */
	public static void show(final Map<String, Object> outputs) {
		for (final Map.Entry<String, Object> e : outputs.entrySet()) {
			final Object v = e.getValue();
			if (v instanceof ImagePlus) ((ImagePlus) v).show();
			else if (v instanceof ResultsTable) {
				// Shown as ImageJ's "Results" table, so macros can use getResult() and saveAs("Results", …).
				final ResultsTable rt = (ResultsTable) v;
				ij.plugin.filter.Analyzer.setResultsTable(rt);
				if (!GraphicsEnvironment.isHeadless()) rt.show("Results");
			}
			else if (v instanceof Plot) {
				final Plot p = (Plot) v;
				if (GraphicsEnvironment.isHeadless() || Interpreter.isBatchMode()) p.getImagePlus().show();
				else p.show();
			}
			else if (v instanceof String) IJ.log((String) v);
			else if (v instanceof File) IJ.log(e.getKey() + ": " + v);
		}
	}

	// -- helpers --

	private static CommandInfo info(final Context context, final Class<? extends Command> type) {
		final CommandService cs = context.getService(CommandService.class);
		final CommandInfo registered = cs == null ? null : cs.getCommand(type);
		return registered != null ? registered : new CommandInfo(type, type.getAnnotation(Plugin.class));
	}

	/** One message: a dialog when someone can see it, else the Log; aborts a running macro. */
	static void report(final String message) {
		FAILURES.incrementAndGet();
		if (GraphicsEnvironment.isHeadless() || Interpreter.isBatchMode() || IJ.getInstance() == null) IJ.log(message);
		else IJ.error("NUFFT-J", message);
		// Stop the running macro (IJ 1.54's Macro.abort() does not stop a -batch macro; the interpreter's own abort does).
		final Interpreter macro = Interpreter.getInstance();
		if (macro != null) macro.abortMacro();
		if (commandLineBatch()) {
			// Plain ImageJ 1's `-batch file.ijm` ends in System.exit(0) whatever happened (ij.ImageJ.main drops the
			// result of IJ.runMacroFile), so a script could not see the failure. The process exists only for this
			// macro, which was just aborted: end it here, with the bad-input status of the command line's table.
			System.out.flush();
			System.err.flush();
			System.exit(BATCH_FAILURE_STATUS);
		}
	}

	/** The exit status of an {@code ij.ImageJ -batch} process whose NUFFT-J command failed (docs/cli.md: bad input). */
	public static final int BATCH_FAILURE_STATUS = 1;

	/**
	 * Whether this is ImageJ 1 run as {@code java -jar ij.jar -batch macro.ijm}: ImageJ.main sets
	 * {@code Prefs.commandLineMacro} for {@code -batch} and {@code -macro} and makes no ImageJ window for {@code -batch}.
	 * Not in a GUI (an ImageJ window exists), not in {@code ./nufft-j macro} (MacroRunner, which reports its own
	 * status), not in tests.
	 */
	static boolean commandLineBatch() {
		return ij.Prefs.commandLineMacro() && IJ.getInstance() == null;
	}
}
