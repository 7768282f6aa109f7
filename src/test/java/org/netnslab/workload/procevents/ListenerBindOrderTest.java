package org.netnslab.workload.procevents;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.DesignResult;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.VirtualOnce;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The order a proc-events load's listeners bind in (by name, or {@code workload.bind-order}), which decides the order
 * an exit wakes them (newest bind first) and so which one waits behind the exiting process.
 */
public class ListenerBindOrderTest extends JUnitSuite {
    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    @Rule
    public TemporaryFolder dir = new TemporaryFolder();

    private Scenario load(String workloadExtra, String... sets) throws Exception {
        Path f = dir.getRoot().toPath().resolve("bind.conf");
        Files.writeString(
                f,
                String.join(
                        "\n",
                        "name = bind",
                        "description = \"two listeners\"",
                        "seed = \"test\"",
                        "workload {",
                        "  type = proc-events",
                        "  processes = 80",
                        "  process-interval = 1ms",
                        "  listeners {",
                        "    exit = [EXIT]",
                        "    all = [ALL]",
                        "  }",
                        "  " + workloadExtra,
                        "}",
                        "designs = [per-listener]",
                        ""));
        List<String> all = new ArrayList<>(List.of("machine.jitter=0", "machine.cpus=2"));
        all.addAll(List.of(sets));
        return new ScenarioLoader().load(f, all, 1.0);
    }

    private static List<String> order(Scenario s) {
        return List.copyOf(((ProcEventsWorkload) s.workload()).listeners().keySet());
    }

    @Test
    public void listenersBindByNameUnlessBindOrderListsThem() throws Exception {
        assertEquals(List.of("all", "exit"), order(load("")));
        assertEquals(List.of("exit", "all"), order(load("bind-order = [exit, all]")));
        // a listener given again by --set keeps its place
        assertEquals(List.of("exit", "all"), order(load("bind-order = [exit, all]", "workload.listeners.exit=[EXIT]")));
    }

    @Test
    public void aBindOrderNamesEachListenerOnce() {
        for (String[] bad : new String[][] {
            {"bind-order = [exit]", "must name each of workload.listeners [all, exit] once, missing [all]"},
            {
                "bind-order = [exit, all, exit]",
                "must name each of workload.listeners [all, exit] once, got [exit] more than once or not a listener"
            },
            {
                "bind-order = [exit, al]",
                "must name each of workload.listeners [all, exit] once, got [al] more than once or not a listener,"
                        + " missing [all]"
            },
            {"bind-order = exit", "must be a list [ ... ] of listener names, got"}
        }) {
            ScenarioException e = org.junit.Assert.assertThrows(ScenarioException.class, () -> load(bad[0]));
            assertEquals(
                    bad[0] + ": " + e.getMessage(), true, e.getMessage().contains("workload.bind-order: " + bad[1]));
        }
    }

    /**
     * A listener's name is part of its measure's and its .hgrm's name ({@code <design>.proc.listener_busy.<name>}):
     * with a '.' in it, design {@code none} with a listener {@code proc.event} and a design {@code
     * none.proc.listener_busy} would write one file.
     */
    @Test
    public void aListenerNameTakesNoDot() {
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> load("", "workload.listeners={\"proc.event\"=[EXIT]}"));
        assertEquals(
                e.getMessage(),
                true,
                e.getMessage()
                        .contains("workload.listeners.\"proc.event\": a listener's name is part of measure and file"
                                + " names (proc.listener_busy.<name>, <design>.<measure>.hgrm): 1-100 letters,"
                                + " digits, '_' or '-'"));
    }

    @Test
    public void aBindOrderWithoutListenersIsRefused() throws Exception {
        Path f = dir.getRoot().toPath().resolve("none.conf");
        Files.writeString(
                f,
                "name = none\ndescription = \"no listener\"\nseed = \"test\"\nworkload { type = proc-events, processes"
                        + " = 10, bind-order = [all] }\ndesigns = [pidfd]\n");
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(f, List.of(), 1.0));
        assertEquals(
                e.getMessage(),
                true,
                e.getMessage()
                        .contains("workload.bind-order: orders workload.listeners, which this workload has none of"));
    }

    /**
     * Two listeners on 2 CPUs, 80 processes 1 ms apart, a 7 us charge to the task after an exiting process
     * ({@code costs.proc.exit-switch}): each exit wakes the newer bind first, which takes the idle CPU, and the older
     * one waits behind the exiting process and pays the charge, 80 times. Bound the other way round, the other pays.
     */
    @Test
    public void theListenerBoundFirstPaysTheExitsSwitch() throws Exception {
        double all = (3 * 80 + 1) * 7500e-6 + 2 * 80 * 1250e-6; // as VirtualProcEventsTest's figures
        double exit = 80 * 7500e-6 + 80 * 1250e-6;
        Map<String, Double> allFirst = busyMs("");
        assertEquals(all + 80 * 7e-3, allFirst.get("all"), 1e-9);
        assertEquals(exit, allFirst.get("exit"), 1e-9);
        Map<String, Double> exitFirst = busyMs("bind-order = [exit, all]");
        assertEquals(all, exitFirst.get("all"), 1e-9);
        assertEquals(exit + 80 * 7e-3, exitFirst.get("exit"), 1e-9);
    }

    private Map<String, Double> busyMs(String workloadExtra) throws Exception {
        DesignResult d = VirtualOnce.run("bind", load(workloadExtra, "model.costs.proc.exit-switch=7us"), SETTINGS)
                .designs()
                .get(0);
        return Map.of(
                "all", d.recorders().get(ProcEventsWorkload.BUSY + "all").meanNanos() / 1e6,
                "exit", d.recorders().get(ProcEventsWorkload.BUSY + "exit").meanNanos() / 1e6);
    }
}
