package org.netnslab.scenario;

import static org.junit.Assert.assertEquals;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.machine.Machine;
import org.netnslab.machine.VirtualEngine;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.Execution;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.workload.Workload;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A slow model is waited for, a stalled one is named: waits follow the model's progress (steps started,
 * timed steps running), not a fixed ask timeout. A grace period of 10 s and an exit cost of 10 s (both in
 * range) used to fail with "Ask timed out" after the ask timeout.
 */
public class SlowModelTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    /** ask-timeout and stall-timeout 1 s: ten times shorter than one grace period or one netns's exits. */
    private static final RunSettings SHORT =
            new RunSettings(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(200));

    private static final List<String> SLOW = List.of(
            "execution=virtual",
            "model.rcu.grace-period=10s",
            "model.netns.exit-cost=10s",
            "model.netns.setup-cost=10s");

    private static ActorSystem<Void> system;

    @AfterClass
    public static void stop() throws Exception {
        if (system == null) {
            return;
        }
        VirtualEngine engine = Machine.get(system).engine();
        VirtualSystem.terminate(system, Duration.ofSeconds(5));
        engine.unregister();
    }

    private static RunResult runVirtual(String file, String... sets) throws Exception {
        List<String> overrides = new java.util.ArrayList<>(SLOW);
        overrides.addAll(List.of(sets));
        Scenario s = new ScenarioLoader().load(Path.of(file), overrides, 0.01);
        if (system == null) {
            system = VirtualSystem.create(Behaviors.empty(), "slow-model", ConfigFactory.load());
        }
        return new ScenarioRunner(system, SHORT, RunObserver.SILENT).run(s);
    }

    @Test
    public void injectionWithTenSecondGracePeriodsAndExitsCompletes() throws Exception {
        RunResult r = runVirtual("load-tests/uevent-tc1-userns.conf", "designs=[kernel-4.18]");
        DesignResult d = r.designs().get(0);
        assertEquals(0, d.invariants().get(Invariants.Counter.LEAKED));
        assertEquals(0, d.invariants().get(Invariants.Counter.LOST_WITHOUT_ENOBUFS));
    }

    @Test
    public void churnWithTenSecondGracePeriodsAndExitsFreesEveryNetns() throws Exception {
        RunResult r = runVirtual(
                "load-tests/unshare-loop.conf",
                "designs=[net-free-4.16]",
                "workload.workers=2",
                "workload.warmup-iterations=0");
        DesignResult d = r.designs().get(0);
        assertEquals(0, d.invariants().get(Invariants.Counter.LEAKED));
        assertEquals(0L, (long) d.counters().get("create_failures"));
        // leaked 0 with no failure: every lifecycle reached net_free; 2 workers x ceil(10 x 0.01) iterations
        assertEquals(2L, (long) d.counters().get("netns_freed"));
    }

    /**
     * One cleanup_net batch of 5,000 netns spends its kworker's CPU for several simulated seconds before the first
     * netns is freed: a long run of model steps, not a stall (stall-timeout 1 s here).
     */
    @Test
    public void aLongCleanupBatchIsNotAStall() throws Exception {
        Scenario s = new ScenarioLoader()
                .load(Path.of("load-tests/scale-1m-netns.conf"), List.of("execution=virtual"), 0.005);
        if (system == null) {
            system = VirtualSystem.create(Behaviors.empty(), "slow-model", ConfigFactory.load());
        }
        RunResult r = new ScenarioRunner(system, SHORT, RunObserver.SILENT).run(s);
        DesignResult d = r.designs().get(0);
        assertEquals(0, d.invariants().get(Invariants.Counter.LEAKED));
        assertEquals(5000L, (long) d.counters().get("freed"));
    }

    /** A model that never answers: the failure names the key and what was awaited (live, ask-timeout 1 s). */
    @Test
    public void aStalledModelRequestNamesTheAskTimeoutKey() throws Exception {
        Scenario proc = new ScenarioLoader()
                .load(Path.of("load-tests/proc-filter.conf"), List.of("designs=[none]"), 0.01)
                .withExecution(Execution.LIVE);
        Workload silent = new Workload() {
            @Override
            public DesignRunner runner(double scale) {
                return (design, scope) -> {
                    var mute = scope.<Integer>spawn(Behaviors.ignore(), "mute");
                    scope.<Integer, Integer>ask(mute, r -> 1, "asking an actor that never replies");
                    throw new AssertionError("no reply can come");
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
                "stalled",
                "stalls",
                "none",
                silent,
                proc.designs(),
                proc.baseline(),
                java.util.Map.of(),
                List.of(),
                0.01,
                List.of(),
                1,
                Execution.LIVE,
                Sensitivity.NONE,
                null);
        try {
            new ScenarioRunner(testKit.system(), SHORT, RunObserver.SILENT).run(s);
            throw new AssertionError("the run should have failed");
        } catch (RunFailure e) {
            assertEquals(
                    "none: asking an actor that never replies failed: the model made no progress (no step started"
                            + " or running) for 1000 ms (netns-lab.run.ask-timeout = 1000 ms; raise it if the model is slower than"
                            + " that between steps)",
                    e.getMessage());
        }
    }
}
