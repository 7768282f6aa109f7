package org.netnslab.scenario;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.Assert;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.design.Design;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.SensitivityResult;
import org.netnslab.netns.Costs;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.settings.ConfigProblem;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The sensitivity study: a seeded Latin hypercube of the cost block; with spread 0 every sample is the base
 * run; the scenario block is checked like every other key.
 */
public class SensitivityTest extends JUnitSuite {
    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofMillis(500));

    /** TC1's shape, small: 3 designs, 40 userns-owned netns with a listener each, 40 injectors. */
    private static Scenario tc1(String... sets) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of(
                "workload.netns.userns-owned=40", "workload.injectors=40", "workload.injector-start-interval=20ms"));
        all.addAll(List.of(sets));
        return new ScenarioLoader().load(Path.of("load-tests/uevent-tc1-userns.conf"), all, 0.002);
    }

    private static ScenarioRunner.Outcome run(Scenario s, int jobs) throws Exception {
        ActorSystem<Void> system = VirtualSystem.create(Behaviors.empty(), "sensitivity", ConfigFactory.load());
        try {
            return new ScenarioRunner(
                            system,
                            SETTINGS,
                            RunObserver.SILENT,
                            jobs,
                            k -> VirtualSystem.create(Behaviors.empty(), "sensitivity-" + k, ConfigFactory.load()))
                    .runWithStudy(s);
        } finally {
            VirtualSystem.terminate(system, Duration.ofSeconds(30));
        }
    }

    @Test
    public void withSpreadZeroEverySampleIsTheBaseRun() throws Exception {
        Scenario s = tc1("sensitivity { samples = 3, spread = 0 }");
        ScenarioRunner.Outcome o = run(s, 2);
        SensitivityResult study = o.sensitivity();
        assertNotNull(study);
        assertEquals(3, study.samples());
        assertEquals(2, study.comparisons().size());
        for (SensitivityResult.Entry e : study.comparisons()) {
            for (double r : e.ratios()) {
                assertEquals(e.b(), Double.doubleToLongBits(e.baseRatio()), Double.doubleToLongBits(r));
            }
            assertEquals(1.0, e.holdsShare(), 0);
            e.spearman().values().forEach(rho -> assertTrue("a cost that does not vary moves nothing", rho.isNaN()));
        }
        study.factors().forEach(row -> row.forEach(f -> assertEquals(1.0, f, 0)));
        DesignResult d = o.result().designs().get(0);
        assertTrue(d.recorders().get("uevent.transaction").count() > 0);
    }

    @Test
    public void samplesAreSeededByRandomSeedAndTheirFiguresReproduce() throws Exception {
        Sensitivity lhs = new Sensitivity(8, 0.5, List.of(), 0.1);
        double[][] a = lhs.factors(3, 1);
        double[][] b = lhs.factors(3, 1);
        for (int i = 0; i < a.length; i++) {
            assertArrayEquals(a[i], b[i], 0);
        }
        assertFalse("another seed, other samples", java.util.Arrays.deepEquals(a, lhs.factors(3, 2)));
        for (int k = 0; k < 3; k++) { // a Latin hypercube: each key uses each of the 8 strata of [0.5, 1.5] once
            boolean[] used = new boolean[8];
            for (double[] row : a) {
                assertTrue(row[k] >= 0.5 && row[k] <= 1.5);
                int stratum = (int) Math.floor((row[k] - 0.5) * 8);
                assertFalse("stratum " + stratum + " of key " + k + " used twice", used[stratum]);
                used[stratum] = true;
            }
        }
        Scenario s = tc1(
                "sensitivity { samples = 2, spread = 0.5, keys = [uevent.send-inside, uevent.broadcast-per-socket] }");
        SensitivityResult one = run(s, 1).sensitivity();
        SensitivityResult two = run(s, 2).sensitivity();
        assertEquals(one, two);
        assertFalse(
                "the costs moved, so did the ratio",
                one.comparisons()
                        .get(0)
                        .ratios()
                        .get(0)
                        .equals(one.comparisons().get(0).baseRatio()));
        assertEquals(List.of("uevent.send-inside", "uevent.broadcast-per-socket"), one.keys());
    }

    @Test
    public void theSampledDesignsKeepTheirOwnCostsScaledByTheSampleFactors() throws Exception {
        Scenario s = tc1("sensitivity { samples = 2, spread = 0.5, keys = [uevent.send-inside] }");
        List<List<Design>> designs = s.sensitivity().designs(s);
        assertEquals(3, designs.size());
        double f = s.sensitivity().factors(1, s.execution().machine().randomSeed())[1][0];
        Costs base = designs.get(0).get(0).model().costs();
        Costs sampled = designs.get(2).get(0).model().costs();
        assertEquals(Math.round(base.nanos("uevent.send-inside") * f), sampled.nanos("uevent.send-inside"));
        assertEquals(base.nanos("uevent.send-outside"), sampled.nanos("uevent.send-outside"));
        assertEquals(
                designs.get(0).get(1).model().uevent(),
                designs.get(2).get(1).model().uevent());
    }

    @Test
    public void theDefaultKeysAreTheCostsOfTheGroupsTheWorkloadUses() throws Exception {
        List<String> keys = tc1().sensitivity().keysFor(tc1());
        assertTrue(keys.contains("uevent.broadcast-per-socket"));
        assertTrue(keys.contains("mutex-handoff"));
        assertFalse("TC1 uses no proc connector", keys.contains("proc.recvmsg"));
    }

    @Test
    public void aBadBlockIsRefusedNamingFileLineAndKey() throws Exception {
        Path file = tmp.getRoot().toPath().resolve("bad.conf");
        Files.writeString(
                file,
                Files.readString(Path.of("load-tests/uevent-tc1-userns.conf"))
                        + "\nsensitivity {\n  samples = 4\n  spread = 2\n  keys = [uevent.nope]\n  sample = 3\n}\n");
        try {
            new ScenarioLoader().load(file, List.of(), 0.01);
            Assert.fail("accepted");
        } catch (ScenarioException e) {
            String all = e.problems.toString();
            assertTrue(all, all.contains("sensitivity.spread: must be in 0..0.9"));
            assertTrue(all, all.contains("sensitivity.keys: unknown cost 'uevent.nope'"));
            assertTrue(all, all.contains("sensitivity.sample: unknown key"));
            assertTrue(all, all.contains(file + ":"));
        }
        // a calibrate fit is a cost, just not one a study varies: said so, not "unknown"
        String fit = refused(
                        "accepted a calibrate fit as a key",
                        "sensitivity.samples=3",
                        "sensitivity.keys=[proc.exit-switch]")
                .toString();
        assertTrue(
                fit,
                fit.contains("sensitivity.keys: 'proc.exit-switch' is a cost calibrate fits, never varied by a study;"
                        + " vary one of [mutex-handoff,"));
        List<ConfigProblem> live = refused("accepted a live study", "execution=live", "sensitivity.samples=3");
        assertTrue(live.toString(), live.toString().contains("sensitivity: needs execution = virtual"));
        // the block came from a --set: the problem names it, not the scenario's first line
        assertEquals(
                "--set sensitivity.samples=3: sensitivity: needs execution = virtual: the costs it varies are charged"
                        + " in virtual execution only",
                live.get(0).toString());
        assertEquals(
                "--set sensitivity.keys=[uevent.recv, uevent.recv]: sensitivity.keys: 'uevent.recv' is listed twice",
                refused(
                                "accepted a cost listed twice",
                                "sensitivity.samples=3",
                                "sensitivity.keys=[uevent.recv, uevent.recv]")
                        .get(0)
                        .toString());
        assertEquals(
                "--set sensitivity.samples=3: sensitivity: needs two designs or more: it reports how each design's"
                        + " ratio to the baseline moves, and this run has 1",
                refused(
                                "accepted a study of one design",
                                "sensitivity.samples=3",
                                "designs=[kernel-6.9]",
                                "baseline=kernel-6.9")
                        .get(0)
                        .toString());
        assertEquals(
                "--set sensitivity.spread=0.95: sensitivity.spread: must be in 0..0.9 (a factor stays > 0), got 0.95",
                refused("accepted a spread of 0.95", "sensitivity.samples=3", "sensitivity.spread=0.95")
                        .get(0)
                        .toString());
        assertEquals(
                "[--set sensitivity.spread=half: sensitivity.spread: must be a number, got \"half\"]",
                refused("accepted a spread of text", "sensitivity.samples=-3", "sensitivity.spread=half")
                        .toString());
        assertEquals(
                "--set sensitivity.samples=-3: sensitivity.samples: must be in 0..10000, got -3",
                refused("accepted -3 samples", "sensitivity.samples=-3").get(0).toString());
    }

    /**
     * Set by --set, a fractional sample count, a value of the wrong type, an unknown key and a cost the workload never
     * charges are each refused naming the --set (not the file's line 1); the last would vary nothing.
     */
    @Test
    public void aBadSetOfTheBlockIsRefusedNamingTheSet() throws Exception {
        String[][] cases = {
            {
                "sensitivity.samples=2.5",
                "--set sensitivity.samples=2.5: sensitivity.samples: must be a whole number, got 2.5"
            },
            {
                "sensitivity.samples=abc",
                "--set sensitivity.samples=abc: sensitivity.samples: must be a number, got \"abc\""
            },
            {
                "sensitivity.samples=99999999999999999999",
                "--set sensitivity.samples=99999999999999999999: sensitivity.samples: must be in 0..10000, got"
                        + " 99999999999999999999"
            },
            {
                "sensitivity.sample=3",
                "--set sensitivity.sample=3: sensitivity.sample: unknown key; known: [keys, samples,"
                        + " seed-band, spread]"
            },
            {
                "sensitivity=5",
                "--set sensitivity=5: sensitivity: expected a block { samples = N, spread = 0.5, keys = [...],"
                        + " seed-band = 0.1 }"
            },
        };
        for (String[] c : cases) {
            assertEquals(c[0], c[1], refused("accepted " + c[0], c[0]).get(0).toString());
        }
        String never = refused("accepted a cost TC1 never charges", "sensitivity.keys=[proc.recvmsg]")
                .get(0)
                .toString();
        assertTrue(
                never,
                never.startsWith("--set sensitivity.keys=[proc.recvmsg]: sensitivity.keys:"
                        + " [proc.recvmsg] is a cost this workload never charges: varying it varies nothing; the"
                        + " costs it charges: [mutex-handoff, "));
    }

    /**
     * @param what the refused case, said when it is accepted instead
     * @param sets the --set overrides on load-tests/uevent-tc1-userns.conf at --scale 0.01
     * @return the problems it is refused with
     */
    private static List<ConfigProblem> refused(String what, String... sets) throws Exception {
        try {
            new ScenarioLoader().load(Path.of("load-tests/uevent-tc1-userns.conf"), List.of(sets), 0.01);
        } catch (ScenarioException e) {
            return e.problems;
        }
        throw new AssertionError(what);
    }
}
