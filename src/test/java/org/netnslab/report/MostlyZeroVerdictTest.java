package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A ratio of means that rest on a handful of non-zero values among zeros says so, one of ordinary values does not; a
 * seed ratio no comparison carries says it is not judged.
 */
public class MostlyZeroVerdictTest extends JUnitSuite {
    /** A design whose proc.event has {@code zeros} values of 0 and then {@code values}. */
    private static DesignResult design(String name, int zeros, long... values) {
        LatencyRecorder event = new LatencyRecorder();
        for (int i = 0; i < zeros; i++) {
            event.record(0);
        }
        for (long v : values) {
            event.record(v);
        }
        Map<String, LatencyRecorder> m = new LinkedHashMap<>();
        m.put("proc.event", event);
        return new DesignResult(
                name,
                Map.of("proc-connector.filter", name),
                m,
                1000,
                "events delivered",
                1,
                new Invariants(0, 0, 0, 0, 0, 0, 0, 0, 0),
                Map.of(),
                List.of());
    }

    private static String sentence(DesignResult a, DesignResult b) {
        return TinyRun.verdict(List.of(a, b), List.of(Comparison.of("proc.event", a, b)))
                .lines()
                .get(0)
                .text();
    }

    @Test
    public void aMeanOfMostlyZerosIsNamed() {
        String s = sentence(design("none", 400, 16_000, 16_000), design("per-listener", 200, 8_000));
        assertEquals(
                "per-listener cuts the mean proc.event 50% against none (0.0398 vs 0.0796 us, lower is better) (99%"
                        + " or more of none and per-listener's proc.event values are 0: the mean rests on a handful"
                        + " that are not; a larger --scale records more of them); ratio 0.500, one run.",
                s);
    }

    /** Mostly zeros with 1% or more of values above: proc-filter's own events, at any scale. */
    @Test
    public void ordinaryValuesGetNoNote() {
        String s = sentence(design("none", 90, 3_000, 4_000), design("per-listener", 0, 1_000, 2_000));
        assertFalse(s, s.contains("values are 0"));
    }

    /** A seed ratio for a design with no measure compared with the baseline's is said not judged, with its measures. */
    @Test
    public void aSeedRatioNoComparisonCarriesIsSaidNotJudged() {
        DesignResult none = design("none", 0, 3_000);
        DesignResult pidfd = design("pidfd", 0, 1_000);
        Verdict v = TinyRun.verdict(List.of(none, pidfd), List.of(), Map.of("pidfd", 1.5));
        assertEquals(
                "The seed's ratio for pidfd (1.50) is not judged: pidfd has no figure of a measure compared with the"
                        + " baseline's (it records proc.event); derived-ratios compare designs across measures.",
                v.lines().get(0).text());
        assertEquals(null, v.lines().get(0).agrees());
        // two such seeds: in the designs' order, whatever the map's
        DesignResult scan = design("proc-scan-8k", 0, 2_000);
        Verdict two = TinyRun.verdict(List.of(none, scan, pidfd), List.of(), Map.of("pidfd", 1.5, "proc-scan-8k", 2.0));
        assertEquals(
                List.of("proc-scan-8k", "pidfd"),
                two.lines().stream().map(l -> l.text().split(" ")[4]).toList());
    }
}
