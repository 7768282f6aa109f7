package org.netnslab.scenario;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.ActorRef;
import akka.actor.ActorRefWithCell;
import akka.actor.ExtendedActorSystem;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.Execution;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.workload.Workload;
import org.scalatestplus.junit.JUnitSuite;

public class ScenarioRunnerTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofMillis(200));

    /**
     * Every actor alive in the system: the tree walked from the root guardian, through each actor's
     * children as its parent holds them. A stopped actor leaves its parent's children once the parent
     * has handled its termination, which is before anyone watching it hears of it.
     */
    private static int liveActors(ActorSystem<?> system) {
        return subtree(
                ((ExtendedActorSystem) Adapter.toClassic(system)).provider().rootGuardian());
    }

    private static Set<String> livePaths(ActorSystem<?> system) {
        Set<String> paths = new HashSet<>();
        collect(((ExtendedActorSystem) Adapter.toClassic(system)).provider().rootGuardian(), paths);
        return paths;
    }

    private static void collect(ActorRef ref, Set<String> paths) {
        paths.add(ref.path().toString());
        if (ref instanceof ActorRefWithCell cell) {
            for (scala.collection.Iterator<ActorRef> it = cell.children().iterator(); it.hasNext(); ) {
                collect(it.next(), paths);
            }
        }
    }

    private static int subtree(ActorRef ref) {
        int n = 1;
        if (ref instanceof ActorRefWithCell cell) {
            for (scala.collection.Iterator<ActorRef> it = cell.children().iterator(); it.hasNext(); ) {
                n += subtree(it.next());
            }
        }
        return n;
    }

    /** Counts the live actors before each design, at the end of each of its phases, and after it. */
    private static final class ActorCounts implements RunObserver {
        final Map<String, int[]> beforeAfter = new LinkedHashMap<>();
        final Map<String, Integer> mostDuring = new LinkedHashMap<>();

        @Override
        public void designStarting(String design) {
            beforeAfter.put(design, new int[] {liveActors(testKit.system()), -1});
        }

        @Override
        public void phaseDone(String design, String phase, long total, long elapsedNanos) {
            mostDuring.merge(design, liveActors(testKit.system()), Math::max);
        }

        @Override
        public void designDone(String design) {
            beforeAfter.get(design)[1] = liveActors(testKit.system());
        }

        @Override
        public void progress(String design, String phase, long done, long total, long elapsedNanos) {}
    }

    private static ActorCounts runCounting(Scenario s) throws Exception {
        ActorCounts counts = new ActorCounts();
        RunResult r = new ScenarioRunner(testKit.system(), SETTINGS, counts).run(s);
        assertEquals(s.designs().size(), r.designs().size());
        for (DesignResult d : r.designs()) {
            assertEquals(d.name(), 0, d.invariants().leaked());
            int[] ba = counts.beforeAfter.get(d.name());
            assertEquals(d.name() + ": live actors before the design and after it", ba[0], ba[1]);
        }
        return counts;
    }

    @Test
    public void aDesignThatFailsStillHasEverythingItSpawnedStopped() throws Exception {
        Scenario proc = new ScenarioLoader()
                .load(Path.of("load-tests/proc-filter.conf"), List.of("designs=[none]"), 0.01)
                .withExecution(Execution.LIVE);
        Workload failing = new Workload() {
            @Override
            public DesignRunner runner(double scale) {
                return (design, scope) -> {
                    ActorRef parent = Adapter.toClassic(scope.spawn(
                            Behaviors.<String>setup(ctx -> {
                                ctx.spawn(Behaviors.empty(), "child");
                                return Behaviors.empty();
                            }),
                            "parent"));
                    throw new RunFailure(
                            design.name() + ": failed with " + parent.path().name() + " still running");
                };
            }

            @Override
            public String shape(double scale) {
                return "none";
            }

            @Override
            public List<String> measures() {
                return List.of("none");
            }
        };
        Scenario s = new Scenario(
                proc.file(),
                "failing",
                "fails",
                "none",
                failing,
                proc.designs(),
                proc.baseline(),
                Map.of(),
                List.of(),
                0.01,
                List.of(),
                1,
                Execution.LIVE,
                Sensitivity.NONE,
                null);
        TestProbe<Object> probe = testKit.createTestProbe(); // an actor too: created before listing
        Set<String> before = livePaths(testKit.system());
        try {
            new ScenarioRunner(testKit.system(), SETTINGS, RunObserver.SILENT).run(s);
            throw new AssertionError("the run should have failed");
        } catch (RunFailure e) {
            assertEquals("none: failed with parent still running", e.getMessage());
        }
        // Every actor of the design is gone when run returns (the run guardian was seen stopped); only the
        // run guardian's own removal from /system is asynchronous. Compared as paths, not counts: an actor of an
        // earlier test that stops meanwhile is no actor this run left behind.
        probe.awaitAssert(() -> {
            Set<String> left = new TreeSet<>(livePaths(testKit.system()));
            left.removeAll(before);
            assertEquals(Set.of(), left);
            return null;
        });
    }

    @Test
    public void afterEachUeventDesignTheLiveActorsAreThoseBeforeIt() throws Exception {
        Path file = tmp.newFile("tiny.conf").toPath();
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name = tiny",
                        "description = tiny",
                        "seed = tiny",
                        "workload { type = uevent-injection, netns { userns-owned = 3, init-owned = 2 }, listeners-per-netns = 2,",
                        "  injections-per-netns = 400, warmup-per-netns = 7, injectors = 4 }",
                        "designs = [kernel-4.18, per-netns-2018, kernel-6.9]",
                        ""));
        ActorCounts counts =
                runCounting(new ScenarioLoader().load(file, List.of(), 0.05).withExecution(Execution.LIVE));
        // 5 netns, their supervisor and its helpers, 4 injectors, the phase starter, the guardian
        counts.beforeAfter.forEach((d, ba) -> assertTrue(d, counts.mostDuring.get(d) >= ba[0] + 12));
    }

    @Test
    public void replicatesRunEveryDesignOnAFreshModelInRotatedOrder() throws Exception {
        Path file = tmp.newFile("tiny-repeat.conf").toPath();
        Files.writeString(file, TinyScenario.tc2("kernel-4.18, per-netns-2018, kernel-6.9"));
        Scenario s =
                new ScenarioLoader().load(file, List.of("repeat = 3"), 0.05).withExecution(Execution.LIVE);
        assertEquals(3, s.repeat());
        List<String> started = new ArrayList<>();
        List<String> replicates = new ArrayList<>();
        RunObserver observer = new RunObserver() {
            @Override
            public void replicateStarting(int replicate, int of, List<String> order) {
                replicates.add(replicate + "/" + of + " " + order);
            }

            @Override
            public void designStarting(String design) {
                started.add(design);
            }

            @Override
            public void progress(String design, String phase, long done, long total, long elapsedNanos) {}

            @Override
            public void phaseDone(String design, String phase, long total, long elapsedNanos) {}
        };
        RunResult r = new ScenarioRunner(testKit.system(), SETTINGS, observer).run(s);
        assertEquals(
                List.of(
                        "1/3 [kernel-4.18, per-netns-2018, kernel-6.9]",
                        "2/3 [per-netns-2018, kernel-6.9, kernel-4.18]",
                        "3/3 [kernel-6.9, kernel-4.18, per-netns-2018]"),
                replicates);
        assertEquals(
                List.of(
                        "kernel-4.18",
                        "per-netns-2018",
                        "kernel-6.9",
                        "per-netns-2018",
                        "kernel-6.9",
                        "kernel-4.18",
                        "kernel-6.9",
                        "kernel-4.18",
                        "per-netns-2018"),
                started);
        assertEquals(3, r.replicates().size());
        // 5 netns x 400 x 0.05 counted injections in each replicate: a fresh model each time, nothing carried over
        for (RunResult.Replicate rep : r.replicates()) {
            assertEquals(
                    List.of("kernel-4.18", "per-netns-2018", "kernel-6.9"),
                    rep.designs().stream().map(DesignResult::name).toList());
            rep.designs()
                    .forEach(d -> assertEquals(
                            d.name(),
                            100,
                            d.recorders().get("uevent.transaction").count()));
        }
        r.designs()
                .forEach(d -> assertEquals(
                        d.name(), 300, d.recorders().get("uevent.transaction").count()));
        assertEquals(2, r.comparisons().size());
        for (var c : r.comparisons()) {
            assertEquals(3, c.replicateMeansA().size());
            assertTrue(c.ratioCi() != null);
        }
    }

    @Test
    public void afterEachChurnDesignTheLiveActorsAreThoseBeforeIt() throws Exception {
        ActorCounts counts = runCounting(new ScenarioLoader()
                .load(Path.of("load-tests/socket-churn-teardown.conf"), List.of("workload.workers=4"), 0.025)
                .withExecution(Execution.LIVE));
        // the design's supervisors, 4 workers per set of loops, the phase starter, the guardian
        counts.beforeAfter.forEach((d, ba) -> assertTrue(d, counts.mostDuring.get(d) >= ba[0] + 7));
    }

    @Test
    public void afterEachProcEventsDesignTheLiveActorsAreThoseBeforeIt() throws Exception {
        ActorCounts counts = runCounting(new ScenarioLoader()
                .load(
                        Path.of("load-tests/proc-filter.conf"),
                        List.of(
                                "designs=[none, per-listener, pidfd, proc-scan-8k]",
                                "model.proc-monitor.syscall-cost=0us"),
                        0.01)
                .withExecution(Execution.LIVE));
        assertEquals(
                List.of("none", "per-listener", "pidfd", "proc-scan-8k"), new ArrayList<>(counts.beforeAfter.keySet()));
    }
}
