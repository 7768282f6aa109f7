package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** Merging replicates: counts add up, a replicate's figures (rates, sizes, times, peaks) do not. */
public class DesignResultTest extends JUnitSuite {
    private static DesignResult replicate(
            long freed, long perSecond, long bytesPerNetns, long fanoutUs, long peakKib, long heapMax) {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("freed", freed);
        c.put("creations_per_s", perSecond);
        c.put("heap_bytes_per_netns", bytesPerNetns);
        c.put("broadcast_fanout_us", fanoutUs);
        c.put("peak_rss_kib", peakKib);
        c.put("heap_max_bytes", heapMax);
        c.put("heap_slope_bytes_per_min", -3L);
        return new DesignResult("kernel-6.9", Map.of(), Map.of(), 10, "netns", 2.0, Invariants.NONE, c, List.of());
    }

    @Test
    public void countsAreSummedFiguresAveragedAndPeaksTakeTheLargest() {
        DesignResult m = DesignResult.merge(List.of(
                replicate(1000, 50_000, 1_800, 170, 400_000, 90), replicate(1000, 60_001, 1_801, 130, 380_000, 120)));
        assertEquals(Long.valueOf(2000), m.counters().get("freed"));
        assertEquals(Long.valueOf(55_001), m.counters().get("creations_per_s")); // 55,000.5 rounded
        assertEquals(Long.valueOf(1_801), m.counters().get("heap_bytes_per_netns")); // 1,800.5 rounded
        assertEquals(Long.valueOf(150), m.counters().get("broadcast_fanout_us"));
        assertEquals(Long.valueOf(400_000), m.counters().get("peak_rss_kib"));
        assertEquals(Long.valueOf(120), m.counters().get("heap_max_bytes"));
        assertEquals(Long.valueOf(-3), m.counters().get("heap_slope_bytes_per_min"));
    }
}
