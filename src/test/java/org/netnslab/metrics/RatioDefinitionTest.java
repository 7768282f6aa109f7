package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class RatioDefinitionTest extends JUnitSuite {
    private static DesignResult design(String name, String measure, long... nanos) {
        LatencyRecorder r = new LatencyRecorder();
        for (long n : nanos) {
            r.record(n);
        }
        return new DesignResult(
                name,
                Map.of(),
                Map.of(measure, r),
                1,
                "events",
                1.0,
                new Invariants(0, 0, 0, 0, 0, 0, 0, 0, 0),
                Map.of(),
                List.of());
    }

    private static RatioDefinition.MeasureOf of(String design, String measure) {
        return new RatioDefinition.MeasureOf(design, measure);
    }

    @Test
    public void aRatioIsTheNumeratorsMeanOverTheDenominatorsAndSkipsWhatTheRunLacks() {
        List<DesignResult> run = List.of(design("a", "x", 1000, 3000), design("b", "y", 8000));
        RatioDefinition ab = new RatioDefinition("x(a) / y(b)", of("a", "x"), of("b", "y"), 0.2);
        RatioDefinition missingMeasure = new RatioDefinition("z", of("a", "z"), of("b", "y"), 1);
        RatioDefinition missingDesign = new RatioDefinition("c", of("a", "x"), of("c", "y"), 1);
        assertEquals(
                List.of(new RunResult.DerivedRatio("x(a) / y(b)", 0.25, 0.2)),
                RatioDefinition.evaluateAll(List.of(missingMeasure, ab, missingDesign), run));
    }
}
