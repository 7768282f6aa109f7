package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code calibrate} without probes ({@code --from} a recorded calibration.json): it writes both sets, the fit,
 * the rows, calibrated.conf (which {@code validate} accepts) and report.html; bad options exit 2.
 */
public class CalibrateCommandTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    public void fromARecordedCalibrationWritesEveryFile() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("cal");
        assertEquals(
                0,
                Main.execute(
                        "calibrate",
                        "--from",
                        "src/test/resources/calibration/calibration-6.18-2cpu.json",
                        "--out",
                        out.toString()));
        JsonNode root = JSON.readTree(out.resolve("calibration.json").toFile());
        assertTrue(root.path("fit_set").size() > 0);
        assertTrue(root.path("prediction_set").size() > 0);
        assertTrue(root.path("predictions").size() > 0);
        assertTrue(root.path("fit").path("costs").has("costs.uevent.broadcast-per-socket"));
        assertEquals(3, root.path("beyond").size());
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("predictions within their band"));
        // the console's ladder by size, on the page too
        assertTrue(html, html.contains("<li>tc1 N=10 1/4 | tc1 N=100 2/4 | tc1 N=1000 1/4</li>"));
        assertEquals(
                0,
                Main.execute(
                        "validate",
                        "load-tests/uevent-tc1-userns.conf",
                        "--config",
                        out.resolve("calibrated.conf").toString()));
    }

    /** A replay keeps what it replays: a --quick recording's replay says quick too, a full one's does not. */
    @Test
    public void aReplayOfAQuickRecordingStaysQuick() throws Exception {
        Path src = Path.of("src/test/resources/calibration/calibration-6.18-2cpu.json");
        com.fasterxml.jackson.databind.node.ObjectNode rec =
                (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(src.toFile());
        for (boolean quick : new boolean[] {true, false}) {
            Path in = tmp.getRoot().toPath().resolve("rec-" + quick + ".json");
            Files.writeString(in, JSON.writeValueAsString(rec.put("quick", quick)));
            Path out = tmp.getRoot().toPath().resolve("replay-" + quick);
            assertEquals(0, Main.execute("calibrate", "--from", in.toString(), "--out", out.toString()));
            assertEquals(
                    quick,
                    JSON.readTree(out.resolve("calibration.json").toFile())
                            .path("quick")
                            .asBoolean(!quick));
        }
    }

    @Test
    public void userNamespacesRefusedIsOneLineAndExit2() throws Exception {
        System.setProperty("netns-lab.probe-fail", "userns");
        try {
            UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli(
                    "calibrate",
                    "--quick",
                    "--only",
                    "uevent",
                    "--out",
                    tmp.getRoot().toString());
            assertEquals(2, o.exit());
            String last = o.stderr().strip().lines().reduce((a, b) -> b).orElse("");
            assertTrue(
                    last,
                    last.startsWith("netns-lab: calibrate: user namespaces missing or refused: uevent_probe fit"));
            assertTrue(last, last.contains("sysctl user.max_user_namespaces"));
        } finally {
            System.clearProperty("netns-lab.probe-fail");
        }
    }

    @Test
    public void noCompilerIsOneLineAndExit2() {
        System.setProperty("netns-lab.cc", "/nonexistent/cc");
        try {
            // a fresh probe folder, so the build is not skipped as up to date
            System.setProperty("netns-lab.home", tmp.getRoot().toString());
            assertEquals(
                    2,
                    Main.execute(
                            "calibrate",
                            "--quick",
                            "--only",
                            "proc",
                            "--out",
                            tmp.getRoot().toString()));
        } finally {
            System.clearProperty("netns-lab.cc");
            System.clearProperty("netns-lab.home");
        }
    }

    @Test
    public void aFolderOfOtherFilesIsNotWrittenInto() throws Exception {
        Path dir = tmp.newFolder("mine").toPath();
        Files.writeString(dir.resolve("report.html"), "the user's own");
        assertEquals(
                2,
                Main.execute(
                        "calibrate",
                        "--from",
                        "src/test/resources/calibration/calibration-6.18-2cpu.json",
                        "--out",
                        dir.toString()));
        assertEquals("the user's own", Files.readString(dir.resolve("report.html")));
    }

    @Test
    public void recordedLinesOutsideTheProbesBoundsAreRefusedNamingTheField() throws Exception {
        String[][] edits = {
            {"fit_set", "uevent", "send_p50_ns", "-5"},
            {"prediction_set", "uevent", "injectors", "1000000"},
            {"prediction_set", "uevent", "sends", "0"}, // the CPU rows divide by it
            {"prediction_set", "uevent", "injector_cpu_ns", "-1"},
            {"prediction_set", "uevent", "listener_cpu_ns", "NaN"},
        };
        for (String[] e : edits) {
            UpFrontChecksTest.Outcome o = fromEdited("edited-" + e[2], root -> {
                for (JsonNode line : root.path(e[0])) {
                    if (line.path("probe").asText().equals(e[1]) && line.has(e[2])) {
                        ((ObjectNode) line).put(e[2], Double.parseDouble(e[3]));
                        break;
                    }
                }
            });
            assertRefused(o, e[2] + " must be a number in");
        }
    }

    /**
     * A recording's task group in another case, its source missing or holding a line break: the group is written in
     * lower case, a missing source is said to be missing (report.html had failed on it), and a line break in a source
     * cannot add a setting. The grace period is fitted through the model, or, with no serial line that has the
     * kworker's CPU, read directly and said so.
     */
    @Test
    public void aRecordedTaskGroupIsWrittenSafely() throws Exception {
        for (String source : new String[] {null, "read here\n    hz = 1000"}) {
            String name = source == null ? "no-source" : "newline";
            UpFrontChecksTest.Outcome o = fromEdited("calibration-6.18-2cpu-2026-12-01-sleeps.json", name, root -> {
                ObjectNode host = (ObjectNode) root.path("host");
                host.put("taskGroup", "Session");
                host.put("taskGroupSource", source);
                for (JsonNode line : root.path("fit_set")) { // this recording's one serial line, in the second case
                    if (source != null && line.path("load").asText().equals("unshare-loops")) {
                        ((ObjectNode) line).remove("cleanup_net_run_cpu_pairs");
                    }
                }
            });
            assertEquals(o.stderr(), 0, o.exit());
            Path out = tmp.getRoot().toPath().resolve("o-" + name);
            String conf = Files.readString(out.resolve("calibrated.conf"));
            assertTrue(conf, conf.contains("\n    task-group = session\n"));
            assertTrue(conf, !conf.contains("\n    hz = 1000")); // no setting: the text stays in its comment
            assertTrue(
                    conf,
                    conf.contains(
                            source == null
                                    ? "    # the probes' task group (its source not recorded)\n"
                                    : "    # read here     hz = 1000\n"));
            assertTrue(
                    conf,
                    conf.contains(
                            source == null
                                    ? "# the model's serial loop ("
                                    : "; not fitted through the model: no serial loop line has the kworker's CPU in its cleanup_net runs"));
            assertTrue(Files.readString(out.resolve("report.html")).contains("task group session"));
        }
    }

    /** A recording from before the task group was recorded is read as root, with a warning that says so. */
    @Test
    public void aRecordingWithoutATaskGroupIsReadAsRootAndSaysSo() throws Exception {
        UpFrontChecksTest.Outcome o = fromEdited("calibration-6.18-2cpu-2026-12-01-sleeps.json", "old", root -> {});
        assertEquals(o.stderr(), 0, o.exit());
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains("does not say which task group its probes ran in (a recording"
                                + " older than the task-group field): the model takes machine.task-group = root"));
        String conf = Files.readString(tmp.getRoot().toPath().resolve("o-old").resolve("calibrated.conf"));
        assertTrue(
                conf,
                conf.contains(
                        "    # task group not recorded (a calibration.json older than the task-group field): the default stays\n"));
        assertTrue(
                conf,
                conf.startsWith("# Written by `netns-lab calibrate --from "
                        + tmp.getRoot().toPath().resolve("old.json") + "` on "));
        assertTrue(conf, conf.contains(", preempt none (the recording's host).\n"));
        // a model key the fit left out says so where the user looks for it (this recording has no exit probe line)
        assertTrue(
                conf,
                conf.contains("    # costs.uevent.injector-exit not fitted (no uevent_probe exit line in the fit set"));
    }

    @Test
    public void aRecordedTaskGroupMustBeRootOrSession() throws Exception {
        UpFrontChecksTest.Outcome o =
                fromEdited("edited-task-group", root -> ((ObjectNode) root.path("host")).put("taskGroup", "sessions"));
        assertRefused(o, "host: taskGroup must be root or session (or absent), got 'sessions'");
    }

    /** A host field of the wrong JSON type is named, not only described by Jackson's Java type. */
    @Test
    public void aRecordedTaskGroupOfTheWrongTypeIsNamed() throws Exception {
        UpFrontChecksTest.Outcome o = fromEdited(
                "edited-task-group-list",
                root -> ((ObjectNode) root.path("host")).putArray("taskGroup").add("session"));
        assertRefused(o, "host.taskGroup: must be text, got an array [\"session\"]");
    }

    /** A misspelt host key and a number beyond its Java type are named in the recording's words, not Jackson's. */
    @Test
    public void aMisspeltHostKeyOrAHugeNumberIsNamedInTheRecordingsWords() throws Exception {
        UpFrontChecksTest.Outcome o =
                fromEdited("edited-host-key", root -> ((ObjectNode) root.path("host")).put("relese", "6.18"));
        assertRefused(
                o,
                "host.relese: not a key of a calibration's host (its keys: baseSliceNs, baseSliceSource, busyAtStart,"
                        + " busyDuringProbes, cpus, hz, loadAverage1, preempt, release, taskGroup, taskGroupSource)");
        o = fromEdited("edited-host-hz", root -> ((ObjectNode) root.path("host")).put("hz", 1_000_000_000_000L));
        assertRefused(o, "host.hz: out of range, got a number 1000000000000");
    }

    /** An idle line whose machine was busy longer than the host's CPUs could be in its window is refused by place. */
    @Test
    public void anIdleLineBusierThanItsMachineIsRefused() throws Exception {
        UpFrontChecksTest.Outcome o = fromEdited("idle-busy", root -> {
            ObjectNode idle = ((com.fasterxml.jackson.databind.node.ArrayNode) root.path("fit_set")).addObject();
            idle.put("probe", "uevent").put("set", "fit").put("load", "idle").put("netns", 1000);
            idle.put("window_ns", 6_000_000_000L).put("machine_busy_ns", 9_000_000_000_000L);
        });
        assertRefused(
                o,
                ".machine_busy_ns (uevent idle): 9000000000000 ns is more than "
                        + JSON.readTree(Path.of("src/test/resources/calibration/calibration-6.18-2cpu-2026-12-01.json")
                                        .toFile())
                                .path("host")
                                .path("cpus")
                                .asInt()
                        + " CPUs can be busy in its window_ns of 6000000000");
    }

    /**
     * An exit line's kernel-thread figures come all together or not at all, each at least 0, the exits' span inside
     * their window: a line with some of them, or a span longer than its window, is refused naming the field.
     */
    @Test
    public void anExitLinesKernelThreadFiguresAreCheckedTogether() throws Exception {
        UpFrontChecksTest.Outcome some = withExitLine("kt-some", line -> line.put("exits_kworker_runs", 10));
        assertRefused(some, "(uevent exit): quiet_window_ns must be a number in 1..");
        assertRefused(some, "(an exit line's kernel-thread figures come all together, or none)");
        UpFrontChecksTest.Outcome half = withExitLine(
                "kt-half", line -> allKthreadFields(line, 400_000_000L).put("exits_kworker_runs", 1.5));
        assertRefused(half, "(uevent exit): exits_kworker_runs must be a whole count, got 1.5");
        UpFrontChecksTest.Outcome span = withExitLine("kt-span", line -> allKthreadFields(line, 700_000_000L));
        assertRefused(
                span,
                "(uevent exit): exits_span_ns must be a number in 0..600,000,000, got 700000000 (inside"
                        + " exits_window_ns)");
    }

    /**
     * Every kernel-thread field of an exit line: 200 ms quiet, a 600 ms window holding exits over {@code span} ns,
     * each thread 1 us in one run in either window.
     */
    private static ObjectNode allKthreadFields(ObjectNode line, long span) {
        line.put("quiet_window_ns", 200_000_000L)
                .put("exits_window_ns", 600_000_000L)
                .put("exits_span_ns", span);
        for (String w : java.util.List.of("quiet", "exits")) {
            for (String k : java.util.List.of("rcu_gp_kthread", "ksoftirqd", "kworker")) {
                line.put(w + "_" + k + "_ns", 1000).put(w + "_" + k + "_runs", 1);
            }
        }
        return line;
    }

    /** The recorded calibration with an exit probe line of 2000 children added to its fit set, then {@code edit}. */
    private UpFrontChecksTest.Outcome withExitLine(String name, java.util.function.Consumer<ObjectNode> edit)
            throws Exception {
        return fromEdited("calibration-6.18-2cpu-2026-12-01-sleeps.json", name, root -> {
            ObjectNode line = ((com.fasterxml.jackson.databind.node.ArrayNode) root.path("fit_set"))
                    .addObject()
                    .put("probe", "uevent")
                    .put("set", "fit")
                    .put("load", "exit")
                    .put("children", 2000)
                    .put("exit_p50_ns", 60_000)
                    .put("reap_p50_ns", 15_000);
            edit.accept(line);
        });
    }

    @Test
    public void aFieldWithOneAllowedValueSaysThatValue() throws Exception {
        UpFrontChecksTest.Outcome o = firstPairEdited("calibration-6.18-2cpu-2026-12-01-pair.json", "injectors", 2);
        assertRefused(o, "injectors must be 1, got 2");
    }

    @Test
    public void aListenerCannotSleepMoreOftenThanItWasSentTo() throws Exception {
        UpFrontChecksTest.Outcome o =
                firstPairEdited("calibration-6.18-2cpu-2026-12-01-sleeps.json", "listener_sleeps", 5_000_000);
        assertRefused(o, "(uevent pair): listener_sleeps (5000000) cannot exceed sends (20000)");
    }

    @Test
    public void aSendsP99CannotBeBelowItsMedian() throws Exception {
        // the first pair line's median send is 2,484 ns: a p99 under it would fit a negative jitter
        UpFrontChecksTest.Outcome o =
                firstPairEdited("calibration-6.18-2cpu-2026-12-01-sleeps.json", "send_p99_ns", 2000);
        assertRefused(o, "(uevent pair): send_p99_ns (2000) cannot be below send_p50_ns (2484)");
    }

    @Test
    public void aForkToExecLongerThanAProcessesTurnOrAWalkWithoutItsP99IsRefused() throws Exception {
        UpFrontChecksTest.Outcome o = firstLineEdited(
                "calibration-6.18-2cpu-2026-12-01-sleeps.json",
                "listener",
                "fork-to-exec",
                line -> line.put("fork_to_exec_p50_ns", 900_000_000L));
        assertEquals(o.stderr(), 2, o.exit());
        assertTrue(
                o.stderr(),
                o.stderr()
                        .matches("(?s).*fit_set\\[\\d+\\] \\(proc listener\\): fork_to_exec_p50_ns \\(900000000\\)"
                                + " cannot exceed the line's time per half of its processes \\(spawn_wall_ns /"
                                + " \\d+ = \\d+\\): at least half its fork-to-exec gaps are as long, one after"
                                + " another.*"));
        o = firstLineEdited(
                "calibration-6.18-2cpu-2026-12-01-sleeps.json",
                "broadcast-walk",
                "walk-p99",
                line -> line.remove("send_p99_ns"));
        assertRefused(
                o,
                "(uevent broadcast-walk): send_p99_ns must be a number in 1..10^13 ns,"
                        + " got none (the field is missing)");
    }

    /** The serial loop's CPU means, which the lifecycle fit takes, are checked as its medians are. */
    @Test
    public void aSerialLoopsMeanThatIsNoCpuTimeIsRefused() throws Exception {
        UpFrontChecksTest.Outcome o = firstLineEdited(
                "calibration-6.18-2cpu-2026-12-01-sleeps.json",
                "unshare-loops",
                "mean-string",
                line -> line.put("child_cpu_mean_ns", "lots"));
        assertRefused(o, "(lifecycle unshare-loops): child_cpu_mean_ns must be a number in 0..10^13 ns, got \"lots\"");
        o = firstLineEdited(
                "calibration-6.18-2cpu-2026-12-01-sleeps.json",
                "unshare-loops",
                "mean-negative",
                line -> line.put("parent_cpu_mean_ns", -5));
        assertRefused(o, "(lifecycle unshare-loops): parent_cpu_mean_ns must be a number in 0..10^13 ns, got -5");
        o = firstLineEdited(
                "calibration-6.18-2cpu-2026-12-01-sleeps.json",
                "unshare-loops",
                "mean-huge",
                line -> line.put("parent_cpu_mean_ns", new java.math.BigDecimal("1e400")));
        assertRefused(
                o,
                "(lifecycle unshare-loops): parent_cpu_mean_ns must be a number in 0..10^13 ns, got a number beyond a"
                        + " double's range");
    }

    /**
     * A waiters line (appended to a recording made before the probe) must hold the fit's three figures, no more closers
     * queued than it started, or a non-empty reason it was skipped.
     */
    @Test
    public void aWaitersLineWithoutItsFiguresIsRefused() throws Exception {
        String[][] cases = {
            {
                "{\"queued_send_p50_ns\": 12000, \"queued_waiters_mean\": 50}",
                "(uevent waiters): before_send_p50_ns must be a number in 1..10^13 ns, got none (the field is missing)"
            },
            {
                "{\"before_send_p50_ns\": 10000, \"queued_send_p50_ns\": 12000, \"queued_waiters_mean\": 300}",
                "(uevent waiters): queued_waiters_mean must be a number in 0..256, got 300 (at most its closers)"
            },
            {"{\"skipped\": \"\"}", "(uevent waiters): skipped must say why the probe skipped the line, got \"\""},
        };
        for (int c = 0; c < cases.length; c++) {
            ObjectNode fields = (ObjectNode) JSON.readTree(cases[c][0]);
            UpFrontChecksTest.Outcome o =
                    fromEdited("calibration-6.18-2cpu-2026-12-01-sleeps.json", "waiters-" + c, root -> {
                        ObjectNode line = JSON.createObjectNode()
                                .put("probe", "uevent")
                                .put("set", "fit")
                                .put("load", "waiters")
                                .put("closers", 256)
                                .put("sends", 20_000);
                        line.setAll(fields);
                        ((com.fasterxml.jackson.databind.node.ArrayNode) root.get("fit_set")).add(line);
                    });
            assertRefused(o, cases[c][1]);
        }
    }

    @Test
    public void cleanupCpuPairsThatDoNotMatchTheRunsAreRefused() throws Exception {
        // the recorded lifecycle line's seven runs: [26, 56.739 ms], [39, 43.393 ms], ...
        String[][] cases = {
            {
                "[[20, 5000000]]",
                "cleanup_net_run_cpu_pairs must have one pair per cleanup_net_run_pairs pair, got 1 against 7"
            },
            {
                "[[26, 1], [38, 1], [26, 1], [20, 1], [53, 1], [33, 1], [3, 1]]",
                "cleanup_net_run_cpu_pairs[1] must count the netns of cleanup_net_run_pairs[1] (39), got 38"
            },
            {
                "[[26, 56739001], [39, 1], [26, 1], [20, 1], [53, 1], [33, 1], [3, 1]]",
                "cleanup_net_run_cpu_pairs[0]: the kworker's CPU in a run (56739001 ns) cannot exceed the run's wall time"
                        + " (56739000 ns)"
            },
        };
        for (int c = 0; c < cases.length; c++) {
            JsonNode pairs = JSON.readTree(cases[c][0]);
            UpFrontChecksTest.Outcome o = fromEdited("cpu-pairs-" + c, root -> {
                for (JsonNode line : root.path("fit_set")) {
                    if (line.path("probe").asText().equals("lifecycle")) {
                        ((ObjectNode) line).set("cleanup_net_run_cpu_pairs", pairs);
                    }
                }
            });
            assertRefused(o, cases[c][1]);
        }
    }

    /**
     * A fit line's value x1000 that the model would take as it is, or a host figure the simulated machine refuses: exit
     * 2 naming the field by its JSON path, before any model run (no output folder), no exception on screen.
     */
    @Test
    public void editedValuesAreCheckedAgainstTheModelsRangesBeforeAnyRun() throws Exception {
        record Edit(String name, Consumer<ObjectNode> edit, String said) {}
        List<Edit> edits = List.of(
                new Edit(
                        "context-switch-x1000",
                        root -> times1000(root, "context-switch", "context_switch_p50_ns"),
                        "(sched context-switch): 1917000 ns is more than the model takes"),
                new Edit("pidfd-x1000", root -> times1000(root, "pidfd", "pidfd_exit_cpu_p50_ns"), "(proc pidfd): "),
                new Edit(
                        "slice-x1000",
                        root -> ((ObjectNode) root.path("host")).put("baseSliceNs", 1_500_000_000L),
                        "host.baseSliceNs: 1500000000 is outside what the model accepts (machine.base-slice must be"
                                + " in 0..1s"),
                new Edit(
                        "slice-negative",
                        root -> ((ObjectNode) root.path("host")).put("baseSliceNs", -1_500_000L),
                        "host.baseSliceNs: -1500000 is outside what the model accepts"),
                new Edit(
                        "hz-x1000",
                        root -> ((ObjectNode) root.path("host")).put("hz", 250_000),
                        "host.hz: 250000 is outside what the model accepts (machine.hz must be in 100..1000"),
                new Edit(
                        "busy-share",
                        root -> ((ObjectNode) root.path("host"))
                                .putObject("busyDuringProbes")
                                .put("share", -0.5)
                                .put("seconds", 40)
                                .put("busiest", "")
                                .put("busiestShare", 0),
                        "host.busyDuringProbes.share must be a number in 0..1 (up to 1000 in older recordings), got"
                                + " -0.5"),
                new Edit(
                        "busy-number",
                        root -> ((ObjectNode) root.path("host")).put("busyDuringProbes", 5),
                        "host.busyDuringProbes: must be an object, got a number 5"),
                new Edit(
                        "load-negative",
                        root -> ((ObjectNode) root.path("host")).put("loadAverage1", -5),
                        "host.loadAverage1 must be a number in 0..1,000,000, got -5.0"));
        for (Edit e : edits) {
            UpFrontChecksTest.Outcome p = fromEdited(e.name(), e.edit());
            assertEquals(e.name() + ": " + p.stderr(), 2, p.exit());
            assertTrue(e.name() + ": " + p.stderr(), p.stderr().contains(e.said()));
            assertFalse(
                    p.stderr(), p.stderr().contains("Exception") || p.stderr().contains("\tat "));
            assertEquals(p.stderr(), 1, p.stderr().strip().lines().count());
            assertFalse(Files.exists(tmp.getRoot().toPath().resolve("o-" + e.name())));
        }
        UpFrontChecksTest.Outcome p =
                fromEdited("cs", root -> times1000(root, "context-switch", "context_switch_p50_ns"));
        assertTrue(
                p.stderr(),
                p.stderr()
                        .matches(
                                "(?s).*: fit_set\\[\\d+\\]\\.context_switch_p50_ns \\(sched context-switch\\): \\d+ ns is"
                                        + " more than the model takes for machine.context-switch \\(machine.context-switch must be in"
                                        + " 0..1ms, got \\d+ ns\\)\n"));
    }

    /** Multiplies {@code field} of the first fit-set line of {@code load} by 1000. */
    private static void times1000(ObjectNode root, String load, String field) {
        for (JsonNode line : root.path("fit_set")) {
            if (line.path("load").asText().equals(load)) {
                ((ObjectNode) line).put(field, line.path(field).asDouble() * 1000);
                return;
            }
        }
        throw new AssertionError("no " + load + " line in the recording");
    }

    /** {@code calibrate --from} refused its input: exit status 2 and {@code message} on stderr. */
    private static void assertRefused(UpFrontChecksTest.Outcome o, String message) {
        assertEquals(o.stderr(), 2, o.exit());
        assertTrue(o.stderr(), o.stderr().contains(message));
    }

    /**
     * {@code calibrate --from} a copy of the recorded 3-run calibration that {@code edit} changed.
     *
     * @param name the copy's and the output folder's name
     */
    private UpFrontChecksTest.Outcome fromEdited(String name, java.util.function.Consumer<ObjectNode> edit)
            throws Exception {
        return fromEdited("calibration-6.18-2cpu-2026-12-01.json", name, edit);
    }

    private UpFrontChecksTest.Outcome fromEdited(
            String recorded, String name, java.util.function.Consumer<ObjectNode> edit) throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(
                Path.of("src/test/resources/calibration", recorded).toFile());
        edit.accept(root);
        Path bad = tmp.getRoot().toPath().resolve(name + ".json");
        JSON.writeValue(bad.toFile(), root);
        return UpFrontChecksTest.cli(
                "calibrate",
                "--from",
                bad.toString(),
                "--out",
                tmp.getRoot().toPath().resolve("o-" + name).toString());
    }

    /** {@code calibrate --from} a recording whose first pair probe line has {@code field} set to {@code value}. */
    private UpFrontChecksTest.Outcome firstPairEdited(String recorded, String field, long value) throws Exception {
        return firstLineEdited(recorded, "pair", "pair-" + field, line -> line.put(field, value));
    }

    /**
     * {@code calibrate --from} a recording whose first fit-set line of {@code load} {@code edit} changed.
     *
     * @param name the copy's and the output folder's name
     */
    private UpFrontChecksTest.Outcome firstLineEdited(
            String recorded, String load, String name, java.util.function.Consumer<ObjectNode> edit) throws Exception {
        return fromEdited(recorded, name, root -> {
            for (JsonNode line : root.path("fit_set")) {
                if (line.path("load").asText().equals(load)) {
                    edit.accept((ObjectNode) line);
                    break;
                }
            }
        });
    }

    @Test
    public void probeOptionsWithFromAreRefused() {
        assertEquals(
                2,
                Main.execute(
                        "calibrate",
                        "--from",
                        "src/test/resources/calibration/calibration-6.18-2cpu.json",
                        "--only",
                        "proc",
                        "--out",
                        tmp.getRoot().toPath().resolve("o").toString()));
    }

    @Test
    public void anUnknownPartIsRefused() {
        assertEquals(
                2,
                Main.execute(
                        "calibrate",
                        "--only",
                        "uevent,bogus",
                        "--out",
                        tmp.getRoot().toString()));
        // empty parts are said so, not read as no --only (which would run every probe)
        for (String only : new String[] {",,", "proc,,uevent", ""}) {
            UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli("calibrate", "--quick", "--only", only);
            assertEquals(o.stderr(), 2, o.exit());
            assertEquals(
                    "netns-lab: calibrate --only: an empty part in '" + only + "'; parts: uevent, proc, lifecycle"
                            + System.lineSeparator(),
                    o.stderr());
        }
    }

    @Test
    public void aMissingRecordedCalibrationIsRefused() {
        assertEquals(2, Main.execute("calibrate", "--from", "no/such/calibration.json"));
    }

    @Test
    public void aRecordedCalibrationThatIsNotOneIsRefused() throws Exception {
        Path bad = tmp.newFile("bad.json").toPath();
        Files.writeString(bad, "garbage{");
        assertEquals(
                2,
                Main.execute(
                        "calibrate",
                        "--from",
                        bad.toString(),
                        "--out",
                        tmp.getRoot().toPath().resolve("o1").toString()));
        Files.writeString(bad, "{\"fit_set\": [], \"prediction_set\": []}");
        assertEquals(
                2,
                Main.execute(
                        "calibrate",
                        "--from",
                        bad.toString(),
                        "--out",
                        tmp.getRoot().toPath().resolve("o2").toString()));
        assertTrue(!Files.exists(tmp.getRoot().toPath().resolve("o2")));
    }

    /** A second value after the recording, or a key given twice (which would count?), is refused, not replayed. */
    @Test
    public void aRecordingWithMoreAfterItOrAKeyTwiceIsRefused() throws Exception {
        String notCalibration = ", so not a calibration.json (the JSON calibrate writes)" + System.lineSeparator();
        Path twice = tmp.newFile("twice.json").toPath();
        Files.writeString(twice, "{\"schema\": 1}\n{\"schema\": 1}\n");
        UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli("calibrate", "--from", twice.toString());
        assertEquals(o.stderr(), 2, o.exit());
        assertEquals(
                "netns-lab: calibrate --from " + twice + ": not valid JSON (line 2, column 1): more after the end of"
                        + " the JSON value (a file holds one value, here one object)" + notCalibration,
                o.stderr());
        Path dup = tmp.newFile("dup.json").toPath();
        Files.writeString(dup, "{\"host\": {\"cpus\": 2, \"cpus\": 64}}");
        o = UpFrontChecksTest.cli("calibrate", "--from", dup.toString());
        assertEquals(o.stderr(), 2, o.exit());
        assertEquals(
                "netns-lab: calibrate --from " + dup + ": not valid JSON (line 1, column 28): the key \"cpus\" appears"
                        + " twice in one object (which one would count?)" + notCalibration,
                o.stderr());
    }

    @Test
    public void aRecordingThatIsNotJsonOrBeyondTheParsersLimitsIsSaidInWords() throws Exception {
        Path conf = tmp.newFile("scenario.conf").toPath();
        Files.writeString(conf, "name = \"x\"\n");
        String notCalibration = ", so not a calibration.json (the JSON calibrate writes)" + System.lineSeparator();
        UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli("calibrate", "--from", conf.toString());
        assertEquals(o.stderr(), 2, o.exit());
        assertEquals(
                "netns-lab: calibrate --from " + conf + ": not valid JSON (line 1, column 5): found 'name' where a"
                        + " JSON value belongs (a string in double quotes, a number, an array, an object, true, false"
                        + " or null)" + notCalibration,
                o.stderr());
        Path deep = tmp.newFile("deep.json").toPath();
        Files.writeString(deep, "{\"host\": " + "[".repeat(1200) + "]".repeat(1200) + "}");
        o = UpFrontChecksTest.cli("calibrate", "--from", deep.toString());
        assertEquals(o.stderr(), 2, o.exit());
        assertEquals(
                "netns-lab: calibrate --from " + deep + ": not valid JSON (line 1, column 1010): arrays or objects"
                        + " nested 1001 deep, more than the 1000 this reader takes (no netns-lab run writes one)"
                        + notCalibration,
                o.stderr());
        Path binary = tmp.newFile("binary.json").toPath();
        Files.write(binary, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        o = UpFrontChecksTest.cli("calibrate", "--from", binary.toString());
        assertEquals(
                "netns-lab: calibrate --from " + binary + ": is not a text file (byte 7 is NUL)" + notCalibration,
                o.stderr());
        Path latin1 = tmp.newFile("latin1.json").toPath();
        Files.write(latin1, "{\"host\": \"caf\u00e9\"}".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        o = UpFrontChecksTest.cli("calibrate", "--from", latin1.toString());
        assertEquals(
                "netns-lab: calibrate --from " + latin1 + ": is not a text file (byte 13 is not UTF-8)"
                        + notCalibration,
                o.stderr());
        Path fifo = tmp.getRoot().toPath().resolve("fifo.json");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        o = UpFrontChecksTest.cli("calibrate", "--from", fifo.toString());
        assertEquals(
                "netns-lab: calibrate --from " + fifo + ": not a regular file (a device, pipe or socket), so not one"
                        + " netns-lab wrote" + System.lineSeparator(),
                o.stderr());
    }

    /** Each way a file misses calibration.json's shape is named: the field, or the index of the line at fault. */
    @Test
    public void aRecordingOfTheWrongShapeSaysWhatIsWrong() throws Exception {
        assertRefused(
                fromEdited("no-fit", root -> root.remove("fit_set")), ": not a calibration.json: no fit_set array");
        assertRefused(
                fromEdited("fit-object", root -> root.putObject("fit_set")),
                ": not a calibration.json: fit_set must be an array of probe lines, got an object");
        assertRefused(
                fromEdited("no-prediction", root -> root.remove("prediction_set")),
                ": not a calibration.json: no prediction_set array");
        assertRefused(
                fromEdited("unseen-object", root -> root.putObject("unseen_set")),
                ": unseen_set must be an array of probe lines, got an object");
        assertRefused(
                fromEdited(
                        "line-number",
                        root -> ((com.fasterxml.jackson.databind.node.ArrayNode) root.path("fit_set"))
                                .set(3, JSON.getNodeFactory().numberNode(42))),
                ": fit_set[3] is a number, not a probe line (an object)");
        assertRefused(
                UpFrontChecksTest.cli("calibrate", "--from="),
                "netns-lab: calibrate --from: empty file name; name a calibration.json");
        Path empty = tmp.newFile("empty.json").toPath();
        UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli("calibrate", "--from", empty.toString());
        assertEquals(o.stderr(), 2, o.exit());
        assertTrue(o.stderr(), o.stderr().contains(empty + ": is empty"));
        Path array = tmp.newFile("array.json").toPath();
        Files.writeString(array, "[1, 2]");
        assertRefused(
                UpFrontChecksTest.cli("calibrate", "--from", array.toString()),
                array + ": holds an array, not a calibration.json (an object with fit_set and prediction_set"
                        + " arrays)");
    }

    /** A line without its probe's or load's name is named by its place and the key, not as an unknown kind. */
    @Test
    public void aLineWithoutItsProbeOrLoadIsNamed() throws Exception {
        assertRefused(
                fromEdited(
                        "no-probe", root -> ((ObjectNode) root.path("fit_set").get(0)).remove("probe")),
                ": fit_set[0].probe: each probe line names its probe (a string), got none");
        assertRefused(
                fromEdited(
                        "load-number",
                        root -> ((ObjectNode) root.path("fit_set").get(0)).put("load", 7)),
                ": fit_set[0].load: each probe line names its load (a string), got 7");
    }

    /** A host's CPU count out of range, or no kernel release, is named with what the file holds. */
    @Test
    public void aRecordingsHostCpusOrReleaseIsNamed() throws Exception {
        assertRefused(
                fromEdited("cpus-0", root -> ((ObjectNode) root.path("host")).put("cpus", 0)),
                ": host.cpus must be a whole number in 1..4096, got 0");
        assertRefused(
                fromEdited("cpus-none", root -> ((ObjectNode) root.path("host")).remove("cpus")),
                ": host.cpus must be a whole number in 1..4096, got none");
        assertRefused(
                fromEdited("no-release", root -> ((ObjectNode) root.path("host")).remove("release")),
                ": host.release is missing (the kernel the lines were measured on)");
    }

    /** A host edited to fewer CPUs than its lines ran on contradicts them: the first such line is named. */
    @Test
    public void aRecordingWhoseLinesRanOnMoreCpusThanItsHostIsNamed() throws Exception {
        UpFrontChecksTest.Outcome o = fromEdited("one-cpu", root -> {
            ((ObjectNode) root.path("host")).put("cpus", 1);
            ((ObjectNode) root.path("fit_set").get(0)).put("cpu", 1); // its task switch timed on the second CPU
        });
        assertRefused(
                o,
                ": fit_set[0].cpu (sched context-switch): CPU 1, but host.cpus is 1 (CPUs 0..0): the lines ran on more"
                        + " CPUs than the host says it has");
    }

    @Test
    public void aRecordingsPreemptOrQuickOfAnotherTypeOrValueIsNamed() throws Exception {
        UpFrontChecksTest.Outcome o =
                fromEdited("banana", root -> ((ObjectNode) root.path("host")).put("preempt", "banana"));
        assertRefused(o, ": host.preempt must be none, voluntary, full, lazy or unknown, got 'banana'");
        o = fromEdited("quick-yes", root -> root.put("quick", "yes"));
        assertRefused(o, ": quick must be true or false, got \"yes\"");
    }

    @Test
    public void aReleaseWithAQuoteOrBackslashStillMakesAValidCalibratedConf() throws Exception {
        String release = "6.18.0 foo = {\\q\"";
        UpFrontChecksTest.Outcome o =
                fromEdited("release", root -> ((ObjectNode) root.path("host")).put("release", release));
        assertEquals(o.stderr(), 0, o.exit());
        Path conf = tmp.getRoot().toPath().resolve("o-release").resolve("calibrated.conf");
        com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseFile(conf.toFile());
        assertEquals(
                "this host (6.18.0 foo = {\\q\", 2 CPUs): kernel-6.9+ rules (lockless uevent path, atomic SEQNUM,"
                        + " pernet_ops_rwsem) on the costs calibrate fitted",
                c.getString("netns-lab.designs.\"host-6.18.0-foo-----q-\".description"));
    }

    /** What calibrate never writes is refused up front, named by its JSON path: a terminal never gets it raw. */
    @Test
    public void aRecordingOfAnotherShapeIsNamedByItsPath() throws Exception {
        assertRefused(
                fromEdited("nl", root -> ((ObjectNode) root.path("host")).put("release", "6.18\n../x")),
                ": host.release must be the kernel's release as text on one line (uname -r), got \"6.18\\n../x\"");
        assertRefused(
                fromEdited("empty", root -> ((ObjectNode) root.path("host")).put("release", "")),
                ": host.release must be the kernel's release as text on one line (uname -r), got \"\"");
        assertRefused(
                fromEdited("number", root -> ((ObjectNode) root.path("host")).put("release", 6.18)),
                ": host.release must be the kernel's release as text on one line (uname -r), got 6.18");
        assertRefused(
                fromEdited("cpus", root -> ((ObjectNode) root.path("host")).put("cpus", 2.5)),
                ": host.cpus must be a whole number in 1..4096, got 2.5");
        assertRefused(
                fromEdited("hz", root -> ((ObjectNode) root.path("host")).put("hz", "250")),
                ": host.hz must be a whole number, got \"250\"");
        assertRefused(
                fromEdited("schema", root -> root.put("schema", "1")),
                ": schema \"1\"; this netns-lab reads schema 1 (a whole number)");
        assertRefused(
                fromEdited("moved", root -> {
                    ObjectNode tc1 = ((ObjectNode) root.path("prediction_set").get(0)).deepCopy();
                    tc1.put("set", "fit");
                    ((com.fasterxml.jackson.databind.node.ArrayNode) root.path("fit_set")).add(tc1);
                }),
                "(uevent tc1): a prediction or unseen load, which the fit never reads (the sets are not mixed: move it"
                        + " back to prediction_set or unseen_set)");
        // the loads whose probes the fit shares: a parallel loop, three listeners at once
        for (String load : List.of("unshare-loops", "listener")) {
            assertRefused(
                    fromEdited("moved-" + load, root -> {
                        for (var l : root.path("prediction_set")) {
                            if (l.path("load").asText().equals(load)) {
                                ObjectNode copy = ((ObjectNode) l).deepCopy();
                                copy.put("set", "fit");
                                ((com.fasterxml.jackson.databind.node.ArrayNode) root.path("fit_set")).add(copy);
                                return;
                            }
                        }
                        throw new AssertionError("no " + load + " line in the recording");
                    }),
                    "a prediction or unseen load, which the fit never reads");
        }
        assertRefused(
                fromEdited("rounds", root -> {
                    for (var l : root.path("fit_set")) {
                        if (l.path("load").asText().equals("context-switch")) {
                            ((ObjectNode) l).put("rounds", -3);
                        }
                    }
                }),
                "(sched context-switch): rounds must be a number in 1..100,000,000, got -3");
        assertRefused(
                fromEdited("notes", root -> root.put("notes", "my notes")),
                ": notes: not a key of a calibration.json (its keys: beyond, fit, fit_set, host, ladder, prediction_set,"
                        + " predictions, quick, schema, tool, unseen, unseen_set); keep notes beside the file");
        assertRefused(
                fromEdited("newer", root -> root.put("schema", 99)),
                ": schema 99; this netns-lab reads schema 1: a newer netns-lab wrote it; read it with that one, or run"
                        + " calibrate again with this one");
        assertRefused(
                fromEdited("ladder", root -> root.putArray("ladder").add(1)),
                ": ladder must be an object, as calibrate writes it, got ARRAY");
        assertRefused(
                fromEdited(
                        "lowered",
                        root -> root.putObject("ladder")
                                .putArray("lowered")
                                .addObject()
                                .put("text", 12345)),
                ": ladder.lowered[0].text must be one printable line of text, got NUMBER");
        assertRefused(
                fromEdited(
                        "esc",
                        root -> root.putObject("ladder")
                                .putArray("lowered")
                                .addObject()
                                .put("text", "\u001b[31m")),
                ": ladder.lowered[0].text must be one printable line of text, got STRING");
        assertRefused(
                fromEdited("unseen", root -> root.putArray("unseen").add(1)),
                ": unseen must be an object, as calibrate writes it, got ARRAY");
        assertRefused(
                fromEdited("cut", root -> {
                    root.putObject("unseen").put("shapes", 5);
                    root.putArray("unseen_set");
                }),
                ": unseen_set holds no line, where unseen.shapes says 5 were drawn and measured");
        assertRefused(
                fromEdited(
                        "fitline",
                        root -> root.putArray("unseen_set")
                                .add(root.path("fit_set").get(0).deepCopy())),
                "is not a contended load (an unseen shape is one of [lifecycle/unshare-loops, proc/listener,"
                        + " proc/proc-scan, uevent/reorder, uevent/tc1])");
    }
}
