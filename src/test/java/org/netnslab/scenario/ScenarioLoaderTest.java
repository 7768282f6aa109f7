package org.netnslab.scenario;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.MinScale;
import org.netnslab.uevent.SeqnumScope;
import org.netnslab.uevent.UeventSerialization;
import org.netnslab.workload.injection.UeventInjectionWorkload;
import org.scalatestplus.junit.JUnitSuite;

public class ScenarioLoaderTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String GOOD = String.join(
            "\n",
            "name = tiny",
            "description = \"a tiny run\"",
            "seed = \"test\"",
            "workload {",
            "  type = uevent-injection",
            "  netns { userns-owned = 3, init-owned = 2 }",
            "  listeners-per-netns = 1",
            "  injections-per-netns = 1000",
            "  warmup-per-netns = 5",
            "  injectors = 4",
            "}",
            "designs = [kernel-4.18, per-netns-2018, mine]",
            "custom-designs { mine { uevent.serialization = lockless, uevent.listener-rcvbuf = 8192 } }",
            "seed-ratios { \"per-netns-2018\" = 0.82 }",
            "");

    private Path write(String text) throws Exception {
        Path f = tmp.newFile().toPath();
        Files.writeString(f, text);
        return f;
    }

    private List<String> problems(String text, List<String> sets, double scale) throws Exception {
        Path f = write(text);
        ScenarioException e =
                org.junit.Assert.assertThrows(ScenarioException.class, () -> new ScenarioLoader().load(f, sets, scale));
        return e.problems.stream()
                .map(p -> (p.source().equals(f.toString()) ? "FILE" : p.source()) + ":" + p.line() + ": " + p.path()
                        + ": " + p.message())
                .collect(Collectors.toList());
    }

    /** A run's seed is judged at the count the scenario file runs at: the file's, else the defaults'. */
    @Test
    public void aSweepKeepsTheCountTheSeedIsJudgedAt() throws Exception {
        ScenarioLoader l = new ScenarioLoader();
        String sweep = "machine.cpus = [2, 4]";
        assertEquals(
                8,
                l.load(write(GOOD + "machine { cpus = 8 }\n"), List.of(sweep), 1)
                        .execution()
                        .seedCpus());
        assertEquals(64, l.load(write(GOOD), List.of(sweep), 1).execution().seedCpus());
        assertEquals(
                0,
                l.load(write(GOOD + "machine { cpus = [1, 2] }\n"), List.of(), 1)
                        .execution()
                        .seedCpus());
        assertEquals(
                0,
                l.load(write(GOOD + "machine { cpus = [1, 2] }\n"), List.of(sweep), 1)
                        .execution()
                        .seedCpus());
        // a --set of one count moves the run, not the seed's machine
        assertEquals(
                64,
                l.load(write(GOOD), List.of("machine.cpus = 4"), 1).execution().seedCpus());
    }

    @Test
    public void aValidScenarioResolvesNamedAndCustomDesignsOverTheModelDefaults() throws Exception {
        Scenario s = new ScenarioLoader().load(write(GOOD), List.of("workload.injectors = 7"), 0.01);
        assertEquals("tiny", s.name());
        UeventInjectionWorkload w = (UeventInjectionWorkload) s.workload();
        assertEquals(7, w.injectors());
        assertEquals(5, w.netnsCount());
        assertEquals(10, w.countedPerNetns(s.scale()));
        assertEquals(
                List.of("kernel-4.18", "per-netns-2018", "mine"),
                s.designs().stream().map(d -> d.name()).toList());
        assertEquals(
                UeventSerialization.PER_NETNS_OWNER,
                s.designs().get(1).model().uevent().serialization());
        assertEquals(SeqnumScope.PER_NETNS, s.designs().get(1).model().uevent().seqnumScope());
        assertEquals(
                UeventSerialization.LOCKLESS,
                s.designs().get(2).model().uevent().serialization());
        assertEquals(
                "model default",
                SeqnumScope.GLOBAL,
                s.designs().get(2).model().uevent().seqnumScope());
        assertEquals(8192, s.designs().get(2).model().uevent().listener().rcvbuf());
        assertEquals(0, s.designs().get(0).model().uevent().listener().rcvbuf());
        assertEquals("kernel-4.18", s.baseline());
        assertEquals(0.82, s.seedRatios().get("per-netns-2018"), 0);
    }

    @Test
    public void everyProblemIsReportedAtOnceWithFileLineAndKey() throws Exception {
        String bad = GOOD.replace("injections-per-netns = 1000", "injections-per-nets = 1000")
                .replace("injectors = 4", "injectors = four")
                .replace("warmup-per-netns = 5", "warmup-per-netns = -1")
                .replace("designs = [kernel-4.18, per-netns-2018, mine]", "designs = [kernel-4.18, kernel-9.9, mine]")
                .replace("uevent.serialization = lockless", "uevent.serialization = spinlock")
                .replace("description = \"a tiny run\"\n", "");
        List<String> got = problems(bad, List.of("model.uevent.listener-rcvbuf = -1"), 0);
        assertEquals(
                String.join("\n", got),
                List.of(
                        "--scale:-1: -: must be a number > 0 and <= 1000, got 0",
                        "FILE:-1: description: missing required key",
                        "FILE:7: workload.injections-per-nets: unknown key; expected one of [injections-per-netns,"
                                + " injector-start-interval, injectors, injectors-privileged, kernel-uevents-per-netns, listeners-per-netns, listeners-woken-at-end, netns, type, warmup-per-netns]",
                        "FILE:-1: workload.injections-per-netns: missing required key (an integer in 1..1000000000000)",
                        "FILE:8: workload.warmup-per-netns: must be in 0..1000000000000, got -1",
                        "FILE:9: workload.injectors: must be an integer in 1..1000000000, got \"four\"",
                        "--set model.uevent.listener-rcvbuf = -1:-1: model.uevent.listener-rcvbuf: must be in"
                                + " 0..2147483647, got -1",
                        "FILE:11: designs: unknown design 'kernel-9.9' (did you mean kernel-6.9?); named designs: [exit-barrier, exit-barrier-4.16,"
                                + " exit-unsafe, exit-unsafe-4.16, kernel-4.18, kernel-6.9, net-free, net-free-4.16, net-free-rwsem, none,"
                                + " owner-exit, owner-exit-4.16, per-listener, per-netns-2018, per-netns-2018-fixed, pidfd, proc-scan-100k,"
                                + " proc-scan-8k],"
                                + " custom-designs: [mine]",
                        "FILE:12: uevent.serialization: design mine: unknown uevent.serialization 'spinlock'; expected one of"
                                + " global-owner, per-netns-owner, per-netns-owner-fixed, lockless"),
                got);
    }

    /**
     * A file over 1 MiB is refused before it is parsed (a 55 MB one filled the heap); past 50 problems the message
     * counts the rest, and every one stays in the exception.
     */
    @Test
    public void aHugeFileIsRefusedUnreadAndALongListIsCounted() throws Exception {
        String huge = GOOD + "x = \"" + "a".repeat(1 << 20) + "\"\n";
        assertEquals(
                List.of(String.format(
                        "FILE:-1: -: is %,d bytes; a scenario file is at most 1,048,576 (load-tests' are under 10 KB)",
                        huge.length())),
                problems(huge, List.of(), 0.01));
        StringBuilder many = new StringBuilder(GOOD);
        for (int i = 0; i < 60; i++) {
            many.append("workload.k").append(i).append(" = 1\n");
        }
        Path f = write(many.toString());
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(f, List.of(), 0.01));
        assertEquals(60, e.problems.size());
        List<String> lines = e.getMessage().lines().toList();
        assertEquals("60 configuration problems:", lines.get(0));
        assertEquals(52, lines.size());
        assertEquals("  ... and 10 more (the first 50 shown)", lines.get(51));
        for (int i = 0; i < 50; i++) { // in the file's order: the first 50 are the file's first
            assertTrue(lines.get(i + 1), lines.get(i + 1).contains(": workload.k" + i + ": unknown key"));
        }
    }

    /** Two substitutions that refer to each other are called a cycle, not a key that is missing. */
    @Test
    public void aCycleOfSubstitutionsIsCalledOne() throws Exception {
        assertEquals(
                List.of("FILE:" + (GOOD.split("\n").length + 2)
                        + ": -: substitutions that refer to each other in a cycle: ${b} -> ${a} -> ${b}"),
                problems(GOOD + "a = ${b}\nb = ${a}\n", List.of(), 0.01));
        assertEquals(
                List.of("FILE:" + (GOOD.split("\n").length + 3)
                        + ": -: substitutions that refer to each other in a cycle: ${n} -> ${m} -> ${n}"),
                problems(GOOD + "c = ${n}\nn = ${m}\nm = ${n}\n", List.of(), 0.01));
        assertEquals(
                List.of("FILE:" + (GOOD.split("\n").length + 1)
                        + ": -: ${nope} is neither a key of the scenario nor an environment variable"),
                problems(GOOD + "a = ${nope}\n", List.of(), 0.01));
    }

    @Test
    public void unsafeNamesShadowingDesignsAndOverflowingScalesAreRefused() throws Exception {
        String bad = GOOD.replace("name = tiny", "name = \"../../esc\"")
                .replace(
                        "custom-designs { mine",
                        "custom-designs { \"kernel-6.9\" { uevent.serialization = global-owner }, mine")
                .replace("injections-per-netns = 1000", "injections-per-netns = 1000000000000")
                .replace("seed-ratios { \"per-netns-2018\" = 0.82 }", "seed-ratios { \"per-netns-2018\" = -3 }");
        List<String> got = problems(bad, List.of(), 2);
        assertEquals(String.join("\n", got), 4, got.size());
        assertTrue(got.get(0), got.get(0).startsWith("FILE:1: name: must be 1-100 letters, digits"));
        assertEquals(
                "FILE:8: workload.injections-per-netns: times --scale 2 exceeds 1000000000000 injections per netns",
                got.get(1));
        assertTrue(
                got.get(2),
                got.get(2)
                        .contains("custom-designs.\"kernel-6.9\": shadows the named design 'kernel-6.9' of"
                                + " reference.conf; give the custom design its own name"));
        assertTrue(got.get(3), got.get(3).contains("seed-ratios.per-netns-2018: must be a number > 0"));
    }

    /** An unquoted dotted design name in seed-ratios is read as nested keys: the message says so. */
    @Test
    public void anUnquotedDottedSeedRatioNameGetsTheQuotingHint() throws Exception {
        String text = GOOD.replace(
                "seed-ratios { \"per-netns-2018\" = 0.82 }",
                "seed-ratios { \"per-netns-2018\" = 0.82, kernel-6.9 = 0.5 }");
        List<String> got = problems(text, List.of(), 1);
        assertEquals(1, got.size());
        assertTrue(
                got.get(0),
                got.get(0)
                        .endsWith(": seed-ratios.kernel-6: HOCON read an unquoted 'kernel-6.9' as nested keys: a design"
                                + " name with a dot must be quoted: \"kernel-6.9\" = 0.5"));
    }

    /** At --scale 1 the counted injections fit the limit; the warm-up's 5 more do not, and it is named. */
    @Test
    public void aWarmUpThatTakesTheInjectionsPastTheLimitIsNamed() throws Exception {
        String text = GOOD.replace(
                "injections-per-netns = 1000", "injections-per-netns = 1000000000000, warmup-per-netns = 1");
        assertEquals(
                List.of("FILE:8: workload.injections-per-netns: times --scale 1, plus workload.warmup-per-netns (5),"
                        + " exceeds 1000000000000 injections per netns"),
                problems(text, List.of(), 1));
    }

    @Test
    public void anUnusedCustomDesignWithABadValueIsReportedToo() throws Exception {
        String text = GOOD.replace("per-netns-2018, mine]", "per-netns-2018]")
                .replace("uevent.listener-rcvbuf = 8192", "uevent.listener-rcvbuf = -5");
        List<String> got = problems(text, List.of(), 0.01);
        assertTrue(
                got.toString(),
                got.stream().anyMatch(p -> p.contains("uevent.listener-rcvbuf") && p.contains("design mine")));
    }

    @Test
    public void customDesignNamesMustBeSafeForActorsAndFiles() throws Exception {
        for (String bad : List.of("my design", "sub/dir", "../../x", "x".repeat(240))) {
            String text = GOOD.replace("per-netns-2018, mine]", "per-netns-2018, \"" + bad + "\"]")
                    .replace("custom-designs { mine {", "custom-designs { \"" + bad + "\" {");
            List<String> got = problems(text, List.of(), 0.01);
            assertTrue(
                    bad + ": " + got,
                    got.stream()
                            .anyMatch(p -> p.startsWith("FILE:13: custom-designs.")
                                    && p.contains("a design name must be 1-100 letters")
                                    && p.contains("got '" + bad + "'")));
        }
    }

    @Test
    public void aDottedDesignNameLeftUnquotedIsToldToQuoteIt() throws Exception {
        String text = GOOD.replace("per-netns-2018, mine]", "per-netns-2018, \"small.q\"]")
                .replace("custom-designs { mine {", "custom-designs { small.q {");
        List<String> got = problems(text, List.of(), 0.01);
        assertTrue(
                got.toString(),
                got.stream()
                        .anyMatch(p -> p.startsWith("FILE:13: custom-designs.small: holds no model"
                                + " key but 'q': a design name with a dot must be quoted, e.g. \"small.q\" { ... }")));
    }

    /** A seed ratio is over the file's baseline: a --set of another baseline leaves it unjudged, not judged anew. */
    @Test
    public void aSeedRatioIsNotJudgedOverABaselineSetInItsPlace() throws Exception {
        Path f = write(GOOD);
        assertEquals(
                java.util.Map.of("per-netns-2018", 0.82),
                new ScenarioLoader().load(f, List.of(), 0.01).seedRatios());
        assertEquals(
                java.util.Map.of(),
                new ScenarioLoader().load(f, List.of("baseline=mine"), 0.01).seedRatios());
        assertEquals(
                java.util.Map.of("per-netns-2018", 0.82),
                new ScenarioLoader()
                        .load(f, List.of("baseline=kernel-4.18"), 0.01)
                        .seedRatios());
    }

    /** Every unknown design of the list is named, in one problem; too many netns is not blamed on the listeners. */
    @Test
    public void everyUnknownDesignIsNamedAndTooManyNetnsIsSaidOnce() throws Exception {
        List<String> got = problems(
                GOOD.replace("designs = [kernel-4.18, per-netns-2018, mine]", "designs = [slow, kernel-4.18, big]"),
                List.of("workload.netns.userns-owned=1000000000"),
                0.01);
        assertEquals(String.join("\n", got), 2, got.size());
        assertTrue(
                got.get(0), got.get(0).contains("workload.netns: userns-owned + init-owned = 1000000002, more than"));
        assertTrue(
                got.get(1), got.get(1).startsWith("FILE:12: designs: unknown designs 'slow', 'big'; named designs: ["));
    }

    @Test
    public void faultSwitchesAreTheScenariosModelsNotADesignsAndAreRangeChecked() throws Exception {
        String text =
                GOOD.replace("uevent.listener-rcvbuf = 8192", "uevent.listener-rcvbuf = 8192, faults.listener = 5");
        List<String> got = problems(text, List.of(), 0.01);
        assertEquals(1, got.size());
        assertTrue(
                got.get(0),
                got.get(0).startsWith("FILE:13: custom-designs.mine.faults: fault switches are not a design's"));
        // the test-only switches of one kernel rule each, as well
        for (String key : List.of(
                "uevent.fault = repeat-seqnum",
                "sock-inuse.fault = skip-put-net",
                "netlink.fault = drop-without-error")) {
            got = problems(
                    GOOD.replace("uevent.listener-rcvbuf = 8192", "uevent.listener-rcvbuf = 8192, " + key),
                    List.of(),
                    0.01);
            assertEquals(
                    List.of("FILE:13: custom-designs.mine." + key.substring(0, key.indexOf(' '))
                            + ": fault switches are not a design's: set them in the scenario's model block (every"
                            + " design alike)"),
                    got);
        }
        got = problems(GOOD, List.of("model.faults.netns-actor=-1"), 0.01);
        assertEquals(
                List.of("--set model.faults.netns-actor=-1:-1: model.faults.netns-actor: must be in 0..1000000000,"
                        + " got -1"),
                got);
        assertEquals(
                7,
                org.netnslab.netns.ModelSettings.withKeys("faults.netns-actor = 7")
                        .faults()
                        .netnsActor());
    }

    /** @return the one problem the shipped isolation-soak scenario has with {@code set} at {@code scale} */
    private static String soleSoakProblem(String set, double scale) {
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> new ScenarioLoader().load(Path.of("load-tests/isolation-soak.conf"), List.of(set), scale));
        assertEquals(e.problems.toString(), 1, e.problems.size());
        return e.problems.get(0).toString();
    }

    @Test
    public void theIsolationSoakRunsLiveOnly() {
        String p = soleSoakProblem("execution=virtual", 0.01);
        assertTrue(
                p,
                p.endsWith("execution: an isolation-soak workload runs in live execution only: set execution = live"));
    }

    /** A soak's duration is wall time: times --scale it may not pass its own 7-day bound. */
    @Test
    public void aSoakScaledBeyondSevenDaysIsRefused() {
        String p = soleSoakProblem("workload.duration=7d", 1.5);
        assertTrue(
                p,
                p.endsWith("workload.duration: times --scale 1.5 exceeds 7d of wall time per design (the soak runs in"
                        + " real time)"));
    }

    @Test
    public void machineMustBeAnObjectAndJitterAtMostHalf() throws Exception {
        List<String> got = problems(GOOD, List.of("machine=4"), 0.01);
        assertEquals(1, got.size());
        assertTrue(got.get(0), got.get(0).contains("machine: must be an object"));
        got = problems(GOOD, List.of("machine.jitter=0.9", "random-seed=2"), 0.01);
        assertEquals(List.of("--set machine.jitter=0.9:-1: machine.jitter: must be a number in 0..0.5, got 0.9"), got);
    }

    @Test
    public void theTaskGroupIsRootOrSession() throws Exception {
        List<String> got = problems(GOOD, List.of("machine.task-group=cgroup"), 0.01);
        assertEquals(1, got.size());
        assertTrue(got.get(0), got.get(0).endsWith("machine.task-group: must be root or session, got 'cgroup'"));
        Path file = tmp.newFile("group.conf").toPath();
        Files.writeString(file, GOOD);
        assertEquals(
                org.netnslab.machine.Scheduling.TaskGroup.ROOT,
                new ScenarioLoader()
                        .load(file, List.of(), 0.01)
                        .execution()
                        .machine()
                        .scheduling()
                        .taskGroup()); // reference.conf's
        assertEquals(
                org.netnslab.machine.Scheduling.TaskGroup.SESSION,
                new ScenarioLoader()
                        .load(file, List.of("machine.task-group=session"), 0.01)
                        .execution()
                        .machine()
                        .scheduling()
                        .taskGroup());
    }

    @Test
    public void repeatIsOneUnlessSetAndMustBeAWholeNumberFromOne() throws Exception {
        Path file = tmp.newFile("repeat.conf").toPath();
        Files.writeString(file, TinyScenario.tc2("kernel-4.18, per-netns-2018") + "repeat = 0\n");
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(file, List.of(), 1));
        assertEquals(
                file + ":14: repeat: must be in 1..1000, got 0",
                e.problems.get(0).toString());
        assertEquals(
                5, new ScenarioLoader().load(file, List.of("repeat = 5"), 1).repeat());
        Files.writeString(file, TinyScenario.tc2("kernel-4.18, per-netns-2018"));
        assertEquals(1, new ScenarioLoader().load(file, List.of(), 1).repeat());
    }

    @Test
    public void aBadModelValueIsReportedOnceEvenWhenNoDesignUsesIt() throws Exception {
        String bad = GOOD.replace("designs = [kernel-4.18, per-netns-2018, mine]", "designs = [mine]")
                + "model { sock-inuse.free = later, rcu.grace-period = abc }\n";
        List<String> got = problems(bad, List.of(), 1);
        assertEquals(
                String.join("\n", got),
                List.of(
                        "FILE:15: model.rcu.grace-period: must be a duration with its unit in 0..10s (e.g. 5us, 1.5ms), got \"abc\"",
                        "FILE:15: model.sock-inuse.free: unknown sock-inuse.free 'later'; expected one of owner-exit, net-free,"
                                + " exit-barrier, exit-unsafe"),
                got.stream().sorted().toList());
    }

    /**
     * A duration needs its unit: Typesafe Config would read a bare 5 as 5 ms, a thousand times a cost meant in us
     * (a trial's send-inside = 5 made TC3's mean 4.7 s). A bare 0 is unambiguous and stays accepted.
     */
    @Test
    public void aBareNumberIsNoDuration() throws Exception {
        List<String> got = problems(GOOD, List.of("model.costs.uevent.send-inside=5"), 1);
        assertEquals(got.toString(), 1, got.size());
        assertTrue(
                got.get(0),
                got.get(0)
                        .endsWith("model.costs.uevent.send-inside: must be a duration with its unit in"
                                + " 0..10ms (e.g. 5us, 1.5ms), got 5"));
        // a unit Java's number parser would also take for a type suffix (7d, 7f) is a unit here: 1d is out of range
        assertEquals(
                List.of("--set model.costs.uevent.send-inside=1d:-1: model.costs.uevent.send-inside: must be a duration"
                        + " in 0..10ms, got \"1d\""),
                problems(GOOD, List.of("model.costs.uevent.send-inside=1d"), 1));
        got = problems(GOOD, List.of("model.costs.uevent.send-inside=\"5\""), 1); // a string that is a bare number
        assertTrue(
                got.toString(),
                got.size() == 1
                        && got.get(0)
                                .endsWith("must be a duration with its unit in 0..10ms"
                                        + " (e.g. 5us, 1.5ms), got \"5\""));
        got = problems(PROC, List.of("workload.process-interval=2"), 1);
        assertTrue(
                got.toString(),
                got.size() == 1
                        && got.get(0)
                                .contains("workload.process-interval: must be a duration"
                                        + " with its unit (e.g. 1ms), got 2"));
        got = problems(GOOD, List.of("machine.base-slice=3"), 1);
        assertTrue(got.toString(), got.size() == 1 && got.get(0).contains("machine.base-slice: must be a duration"));
        got = problems(GOOD, List.of("machine.base-slice=2s", "machine.context-switch=-1us"), 1);
        assertTrue(
                got.toString(),
                got.get(0).endsWith("machine.base-slice: must be a duration in 0..1s, got \"2s\"")
                        && got.get(1).endsWith("machine.context-switch: must be a duration in 0..1ms, got \"-1us\""));
        got = problems(
                GOOD,
                List.of(
                        "machine.host-background.period=10us",
                        "machine.host-background.per-netns=2ms",
                        "machine.host-background.doubling=5"),
                1);
        assertEquals(3, got.size());
        assertTrue(
                got.get(0),
                got.get(0)
                        .endsWith("machine.host-background.doubling: unknown key; expected one of"
                                + " [doubling-netns, per-netns, period]"));
        assertTrue(
                got.get(1),
                got.get(1).endsWith("machine.host-background.period: must be a duration in 1ms..60s, got \"10us\""));
        assertTrue(
                got.get(2),
                got.get(2)
                        .endsWith("machine.host-background.per-netns: must be a duration in 0..1ms," + " got \"2ms\""));
        got = problems(GOOD, List.of("execution="), 1);
        assertEquals(
                List.of("--set execution=:-1: execution: no value after '=' (to set an empty string, write \"\")"),
                got);
        assertEquals(
                0,
                new ScenarioLoader()
                        .load(write(GOOD), List.of("model.costs.uevent.send-inside=0", "machine.base-slice=0"), 1)
                        .execution()
                        .machine()
                        .scheduling()
                        .baseSliceNanos());
    }

    @Test
    public void unknownTopLevelAndModelKeysAreNamed() throws Exception {
        List<String> got = problems(GOOD + "desings = [x]\nmodel { uevent { seqnum-scop = global } }\n", List.of(), 1);
        assertEquals(2, got.size());
        assertTrue(got.get(0), got.get(0).startsWith("FILE:15: desings: unknown key; expected one of [baseline,"));
        assertEquals(
                "FILE:16: model.uevent.seqnum-scop: unknown model key; did you mean model.uevent.seqnum-scope? (netns-lab.model"
                        + " in reference.conf lists them)",
                got.get(1));
    }

    /** What is missing and where, once; a binary file is said to be one, its bytes never echoed. */
    @Test
    public void syntaxErrorsSayWhatIsMissingAndWhereOnce() throws Exception {
        assertEquals(
                List.of("FILE:4: -: the '{' opened here is never closed: a '}' is missing (the file ends at line 8)"),
                problems(
                        "name = x\n# a comment with a { brace\nseed = \"{ in a string\"\n"
                                + "workload {\n  a = [1, 2]\n  netns {\n  }\n  b = \"\"\"x { y\"\"\"\n",
                        List.of(),
                        1));
        assertEquals(
                List.of("FILE:2: -: ']' where the '{' opened at line 1 needs a '}'"),
                problems("workload {\n  a = 1 ]\n", List.of(), 1));
        assertEquals(
                List.of("FILE:2: -: '}' closes nothing: a '{' is missing before it, or this one is extra"),
                problems("name = x\n}\n", List.of(), 1));
        Path bin = tmp.newFile().toPath();
        Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, (byte) 0xef, 0x1b, '['});
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(bin, List.of(), 1));
        assertEquals(
                "1 configuration problem:\n  " + bin + ": is not a text file (byte 7 is NUL): a scenario or"
                        + " configuration is a HOCON text file",
                e.getMessage());
        for (java.nio.charset.Charset utf16 : List.of(
                java.nio.charset.StandardCharsets.UTF_16, // with a byte-order mark, big-endian
                java.nio.charset.StandardCharsets.UTF_16LE)) { // none, little-endian: what Windows editors save
            Files.write(bin, "name = x\n".getBytes(utf16));
            e = org.junit.Assert.assertThrows(
                    ScenarioException.class, () -> new ScenarioLoader().load(bin, List.of(), 1));
            assertEquals(
                    "1 configuration problem:\n  " + bin + ": is not a text file (byte "
                            + (utf16 == java.nio.charset.StandardCharsets.UTF_16 ? 2 : 1)
                            + " is NUL; every other byte is, as in UTF-16: save it as UTF-8): a scenario or"
                            + " configuration is a HOCON text file",
                    e.getMessage());
        }
        Files.write(bin, new byte[] {'x', ' ', '=', ' ', 'a', 0x1b, '[', '3', '1', 'm', '\n', 'y', '=', '{'});
        e = org.junit.Assert.assertThrows(ScenarioException.class, () -> new ScenarioLoader().load(bin, List.of(), 1));
        assertFalse(e.getMessage(), e.getMessage().contains("\u001b"));
        assertEquals(1, e.problems.size());
        assertEquals(
                bin + ":2: the '{' opened here is never closed: a '}' is missing (the file ends at line 2)",
                e.problems.get(0).toString());
        assertEquals("a\\x1b[31m", org.netnslab.settings.HoconSyntax.printable("a\u001b[31m"));
    }

    /** A bad value an environment variable gave is located at the file's line that substitutes it, and named. */
    @Test
    public void aBadValueFromTheEnvironmentIsSaidAtItsLine() throws Exception {
        String home = System.getenv("HOME"); // set wherever the tests run; a path, never a whole number
        org.junit.Assume.assumeTrue(home != null && !home.matches("\\d+"));
        String text = Files.readString(Path.of("load-tests/uevent-tc1-userns.conf"));
        assertTrue(text.contains("\n  injectors = 1000\n"));
        Path f = write(text.replace("\n  injectors = 1000\n", "\n  injectors = ${HOME}\n"));
        int line = text.substring(0, text.indexOf("\n  injectors = 1000\n") + 1).split("\n", -1).length;
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(f, List.of(), 1));
        assertTrue(
                e.getMessage(),
                e.getMessage()
                        .contains(f + ":" + line + ": workload.injectors: must be an integer in 1..1000000000, got \""
                                + home + "\" (from the environment variable HOME)"));
    }

    @Test
    public void missingFileAndBrokenSyntaxAndBadSetAreConfigurationErrors() throws Exception {
        ScenarioException missing = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> new ScenarioLoader().load(tmp.getRoot().toPath().resolve("nope.conf"), List.of(), 1));
        assertTrue(
                missing.getMessage(),
                missing.getMessage().contains("nope.conf: cannot read scenario file: no such file"));
        assertFalse(missing.getMessage(), missing.getMessage().contains("did you mean"));
        // a load-tests scenario named without its folder or .conf (tests run in the project's folder)
        ScenarioException bare = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(Path.of("uevent-tc1-userns"), List.of(), 1));
        assertTrue(
                bare.getMessage(),
                bare.getMessage()
                        .contains("uevent-tc1-userns: cannot read scenario file: no such file; did you mean"
                                + " load-tests/uevent-tc1-userns.conf?"));
        // a full path with its .conf left off
        Path full = tmp.newFile("mine.conf").toPath();
        String noExtension = full.toString().replaceAll("\\.conf$", "");
        ScenarioException absolute = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(Path.of(noExtension), List.of(), 1));
        assertTrue(absolute.getMessage(), absolute.getMessage().contains("no such file; did you mean " + full + "?"));
        ScenarioException device = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> new ScenarioLoader().load(java.nio.file.Path.of("/dev/null"), List.of(), 1));
        assertTrue(
                device.getMessage(),
                device.getMessage()
                        .contains(
                                "/dev/null: cannot read scenario file: not a regular file (a device, a pipe or a socket)"));
        List<String> syntax = problems("name = {", List.of(), 1);
        assertEquals(1, syntax.size());
        assertEquals(
                "FILE:1: -: the '{' opened here is never closed: a '}' is missing (the file ends at line 1)",
                syntax.get(0));
        List<String> set = problems(GOOD, List.of("workload.injectors"), 1);
        assertEquals(List.of("--set workload.injectors:-1: -: expected path=value, e.g. --set machine.cpus=2"), set);
    }

    private static final String PROC = String.join(
            "\n",
            "name = procs",
            "description = \"a few processes\"",
            "seed = \"test\"",
            "workload { type = proc-events, processes = 100, listeners { all = [ALL], exit = [EXIT] } }",
            "designs = [per-listener, pidfd]",
            "");

    private static String ratio(String numDesign, String numMeasure, String seed) {
        return "  { name = \"" + numDesign + "/" + numMeasure + "\", numerator { design = " + numDesign
                + ", measure = \"" + numMeasure + "\" }\n"
                + "    denominator { design = per-listener, measure = \"proc.listener_busy.all\" }" + seed + " }\n";
    }

    @Test
    public void aDerivedRatioOfAMeasureItsDesignNeverRecordsIsRefused() throws Exception {
        // a pidfd monitor has no proc connector subscription, so no proc.event: the ratio could never be shown
        assertEquals(
                List.of("FILE:9: derived-ratios[1].numerator.measure: 'pidfd' never records proc.event (its"
                        + " proc-monitor.kind is pidfd, which records proc.listener_busy.pidfd only), so the ratio would"
                        + " never be shown; name a measure it records"),
                problems(
                        PROC + "derived-ratios = [\n" + ratio("pidfd", "proc.listener_busy.pidfd", ", seed = 1")
                                + ratio("pidfd", "proc.event", ", seed = 1") + "]\n",
                        List.of(),
                        1));
    }

    @Test
    public void anExecDelayNeedsAProcessIntervalLongerThanIt() throws Exception {
        List<String> got = problems(PROC, List.of("workload.exec-delay=200us"), 1);
        assertEquals(1, got.size());
        assertTrue(
                got.get(0),
                got.get(0)
                        .endsWith("workload.exec-delay: needs workload.process-interval above 0 (the"
                                + " events are paced only with it)"));
        got = problems(PROC, List.of("workload.process-interval=0", "workload.exec-delay=200us"), 1);
        assertTrue(
                got.toString(),
                got.size() == 1
                        && got.get(0)
                                .endsWith("workload.exec-delay: needs"
                                        + " workload.process-interval above 0 (the events are paced only with it)"));
        got = problems(PROC, List.of("workload.process-interval=1ms", "workload.exec-delay=500us"), 1);
        assertTrue(
                got.toString(),
                got.size() == 1
                        && got.get(0)
                                .endsWith("workload.exec-delay: must be below half of"
                                        + " workload.process-interval (1ms / 2 = 500us): a process's exit may come half an interval after its fork,"
                                        + " got 500us"));
        // a refused interval is said once, not again as missing
        got = problems(PROC, List.of("workload.process-interval=-1ms", "workload.exec-delay=200us"), 1);
        assertEquals(got.toString(), 1, got.size());
        assertTrue(got.get(0), got.get(0).contains("workload.process-interval: must be a duration in 0..1s"));
        got = problems(PROC, List.of("workload.process-interval=1ms", "workload.exec-delay=soon"), 1);
        assertTrue(
                got.toString(),
                got.size() == 1
                        && got.get(0)
                                .endsWith("workload.exec-delay: must be a duration with its"
                                        + " unit (e.g. 1ms), got \"soon\""));
        Scenario s = new ScenarioLoader()
                .load(write(PROC), List.of("workload.process-interval=1ms", "workload.exec-delay=250us"), 1);
        assertEquals(250_000, ((org.netnslab.workload.procevents.ProcEventsWorkload) s.workload()).execDelayNanos());
    }

    @Test
    public void derivedRatiosAreCarriedForTheDesignsRunAndSummarised() throws Exception {
        String ratios = "derived-ratios = [\n"
                + ratio("per-listener", "proc.listener_busy.exit", ", seed = 0.35")
                + ratio("pidfd", "proc.listener_busy.pidfd", ", seed = 2.9")
                + ratio("proc-scan-8k", "proc.scan", ", seed = 10") + "]\n";
        // the file's own designs leave the third ratio out: it would never be shown
        List<String> got = problems(PROC + ratios, List.of(), 0.5);
        assertEquals(got.toString(), 1, got.size());
        assertTrue(
                got.get(0),
                got.get(0)
                        .endsWith(": derived-ratios[2].numerator.design: 'proc-scan-8k' is not one of the designs this"
                                + " scenario runs [per-listener, pidfd], so the ratio would never be shown; add it to"
                                + " designs or remove the ratio"));
        // a --set of designs may leave a ratio out on purpose
        Scenario s = new ScenarioLoader()
                .load(
                        write(PROC.replace(
                                        "designs = [per-listener, pidfd]",
                                        "designs = [per-listener, pidfd, proc-scan-8k]")
                                + ratios),
                        List.of("designs=[per-listener, pidfd]"),
                        0.5);
        assertEquals(
                "proc-scan-8k is known but not run: its ratio is left out",
                List.of(
                        new org.netnslab.metrics.RatioDefinition(
                                "per-listener/proc.listener_busy.exit",
                                new org.netnslab.metrics.RatioDefinition.MeasureOf(
                                        "per-listener", "proc.listener_busy.exit"),
                                new org.netnslab.metrics.RatioDefinition.MeasureOf(
                                        "per-listener", "proc.listener_busy.all"),
                                0.35),
                        new org.netnslab.metrics.RatioDefinition(
                                "pidfd/proc.listener_busy.pidfd",
                                new org.netnslab.metrics.RatioDefinition.MeasureOf("pidfd", "proc.listener_busy.pidfd"),
                                new org.netnslab.metrics.RatioDefinition.MeasureOf(
                                        "per-listener", "proc.listener_busy.all"),
                                2.9)),
                s.derivedRatios());
        assertEquals("50 processes, listeners [all, exit]", s.workload().shape(s.scale()));
    }

    @Test
    public void derivedRatiosNameKnownDesignsAndMeasuresTheWorkloadRecordsAndCarryASeed() throws Exception {
        List<String> got = problems(
                PROC + "derived-ratios = [\n"
                        + ratio("kernel-9.9", "proc.listener_busy.exit", ", seed = 1")
                        + ratio("pidfd", "proc.listener_busy.nobody", ", seed = 1")
                        + ratio("pidfd", "proc.scan", "")
                        + ratio("pidfd", "proc.scan", ", seed = -1")
                        + "  { name = r, numerator { design = pidfd }, denominator { design = pidfd, measure = proc.scan }, seed = 1 }\n"
                        + "]\n",
                List.of(),
                1);
        assertEquals(
                String.join("\n", got),
                List.of(
                        "FILE:7: derived-ratios[0].numerator.design: 'kernel-9.9' is not a known design [exit-barrier,"
                                + " exit-barrier-4.16, exit-unsafe, exit-unsafe-4.16, kernel-4.18, kernel-6.9, net-free, net-free-4.16,"
                                + " net-free-rwsem, none, owner-exit, owner-exit-4.16, per-listener, per-netns-2018, per-netns-2018-fixed,"
                                + " pidfd, proc-scan-100k, proc-scan-8k]",
                        "FILE:9: derived-ratios[1].numerator.measure: unknown measure 'proc.listener_busy.nobody'; this workload"
                                + " records [proc.event, proc.listener_busy.all, proc.listener_busy.exit, proc.listener_busy.pidfd,"
                                + " proc.listener_busy.proc-scan, proc.scan]",
                        "FILE:11: derived-ratios[2].seed: missing required key (the seed's value of this ratio, a number > 0)",
                        "FILE:14: derived-ratios[3].seed: must be a number > 0 (the seed's value of this ratio), got -1",
                        "FILE:15: derived-ratios[4].numerator.measure: missing required key"),
                got);
        assertEquals(
                List.of("FILE:6: derived-ratios: must be a list of { name, numerator { design, measure },"
                        + " denominator { design, measure }, seed }"),
                problems(PROC + "derived-ratios { a = 1 }\n", List.of(), 1));
        String pair =
                "numerator { design = pidfd, measure = proc.listener_busy.pidfd }, denominator { design = per-listener,"
                        + " measure = proc.listener_busy.all }";
        assertEquals(
                List.of(
                        "FILE:7: derived-ratios[0].seed: must be a number > 0 (the seed's value of this ratio), got a"
                                + " number beyond a double's range",
                        "FILE:8: derived-ratios[1].name: must not be empty (the ratio's name on the console)",
                        "FILE:10: derived-ratios[3].name: \"x\" is derived-ratios[2]'s name already; each name once"),
                problems(
                        PROC + "derived-ratios = [\n"
                                + "  { name = inf, " + pair + ", seed = 1e309 }\n"
                                + "  { name = \"\", " + pair + ", seed = 1 }\n"
                                + "  { name = x, " + pair + ", seed = 1 }\n"
                                + "  { name = x, " + pair + ", seed = 2 }\n"
                                + "]\n",
                        List.of(),
                        1));
    }

    @Test
    public void aPartFoundWrongIsReportedOnceNotAgainByWhatRefersToIt() throws Exception {
        // the listener 'exit' is invalid, so it is left out; the ratio naming its measure is not an error too
        assertEquals(
                List.of("FILE:4: workload.listeners.exit: must be a list of PROC_EVENT names from [ALL, COMM,"
                        + " COREDUMP, EXEC, EXIT, FORK, GID, NONZERO_EXIT, PTRACE, SID, UID], got [\"EXIT\",\"BOGUS\"]"
                        + " ('BOGUS' is not one; names are upper case)"),
                problems(
                        PROC.replace("exit = [EXIT]", "exit = [EXIT, BOGUS]") + "derived-ratios = [\n"
                                + ratio("per-listener", "proc.listener_busy.exit", ", seed = 1") + "]\n",
                        List.of(),
                        1));
        // a filter is a set: a repeated name is a slip, said with the name and the list
        assertEquals(
                List.of("FILE:4: workload.listeners.exit: names EXIT twice: a listener's filter is a set of events"
                        + " (did you mean another one?), got [\"EXIT\",\"EXIT\"]"),
                problems(PROC.replace("exit = [EXIT]", "exit = [EXIT, EXIT]"), List.of(), 1));
        // an empty list asks for PROC_EVENT_NONE, which cn_filter drops every event for
        assertEquals(
                List.of("FILE:4: workload.listeners.exit: an empty list asks for no event (PROC_EVENT_NONE): under"
                        + " per-listener filtering the listener would receive nothing; name at least one of [ALL, COMM,"
                        + " COREDUMP, EXEC, EXIT, FORK, GID, NONZERO_EXIT, PTRACE, SID, UID]"),
                problems(PROC.replace("exit = [EXIT]", "exit = []"), List.of(), 1));
        // the baseline's design is in the list but its settings are wrong: only that is reported
        assertEquals(
                List.of(
                        "FILE:13: uevent.serialization: design mine: unknown uevent.serialization"
                                + " 'sideways'; expected one of global-owner, per-netns-owner, per-netns-owner-fixed, lockless"),
                problems(
                        GOOD.replace("uevent.serialization = lockless", "uevent.serialization = sideways")
                                + "baseline = mine\n",
                        List.of(),
                        1));
    }

    @Test
    public void theReadmesScenarioExampleValidates() throws Exception {
        List<String> readme = Files.readAllLines(Path.of("README.md"));
        int start = readme.indexOf("## Writing your own scenario") + 2;
        assertEquals("```", readme.get(start));
        int end = readme.subList(start + 1, readme.size()).indexOf("```") + start + 1;
        Scenario s = new ScenarioLoader().load(write(String.join("\n", readme.subList(start + 1, end))), List.of(), 1);
        assertEquals(
                List.of("kernel-4.18", "per-netns-2018", "small-queues"),
                s.designs().stream().map(d -> d.name()).toList());
        assertEquals(1, s.derivedRatios().size());
        assertEquals(
                "110 netns, 5000 counted injections per netns (after "
                        + ((UeventInjectionWorkload) s.workload()).warmupPerNetns(1) + " warm-up)",
                s.workload().shape(s.scale()));
    }

    /** {@code min-scale}: the smallest --scale the verdict can judge at and why, checked as every key is. */
    @Test
    public void aMinimumScaleIsReadWithItsReasonAndChecked() throws Exception {
        assertEquals(
                null, new ScenarioLoader().load(write(GOOD), List.of(), 0.01).minScale());
        Scenario s = new ScenarioLoader()
                .load(write(GOOD + "min-scale { scale = 0.03, reason = \"three loops at least\" }\n"), List.of(), 0.01);
        assertEquals(new MinScale(0.03, "three loops at least"), s.minScale());
        assertEquals(
                List.of("FILE:15: min-scale: must be an object { ... }, got number"),
                problems(GOOD + "min-scale = 0.03\n", List.of(), 1));
        assertEquals(
                List.of(
                        "FILE:15: min-scale.scale: must be a number > 0 (the smallest --scale the verdict can judge at), got"
                                + " -1",
                        "FILE:15: min-scale.reason: missing required key"),
                problems(GOOD + "min-scale { scale = -1 }\n", List.of(), 1));
        assertEquals(
                List.of(
                        "FILE:15: min-scale.why: unknown key; expected one of [execution, reason, scale]",
                        "FILE:15: min-scale.scale: must be at most 1000 (the largest --scale), got 2000.0"),
                problems(GOOD + "min-scale { scale = 2000, reason = x, why = y }\n", List.of(), 1));
        assertEquals(
                new MinScale(1, "races", "live"),
                new ScenarioLoader()
                        .load(
                                write(GOOD + "min-scale { scale = 1, reason = races, execution = live }\n"),
                                List.of(),
                                0.01)
                        .minScale());
        assertEquals(
                List.of("FILE:15: min-scale.execution: must be live or virtual (the one mode the minimum holds for),"
                        + " got both"),
                problems(GOOD + "min-scale { scale = 1, reason = x, execution = both }\n", List.of(), 1));
        // one block per mode, as a list of two: each run takes its own mode's
        MinScale both = new ScenarioLoader()
                .load(
                        write(GOOD + "min-scale = [{ scale = 1, reason = live, execution = live },"
                                + " { scale = 0.02, reason = virt, execution = virtual }]\n"),
                        List.of(),
                        0.01)
                .minScale();
        assertEquals(new MinScale(1, "live", "live"), both.forMode("live"));
        assertEquals(new MinScale(0.02, "virt", "virtual"), both.forMode("virtual"));
        assertNull(new MinScale(1, "live", "live").forMode("virtual"));
        assertEquals(
                List.of("FILE:15: min-scale: the two blocks must name the two execution modes: one live, one virtual"),
                problems(
                        GOOD + "min-scale = [{ scale = 1, reason = a, execution = live },"
                                + " { scale = 2, reason = b, execution = live }]\n",
                        List.of(),
                        1));
        assertEquals(
                List.of("FILE:15: min-scale: a list takes two blocks, one for each execution mode: [{ scale, reason,"
                        + " execution = live }, { scale, reason, execution = virtual }]"),
                problems(GOOD + "min-scale = [{ scale = 1, reason = a, execution = live }]\n", List.of(), 1));
    }

    @Test
    public void everyShippedScenarioValidates() throws Exception {
        try (var files = Files.list(Path.of("load-tests"))) {
            List<Path> confs =
                    files.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
            assertTrue("load-tests/ has the seed scenarios", confs.size() >= 3);
            for (Path p : confs) {
                Scenario s = new ScenarioLoader().load(p, List.of(), 1);
                assertEquals(p + " name matches its file", p.getFileName().toString(), s.name() + ".conf");
            }
        }
    }

    @Test
    public void aScaleIsEchoedAsAUserTypesIt() {
        assertEquals("0", ScenarioLoader.typed(0.0));
        assertEquals("-1", ScenarioLoader.typed(-1.0));
        assertEquals("1000000000", ScenarioLoader.typed(1e9));
        assertEquals("0.05", ScenarioLoader.typed(0.05));
        assertEquals("NaN", ScenarioLoader.typed(Double.NaN));
        assertEquals("Infinity", ScenarioLoader.typed(Double.POSITIVE_INFINITY));
        assertEquals("1.0E-300", ScenarioLoader.typed(1e-300)); // not three hundred zeros
    }

    /** A fault switch a netns-scale run would stall on (it waits for every delivery) is refused; cleanup-worker not. */
    @Test
    public void aNetnsScaleRunTakesTheCleanupWorkerSwitchOnly() throws Exception {
        assertEquals(
                List.of("--set model.faults.listener=1: model.faults.listener: a netns-scale run would stall on it (it"
                        + " waits for every listener's delivery and every request's answer); it takes"
                        + " [model.faults.cleanup-worker]"),
                refused("scale-1m-netns", "model.faults.listener=1"));
        assertEquals(
                List.of(
                        "--set model.faults.proc-connector=1: model.faults.proc-connector: a netns-scale run has no proc"
                                + " connector for it to act on; it takes [model.faults.cleanup-worker]"),
                refused("scale-1m-netns", "model.faults.proc-connector=1"));
        assertEquals(
                2,
                new ScenarioLoader()
                        .load(
                                Path.of("load-tests/scale-1m-netns.conf"),
                                List.of("model.faults.cleanup-worker=2"),
                                0.001)
                        .designs()
                        .get(0)
                        .model()
                        .faults()
                        .cleanupWorker());
    }

    /** proc-events applies no fault switch: one set there is refused, not ignored. */
    @Test
    public void aProcEventsRunTakesNoFaultSwitch() {
        assertEquals(
                List.of("--set model.faults.proc-connector=5: model.faults.proc-connector: a proc-events run does not"
                        + " apply it (its proc connector runs without a NamespaceSupervisor, whose switches these are;"
                        + " isolation-soak applies faults.proc-connector); it takes none"),
                refused("proc-filter", "model.faults.proc-connector=5"));
    }

    /** A seed ratio of a design that never records the compared measure (a pidfd monitor) is refused. */
    @Test
    public void aSeedRatioOfADesignWithoutTheComparedMeasureIsRefused() {
        assertEquals(
                List.of("--set seed-ratios.pidfd=2.9: seed-ratios.pidfd: 'pidfd' records no proc.event (its"
                        + " proc-monitor.kind is pidfd, which subscribes to no proc connector), the measure a seed ratio"
                        + " compares with the baseline's; a derived-ratios entry compares other measures"),
                refused("proc-filter", "seed-ratios.pidfd=2.9"));
        // nor can one be judged against a baseline without it
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> new ScenarioLoader()
                        .load(
                                Path.of("load-tests/proc-filter.conf"),
                                List.of("baseline=pidfd", "seed-ratios={per-listener=0.5}", "derived-ratios=[]"),
                                0.001));
        assertEquals(
                List.of(
                        "--set seed-ratios={per-listener=0.5}: seed-ratios.per-listener: the baseline 'pidfd' records no"
                                + " proc.event (its proc-monitor.kind is pidfd, which subscribes to no proc connector), the"
                                + " measure a seed ratio compares; set baseline to a design that records it, or use a"
                                + " derived-ratios entry"),
                e.problems.stream().map(Object::toString).toList());
    }

    /**
     * A --set whose value is a substitution is recorded with the value it was read as (its own, even when a later
     * --set overrides it); an undefined optional one says it set nothing; the others, and "${x}" inside quotes, as
     * given.
     */
    @Test
    public void aSetWithASubstitutionIsRecordedAsRead() throws Exception {
        assertEquals(
                List.of(
                        "workload.injectors=${workload.netns.userns-owned} (read as 1000)",
                        "workload.injectors=7",
                        "workload.warmup-per-netns=${?NO_SUCH_VARIABLE_HERE} (undefined: sets nothing)",
                        "description=\"a ${x} b\"",
                        "seed=\"\"\"x ${y}\"\"\"",
                        "name=${name}-2",
                        "machine { cpus = ${workload.listeners-per-netns} } (read as {\"machine\":{\"cpus\":1}})"),
                new ScenarioLoader()
                        .load(
                                Path.of("load-tests/uevent-tc1-userns.conf"),
                                List.of(
                                        "workload.injectors=${workload.netns.userns-owned}",
                                        "workload.injectors=7",
                                        "workload.warmup-per-netns=${?NO_SUCH_VARIABLE_HERE}",
                                        "description=\"a ${x} b\"",
                                        "seed=\"\"\"x ${y}\"\"\"",
                                        "name=${name}-2",
                                        "machine { cpus = ${workload.listeners-per-netns} }"),
                                0.001)
                        .overrides());
    }

    /** @return the problems of load-tests/NAME.conf at --scale 0.001 with one --set, which must refuse it */
    private static List<String> refused(String name, String set) {
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> new ScenarioLoader().load(Path.of("load-tests/" + name + ".conf"), List.of(set), 0.001));
        return e.problems.stream().map(Object::toString).toList();
    }

    /** A strategy block given as a number is one problem naming its keys, not one per key and one per design. */
    @Test
    public void aStrategyBlockThatIsNoObjectIsOneProblem() throws Exception {
        assertEquals(
                List.of("FILE:15: model.uevent: must be a block of keys (uevent.serialization, uevent.seqnum-scope,"
                        + " uevent.listener-rcvbuf, uevent.listener-rcvbuf-option, uevent.listener-enobufs, uevent.fault),"
                        + " got number"),
                problems(GOOD + "model.uevent = 5\n", List.of(), 1.0));
        // null hides reference.conf's keys as a number does
        assertEquals(
                List.of("FILE:15: model.uevent: must be a block of keys (uevent.serialization, uevent.seqnum-scope,"
                        + " uevent.listener-rcvbuf, uevent.listener-rcvbuf-option, uevent.listener-enobufs, uevent.fault),"
                        + " got null"),
                problems(GOOD + "model.uevent = null\n", List.of(), 1.0));
    }

    /** A key left without a value says so, at the end of the file and before another key alike. */
    @Test
    public void aKeyWithoutAValueIsSaidSo() throws Exception {
        assertEquals(
                List.of("FILE:3: -: the file ends where a value was expected: the last key has no value (write one, or"
                        + " \"\" for an empty string)"),
                problems("name = x\nrepeat = \n", List.of(), 1.0));
        assertEquals(
                List.of(
                        "FILE:3: -: Expecting end of input or a comma, got '=' (a key on a line before may have no value:"
                                + " HOCON then takes this line's key as that value)"),
                problems("name = x\nrepeat = \ndescription = d\n", List.of(), 1.0));
        // inside a block
        assertEquals(
                List.of("FILE:2: -: a key has no value before the '}': write one (\"\" for an empty string)"),
                problems("name = x\nmachine { cpus = }\n", List.of(), 1.0));
        assertEquals(
                List.of(
                        "FILE:4: -: Expecting close brace } or a comma, got '=' (a key on a line before may have no value:"
                                + " HOCON then takes this line's key as that value)"),
                problems("name = x\nmachine {\n cpus = \n jitter = 0.1\n}\n", List.of(), 1.0));
        // a quoted text beside a list is named as text
        assertTrue(
                problems("designs = [kernel-4.18] \"x\"\n", List.of(), 1.0).get(0),
                problems("designs = [kernel-4.18] \"x\"\n", List.of(), 1.0)
                        .get(0)
                        .contains("the list [\"kernel-4.18\"] and the text \"x\" are not compatible"));
    }

    /** Two values side by side that HOCON cannot join: the message names them as values, not as Java classes. */
    @Test
    public void valuesSideBySideAreNamedAsValues() throws Exception {
        assertEquals(
                List.of("FILE:15: -: Cannot concatenate object or list with a non-object-or-list, the list"
                        + " [\"kernel-4.18\"] and the object {\"a\":1} are not compatible (values written side by side on"
                        + " one line are joined into one: end the key's value before the next, or write them as one list"
                        + " or one object)"),
                problems(GOOD + "designs = [kernel-4.18] {a=1}\n", List.of(), 1.0));
    }
}
