package org.netnslab.scenario;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.design.Design;
import org.netnslab.design.Strategies;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A design that differs from the others only in a key past the strategy table's printed rows (a cost, a buffer)
 * shows that key, and every design of the run shows its own value of it; a run whose designs differ only in
 * strategies shows the printed rows alone.
 */
public class OtherKeysTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String SCENARIO = String.join(
            "\n",
            "name = apart",
            "description = \"designs apart past the strategies\"",
            "seed = \"test\"",
            "workload { type = uevent-injection, netns { userns-owned = 3, init-owned = 2 }, injections-per-netns = 10,"
                    + " injectors = 2 }",
            "designs = [kernel-4.18, slow-send, tiny-rmem]",
            "custom-designs {",
            "  slow-send { uevent.serialization = global-owner, costs.uevent.send-inside = 20us }",
            "  tiny-rmem { uevent.serialization = global-owner, netlink.rmem-default = 4608 }",
            "}",
            "");

    private List<Design> designs(String text) throws Exception {
        Path f = tmp.newFile("s.conf").toPath();
        Files.writeString(f, text);
        return new ScenarioLoader().load(f, List.of(), 1.0).designs();
    }

    private static Map<String, String> tail(Design d, int from) {
        Map<String, String> s = new LinkedHashMap<>();
        List<Map.Entry<String, String>> all = new ArrayList<>(d.strategies().entrySet());
        all.subList(from, all.size()).forEach(e -> s.put(e.getKey(), e.getValue()));
        return s;
    }

    @Test
    public void eachDesignShowsItsValueOfEveryKeySetApart() throws Exception {
        List<Design> got = designs(SCENARIO);
        int printed =
                (int) Strategies.ROWS.stream().filter(Strategies.Row::isPrinted).count();
        assertEquals(
                Map.of("netlink.rmem-default", "212992", "costs.uevent.send-inside", "2us"), tail(got.get(0), printed));
        assertEquals(
                List.of("netlink.rmem-default", "costs.uevent.send-inside"),
                new ArrayList<>(tail(got.get(0), printed).keySet()));
        assertEquals(
                Map.of("netlink.rmem-default", "212992", "costs.uevent.send-inside", "20us"),
                tail(got.get(1), printed));
        assertEquals(
                Map.of("netlink.rmem-default", "4608", "costs.uevent.send-inside", "2us"), tail(got.get(2), printed));
        assertEquals("global-owner", got.get(1).strategies().get("uevent.serialization"));
    }

    @Test
    public void designsApartInStrategiesOnlyShowThePrintedRows() throws Exception {
        List<Design> got = designs(
                SCENARIO.replace(", costs.uevent.send-inside = 20us", "").replace(", netlink.rmem-default = 4608", ""));
        assertEquals(3, got.size());
        for (Design d : got) {
            assertEquals(d.name(), 14, d.strategies().size());
            assertEquals(d.name(), Map.of(), d.others());
        }
    }

    /** A key the scenario's own model sets for every design alike is the scenario's, not shown as a design's. */
    @Test
    public void aKeyTheScenarioSetsForAllIsNotShown() throws Exception {
        List<Design> got = designs(
                SCENARIO.replace(", costs.uevent.send-inside = 20us", "").replace(", netlink.rmem-default = 4608", "")
                        + "model.costs.uevent.send-inside = 5us\n");
        assertEquals(Map.of(), got.get(2).others());
        assertEquals(14, got.get(2).strategies().size());
    }
}
