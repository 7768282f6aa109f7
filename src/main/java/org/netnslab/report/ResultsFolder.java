package org.netnslab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.RunResult;

/**
 * A run's output folder as the saved form of its {@link RunRecord}: {@code result.json} (schema 2;
 * schema 1 files of earlier versions are read too), {@code result-extra.json} (what result.json has
 * no key for) and one {@code <design>.<measure>.hgrm} per design and measure, its distribution
 * merged over all the run's replicates; {@code report.html} is rendered from the record beside them. A run
 * {@link #write}s the folder (through a {@link StagedOutput}, which adds the {@link OutputManifest}
 * and puts the folder in place); {@code netns-lab report} {@link #read}s it back and renders again,
 * manifest or not (folders of versions that wrote none read as before).
 *
 * <p>Reading fails outright (a {@link ReportInputException}) only when the folder or result.json is
 * missing or result.json does not parse: without it there is nothing to report. Any other file that
 * is missing or does not parse leaves its part out and adds a note naming the file and the problem
 * to the record's {@link RunRecord#notes()}, which both reports print: without result-extra.json the
 * report has no seed, seed ratios, throughput units or throughput chart; without a {@code .hgrm} that
 * design has no line in that measure's percentile chart.
 */
public final class ResultsFolder {
    /** The results, schema 2. */
    public static final String RESULT_JSON = "result.json";
    /** result.json's companion, see {@link ResultExtraJson}. */
    public static final String RESULT_EXTRA_JSON = "result-extra.json";
    /** The HTML report. */
    public static final String REPORT_HTML = "report.html";

    private ResultsFolder() {}

    /**
     * Saves a finished run's results; the caller renders the reports from the record returned.
     *
     * @param result the run
     * @param dir the output folder, which exists
     * @return the run's record, as {@link #read} will read it back
     * @throws IOException when a file cannot be written
     */
    public static RunRecord write(RunResult result, Path dir) throws IOException {
        RunRecord record = RunRecord.of(result, RunRecord.Machine.current());
        ResultJson.write(record, dir.resolve(RESULT_JSON));
        ResultExtraJson.write(record, dir.resolve(RESULT_EXTRA_JSON));
        HgrmFiles.write(result, dir);
        return record;
    }

    /**
     * Reads a run's results back from its output folder.
     *
     * @param dir the output folder of an earlier run
     * @return the record; its notes name every other file that could not be read, and why
     * @throws ReportInputException naming the file and what is wrong when the folder or result.json is
     *     missing, or result.json does not parse or is of another schema
     */
    public static RunRecord read(Path dir) throws ReportInputException {
        if (!Files.isDirectory(dir)) {
            throw new ReportInputException(dir, Files.exists(dir) ? "not a folder" : "no such folder");
        }
        RunRecord r = ResultJson.read(dir.resolve(RESULT_JSON));
        List<String> notes = new ArrayList<>();
        ResultExtraJson.Extra extra = null;
        try {
            extra = ResultExtraJson.read(dir.resolve(RESULT_EXTRA_JSON));
        } catch (ReportInputException e) {
            notes.add(e.getMessage() + "; the report has no seed, seed ratios, throughput units or throughput chart");
        }
        List<DesignRecord> designs = new ArrayList<>();
        for (DesignRecord d : r.designs()) {
            ResultExtraJson.DesignExtra de =
                    extra == null ? null : extra.designs().get(d.name());
            if (de == null && extra != null) {
                notes.add(dir.resolve(RESULT_EXTRA_JSON) + ": no entry for design " + d.name() + ", which "
                        + RESULT_JSON + " lists; the report has no throughput unit or series for it");
            }
            if (de == null) {
                de = new ResultExtraJson.DesignExtra(null, List.of());
            }
            Map<String, PercentileDistribution> percentiles = new LinkedHashMap<>();
            for (String m : d.measures().keySet()) {
                try {
                    percentiles.put(m, HgrmFiles.read(dir.resolve(HgrmFiles.fileName(d.name(), m))));
                } catch (ReportInputException e) {
                    notes.add(e.getMessage() + "; the " + m + " percentile chart has no line for " + d.name());
                }
            }
            designs.add(new DesignRecord(
                    d.name(),
                    d.strategies(),
                    d.measures(),
                    d.throughputPerSec(),
                    de.throughputUnit(),
                    d.wallSeconds(),
                    d.invariants(),
                    d.counters(),
                    de.throughputSeries(),
                    percentiles));
        }
        return new RunRecord(
                r.scenario(),
                r.description(),
                extra == null ? null : extra.seed(),
                r.scale(),
                r.machine(),
                r.started(),
                r.wallSeconds(),
                r.overrides(),
                designs,
                r.ratios(),
                r.comparisons(),
                extra == null ? Map.of() : extra.seedRatios(),
                notes,
                r.replicates(),
                r.execution());
    }
}
