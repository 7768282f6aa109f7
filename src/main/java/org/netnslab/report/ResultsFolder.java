package org.netnslab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.SensitivityResult;

/**
 * A run's output folder as the saved form of its {@link RunRecord}: result.json, result-extra.json, one
 * {@code .hgrm} per design and measure, summary.csv ({@link SummaryCsv}), and report.html rendered from the record (docs/reading-results.md says
 * what each holds). A run {@link #write}s it, through a {@link StagedOutput}; {@code netns-lab report}
 * {@link #read}s it back. Reading fails only without a readable result.json; any other file that is missing or
 * does not parse leaves its part out, with a note naming it in the record's {@link RunRecord#notes()}.
 */
public final class ResultsFolder {
    /** The results, schema 2 ({@link ResultJson}). */
    public static final String RESULT_JSON = "result.json";
    /** result.json's companion, see {@link ResultExtraJson}. */
    public static final String RESULT_EXTRA_JSON = "result-extra.json";
    /** The HTML report. */
    public static final String REPORT_HTML = "report.html";

    private ResultsFolder() {}

    /**
     * Writes a finished run's output folder: the saved results and report.html, all from one record.
     *
     * @param result the run
     * @param sensitivity its sensitivity study, or null when it had none
     * @param dir the output folder, which exists
     * @return the run's record, which the console report renders
     * @throws IOException when a file cannot be written
     */
    public static RunRecord write(RunResult result, SensitivityResult sensitivity, Path dir) throws IOException {
        RunRecord record = save(result, sensitivity, dir);
        HtmlReport.write(record, dir.resolve(REPORT_HTML));
        return record;
    }

    /**
     * Saves the results {@link #read} reads back: every file but report.html.
     *
     * @param result the run
     * @param sensitivity its sensitivity study, or null
     * @param dir the output folder, which exists
     * @return the run's record, as {@link #read} will read it back
     * @throws IOException when a file cannot be written
     */
    static RunRecord save(RunResult result, SensitivityResult sensitivity, Path dir) throws IOException {
        RunRecord record = RunRecord.of(result, sensitivity, RunRecord.Machine.current());
        ResultJson.write(record, dir.resolve(RESULT_JSON));
        ResultExtraJson.write(record, dir.resolve(RESULT_EXTRA_JSON));
        HgrmFiles.write(result, dir);
        SummaryCsv.write(record, dir.resolve(SummaryCsv.FILE));
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
        RunRecord r = ResultJsonReader.read(dir.resolve(RESULT_JSON));
        ComparisonsCheck.complete(dir.resolve(RESULT_JSON), r);
        List<String> notes = new ArrayList<>();
        ResultExtraJson.Extra extra = null;
        try {
            extra = ResultExtraJson.read(dir.resolve(RESULT_EXTRA_JSON));
        } catch (ReportInputException e) {
            notes.add(e.getMessage() + "; the report has no seed, seed ratios, throughput units or throughput chart");
        }
        if (extra != null) {
            ComparisonsCheck.seeded(dir.resolve(RESULT_JSON), r, extra.seedRatios());
            seedsAgree(dir, r, extra.seedRatios());
            derivedAgree(dir, r, extra.derivedSeeds());
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
                    percentiles.put(
                            m,
                            HgrmFiles.read(
                                    dir.resolve(HgrmFiles.fileName(d.name(), m)),
                                    d.measures().get(m)));
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
                extra == null ? r.seedRatios() : extra.seedRatios(), // result.json's judged ones without the extra
                notes,
                r.replicates(),
                r.execution(),
                r.sensitivity(),
                r.shape(),
                extra == null ? null : extra.minScale());
    }

    /**
     * @param dir a run's folder, read by {@link #read}
     * @param r its record
     * @return how the folder's summary.csv differs from result.json's figures ({@code "line 2: ..."}), {@link
     *     #SUMMARY_MISSING} when there is none, or null when it holds them
     * @throws IOException when it cannot be read
     */
    public static String summaryDiffers(Path dir, RunRecord r) throws IOException {
        Path csv = dir.resolve(SummaryCsv.FILE);
        if (!Files.exists(csv, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return SUMMARY_MISSING;
        }
        if (!Files.isRegularFile(csv, java.nio.file.LinkOption.NOFOLLOW_LINKS)) { // read nothing a run never writes
            return "not a file a run writes (a link, a pipe, a folder or a device)";
        }
        return SummaryCsv.differs(Files.readString(csv), r.designs());
    }

    /** {@link #summaryDiffers}'s answer for a folder without summary.csv (an older run's). */
    public static final String SUMMARY_MISSING = "missing";

    /**
     * Writes the folder's summary.csv again from the record, as the run wrote it.
     *
     * @param dir the run's folder
     * @param r its record
     * @throws IOException when it cannot be written
     */
    public static void writeSummary(Path dir, RunRecord r) throws IOException {
        Path csv = dir.resolve(SummaryCsv.FILE);
        if (Files.isSymbolicLink(csv) || Files.exists(csv) && !Files.isRegularFile(csv)) {
            Files.delete(csv); // the link or pipe itself, not what it names: a folder is refused by delete
        }
        SummaryCsv.write(r, csv);
    }

    /**
     * result.json's derived ratios are those the run saved, each with its seed figure: one deleted (or the list
     * emptied) would take its verdict, and a DISAGREES, with it; one added or whose seed was edited would be judged
     * against a figure the scenario did not give.
     *
     * @param saved result-extra.json's seed of each, by name; null for a file written before they were saved
     * @throws ReportInputException naming the first ratio that is not as saved
     */
    private static void derivedAgree(Path dir, RunRecord r, Map<String, Double> saved) throws ReportInputException {
        Map<String, Double> have = new LinkedHashMap<>();
        for (RunResult.DerivedRatio d : r.ratios()) {
            if (have.put(d.name(), d.seed()) != null) {
                throw new ReportInputException(
                        dir.resolve(RESULT_JSON),
                        "ratios: '" + d.name() + "' is given twice" + ResultJsonReader.EDITED);
            }
        }
        if (saved == null) {
            return;
        }
        for (Map.Entry<String, Double> e : saved.entrySet()) {
            Double seed = have.get(e.getKey());
            if (seed == null || Double.compare(seed, e.getValue()) != 0) {
                throw new ReportInputException(
                        dir.resolve(RESULT_JSON),
                        "ratios: "
                                + (seed == null
                                        ? "none named '" + e.getKey() + "'"
                                        : "'" + e.getKey() + "' has seed " + seed)
                                + ", where " + RESULT_EXTRA_JSON + " holds it with seed " + e.getValue()
                                + ResultJsonReader.EDITED);
            }
        }
        for (String name : have.keySet()) {
            if (!saved.containsKey(name)) {
                throw new ReportInputException(
                        dir.resolve(RESULT_JSON),
                        "ratios: '" + name + "', which " + RESULT_EXTRA_JSON + " does not hold (the run saved "
                                + saved.keySet() + ")" + ResultJsonReader.EDITED);
            }
        }
    }

    /**
     * Each comparison's seed in result.json is the seed ratio it was judged against, result-extra.json's: one edited
     * alone would print beside a verdict it did not give.
     *
     * @throws ReportInputException naming the first that differs
     */
    private static void seedsAgree(Path dir, RunRecord r, Map<String, Double> extra) throws ReportInputException {
        for (int i = 0; i < r.comparisons().size(); i++) {
            String b = r.comparisons().get(i).b();
            Double saved = r.seedRatios().get(b);
            Double judged = RunRecord.seedRatio(extra, b, r.isSweep());
            if (saved != null && !saved.equals(judged)) {
                throw new ReportInputException(
                        dir.resolve(RESULT_JSON),
                        "comparisons[" + i + "].seed: " + saved + " is not the seed ratio of " + b + " in "
                                + RESULT_EXTRA_JSON + " (" + judged + ")" + ResultJsonReader.EDITED);
            }
        }
    }
}
