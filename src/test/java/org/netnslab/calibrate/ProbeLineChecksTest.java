package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Checks of a recording's probe lines that a copy or an edit trips, on one of our recordings. A proc listener line's
 * median fork-to-exec gap may exceed the mean time a process takes (a skewed spread on a busy
 * machine, or gaps seen for only some processes): only one longer than twice it cannot be, since the processes run
 * one after another and half the gaps are at least the median.
 */
public class ProbeLineChecksTest extends JUnitSuite {
    private static final Path RECORDED = Path.of("docs/measurements/calibration-6.18-2cpu-2026-12-06-check256.json");

    private static ObjectNode listenerLine(ProbeSet set) {
        return set.fit().stream()
                .filter(l -> l.path("probe").asText().equals("proc") && l.has("fork_to_exec_p50_ns"))
                .findFirst()
                .orElseThrow();
    }

    /** A line copied whole would count as one more host run; a tc1 line whose listeners received nothing is no run. */
    @Test
    public void aRepeatedLineAndATc1LineWithNothingReceivedAreRefused() throws Exception {
        ProbeSet set = CalibrationJson.readSets(RECORDED);
        assertNull(ProbeLines.problem(set));
        java.util.List<ObjectNode> prediction = new java.util.ArrayList<>(set.prediction());
        ObjectNode copy = prediction.get(0).deepCopy();
        copy.put("sends", copy.path("sends").asDouble()); // 50000 respelt 50000.0: the same figure
        prediction.add(copy);
        String p = ProbeLines.problem(new ProbeSet(set.fit(), prediction, set.unseen()));
        assertEquals(
                "prediction_set[" + (prediction.size() - 1) + "] ("
                        + prediction.get(0).path("probe").asText() + " "
                        + prediction.get(0).path("load").asText()
                        + "): repeats prediction_set[0] to the last figure: each probe line is one run",
                p);
        ObjectNode tc1 = set.prediction().stream()
                .filter(l -> l.path("load").asText().equals("tc1"))
                .findFirst()
                .orElseThrow();
        long received = tc1.path("received").asLong();
        tc1.remove("received");
        p = ProbeLines.problem(set);
        assertTrue(
                p,
                p != null
                        && p.endsWith(
                                "(uevent tc1): received is missing: its listener CPU is per message" + " received"));
        tc1.put("received", received);
        assertNull(ProbeLines.problem(set));
        tc1.put("received", 0);
        p = ProbeLines.problem(set);
        assertTrue(
                p,
                p != null
                        && p.endsWith("(uevent tc1): received (0) must be at least 1: every tc1 listener"
                                + " receives its netns's sends"));
        tc1.put("received", received);
        // one more injector and the same sends: a line edited by hand would read as a ladder step of another size
        long injectors = tc1.path("injectors").asLong();
        tc1.put("injectors", injectors + 1);
        p = ProbeLines.problem(set);
        assertTrue(
                p,
                p != null
                        && p.endsWith("(uevent tc1): sends must be injectors x sends_per_injector ("
                                + (injectors + 1)
                                        * tc1.path("sends_per_injector").asLong() + "), got "
                                + tc1.path("sends")));
        tc1.put("injectors", injectors);
        assertNull(ProbeLines.problem(set));
    }

    @Test
    public void aMedianAboveTheMeanIsTakenAndOneOverTwiceItIsNot() throws Exception {
        ProbeSet set = CalibrationJson.readSets(RECORDED);
        ObjectNode l = listenerLine(set);
        double gaps = l.path("fork_to_exec_count").asDouble(l.path("processes").asDouble());
        double perProcess =
                l.path("spawn_wall_ns").asDouble() / l.path("processes").asDouble();
        l.put("fork_to_exec_p50_ns", Math.round(1.2 * perProcess)); // above the mean, a skewed spread
        assertNull(ProbeLines.problem(set));
        long bound = Math.round(l.path("spawn_wall_ns").asDouble() / Math.ceil(gaps / 2));
        l.put("fork_to_exec_p50_ns", bound + 1000);
        String p = ProbeLines.problem(set);
        assertTrue(p, p != null && p.contains("fork_to_exec_p50_ns (" + (bound + 1000) + ")"));
        assertEquals(
                "the bound is the wall over half the gaps",
                true,
                p.contains("(spawn_wall_ns / " + (long) Math.ceil(gaps / 2) + " = " + bound + ")"));
    }

    /** A TC1 line's injectors ended by quarter add up to its injectors, when the line has them at all. */
    @Test
    public void aTc1LinesEndsByQuarterAddUpToItsInjectors() throws Exception {
        ProbeSet set = CalibrationJson.readSets(RECORDED);
        ObjectNode tc1 = set.prediction().stream()
                .filter(l -> l.path("load").asText().equals("tc1"))
                .findFirst()
                .orElseThrow();
        long n = tc1.path("injectors").asLong();
        tc1.put("injector_preemptions", 3 * n);
        tc1.put("injector_ends_q1", 0).put("injector_ends_q2", 1).put("injector_ends_q3", 2);
        tc1.put("injector_ends_q4", n - 3);
        assertNull(ProbeLines.problem(set));
        tc1.put("injector_ends_q4", n);
        String p = ProbeLines.problem(set);
        assertTrue(
                p,
                p != null
                        && p.endsWith("(uevent tc1): injector_ends_q1..q4 must add up to its injectors (" + n
                                + "), got " + (n + 3)));
        tc1.remove("injector_ends_q3");
        p = ProbeLines.problem(set);
        assertTrue(p, p != null && p.endsWith("injector_ends_q3 is missing beside injector_ends_q1"));
        tc1.put("injector_ends_q3", -1);
        p = ProbeLines.problem(set);
        assertTrue(p, p != null && p.contains("injector_ends_q3"));
    }
}
