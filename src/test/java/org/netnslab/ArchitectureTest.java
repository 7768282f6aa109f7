package org.netnslab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.List;
import java.util.stream.Stream;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The package layering that ARCHITECTURE.md draws, checked on the compiled main classes: a package
 * may use only the layers below it, and the model packages only each other and {@code settings}. Inside
 * {@code netns}, the classes are layered too ({@link #netnsLayers()}).
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

    /** The netns classes of the top layer: the supervisor, its creation path, its groups and the cleanup worker. */
    static final List<String> NETNS_SUPERVISOR = List.of(
            "NamespaceSupervisor", "NetnsCreations", "NetnsParent", "NetnsGroup", "NetnsGroups", "CleanupWorker");

    /** The netns classes of the middle layer: the netns actor and its teardown (OpsUndo). */
    static final List<String> NETNS_ACTOR = List.of(
            "NetnsActor",
            "NetnsEnv",
            "NetnsUevents",
            "NetnsSockets",
            "NetnsTeardown",
            "OpsUndo",
            "OpsExitList",
            "ExitWork");

    /** The netns classes named {@code names} (top-level classes, with their nested and anonymous classes). */
    private static DescribedPredicate<JavaClass> netns(String description, List<String> names) {
        return DescribedPredicate.describe(description, c -> {
            String name = netnsTopLevel(c);
            return name != null && names.contains(name);
        });
    }

    /** @return the simple name of {@code c}'s top-level class when it is in netns, else null */
    private static String netnsTopLevel(JavaClass c) {
        String prefix = "org.netnslab.netns.";
        if (!c.getName().startsWith(prefix) || c.getName().indexOf('.', prefix.length()) >= 0) {
            return null;
        }
        String name = c.getName().substring(prefix.length());
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    /**
     * The layers inside netns, top to bottom: the supervisor (with its creation path, groups and cleanup
     * worker); the netns actor with its teardown; and every other class (the protocol, state, settings and
     * the locks). A class names only classes of its own layer or of the layers below.
     */
    static LayeredArchitecture netnsLayers() {
        List<String> above =
                Stream.concat(NETNS_SUPERVISOR.stream(), NETNS_ACTOR.stream()).toList();
        return layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("netns supervisor")
                .definedBy(netns("the supervisor, its groups and cleanup worker", NETNS_SUPERVISOR))
                .layer("netns actor")
                .definedBy(netns("the netns actor and its teardown", NETNS_ACTOR))
                .layer("netns protocol and state")
                .definedBy(DescribedPredicate.describe("every other netns class", c -> {
                    String name = netnsTopLevel(c);
                    return name != null && !above.contains(name);
                }))
                .whereLayer("netns supervisor")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("netns actor")
                .mayOnlyBeAccessedByLayers("netns supervisor")
                .whereLayer("netns protocol and state")
                .mayOnlyBeAccessedByLayers("netns actor", "netns supervisor");
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
    public void insideNetnsNoClassNamesALayerAboveIt() {
        netnsLayers().check(MAIN);
    }

    @Test
    public void theNetnsLayersNameClassesThatExist() {
        for (String name : NETNS_SUPERVISOR) {
            assertTrue(name, MAIN.contain("org.netnslab.netns." + name));
        }
        for (String name : NETNS_ACTOR) {
            assertTrue(name, MAIN.contain("org.netnslab.netns." + name));
        }
    }

    @Test
    public void aNetnsProtocolClassThatNamesTheSupervisorBreaksTheNetnsLayering() throws Exception {
        EvaluationResult r = netnsLayers()
                .evaluate(new ClassFileImporter()
                        .importClasses(
                                Class.forName("org.netnslab.netns.ProtocolThatNamesTheSupervisor"),
                                org.netnslab.netns.NamespaceSupervisor.CreateNetns.class));
        assertTrue(r.hasViolation());
        assertEquals(
                1,
                r.getFailureReport().getDetails().stream()
                        .filter(d -> d.contains("ProtocolThatNamesTheSupervisor")
                                && d.contains("org.netnslab.netns.NamespaceSupervisor$CreateNetns"))
                        .map(d -> "ProtocolThatNamesTheSupervisor")
                        .distinct()
                        .count());
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
