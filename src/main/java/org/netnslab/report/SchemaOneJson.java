package org.netnslab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.RunResult;

/**
 * What result.json's schema 1 holds differently from schema 2, read as a run of one replicate: a derived
 * ratio without replicates or interval, and a comparison without replicate means whose Welch test, which took
 * every sample of the run as independent, is not read (no report shows its p-value).
 */
final class SchemaOneJson {
    private SchemaOneJson() {}

    static RunResult.DerivedRatio ratio(JsonFields f, JsonNode r, String p) throws ReportInputException {
        return new RunResult.DerivedRatio(f.text(r, p, "name"), f.number(r, p, "model"), f.number(r, p, "seed"));
    }

    /**
     * The one replicate of a run saved in schema 1, which had no replicates: its merged figures are the
     * replicate's.
     *
     * @param designs the run's design records
     * @return replicate 1, designs in the order given
     */
    static ReplicateRecord replicate(List<DesignRecord> designs) {
        return new ReplicateRecord(
                1,
                designs.stream().map(DesignRecord::name).toList(),
                designs.stream()
                        .map(d -> {
                            Map<String, Double> means = new LinkedHashMap<>();
                            d.measures().forEach((k, v) -> means.put(k, v.mean()));
                            return new ReplicateRecord.Design(
                                    d.name(), means, d.throughputPerSec(), d.wallSeconds(), d.invariants());
                        })
                        .toList());
    }

    static Comparison comparison(JsonFields f, JsonNode c, String p) throws ReportInputException {
        double meanA = f.number(c, p, "mean_a");
        double meanB = f.number(c, p, "mean_b");
        f.field(c, p, "welch");
        return new Comparison(
                f.text(c, p, "measure"),
                f.text(c, p, "a"),
                f.text(c, p, "b"),
                meanA,
                meanB,
                f.number(c, p, "ratio_b_over_a"),
                List.of(meanA),
                List.of(meanB),
                null,
                null,
                null);
    }
}
