package org.netnslab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The package layering that ARCHITECTURE.md draws, checked on the compiled main classes: a package
 * may use only the layers below it, and the model packages only each other and {@code settings}.
 */
public class ArchitectureTest extends JUnitSuite {
    private static final String[] MODEL = {
        "org.netnslab.netns..",
        "org.netnslab.uevent..",
        "org.netnslab.rcu..",
        "org.netnslab.sockinuse..",
        "org.netnslab.proc..",
        "org.netnslab.userns..",
        "org.netnslab.netlink..",
        "org.netnslab.fault.."
    };

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.netnslab");

    /** The layers, top to bottom, and who may use each. */
    static LayeredArchitecture layers() {
        return layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("cli")
                .definedBy("org.netnslab.cli..")
                .layer("cluster")
                .definedBy("org.netnslab.cluster..")
                .layer("embedding API")
                .definedBy("org.netnslab")
                .layer("calibrate")
                .definedBy("org.netnslab.calibrate..")
                .layer("report")
                .definedBy("org.netnslab.report..")
                .layer("scenario")
                .definedBy("org.netnslab.scenario..")
                .layer("workload")
                .definedBy("org.netnslab.workload..")
                .layer("run")
                .definedBy("org.netnslab.run..")
                .layer("metrics")
                .definedBy("org.netnslab.metrics..")
                .layer("design")
                .definedBy("org.netnslab.design..")
                .layer("model")
                .definedBy(MODEL)
                .layer("machine")
                .definedBy("org.netnslab.machine..")
                .layer("settings")
                .definedBy("org.netnslab.settings..")
                .whereLayer("cli")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("cluster")
                .mayOnlyBeAccessedByLayers("cli")
                .whereLayer("embedding API")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("calibrate")
                .mayOnlyBeAccessedByLayers("cli")
                .whereLayer("report")
                .mayOnlyBeAccessedByLayers("cli")
                .whereLayer("scenario")
                .mayOnlyBeAccessedByLayers("cli", "calibrate", "cluster")
                .whereLayer("workload")
                .mayOnlyBeAccessedByLayers("cli", "scenario")
                .whereLayer("run")
                .mayOnlyBeAccessedByLayers("cli", "calibrate", "cluster", "scenario", "workload")
                .whereLayer("metrics")
                .mayOnlyBeAccessedByLayers("cli", "calibrate", "cluster", "report", "scenario", "workload", "run")
                .whereLayer("design")
                .mayOnlyBeAccessedByLayers("cli", "embedding API", "scenario", "workload", "run")
                .whereLayer("model")
                .mayOnlyBeAccessedByLayers("cli", "embedding API", "scenario", "workload", "run", "metrics", "design")
                .whereLayer("machine")
                .mayOnlyBeAccessedByLayers(
                        "cli",
                        "calibrate",
                        "cluster",
                        "embedding API",
                        "scenario",
                        "workload",
                        "run",
                        "metrics",
                        "design",
                        "model");
    }

    @Test
    public void everyPackageUsesOnlyTheLayersBelowIt() {
        layers().check(MAIN);
    }

    @Test
    public void modelPackagesImportNoLayerAboveThem() {
        noClasses()
                .that()
                .resideInAnyPackage(MODEL)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.netnslab",
                        "org.netnslab.design..",
                        "org.netnslab.scenario..",
                        "org.netnslab.workload..",
                        "org.netnslab.run..",
                        "org.netnslab.metrics..",
                        "org.netnslab.report..",
                        "org.netnslab.cli..")
                .check(MAIN);
    }

    @Test
    public void everyMainClassIsInALayer() {
        classes()
                .should()
                .resideInAnyPackage(
                        "org.netnslab",
                        "org.netnslab.cli..",
                        "org.netnslab.calibrate..",
                        "org.netnslab.cluster..",
                        "org.netnslab.report..",
                        "org.netnslab.scenario..",
                        "org.netnslab.workload..",
                        "org.netnslab.run..",
                        "org.netnslab.metrics..",
                        "org.netnslab.design..",
                        "org.netnslab.machine..",
                        "org.netnslab.settings..",
                        MODEL[0],
                        MODEL[1],
                        MODEL[2],
                        MODEL[3],
                        MODEL[4],
                        MODEL[5],
                        MODEL[6],
                        MODEL[7])
                .check(MAIN);
    }

    @Test
    public void aModelClassThatUsesTheDesignLayerBreaksTheLayering() throws Exception {
        EvaluationResult r = layers().evaluate(new ClassFileImporter()
                .importClasses(
                        Class.forName("org.netnslab.netns.ModelThatUsesDesign"), org.netnslab.design.Design.class));
        assertTrue(r.hasViolation());
        assertEquals(
                1,
                r.getFailureReport().getDetails().stream()
                        .filter(d -> d.contains("ModelThatUsesDesign") && d.contains("org.netnslab.design.Design"))
                        .map(d -> "ModelThatUsesDesign")
                        .distinct()
                        .count());
    }
}
