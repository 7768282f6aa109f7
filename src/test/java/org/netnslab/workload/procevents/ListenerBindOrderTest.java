package org.netnslab.workload.procevents;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.DesignResult;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.VirtualOnce;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The order a proc-events load's listeners bind in: as written, which decides the order an exit wakes them (newest
 * bind first) and so which one waits behind the exiting process.
 */
public class ListenerBindOrderTest extends JUnitSuite {
    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    @Rule
    public TemporaryFolder dir = new TemporaryFolder();

    private static List<String> order(String listeners) {
        ConfigObject ls = ConfigFactory.parseString("listeners " + listeners).getObject("listeners");
        return ProcEventsParser.bindOrder(ls).stream().map(Map.Entry::getKey).toList();
    }

    @Test
    public void listenersBindAsWrittenAndByNameWithinALine() {
        assertEquals(List.of("zeta", "exit", "all"), order("{\n  zeta = [EXIT]\n  exit = [EXIT]\n  all = [ALL]\n}"));
        // HOCON keeps no order within a line: its keys' hash order would be [zz, aa, mm, bb]
        assertEquals(List.of("aa", "bb", "mm", "zz"), order("{ zz = [ALL], aa = [ALL], mm = [EXIT], bb = [EXIT] }"));
        assertEquals(List.of("b", "c", "a"), order("{ b = [ALL], c = [EXIT]\n  a = [EXIT] }"));
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
        Map<String, Double> allFirst = busyMs("all = [ALL]\n    exit = [EXIT]");
        assertEquals(all + 80 * 7e-3, allFirst.get("all"), 1e-9);
        assertEquals(exit, allFirst.get("exit"), 1e-9);
        Map<String, Double> exitFirst = busyMs("exit = [EXIT]\n    all = [ALL]");
        assertEquals(all, exitFirst.get("all"), 1e-9);
        assertEquals(exit + 80 * 7e-3, exitFirst.get("exit"), 1e-9);
    }

    private Map<String, Double> busyMs(String listeners) throws Exception {
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
                        "    " + listeners,
                        "  }",
                        "}",
                        "designs = [per-listener]",
                        ""));
        DesignResult d = VirtualOnce.run(
                        "bind",
                        new ScenarioLoader()
                                .load(
                                        f,
                                        List.of(
                                                "machine.jitter=0",
                                                "machine.cpus=2",
                                                "model.costs.proc.exit-switch=7us"),
                                        1.0),
                        SETTINGS)
                .designs()
                .get(0);
        return Map.of(
                "all", d.recorders().get(ProcEventsWorkload.BUSY + "all").meanNanos() / 1e6,
                "exit", d.recorders().get(ProcEventsWorkload.BUSY + "exit").meanNanos() / 1e6);
    }
}
