package org.netnslab.design;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigUtil;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.Test;
import org.netnslab.settings.Setting;
import org.scalatestplus.junit.JUnitSuite;

public class StrategiesTest extends JUnitSuite {
    private static final Config LAB = ConfigFactory.defaultReference().getConfig("netns-lab");

    private static Design named(String name) {
        return Design.fromConfig(
                name,
                LAB.getConfig("designs")
                        .getConfig(ConfigUtil.joinPath(name))
                        .withoutPath("description")
                        .withFallback(LAB.getConfig("model")));
    }

    @Test
    public void aNamedDesignPrintsItsStrategiesInResultJsonsOrder() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("uevent.serialization", "global-owner");
        expected.put("uevent.seqnum-scope", "global");
        expected.put("uevent.listener-rcvbuf", "0");
        expected.put("netns.lifecycle-lock", "net-mutex");
        expected.put("sock-inuse.free", "exit-barrier");
        expected.put("rcu.grace-period", "4000us");
        expected.put("netns.kernel-sockets", "2");
        expected.put("sockets.rcu-free-fraction", "0.5");
        expected.put("netns.setup-cost", "0ms");
        expected.put("netns.exit-cost", "0ms");
        expected.put("proc-monitor.kind", "connector");
        expected.put("proc-connector.filter", "per-listener");
        expected.put("proc-connector.accounting", "per-socket");
        expected.put("proc-monitor.live-processes", "8000");
        Map<String, String> got = named("exit-barrier-4.16").strategies();
        assertEquals(new ArrayList<>(expected.entrySet()), new ArrayList<>(got.entrySet()));
    }

    /** A key shown past the printed rows has one spelling a value: a duration in its largest whole unit. */
    @Test
    public void anOtherKeyIsPrintedOneWayAValue() {
        assertEquals("5us", OtherKeys.printed(java.time.Duration.ofNanos(5000)));
        assertEquals("1500ns", OtherKeys.printed(java.time.Duration.ofNanos(1500)));
        assertEquals("2s", OtherKeys.printed(java.time.Duration.ofMillis(2000)));
        assertEquals("250ms", OtherKeys.printed(java.time.Duration.ofMillis(250)));
        assertEquals("0ns", OtherKeys.printed(java.time.Duration.ZERO));
        assertEquals("4608", OtherKeys.printed(4608));
        assertEquals("drop-without-error", OtherKeys.printed(org.netnslab.netlink.NetlinkFault.DROP_WITHOUT_ERROR));
    }

    @Test
    public void theTableHasEveryModelKeyOfReferenceConfOnce() {
        List<String> keys = Strategies.ROWS.stream().map(Strategies.Row::key).toList();
        assertEquals("no key twice", keys.size(), new TreeSet<>(keys).size());
        assertEquals(
                new TreeSet<>(LAB.getConfig("model").entrySet().stream()
                        .map(Map.Entry::getKey)
                        .collect(Collectors.toList())),
                new TreeSet<>(keys));
    }

    @Test
    public void anUnknownStrategyValueNamesTheDesignTheKeyAndTheAcceptedValues() {
        Config model =
                ConfigFactory.parseString("proc-connector.filter = sometimes").withFallback(LAB.getConfig("model"));
        IllegalArgumentException e =
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> Design.fromConfig("mine", model));
        assertEquals(
                "design mine: proc-connector.filter: unknown proc-connector.filter 'sometimes'; expected one of"
                        + " per-listener, none",
                e.getMessage());
    }

    @Test
    public void aValueOutOfRangeNamesTheKeyAndTheRange() {
        Config model = ConfigFactory.parseString("rcu.grace-period = 11s").withFallback(LAB.getConfig("model"));
        IllegalArgumentException e =
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> Design.fromConfig("slow", model));
        assertEquals("design slow: rcu.grace-period: must be a duration in 0..10s, got \"11s\"", e.getMessage());
    }

    @Test
    public void zeroCpusMeansTheMachinesProcessorCount() {
        assertEquals(
                Runtime.getRuntime().availableProcessors(),
                named("net-free").model().sockInuse().cpus());
        assertTrue(Setting.referenceModel().getInt("sock-inuse.cpus") == 0);
    }
}
