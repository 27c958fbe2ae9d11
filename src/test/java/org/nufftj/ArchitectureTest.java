package org.nufftj;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The layering of README's "Layout", checked on the compiled main classes:
 * values (trajectory, kernel, phantom, io, data) → nufft (Backend, plans; cpu and gpu engines) → operator → recon →
 * app → front ends (cli, command, ij1). Each rule fails naming the offending class and dependency.
 */
class ArchitectureTest {

	private static JavaClasses classes;

	@BeforeAll
	static void importMainClasses() {
		classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("org.nufftj");
	}

	/** The GPU engine is reached through the device-neutral Backend; only the factory names it. */
	@Test
	void onlyTheBackendFactoryReachesTheGpuEngine() {
		noClasses().that().resideOutsideOfPackage("org.nufftj.nufft.gpu..")
			.and().doNotHaveFullyQualifiedName("org.nufftj.nufft.Backends")
			.should().dependOnClassesThat().resideInAPackage("org.nufftj.nufft.gpu..")
			.because("callers use the device-neutral Backend (Backends.open is the only place that picks a device)")
			.check(classes);
	}

	/** The core works from plain Java, a CLI, a test or a Spark job: no ImageJ, AWT, Swing, picocli or SciJava. */
	@Test
	void noUserInterfaceBelowTheFrontEnds() {
		noClasses().that().resideOutsideOfPackages("org.nufftj.cli..", "org.nufftj.command..", "org.nufftj.ij1..")
			.should().dependOnClassesThat().resideInAnyPackage("ij..", "java.awt..", "javax.swing..", "picocli..",
				"org.scijava..")
			.because("ImageJ, AWT, picocli and SciJava belong to the front ends (cli, command, ij1)")
			.check(classes);
	}

	@Test
	void layersDependDownwardsOnly() {
		layeredArchitecture().consideringOnlyDependenciesInAnyPackage("org.nufftj..")
			.layer("values").definedBy("org.nufftj.trajectory..", "org.nufftj.kernel..", "org.nufftj.phantom..",
				"org.nufftj.io..", "org.nufftj.data..")
			.layer("engine").definedBy("org.nufftj.nufft..")
			.layer("operator").definedBy("org.nufftj.operator..")
			.layer("recon").definedBy("org.nufftj.recon..")
			.layer("app").definedBy("org.nufftj.app..", "org.nufftj.imglib..")
			.layer("front ends").definedBy("org.nufftj.cli..", "org.nufftj.command..", "org.nufftj.ij1..")
			.whereLayer("front ends").mayNotBeAccessedByAnyLayer()
			.whereLayer("app").mayOnlyBeAccessedByLayers("front ends")
			.whereLayer("recon").mayOnlyBeAccessedByLayers("app", "front ends")
			.whereLayer("operator").mayOnlyBeAccessedByLayers("recon", "app", "front ends")
			.whereLayer("engine").mayOnlyBeAccessedByLayers("operator", "recon", "app", "front ends")
			.check(classes);
	}

	@Test
	void noPackageCycles() {
		slices().matching("org.nufftj.(*)..").should().beFreeOfCycles().check(classes);
	}

	/**
	 * Above recon, backends are opened, and reconstructions and density compensation run, in the application's
	 * {@code Session} only (one backend per device per session; front ends never open their own).
	 */
	@Test
	void theApplicationReachesBackendsThroughItsSession() {
		noClasses().that().resideInAnyPackage("org.nufftj.app..", "org.nufftj.imglib..", "org.nufftj.cli..",
			"org.nufftj.command..", "org.nufftj.ij1..")
			.and().doNotHaveFullyQualifiedName("org.nufftj.app.Session")
			.should().dependOnClassesThat().haveFullyQualifiedName("org.nufftj.nufft.Backends")
			.orShould().dependOnClassesThat().haveFullyQualifiedName("org.nufftj.nufft.Nufft")
			.orShould().dependOnClassesThat().haveFullyQualifiedName("org.nufftj.recon.GriddingRecon")
			.orShould().dependOnClassesThat().haveFullyQualifiedName("org.nufftj.recon.DensityCompensation")
			.orShould().dependOnClassesThat().resideInAPackage("org.nufftj.nufft.cpu..")
			.because("a session keeps one backend per device; Session is where the application opens them")
			.check(classes);
	}

	/** The three front ends are siblings: none calls another (no command ⇄ ij1 cycle, no CLI in Fiji). */
	@Test
	void frontEndsAreIndependent() {
		noClasses().that().resideInAPackage("org.nufftj.command..")
			.should().dependOnClassesThat().resideInAnyPackage("org.nufftj.ij1..", "org.nufftj.cli..").check(classes);
		noClasses().that().resideInAPackage("org.nufftj.cli..")
			.should().dependOnClassesThat().resideInAnyPackage("org.nufftj.ij1..", "org.nufftj.command..").check(classes);
	}
}
